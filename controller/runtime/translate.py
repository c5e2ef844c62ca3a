"""What the real drivers' events mean at this table: shoe, shuffler, wheel reader, buttons, puck, sensors, slots.

``interfaces.translate`` knows the runtime's own stand-in events; ``Translator``
adds the events of drivers/shoe, drivers/wheel and drivers/gpio (matched by
class name, so the runtime imports no driver) and what needs the table's
context: which action a button means in this game (the pin map's
``actions``), which box a decision button is for (the last prompt's box), and
whether a self-clearing fault is latched. It runs on the loop, called by
``Table.submit``; ``expand`` (called by the daemon before ``submit``) turns one
driver event that stands for several game events (the locked progressive
slots) into them.

Faults (controller/runtime/faults.py): a link or bus that is down is
``link_down.<device>`` and clears itself (a journaled ``clear``) when the
driver says it is back; the puck circles' ``sensor_fault.puck`` clears itself
when exactly one circle senses the puck again; a jam, tamper, an unreadable
card, a wheel fault latch (``device_fault.<device>``, ``reader_failing.<device>``)
until a supervisor clears them; a camera that is unsure of ``fail_limit`` throws (or
spins) in a row latches ``reader_failing.camera``; a bad deck check latches ``deck_check.shuffler``,
which refuses the next shoe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from controller.events import Action, Bet, CloseBets, Dice, Puck, TYPE_NAMES, Void, Wheel
from controller.runtime.decision_keys import KEYS, pressed
from controller.runtime.interfaces import Command, Translated, translate as translate_basic

if TYPE_CHECKING:
    from controller.runtime.table import Table

DEFERRED_ACTIONS = ("confirm", "void", "clear_fault", "jackpot_confirm", "new_shoe")
"""Actions taken on a long press (a slip of the finger must not void a round); every other action on the press."""

KEY_BUTTONS = ("supervisor", "supervisor_key")
"""A button of this name, or mapped to the action ``supervisor_key``, is the supervisor's key switch: held = turned."""

IGNORED = ("ButtonReleased", "ShoeState", "DoorOpen", "DoorClosed", "DeviceIdentity", "ShuffleStarted", "WheelState",
           "SlotChanged", "SlotsUnlocked")


