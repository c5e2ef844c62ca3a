"""The card shoe: drivers/shoe on a serial line (docs/devices/shoe-protocol.md).

Driver ``serial``: ``drivers.shoe.link.ShoeLink`` on the configured pyserial URL. With ``--simulate`` (or
``port = "pty"``) a ``ShoeEmulator`` runs in-process on a real pty, dealing a seeded shoe when the virtual
croupier pulls a card (``EmulatedShoe``). Driver ``simulated``: the daemon's in-process shoe
(controller/runtime/simulate.py). The shuffler (shuffler.py) is the same family of device.

Its events: a card read is the game's ``CardOut`` (an unreadable one latches ``reader_failing``), the cut
card and an empty shoe are ``shoe`` records, a jam or tampering latches ``device_fault``, a card that left
unread latches ``reader_failing`` (enter it by hand); a bad deck check latches ``deck_check``.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, Mapping

from controller import checks
from controller.cards import CardError, parse_card
from controller.events import CardOut
from controller.runtime.devices.base import Context, DeviceKind, SerialDevice, link_path, on_pty
from controller.runtime.devices.links import SERIAL_FAULTS, SERIAL_ROWS
from controller.runtime.intents import Handler, Latch, Noted, ShoeNote, Submit, TableView, Translation, fixed, one
from drivers import events as ev

if TYPE_CHECKING:
    from controller.config import DeviceConfig

CUT_FROM_END = 16  # the cut card of a one-deck shoe sits this many cards from the end


def cut_from_end(decks: int) -> int:
    """Where the cut card sits, counted from the end: a quarter of a multi-deck shoe (at least one deck), so
    a round with seven boxes, splits and doubles never runs out of cards after it; 16 cards of one deck."""
    return CUT_FROM_END if decks <= 1 else max(52, 52 * decks // 4)


class EmulatedShoe(SerialDevice):
    """The real ShoeLink against a ShoeEmulator on a pty, dealing a shoe seeded by ``(seed, shoe_no)``.

    It has the interface the virtual croupier uses (``pull``, ``new_shoe``): a
    pull makes the emulator send one ``CRD`` frame (and ``CUT`` at the cut card).
    """

    def __init__(self, name: str, decks: int, seed: int, shoe_no: int = 1, dealt: int = 0,
                 kind: str = "shoe") -> None:
        from drivers.shoe.emulator import ShoeEmulator
        from drivers.shoe.link import ShoeLink

        # the driver opens a stable symlink, as it would a udev name: a replugged pty gets a new /dev/pts/N
        self.emulator = ShoeEmulator(kind, link_path=link_path(name), retransmit_timeout=0.1)
        self.decks, self.seed = decks, seed
        self.pulls = 0
        self._lock = threading.Lock()
        self._shuffle(shoe_no, dealt)
        super().__init__(name, lambda post: ShoeLink(self.emulator.path, post, kind=kind, read_timeout=0.005,
                                                     heartbeat_timeout=3.0))

    def _shuffle(self, shoe_no: int, dealt: int = 0) -> None:
        from drivers.shoe.emulator import seeded_shoe

        self.shoe_no = shoe_no
        self.cards = seeded_shoe(self.decks, self.seed * 1000 + shoe_no)
        self.position = min(dealt, len(self.cards))

    def start(self, post: Callable[[object], None]) -> None:
        self.emulator.start()
        super().start(post)

    def stop(self) -> None:
        super().stop()
        self.emulator.stop()

    def pull(self) -> None:
        """The croupier draws the next card (thread-safe)."""
        from drivers.shoe import events

        with self._lock:
            self.pulls += 1
            if self.position >= len(self.cards):
                self.emulator.send(events.ShoeEmpty())
                return
            card = self.cards[self.position]
            self.position += 1
            self.emulator.send(events.CardDealt(card))
            if self.position == len(self.cards) - cut_from_end(self.decks):
                self.emulator.send(events.CutCard())

    def new_shoe(self, shoe_no: int, dealt: int = 0) -> None:
        with self._lock:
            self._shuffle(shoe_no, dealt)

    def health(self) -> Mapping[str, Any]:
        return {**super().health(), "emulated": self.emulator.path, "shoe": self.shoe_no, "position": self.position}


def real(context: Context, device: "DeviceConfig") -> None:
    """The ShoeLink on the configured port (the driver checks that a ``device.name`` answers)."""
    from drivers.shoe.link import ShoeLink

    port, baud, name = str(device.settings["port"]), int(device.settings.get("baud", 115200)), device.name

    def shoe_link(post: Callable[[object], None]) -> Any:
        return ShoeLink(port, post, kind=name, baudrate=baud)
    context.built.inputs[name] = SerialDevice(name, shoe_link)


def emulate(context: Context, device: "DeviceConfig") -> EmulatedShoe:
    """The ShoeLink against the emulator on a pty, dealing the table's seeded shoe (a game without a
    ``decks`` option deals one deck)."""
    decks = int(context.config.round_config.get("decks", 1) or 1)
    emulated = EmulatedShoe(device.name, decks, context.seed, context.shoe_no, context.shoe_cards, kind=device.name)
    context.built.inputs[device.name] = emulated
    return emulated


def emulator(context: Context, device: "DeviceConfig") -> None:
    """The emulated shoe; it is what the virtual croupier deals from."""
    context.built.simulation.dealer = emulate(context, device)


def card(source: str, raw: ev.CardDealt, view: TableView) -> Translation:
    if source == "shuffler":
        return one(view.memory, Noted("shuffler: a card read while shuffling (not dealt)"))
    try:
        return one(view.memory, Submit(CardOut(parse_card(raw.card))))
    except CardError as exc:
        return one(view.memory, Latch("reader_failing", f"unreadable card: {exc}"))


def deck_check(source: str, raw: ev.DeckCheck, view: TableView) -> Translation:
    if raw.ok:
        return one(view.memory, ShoeNote("deck_check_ok"))
    words = [f"{k} {','.join(v)}" for k, v in (("missing", raw.missing), ("extra", raw.extra),
                                                ("foreign", raw.foreign)) if v]
    return one(view.memory, Latch("deck_check", "; ".join(words)))


ROWS: dict[type, Handler] = {
    **SERIAL_ROWS,
    ev.CardDealt: card,
    ev.CutCard: fixed(lambda s, r: ShoeNote("cut_card")),
    ev.ShoeEmpty: fixed(lambda s, r: ShoeNote("shoe_empty")),
    ev.Jam: fixed(lambda s, r: Latch("device_fault", f"{s} jammed: {r.detail}".rstrip(": "))),
    ev.Tamper: fixed(lambda s, r: Latch("device_fault", f"{s} reports tampering: {r.detail}")),
    ev.Unreadable: fixed(lambda s, r: Latch("reader_failing", f"a card left the {s} unread: {r.detail}; "
                                                              f"enter it by hand")),
    ev.ShuffleDone: fixed(lambda s, r: ShoeNote("shuffle_done")),
    ev.DeckCheck: deck_check,
}
"""The rows of the shoe family (the shoe and the shuffler send the same frames)."""

NOTED: tuple[type, ...] = (ev.ShoeState, ev.DoorOpen, ev.DoorClosed, ev.DeviceIdentity, ev.ShuffleStarted)

KIND = DeviceKind(
    name="shoe",
    drivers={"serial": checks.SERIAL, "simulated": {}},
    required={"serial": {"port": "a serial device needs its port"}},
    built_as={"serial": "`drivers.shoe.link.ShoeLink` on `port` (the driver checks that a shoe answers); "
                        "`port = \"pty\"`: against the shoe emulator on a pseudo-terminal"},
    builds=frozenset({"serial"}),
    emulated=on_pty,
    real=real,
    emulator=emulator,
    order=20,
    translate=ROWS,
    noted=NOTED,
    faults=SERIAL_FAULTS + ("reader_failing", "deck_check"),
    docs="shoe-protocol.md",
)
