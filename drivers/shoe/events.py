"""Events the shoe and shuffler links hand to the caller: frozen records, safe to pass between threads.

Cards are text in the notation of DESIGN.md section 4 (``Ah``, ``10d``,
``JK``); the runtime parses them. The driver checks only that the text looks
like a card: a card frame whose text does not is delivered as ``Unreadable``
(a card left the shoe and nobody knows which), never as ``CardDealt``.

Link events (``LinkFault``, ``LinkRestored``) come from ``drivers.seriallink``
and are re-exported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from drivers.seriallink import LinkFault, LinkRestored
from drivers.shoe.protocol import Frame

__all__ = ["CardDealt", "ShoeState", "CutCard", "ShoeEmpty", "Jam", "Unreadable", "Tamper", "ShuffleStarted",
           "ShuffleDone", "DeckCheck", "DoorOpen", "DoorClosed", "DeviceIdentity", "LinkFault", "LinkRestored",
           "ShoeEvent", "frame_to_event", "event_to_frame", "CARD_TEXT", "DATA_TYPES", "LINK_TYPES"]

CARD_TEXT = re.compile(r"(?:[2-9TJQKAtjqka]|10)[cdhsCDHS]|[jJ][kK]")


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card left the shoe (or the shuffler's card reader), in shoe order."""

    card: str


@dataclass(frozen=True, slots=True)
class ShoeState:
    """The shoe's lid or gate: ``closed`` False when it was opened (loading, inspection)."""

    closed: bool


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card came out: the shoe ends after the current round."""


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """No card left in the shoe."""


@dataclass(frozen=True, slots=True)
class Jam:
    """A card is stuck (shoe) or the mechanism stopped (shuffler); ``detail`` is the device's own words."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A card went out but could not be read; the croupier must show it and enter it by hand."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class Tamper:
    """The device reports tampering (cover opened, sensor blocked, card pushed back)."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class ShuffleStarted:
    """The shuffler started a shuffle."""

    detail: str = ""


@dataclass(frozen=True, slots=True)
class ShuffleDone:
    """The shuffler finished; ``cards`` is how many it counted, when it says."""

    cards: int | None = None


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The shuffler's deck count: cards missing, extra (a duplicate), or foreign (not of this set)."""

    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()
    counted: int | None = None

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.foreign)


@dataclass(frozen=True, slots=True)
class DoorOpen:
    """The shuffler's door (or the shoe's service cover) is open."""


@dataclass(frozen=True, slots=True)
class DoorClosed:
    """The door is closed again."""


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """Sent on every (re)connect after the hello exchange: who is on the line.

    ``restarted`` is True when the device's boot token changed since the last
    hello, i.e. the device itself restarted (its unacknowledged frames, if any,
    are its own to resend).
    """

    kind: str
    device_id: str
    firmware: str
    protocol: int
    restarted: bool = False


ShoeEvent = (CardDealt | ShoeState | CutCard | ShoeEmpty | Jam | Unreadable | Tamper | ShuffleStarted
             | ShuffleDone | DeckCheck | DoorOpen | DoorClosed | DeviceIdentity | LinkFault | LinkRestored)

# Data frames: sequenced, acknowledged, delivered once. Type code -> meaning (for docs and logs).
DATA_TYPES = {
    "CRD": "card out (payload: the card)",
    "OPN": "shoe opened",
    "CLS": "shoe closed",
    "CUT": "cut card reached",
    "EMP": "shoe empty",
    "JAM": "jam (payload: optional detail)",
    "UNR": "card unreadable (payload: optional detail)",
    "TMP": "tamper (payload: optional detail)",
    "SHS": "shuffle started (payload: optional detail)",
    "SHD": "shuffle done (payload: optional n=CARDS)",
    "DCK": "deck check (payload: n=COUNT missing=.. extra=.. foreign=..)",
    "DOP": "door open",
    "DCL": "door closed",
}
# Link frames: never acknowledged, never delivered.
LINK_TYPES = {"HEL": "hello (identity)", "HBT": "heartbeat", "ACK": "acknowledge", "NAK": "resend request"}


def key_values(payload: str) -> dict[str, str]:
    """``key=value`` words of a payload; words without ``=`` are ignored."""
    out: dict[str, str] = {}
    for word in payload.split():
        key, sep, value = word.partition("=")
        if sep and key:
            out[key.lower()] = value
    return out


def _cards(value: str | None) -> tuple[str, ...]:
    return tuple(item for item in (value or "").split(",") if item)


def _count(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) <= 6 else None


def frame_to_event(frame: Frame) -> ShoeEvent | None:
    """The event a data frame stands for, or None for a type this driver does not know."""
    t, payload = frame.type, frame.payload.strip()
    if t == "CRD":
        if CARD_TEXT.fullmatch(payload):
            return CardDealt(payload)
        return Unreadable(f"the shoe sent card text {payload!r}, which is not a card")
    simple: dict[str, Callable[[], ShoeEvent]] = {"CUT": CutCard, "EMP": ShoeEmpty, "DOP": DoorOpen,
                                                  "DCL": DoorClosed}
    if t in simple:
        return simple[t]()
    if t in ("OPN", "CLS"):
        return ShoeState(closed=(t == "CLS"))
    detailed: dict[str, Callable[[str], ShoeEvent]] = {"JAM": Jam, "UNR": Unreadable, "TMP": Tamper,
                                                       "SHS": ShuffleStarted}
    if t in detailed:
        return detailed[t](payload)
    if t == "SHD":
        return ShuffleDone(_count(key_values(payload).get("n")))
    if t == "DCK":
        kv = key_values(payload)
        return DeckCheck(_cards(kv.get("missing")), _cards(kv.get("extra")), _cards(kv.get("foreign")),
                         _count(kv.get("n")))
    return None


def event_to_frame(event: ShoeEvent) -> tuple[str, str]:
    """(type, payload) of the data frame a device sends for ``event`` (used by the emulator and the docs)."""
    match event:
        case CardDealt(card):
            return "CRD", card
        case ShoeState(closed):
            return ("CLS" if closed else "OPN"), ""
        case CutCard():
            return "CUT", ""
        case ShoeEmpty():
            return "EMP", ""
        case Jam(detail):
            return "JAM", detail
        case Unreadable(detail):
            return "UNR", detail
        case Tamper(detail):
            return "TMP", detail
        case ShuffleStarted(detail):
            return "SHS", detail
        case ShuffleDone(cards):
            return "SHD", "" if cards is None else f"n={cards}"
        case DeckCheck(missing, extra, foreign, counted):
            words = [] if counted is None else [f"n={counted}"]
            words += [f"{k}={','.join(v)}" for k, v in (("missing", missing), ("extra", extra), ("foreign", foreign))
                      if v]
            return "DCK", " ".join(words)
        case DoorOpen():
            return "DOP", ""
        case DoorClosed():
            return "DCL", ""
    raise ValueError(f"{event!r} is not something a device sends as a data frame")
