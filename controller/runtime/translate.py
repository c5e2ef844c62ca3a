"""What a device event means at this table: a pure function from one event and a read-only view to intents.

``translate(source, raw, view)`` takes one driver event (drivers/events.py,
``DEVICE_EVENTS``) or a game event (controller/events.py) from the input
``source`` and a ``TableView`` (what the table's configuration says of its
devices, ``Wiring``, and the few facts of its state the meaning depends on)
and returns a ``Translation``: the intents, in order, and what the translator
remembers for the next event (``Memory``: the supervisor key, unsure reads in a
row, the parts of a device still down). It reads no clock, does no I/O and
calls nothing back; ``Table.submit`` applies the intents in one write-ahead
transaction (controller/runtime/table.py).

The intents:

- ``Submit(event)``: a game event for the round;
- ``Hold(values, colors, reason, kind)``: a reader was unsure, hold its guess for the croupier;
- ``Latch(kind, text)``: latch the fault ``<kind>.<source>``;
- ``Clear(name, reason, by)``: clear a self-clearing fault (journaled as the ``clear_fault`` command);
- ``Run(command)``: a command (a button's ``clear_fault``, ``confirm_jackpot``, ``confirm_result``, ``new_shoe``);
- ``ShoeNote(note)``: a ``shoe`` record (``cut_card``, ``shoe_empty``, ``shuffle_done``, ``deck_check_ok``);
- ``Noted(text)``: nothing to do; the text says why.

Faults (controller/runtime/faults.py): a link or bus that is down is
``link_down.<device>`` and clears itself when the driver says it is back; the
puck circles' ``sensor_fault.puck`` clears itself when exactly one circle senses
the puck again; a jam, tamper, an unreadable card, a wheel fault latch
(``device_fault.<device>``, ``reader_failing.<device>``) until a supervisor
clears them; a camera unsure of ``fail_limit`` throws (or spins) in a row
latches ``reader_failing.camera``; a bad deck check latches
``deck_check.shuffler``, which refuses the next shoe.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping

from controller import games
from controller.cards import CardError, parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Dice, Event, Puck, TYPE_NAMES, Void, Wheel
from controller.games.contract import GameSpec
from controller.games.decisions import Legal
from controller.runtime.decision_keys import pressed
from controller.runtime.interfaces import Command
from drivers import events as ev

DEFERRED_ACTIONS = ("confirm", "void", "clear_fault", "jackpot_confirm", "new_shoe")
"""Actions taken on a long press (a slip of the finger must not void a round); every other action on the press."""

KEY_BUTTONS = ("supervisor", "supervisor_key")
"""A button of this name, or mapped to the action ``supervisor_key``, is the supervisor's key switch: held = turned."""

NOTED: tuple[type, ...] = (ev.ShoeState, ev.DoorOpen, ev.DoorClosed, ev.DeviceIdentity, ev.ShuffleStarted,
                           ev.WheelState, ev.SlotChanged, ev.SlotsUnlocked)
"""Device events that are only noted: they change nothing at the table (the console shows the device's state)."""


# ---------------------------------------------------------------------- intents


@dataclass(frozen=True, slots=True)
class Submit:
    """Submit this game event to the round."""

    event: Event


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold a reader's unsure result for the croupier's confirmation (``kind`` ``dice`` or ``wheel``)."""

    values: tuple[int | None, ...]
    colors: tuple[str, ...]
    reason: str
    kind: str = "dice"


@dataclass(frozen=True, slots=True)
class Latch:
    """Latch the fault ``<kind>.<source>``."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Clear:
    """Clear the latched fault ``name`` (a device that is back), as the ``clear_fault`` command by ``by``."""

    name: str
    reason: str
    by: str


@dataclass(frozen=True, slots=True)
class Run:
    """Run this command."""

    command: Command


@dataclass(frozen=True, slots=True)
class ShoeNote:
    """Journal a ``shoe`` record with this note."""

    note: str


