"""Input events as frozen records, and their JSON form (DESIGN.md section 5).

``event_from_json`` is strict: a missing or mistyped field raises
``EventError`` naming the field, so a scenario file or a console line is
refused with one clear sentence before any game sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping, Union

from controller.cards import Card, CardError, parse_card


class EventError(ValueError):
    """An event whose JSON form is malformed; ``field`` names the offending field."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Bet:
    """A wager: ``seat`` is the box 1..N, ``spot`` the game's bet name; ``amount`` only where it is known."""

    seat: int
    spot: str
    amount: int | None = None
    player: str | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> "Bet":
        return self  # immutable: a round's snapshot shares its bets


@dataclass(frozen=True, slots=True)
class CloseBets:
    """No more bets."""


@dataclass(frozen=True, slots=True)
class CardOut:
    """The next card out of the shoe, in shoe order (burned cards too)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Action:
    """A player's or croupier's decision at a box."""

    seat: int
    action: str
    hand: int | None = None
    player: str | None = None
    multiple: int | None = None
    amount: int | None = None
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Wheel:
    """The roulette winning number."""

    number: int


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice result; ``colors`` pairs each value with a die colour where the game needs it."""

    values: tuple[int, ...]
    colors: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Void:
    """The croupier voids the result in progress (omslag, no spin)."""

    reason: str
    by: str | None = None


@dataclass(frozen=True, slots=True)
class Puck:
    """The burn puck was sensed at this box."""

    seat: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Numbers drawn for the round by the table's random-draw apparatus (the runtime's random source, journaled
    before the round sees them): what a game asks for with a ``DrawRequest``, each number 1..faces."""

    numbers: tuple[int, ...]


Event = Union[Bet, CloseBets, CardOut, Action, Wheel, Dice, Void, Puck, Draw]

TYPE_NAMES: dict[type, str] = {
    Bet: "bet", CloseBets: "close_bets", CardOut: "card", Action: "action",
    Wheel: "wheel", Dice: "dice", Void: "void", Puck: "puck", Draw: "draw",
}
_BY_NAME = {name: cls for cls, name in TYPE_NAMES.items()}
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    # event type -> field -> (kind, required)
    "bet": {"seat": ("seat", True), "spot": ("text", True), "amount": ("amount", False), "player": ("text", False)},
    "close_bets": {},
    "card": {"card": ("card", True)},
    "action": {"seat": ("seat", True), "action": ("text", True), "hand": ("count", False),
               "player": ("text", False), "multiple": ("count", False), "amount": ("amount", False),
               "cards": ("cards", False)},
    "wheel": {"number": ("int", True)},
    "dice": {"values": ("ints", True), "colors": ("texts", False)},
    "void": {"reason": ("text", True), "by": ("text", False)},
    "puck": {"seat": ("seat", True)},
    "draw": {"numbers": ("ints", True)},
}
_COMMENT_KEYS = {"type", "comment", "note"}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _convert(kind: str, name: str, value: Any) -> Any:
    if kind in ("seat", "count"):
        if not _is_int(value) or value < 1:
            raise EventError(f"field '{name}' must be a whole number from 1 up, not {value!r}", name)
        return value
    if kind == "int":
        if not _is_int(value):
            raise EventError(f"field '{name}' must be a whole number, not {value!r}", name)
        return value
    if kind == "amount":
        if not _is_int(value) or value < 0:
            raise EventError(f"field '{name}' must be a whole number of minor units (0 or more), not {value!r}", name)
        return value
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise EventError(f"field '{name}' must be non-empty text, not {value!r}", name)
        return value.strip()
    if kind == "card":
        try:
            return parse_card(value)
        except CardError as exc:
            raise EventError(f"field '{name}': {exc}", name) from None
    if kind == "cards":
        if not isinstance(value, list):
            raise EventError(f"field '{name}' must be a list of cards, not {value!r}", name)
        try:
            return tuple(parse_card(v) for v in value)
        except CardError as exc:
            raise EventError(f"field '{name}': {exc}", name) from None
    if kind == "ints":
        if not isinstance(value, list) or not value or not all(_is_int(v) for v in value):
            raise EventError(f"field '{name}' must be a non-empty list of whole numbers, not {value!r}", name)
        return tuple(value)
    if kind == "texts":
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise EventError(f"field '{name}' must be a list of names, not {value!r}", name)
        return tuple(v.strip().lower() for v in value)
    raise AssertionError(kind)


def event_from_json(obj: object) -> Event:
    """Build the frozen event record from its JSON object, or raise ``EventError``."""
    if not isinstance(obj, Mapping):
        raise EventError(f"an event must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise EventError("an event needs a 'type' (bet, close_bets, card, action, wheel, dice, void, puck, draw)", "type")
    spec = _FIELDS.get(kind)
    if spec is None:
        raise EventError(f"unknown event type {kind!r} (known: {', '.join(_FIELDS)})", "type")
    unknown = set(obj) - set(spec) - _COMMENT_KEYS
    if unknown:
        name = sorted(unknown)[0]
        raise EventError(f"unknown field {name!r} for a {kind} event (allowed: {', '.join(spec) or 'none'})", name)
    values: dict[str, Any] = {}
    for name, (field_kind, required) in spec.items():
        if name not in obj or obj[name] is None:
            if required:
                raise EventError(f"a {kind} event needs the field '{name}'", name)
            continue
        values[name] = _convert(field_kind, name, obj[name])
    if kind == "dice" and "colors" in values and len(values["colors"]) != len(values["values"]):
        raise EventError("field 'colors' must name one colour per value", "colors")
    event: Event = _BY_NAME[kind](**values)
    return event


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event; ``event_from_json(event_to_json(e)) == e``."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(event)]}
    for f in fields(event):
        value = getattr(event, f.name)
        if value is None:
            continue
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple):
            value = [str(v) if isinstance(v, Card) else v for v in value]
        out[f.name] = value
    return out


def describe(event: Event) -> str:
    """A short human text for logs and the console: ``card 9h``, ``bet box 3 banco 5000``."""
    if isinstance(event, CardOut):
        return f"card {event.card}"
    if isinstance(event, Bet):
        who = f" ({event.player})" if event.player else ""
        amount = f" {event.amount}" if event.amount is not None else ""
        return f"bet box {event.seat}{who} {event.spot}{amount}"
    if isinstance(event, Action):
        return f"box {event.seat} {event.action}"
    if isinstance(event, Wheel):
        return f"wheel {event.number}"
    if isinstance(event, Dice):
        return "dice " + "-".join(str(v) for v in event.values)
    if isinstance(event, Void):
        return f"void: {event.reason}"
    if isinstance(event, Puck):
        return f"puck at box {event.seat}"
    if isinstance(event, Draw):
        return "draw " + " ".join(str(v) for v in event.numbers)
    return "no more bets"