class Translator:
    """Driver events to runtime meaning for one table; ``actions`` maps a button name to its action in this game."""

    def __init__(self, table: "Table", actions: Mapping[str, str] | None = None,
                 progressive_spot: str | None = None, fail_limit: int = 3) -> None:
        self.table = table
        self.fail_limit = fail_limit  # unsure reads in a row from one reader that latch reader_failing.<reader>
        self.unsure: dict[str, int] = {}
        self.actions = dict(actions or {})
        self.progressive_spot = progressive_spot
        self.key_held = False
        self.down: dict[str, set[str]] = {}  # self-clearing fault name -> the parts still down (gpio buses)
        self.ignored = 0

    # -- one raw event -> one meaning

    def __call__(self, source: str, raw: object) -> Translated:
        kind = type(raw).__name__
        if type(raw) in TYPE_NAMES:
            return Translated(event=raw)  # type: ignore[arg-type]
        if kind in IGNORED:
            self.ignored += 1
            return Translated(text=f"{source}: {kind} noted")
        if kind == "CardDealt" and source == "shuffler":
            return Translated(text="shuffler: a card read while shuffling (not dealt)")
        if kind in ("LinkFault", "DeviceFault"):
            part = str(getattr(raw, "device", source))
            self.down.setdefault(f"link_down.{source}", set()).add(part)
            reason = getattr(raw, "reason", getattr(raw, "text", ""))
            return Translated(fault="link_down", text=f"{part}: {reason}")
        if kind in ("LinkRestored", "DeviceRecovered"):
            return self._recovered(f"link_down.{source}", str(getattr(raw, "device", source)), source)
        if kind == "Jam":
            return Translated(fault="device_fault", text=f"{source} jammed: {getattr(raw, 'detail', '')}".rstrip(": "))
        if kind == "Tamper":
            return Translated(fault="device_fault", text=f"{source} reports tampering: {getattr(raw, 'detail', '')}")
        if kind == "Unreadable":
            return Translated(fault="reader_failing", text=f"a card left the {source} unread: "
                                                           f"{getattr(raw, 'detail', '')}; enter it by hand")
        if kind == "ShuffleDone":
            return Translated(note="shuffle_done")
        if kind == "DeckCheck":
            missing, extra, foreign = (tuple(getattr(raw, k, ())) for k in ("missing", "extra", "foreign"))
            if not (missing or extra or foreign):
                return Translated(note="deck_check_ok")
            words = [f"{k} {','.join(v)}" for k, v in (("missing", missing), ("extra", extra), ("foreign", foreign))
                     if v]
            return Translated(fault="deck_check", text="; ".join(words))
        if kind == "DiceRead":
            return self._dice_read(source, raw)
        if kind == "SpinRead":
            return self._spin_read(source, raw)
        if kind == "WheelNumber":
            return Translated(event=Wheel(int(getattr(raw, "number"))))
        if kind == "WheelNoMoreBets":
            if not self.table.betting_open():
                return Translated(text="wheel: no more bets (bets already closed)")
            return Translated(event=CloseBets())
        if kind == "WheelVoid":
            return Translated(event=Void(f"the wheel voided spin {getattr(raw, 'spin', '?')}: "
                                         f"{getattr(raw, 'reason', '')}", source))
        if kind == "WheelFault":
            return Translated(fault="device_fault", text=f"wheel: {getattr(raw, 'reason', '')}")
        if kind == "PuckSensed":
            self._recovered(f"sensor_fault.{source}", source, source)
            return Translated(event=Puck(int(getattr(raw, "seat"))))
        if kind == "PuckFault":
            self.down.setdefault(f"sensor_fault.{source}", set()).add(source)
            return Translated(fault="sensor_fault", text=str(getattr(raw, "reason", "puck not sensed")))
        if kind == "PresenceChanged":
            if getattr(raw, "present", False):
                return Translated(event=Bet(int(getattr(raw, "seat")), str(getattr(raw, "spot"))))
            return Translated(text=f"box {getattr(raw, 'seat')} {getattr(raw, 'spot')}: the chip was taken away "
                                   f"(the bet stays; void it if it was withdrawn before no more bets)")
        if kind in ("ButtonPressed", "ButtonLongPress") and not hasattr(raw, "key"):
            return self._button(source, str(getattr(raw, "name", "")), long=kind == "ButtonLongPress")
        if kind == "ButtonReleased":
            return Translated()
        return translate_basic(source, raw)

    def release(self, name: str) -> None:
        """A button came up (the daemon calls this for ``ButtonReleased``): the key switch turns back."""
        if name in KEY_BUTTONS or self.actions.get(name) == "supervisor_key":
            self.key_held = False

    def expand(self, raw: object) -> list[object]:
        """Driver events that stand for several inputs: the locked slots are one progressive bet per box."""
        kind = type(raw).__name__
        if kind == "ButtonReleased":
            self.release(str(getattr(raw, "name", "")))
        if kind == "SlotLocked" and self.progressive_spot is not None:
            return [Bet(int(seat), self.progressive_spot) for seat in getattr(raw, "seats", ())]
        return [raw]

    # -- helpers

    def _dice_read(self, source: str, raw: object) -> Translated:
        """The camera's read (controller/runtime/camera.DiceRead): ok -> Dice, void -> Void, unsure -> held."""
        status = str(getattr(raw, "status", ""))
        values = tuple(getattr(raw, "values", ()))
        colors = tuple(str(c) for c in getattr(raw, "colors", ()))
        reason = str(getattr(raw, "reason", "")) or "no reason given"
        if status == "ok" and values and all(isinstance(v, int) for v in values):
            self.unsure[source] = 0
            return Translated(event=Dice(values, colors if len(colors) == len(values) else None))
        if status == "void":
            self.unsure[source] = 0
            return Translated(event=Void(f"the {source} voided the throw: {reason}", source))
        return self._held(source, status, reason, values, colors, "dice")

    def _spin_read(self, source: str, raw: object) -> Translated:
        """The roulette camera's read (roulette_camera.SpinRead): ok -> Wheel, void -> Void, unsure -> held."""
        status = str(getattr(raw, "status", ""))
        number = getattr(raw, "number", None)
        reason = str(getattr(raw, "reason", "")) or "no reason given"
        if status == "ok" and isinstance(number, int) and not isinstance(number, bool):
            self.unsure[source] = 0
            return Translated(event=Wheel(number))
        if status == "void":
            self.unsure[source] = 0
            return Translated(event=Void(f"the {source} voided the spin: {reason}", source))
        return self._held(source, status, reason, (number if isinstance(number, int) else None,), (), "wheel")

    def _held(self, source: str, status: str, reason: str, values: tuple[Any, ...], colors: tuple[str, ...],
              kind: str) -> Translated:
        """An unsure read (or one that makes no sense): held for the croupier; ``fail_limit`` in a row latch."""
        count = self.unsure.get(source, 0) + 1
        self.unsure[source] = count
        answer = self.table.hold_result(source, values, colors, reason if status == "unsure" else
                                        f"{status or 'no status'}: {reason}", kind=kind)
        if count >= self.fail_limit:
            what, confirm = ("throws", "the dice") if kind == "dice" else ("spins", "the number")
            return Translated(fault="reader_failing", text=f"the {source} was unsure of {count} {what} in a row "
                                                             f"(last: {reason}); confirm {confirm} by hand")
        return Translated(text=f"{source}: unsure, {answer}")

    def _recovered(self, name: str, part: str, source: str) -> Translated:
        parts = self.down.get(name)
        if parts is not None:
            parts.discard(part)
        if name in self.table.faults and not parts:
            self.down.pop(name, None)
            self.table.command(Command("clear_fault", {"name": name, "reason": f"{part} is back"},
                                       f"{source} (device)"))
            return Translated(text=f"{part} is back; {name} cleared")
        return Translated(text=f"{part} is back")

    def _button(self, source: str, name: str, long: bool) -> Translated:
        action = self.actions.get(name)
        if name in KEY_BUTTONS or action == "supervisor_key":
            if not long:
                self.key_held = True
            return Translated(text="supervisor key turned")
        if action is None:
            return Translated(text=f"button {name!r} has no action in {self.table.config.spec.id}")
        if (action in DEFERRED_ACTIONS) != long:
            return Translated(text="" if long else f"hold {name} to {action}")
        by = f"{source} button {name}" + (" with key" if self.key_held else "")
        if action == "close_bets":
            return Translated(event=CloseBets())
        if action == "void":
            return Translated(event=Void("the croupier's void button", by))
        if action == "confirm" and self.table.pending_result is not None and \
                not (self.key_held and self.table.meters.pending()):
            # the camera's guess, as shown at the terminal; the table refuses it when a face was not read
            return Translated(command=Command("confirm_result", {}, by))
        if action in ("jackpot_confirm", "confirm") and self.table.meters.pending():
            if not self.key_held:
                return Translated(text="a jackpot confirmation needs the supervisor key")
            return Translated(command=Command("confirm_jackpot", {}, by))
        if action == "clear_fault":
            if not self.key_held:
                return Translated(text="clearing a fault needs the supervisor key")
            return Translated(command=Command("clear_fault", {}, by))
        if action == "new_shoe":
            return Translated(command=Command("new_shoe", {}, by))
        if action == "confirm":
            return Translated(text="nothing waits for a confirmation")
        if action in KEYS or action in {a.name for a in self.table.round_spec.actions}:
            meaning = pressed(self.table, action)  # decision buttons and keys: only what the round accepts now
            return Translated(event=meaning) if isinstance(meaning, Action) else Translated(text=meaning)
        prompt = self.table.last_prompt
        seat = getattr(prompt, "seat", None)
        if seat is None:
            puck = getattr(self.table.round, "puck", None)
            seat = puck if action == "burn" and isinstance(puck, int) else None
        if seat is None:
            return Translated(text=f"{action}: no box is waiting for a decision")
        return Translated(event=Action(int(seat), action))


def button_actions(pin_map: Any, game: str) -> dict[str, str]:
    """Button name -> action in ``game``, from the pin map (drivers/gpio/config.DeviceConfig)."""
    if pin_map is None:
        return {}
    return {b.name: a for b in pin_map.buttons if (a := b.action_for(game)) is not None}


def progressive_spot(spec: Any, variant: str) -> str | None:
    """The game's progressive side-bet spot, if it has one (the locked slots' bets go there)."""
    names = [s.name for s in spec.spots_for(variant)]
    return next((n for n in names if "progressive" in n or n == "jackpot"), None)