@dataclass(frozen=True, slots=True)
class Noted:
    """Nothing to do; ``text`` says why (for the log and the tests)."""

    text: str


Intent = Submit | Hold | Latch | Clear | Run | ShoeNote | Noted


# ---------------------------------------------------------------------- what the translator reads


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Wiring:
    """What the table's configuration says about its devices: which action each button means in this game,
    the spot the progressive slots bet on, and how many unsure reads in a row latch a reader's fault."""

    game: str = ""
    actions: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    progressive_spot: str | None = None
    fail_limit: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "actions", _frozen(self.actions))

    def action(self, button: str) -> str | None:
        return self.actions.get(button)

    def is_key(self, button: str) -> bool:
        return button in KEY_BUTTONS or self.actions.get(button) == "supervisor_key"


@dataclass(frozen=True)
class Memory:
    """What the translator remembers between events (in memory only; a restart forgets it): whether the
    supervisor key is turned, the unsure reads in a row per reader, and the parts of a self-clearing fault
    still down (``link_down.gpio`` -> the expanders not back yet)."""

    key_held: bool = False
    unsure: Mapping[str, int] = field(default_factory=lambda: _frozen({}))
    down: Mapping[str, frozenset[str]] = field(default_factory=lambda: _frozen({}))

    def counted(self, source: str, count: int) -> "Memory":
        return replace(self, unsure=_frozen({**self.unsure, source: count}))

    def part_down(self, name: str, part: str) -> "Memory":
        return replace(self, down=_frozen({**self.down, name: self.down.get(name, frozenset()) | {part}}))


@dataclass(frozen=True)
class TableView:
    """The read-only facts of the table a device event's meaning depends on."""

    wiring: Wiring = field(default_factory=Wiring)
    memory: Memory = field(default_factory=Memory)
    betting_open: bool = True
    faults: frozenset[str] = frozenset()
    result_pending: bool = False  # a reader's unsure result waits for the croupier
    jackpot_pending: bool = False  # a jackpot hit waits for the supervisor
    prompt_seat: int | None = None  # the box the last prompt waits for
    puck: int | None = None  # the box the burn puck is at, in a game that has one
    decisions: Legal | None = None  # the round's legal decisions, given with a button press (decision_keys.py)


@dataclass(frozen=True)
class Translation:
    """The intents of one device event, in the order the table applies them, and the translator's new memory."""

    intents: tuple[Intent, ...]
    memory: Memory


# ---------------------------------------------------------------------- the translation


def translate(source: str, raw: object, view: TableView) -> Translation:
    """What ``raw`` from ``source`` means at the table ``view`` shows; pure."""
    memory = view.memory
    handler = _HANDLERS.get(type(raw))
    if handler is not None:
        return handler(source, raw, view)
    if type(raw) in TYPE_NAMES:
        return _one(memory, Submit(raw))  # type: ignore[arg-type]
    if type(raw) in NOTED:
        return _one(memory, Noted(f"{source}: {type(raw).__name__} noted"))
    return _one(memory, Noted(f"{source}: unknown event {type(raw).__name__}"))


def _one(memory: Memory, *intents: Intent) -> Translation:
    return Translation(tuple(intents), memory)


def _card(source: str, raw: ev.CardDealt, view: TableView) -> Translation:
    if source == "shuffler":
        return _one(view.memory, Noted("shuffler: a card read while shuffling (not dealt)"))
    try:
        return _one(view.memory, Submit(CardOut(parse_card(raw.card))))
    except CardError as exc:
        return _one(view.memory, Latch("reader_failing", f"unreadable card: {exc}"))


def _link_fault(source: str, raw: ev.LinkFault | ev.DeviceFault, view: TableView) -> Translation:
    part = raw.device if isinstance(raw, ev.DeviceFault) else source
    name = f"link_down.{source}"
    return _one(view.memory.part_down(name, part), Latch("link_down", f"{part}: {raw.reason}"))


def _link_back(source: str, raw: ev.LinkRestored | ev.DeviceRecovered, view: TableView) -> Translation:
    part = raw.device if isinstance(raw, ev.DeviceRecovered) else source
    return _recovered(view, f"link_down.{source}", part, source)


