"""What the runtime expects of devices, and the driver-level events it understands.

Drivers (drivers/shoe, drivers/gpio, ...) are built apart from the runtime and
know nothing of games. An input device is started with a ``post`` callable and
calls it, from any thread, with one frozen event record at a time; the runtime
hands it to the event loop with ``loop.call_soon_threadsafe``. An output gets
a desired state (a plain mapping) and shows it; it must not block.

The event classes below are the ones the runtime translates (``translate``);
a driver may use its own classes with the same names and fields: the runtime
matches by class name, so drivers need not import the runtime.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from controller.cards import CardError, parse_card
from controller.events import CardOut, CloseBets, Event, TYPE_NAMES


@runtime_checkable
class InputDevice(Protocol):
    """A device that produces events: a shoe, a wheel reader, buttons, a camera reader."""

    def start(self, post: Callable[[object], None]) -> None: ...

    def stop(self) -> None: ...

    def health(self) -> Mapping[str, Any]:
        """At least ``{"ok": bool}``; counters and the last error where the device has them."""
        ...


@runtime_checkable
class Output(Protocol):
    """A device that shows a desired state: the sign, the tower light, the jackpot display."""

    def show(self, state: Mapping[str, Any]) -> None: ...


# -- driver-level events (frozen records)


@dataclass(frozen=True, slots=True)
class CardDealt:
    """The shoe read a card (notation of DESIGN.md section 4)."""

    card: str


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card came out: finish the round in progress, then change the shoe."""


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """The shoe has no more cards."""


@dataclass(frozen=True, slots=True)
class Jam:
    """The device jammed or reports an error it cannot recover from itself."""

    text: str = "jam"


@dataclass(frozen=True, slots=True)
class LinkFault:
    """The serial link is broken (framing, checksum, no answer)."""

    text: str = "link fault"


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A dealer or supervisor button: ``no_more_bets``, ``clear_fault``, ``jackpot_confirm``, ..."""

    name: str
    key: bool = False  # the supervisor key was turned


@dataclass(frozen=True, slots=True)
class Command:
    """A command from the console, a button or the virtual croupier, handled on the loop."""

    name: str  # clear_fault | confirm_jackpot | correct_meter | day_end | new_shoe | stop
    args: Mapping[str, Any]
    by: str


@dataclass(frozen=True, slots=True)
class Translated:
    """What a raw device event means to the runtime: a game event, a fault, a command, or a shoe note."""

    event: Event | None = None
    fault: str | None = None  # fault kind; the subject is the device name
    text: str = ""
    command: Command | None = None
    note: str | None = None  # cut_card, shoe_empty


BUTTON_EVENTS: dict[str, Callable[[], Event]] = {"no_more_bets": CloseBets}


def translate(source: str, raw: object) -> Translated:
    """Map a driver event (matched by class name) or a game event to its meaning."""
    if type(raw) in TYPE_NAMES:
        return Translated(event=raw)  # type: ignore[arg-type]
    kind = type(raw).__name__
    if kind == "CardDealt":
        try:
            return Translated(event=CardOut(parse_card(getattr(raw, "card", None))))
        except CardError as exc:
            return Translated(fault="reader_failing", text=f"unreadable card: {exc}")
    if kind == "CutCard":
        return Translated(note="cut_card")
    if kind == "ShoeEmpty":
        return Translated(note="shoe_empty")
    if kind in ("Jam", "LinkFault"):
        return Translated(fault="device_fault", text=f"{kind}: {getattr(raw, 'text', '')}")
    if kind == "ButtonPressed":
        name = str(getattr(raw, "name", ""))
        if name in BUTTON_EVENTS:
            return Translated(event=BUTTON_EVENTS[name]())
        if name == "jackpot_confirm" and getattr(raw, "key", False):
            return Translated(command=Command("confirm_jackpot", {}, f"{source} key"))
        if name == "clear_fault" and getattr(raw, "key", False):
            return Translated(command=Command("clear_fault", {}, f"{source} key"))
        return Translated(text=f"button {name!r} does nothing here" + ("" if getattr(raw, "key", False) else
                                                                       " (without the supervisor key)"))
    return Translated(text=f"{source}: unknown event {kind}")