def _recovered(view: TableView, name: str, part: str, source: str) -> Translation:
    """A part of a self-clearing fault is back: the fault clears once every part it latched for is."""
    memory = view.memory
    parts = memory.down.get(name)
    if parts is not None:
        parts = parts - {part}
        memory = replace(memory, down=_frozen({**memory.down, name: parts}))
    if name in view.faults and not parts:
        memory = replace(memory, down=_frozen({k: v for k, v in memory.down.items() if k != name}))
        return _one(memory, Clear(name, f"{part} is back", f"{source} (device)"), Noted(f"{part} is back; {name} cleared"))
    return _one(memory, Noted(f"{part} is back"))


def _deck_check(source: str, raw: ev.DeckCheck, view: TableView) -> Translation:
    if raw.ok:
        return _one(view.memory, ShoeNote("deck_check_ok"))
    words = [f"{k} {','.join(v)}" for k, v in (("missing", raw.missing), ("extra", raw.extra),
                                                ("foreign", raw.foreign)) if v]
    return _one(view.memory, Latch("deck_check", "; ".join(words)))


def _dice_read(source: str, raw: ev.DiceRead, view: TableView) -> Translation:
    """The dice camera's read: ok -> Dice, void -> Void, unsure (or nonsense) -> held."""
    values, colors = tuple(raw.values), tuple(str(c) for c in raw.colors)
    reason = str(raw.reason) or "no reason given"
    if raw.status == "ok" and values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        dice = Dice(values, colors if len(colors) == len(values) else None)  # type: ignore[arg-type]
        return _one(view.memory.counted(source, 0), Submit(dice))
    if raw.status == "void":
        return _one(view.memory.counted(source, 0), Submit(Void(f"the {source} voided the throw: {reason}", source)))
    return _held(source, view, raw.status, reason, values, colors, "dice")


def _spin_read(source: str, raw: ev.SpinRead, view: TableView) -> Translation:
    """The roulette camera's read: ok -> Wheel, void -> Void, unsure (or nonsense) -> held."""
    number, reason = raw.number, str(raw.reason) or "no reason given"
    if raw.status == "ok" and isinstance(number, int) and not isinstance(number, bool):
        return _one(view.memory.counted(source, 0), Submit(Wheel(number)))
    if raw.status == "void":
        return _one(view.memory.counted(source, 0), Submit(Void(f"the {source} voided the spin: {reason}", source)))
    return _held(source, view, raw.status, reason, (number if isinstance(number, int) else None,), (), "wheel")


def _held(source: str, view: TableView, status: str, reason: str, values: tuple[Any, ...], colors: tuple[str, ...],
          kind: str) -> Translation:
    """An unsure read (or one that makes no sense): held for the croupier; ``fail_limit`` in a row latch."""
    count = view.memory.unsure.get(source, 0) + 1
    memory = view.memory.counted(source, count)
    hold = Hold(values, colors, reason if status == "unsure" else f"{status or 'no status'}: {reason}", kind)
    if count >= view.wiring.fail_limit:
        what, confirm = ("throws", "the dice") if kind == "dice" else ("spins", "the number")
        return _one(memory, hold, Latch("reader_failing", f"the {source} was unsure of {count} {what} in a row "
                                                          f"(last: {reason}); confirm {confirm} by hand"))
    return _one(memory, hold, Noted(f"{source}: unsure, held for the croupier"))


def _wheel_no_more_bets(source: str, raw: ev.WheelNoMoreBets, view: TableView) -> Translation:
    if not view.betting_open:
        return _one(view.memory, Noted("wheel: no more bets (bets already closed)"))
    return _one(view.memory, Submit(CloseBets()))


def _puck_sensed(source: str, raw: ev.PuckSensed, view: TableView) -> Translation:
    back = _recovered(view, f"sensor_fault.{source}", source, source)
    clears = tuple(i for i in back.intents if isinstance(i, Clear))
    return Translation(clears + (Submit(Puck(int(raw.seat))),), back.memory)


def _puck_fault(source: str, raw: ev.PuckFault, view: TableView) -> Translation:
    memory = view.memory.part_down(f"sensor_fault.{source}", source)
    return _one(memory, Latch("sensor_fault", str(raw.reason)))


def _presence(source: str, raw: ev.PresenceChanged, view: TableView) -> Translation:
    if raw.present:
        return _one(view.memory, Submit(Bet(int(raw.seat), str(raw.spot))))
    return _one(view.memory, Noted(f"box {raw.seat} {raw.spot}: the chip was taken away "
                                   f"(the bet stays; void it if it was withdrawn before no more bets)"))


def _slots_locked(source: str, raw: ev.SlotLocked, view: TableView) -> Translation:
    """The locked progressive slots: one progressive bet per box that holds a chip."""
    spot = view.wiring.progressive_spot
    if spot is None:
        return _one(view.memory, Noted(f"{source}: the slots locked, but {view.wiring.game or 'this game'} has "
                                       f"no progressive spot"))
    return _one(view.memory, *(Submit(Bet(int(seat), spot)) for seat in raw.seats))


def _released(source: str, raw: ev.ButtonReleased, view: TableView) -> Translation:
    """A button came up: the key switch turns back."""
    memory = replace(view.memory, key_held=False) if view.wiring.is_key(raw.name) else view.memory
    return _one(memory, Noted(f"{source}: ButtonReleased noted"))


def _pressed(source: str, raw: ev.ButtonPressed | ev.ButtonLongPress, view: TableView) -> Translation:
    long = isinstance(raw, ev.ButtonLongPress)
    name, memory, wiring = raw.name, view.memory, view.wiring
    action = wiring.action(name)
    if wiring.is_key(name):
        return _one(memory if long else replace(memory, key_held=True), Noted("supervisor key turned"))
    if action is None:
        return _one(memory, Noted(f"button {name!r} has no action in {wiring.game}"))
    if (action in DEFERRED_ACTIONS) != long:
        return _one(memory, Noted("" if long else f"hold {name} to {action}"))
    by = f"{source} button {name}" + (" with key" if memory.key_held else "")
    if action == "close_bets":
        return _one(memory, Submit(CloseBets()))
    if action == "void":
        return _one(memory, Submit(Void("the croupier's void button", by)))
    if action == "confirm" and view.result_pending and not (memory.key_held and view.jackpot_pending):
        # the camera's guess, as shown at the terminal; the table refuses it when a face was not read
        return _one(memory, Run(Command("confirm_result", {}, by)))
    if action in ("jackpot_confirm", "confirm") and view.jackpot_pending:
        if not memory.key_held:
            return _one(memory, Noted("a jackpot confirmation needs the supervisor key"))
        return _one(memory, Run(Command("confirm_jackpot", {}, by)))
    if action == "clear_fault":
        if not memory.key_held:
            return _one(memory, Noted("clearing a fault needs the supervisor key"))
        return _one(memory, Run(Command("clear_fault", {}, by)))
    if action == "new_shoe":
        return _one(memory, Run(Command("new_shoe", {}, by)))
    if action == "confirm":
        return _one(memory, Noted("nothing waits for a confirmation"))
    if view.decisions is not None:
        meaning = pressed(view.decisions, action)  # only what the round accepts now, at the box in turn
        return _one(memory, Submit(meaning) if isinstance(meaning, Action) else Noted(meaning))
    seat = view.prompt_seat
    if seat is None and action == "burn":
        seat = view.puck
    if seat is None:
        return _one(memory, Noted(f"{action}: no box is waiting for a decision"))
    return _one(memory, Submit(Action(int(seat), action)))


def _fixed(make: Callable[[str, Any], Intent]) -> Callable[[str, Any, TableView], Translation]:
    """A handler whose meaning depends only on the event and its source."""
    return lambda source, raw, view: _one(view.memory, make(source, raw))


_HANDLERS: dict[type, Callable[[str, Any, TableView], Translation]] = {
    # the shoe and the shuffler (drivers/shoe), and every serial link
    ev.CardDealt: _card,
    ev.CutCard: _fixed(lambda s, r: ShoeNote("cut_card")),
    ev.ShoeEmpty: _fixed(lambda s, r: ShoeNote("shoe_empty")),
    ev.Jam: _fixed(lambda s, r: Latch("device_fault", f"{s} jammed: {r.detail}".rstrip(": "))),
    ev.Tamper: _fixed(lambda s, r: Latch("device_fault", f"{s} reports tampering: {r.detail}")),
    ev.Unreadable: _fixed(lambda s, r: Latch("reader_failing", f"a card left the {s} unread: {r.detail}; "
                                                               f"enter it by hand")),
    ev.ShuffleDone: _fixed(lambda s, r: ShoeNote("shuffle_done")),
    ev.DeckCheck: _deck_check,
    ev.LinkFault: _link_fault,
    ev.LinkRestored: _link_back,
    # a frame may be missing: latched for a supervisor to look at the coup, not a self-clearing outage
    ev.SequenceGap: _fixed(lambda s, r: Latch("device_fault", r.reason)),
    ev.UnknownFrame: _fixed(lambda s, r: Noted(f"{s}: a frame of type {r.type} this driver does not know")),
    # the wheel reader (drivers/wheel)
    ev.WheelNumber: _fixed(lambda s, r: Submit(Wheel(int(r.number)))),
    ev.WheelNoMoreBets: _wheel_no_more_bets,
    ev.WheelVoid: _fixed(lambda s, r: Submit(Void(f"the wheel voided spin {r.spin}: {r.reason}", s))),
    ev.WheelFault: _fixed(lambda s, r: Latch("device_fault", f"wheel: {r.reason}")),
    # GPIO (drivers/gpio): buttons, the burn puck, bet sensors, progressive slots, the I/O expanders
    ev.ButtonPressed: _pressed,
    ev.ButtonLongPress: _pressed,
    ev.ButtonReleased: _released,
    ev.PuckSensed: _puck_sensed,
    ev.PuckFault: _puck_fault,
    ev.PresenceChanged: _presence,
    ev.SlotLocked: _slots_locked,
    ev.DeviceFault: _link_fault,
    ev.DeviceRecovered: _link_back,
    # the cameras (drivers/vision via controller/runtime/camera.py and roulette_camera.py)
    ev.DiceRead: _dice_read,
    ev.SpinRead: _spin_read,
}


def button_actions(pin_map: Any, game: str | GameSpec) -> dict[str, str]:
    """Button name -> action in ``game``, from the pin map (drivers/gpio/config.DeviceConfig): the button's
    action for that game where the pin map names one, else its default ``action`` where the game takes it
    (``GameSpec.takes_button_action``)."""
    if pin_map is None:
        return {}
    spec = games.load_game(game) if isinstance(game, str) else game
    out: dict[str, str] = {}
    for button in pin_map.buttons:
        action = button.action_for(spec.id)
        if action is None and button.action is not None and spec.takes_button_action(button.action):
            action = button.action
        if action is not None:
            out[button.name] = action
    return out


def progressive_spot(spec: GameSpec, variant: str) -> str | None:
    """The game's progressive spot the variant offers, if any (``GameSpec.progressive_spots``: the locked
    slots' bets go there)."""
    offered = {s.name for s in spec.spots_for(variant)}
    return next((n for n in spec.progressive_spots if n in offered), None)


def wiring_for(config: Any) -> Wiring:
    """The table configuration's ``Wiring``: the pin map's button actions, the progressive spot, the camera's limit."""
    spec, variant = config.spec, config.round_config.variant
    camera = config.devices.get("camera")
    fail_limit = int(camera.settings.get("fail_limit", 3)) if camera is not None else 3
    return Wiring(spec.id, button_actions(config.pin_map, spec), progressive_spot(spec, variant), fail_limit)
