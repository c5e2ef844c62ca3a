"""The game contract (DESIGN.md section 5): declarations, effects and the Round base.

A game module declares itself as data in a ``GameSpec`` (variants, options
with defaults, spots, actions, devices, paytable file) and implements a
``Round`` that takes one event at a time. ``Round.apply`` either moves the
round on and returns effects, or rejects the event with a reason a croupier
can read and leaves the round exactly as it was: the base class snapshots
the round's state and restores it on rejection, so a game only has to raise
``Reject``.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence, TypeVar, Union

from controller.events import Bet, CardOut, CloseBets, Event
from controller.money import Odds, win_amount

# --------------------------------------------------------------------------- effects


class Reject(Exception):
    """Raised inside a game to refuse an event; the message is for the croupier."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the round waits for next, in the croupier's words."""

    text: str
    seat: int | None = None
    expects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Alert:
    """Something the croupier or the pit must see now (``misdeal``, ``puck``, ...)."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of the round as a JSON-ready mapping (both hands, the number, ...)."""

    data: Mapping[str, Any]


RESULTS = ("win", "lose", "push", "surrender", "carry")


@dataclass(frozen=True, slots=True)
class Settlement:
    """One spot's result. ``net`` is the signed change for the player, only where the stake is known."""

    seat: int
    spot: str
    result: str
    odds: Odds | None = None
    stake: int | None = None
    net: int | None = None
    player: str | None = None
    hand: int | None = None
    rounded: bool = False
    carry: int | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"unknown result {self.result!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "spot": self.spot}
        if self.player is not None:
            out["player"] = self.player
        if self.hand is not None:
            out["hand"] = self.hand
        out["result"] = self.result
        if self.odds is not None:
            out["odds"] = self.odds.as_list()
        if self.stake is not None:
            out["stake"] = self.stake
            out["net"] = self.net
        if self.rounded:
            out["rounded"] = True
        if self.carry is not None:
            out["carry"] = self.carry
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class MeterChange:
    """A progressive-meter movement the runtime must apply and journal (the meter is not the game's)."""

    meter: str
    kind: str  # "contribution" | "hit"
    seat: int | None = None
    amount: int | None = None  # contribution in minor units
    share: tuple[int, int] | None = None  # hit: (numerator, denominator) of the meter
    fixed: int | None = None  # hit: a fixed prize in minor units
    hand: str | None = None


def apply_meter(value: int, change: MeterChange) -> tuple[int, int]:
    """What ``change`` pays and the meter after it: ``(paid, new_value)``, in minor units.

    A contribution adds its amount. A hit pays its share of what the meter
    holds (rounded down) or its fixed prize, never more than the meter holds,
    so several hits in one round each pay from what the one before left.
    """
    if change.kind == "contribution":
        return 0, value + (change.amount or 0)
    if change.kind != "hit":
        raise ValueError(f"unknown meter change {change.kind!r}")
    if change.share is not None:
        paid = value * change.share[0] // change.share[1]
    else:
        paid = min(change.fixed or 0, value)
    return paid, value - paid


@dataclass(frozen=True, slots=True)
class DrawRequest:
    """The round needs ``count`` numbers, each equally likely from 1 to ``faces``, from the table's random-draw
    apparatus: the runtime draws them from its own random source, journals them as a ``Draw`` event and gives
    that event to the round (a game never draws)."""

    count: int
    faces: int
    purpose: str


Effect = Union[Prompt, Alert, Outcome, Settlement, MeterChange, DrawRequest]


@dataclass(frozen=True, slots=True)
class Accepted:
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Rejected:
    reason: str


def settle_fixed(bet: Bet, result: str, odds: Odds | None = None, *, hand: int | None = None,
                 carry: bool = False, note: str | None = None) -> Settlement:
    """The settlement of a bet at fixed odds; amounts follow only where the bet had one."""
    stake = bet.amount
    net: int | None = None
    rounded = False
    if stake is not None:
        if result == "win":
            assert odds is not None
            net, rounded = win_amount(stake, odds)
        elif result == "lose":
            net = -stake
        elif result in ("push", "carry"):
            net = 0
        elif result == "surrender":
            net = -(stake - stake // 2)
            rounded = stake % 2 != 0
    return Settlement(seat=bet.seat, spot=bet.spot, result=result, odds=odds if result == "win" else None,
                      stake=stake, net=net, player=bet.player, hand=hand, rounded=rounded,
                      carry=stake if (carry and result == "carry") else None, note=note)


def settle_void(bets: Iterable[Bet], reason: str) -> list[Settlement]:
    """Every bet of a void round back to its player: a push, noted ``round void: <reason>``."""
    return [settle_fixed(bet, "push", note=f"round void: {reason}") for bet in bets]


# --------------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its type, default, and what it means."""

    name: str
    default: Any
    help: str
    kind: str = "int"  # int | bool | text | amount | amounts | limits | choice | rules
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """Return the value as the option holds it, or raise ``ValueError`` saying what is allowed."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"option '{self.name}' must be true or false, not {value!r}")
            return value
        if self.kind in ("int", "amount"):
            if isinstance(value, bool) or not isinstance(value, int) and value is not None:
                raise ValueError(f"option '{self.name}' must be a whole number, not {value!r}")
            if value is None:
                if self.default is None:
                    return None
                raise ValueError(f"option '{self.name}' must be a whole number")
            if self.kind == "amount" and value < 0:
                raise ValueError(f"option '{self.name}' is an amount in minor units and cannot be negative")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"option '{self.name}' must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"option '{self.name}' must be at most {self.maximum}, not {value}")
            if self.choices and value not in self.choices:
                raise ValueError(f"option '{self.name}' must be one of {', '.join(map(str, self.choices))}, not {value}")
            return value
        if self.kind in ("text", "choice"):
            if not isinstance(value, str):
                raise ValueError(f"option '{self.name}' must be text, not {value!r}")
            if self.choices and value not in self.choices:
                raise ValueError(f"option '{self.name}' must be one of {', '.join(self.choices)}, not {value!r}")
            return value
        if self.kind == "limits":
            return check_limits_option(self.name, value)
        if self.kind == "rules":  # a table of rules (a TOML table: a table configuration reads it from a file)
            if value is not None and not isinstance(value, Mapping):
                raise ValueError(f"option '{self.name}' must be a table of rules (a TOML table or file), "
                                 f"not {value!r}")
            return value
        if self.kind == "amounts":
            if not isinstance(value, (list, tuple)) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
                raise ValueError(f"option '{self.name}' must be a list of amounts in minor units, each above 0, "
                                 f"not {value!r}")
            return tuple(value)
        raise AssertionError(self.kind)


@dataclass(frozen=True)
class VariantSpec:
    id: str
    name: str
    seed: str  # file and rule numbers
    defaults: Mapping[str, Any] = field(default_factory=dict)
    options: tuple[str, ...] | None = None  # option names this variant accepts (None: all)
    spots: tuple[str, ...] | None = None  # spots this variant offers (None: all)


@dataclass(frozen=True)
class SpotSpec:
    name: str
    description: str
    limit: str = ""  # the rule that limits the stake, with its seed reference


@dataclass(frozen=True)
class ActionSpec:
    """A decision of the game. ``multiples`` are the multiples of a stake the player may choose between (each
    still judged by the round); ``amount`` says the player may name the amount (the round judges it, and takes
    its own default when none is given); ``who`` is ``supervisor`` for an override that is not a player's decision.
    Input surfaces read these through ``controller.games.decisions``."""

    name: str
    description: str
    multiples: tuple[int, ...] = ()
    amount: bool = False
    who: str = "player"  # "player": a decision the table must be able to take; "supervisor": an override
    cards: bool = False  # the decision names cards of the box (``Action.cards``; the round's ``card_choice``)


@dataclass(frozen=True)
class CardChoice:
    """The cards a decision names (``Action.cards``): ``least`` to ``most`` of ``cards`` (the box's own), sent in
    the order chosen; ``order`` says what that order means, in the croupier's words ("" where it means nothing)."""

    cards: tuple[Any, ...]  # controller.cards.Card
    least: int
    most: int
    order: str = ""


@dataclass(frozen=True)
class RoundConfig:
    """Everything a round needs to know about its table: resolved, validated, immutable."""

    game: str
    variant: str
    options: Mapping[str, Any]
    paytable: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __getitem__(self, name: str) -> Any:
        return self.options[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class BoardSpec:
    """How a game's outcomes are marked on a last-results board (controller/games/boards.py).

    ``kind``: ``numbers`` (a wheel's numbers with hot and cold), ``dice`` (the throws) or ``road`` (a Punto Banco
    bead plate and big road). ``mark`` turns one round's outcome into its mark (None for a void round);
    ``numbers`` lists every number the table can show (for the cold numbers of a ``numbers`` board), ``color``
    gives a number's colour.
    """

    kind: str
    mark: Callable[[Mapping[str, Any]], Mapping[str, Any] | None]
    numbers: Callable[[RoundConfig], tuple[int, ...]] | None = None
    color: Callable[[RoundConfig, int], str] | None = None  # a number's colour on the table (``numbers``)


@dataclass(frozen=True)
class ReaderSpec:
    """What reads the game's result at the table: ``kind`` ``shoe`` (cards out of the shoe), ``wheel`` (the
    winning number, from a wheel reader or the camera over the wheel) or ``dice`` (the camera over the throw
    area: ``count`` dice, of ``colors`` where the game tells them apart; empty: any)."""

    kind: str
    count: int | None = None
    colors: tuple[str, ...] = ()

    @property
    def camera(self) -> str | None:
        """What a camera reads at this game's table: ``dice``, ``roulette`` (the wheel), or None."""
        return {"dice": "dice", "wheel": "roulette"}.get(self.kind)


ResultMark = tuple[str, "str | None"]
"""One outcome on a results board (the LED sign's last results): its text and its colour (or None)."""

TABLE_ACTIONS = ("close_bets", "void", "clear_fault", "jackpot_confirm", "supervisor_key", "new_shoe")
"""Button actions every game takes (the table's own); a game's declared actions come on top."""

DECISION_KEYS = tuple(f"decision_{n}" for n in range(1, 10))
"""The decision keypad's keys: key N is the N-th legal decision of the box in turn (controller/games/decisions)."""


@dataclass(frozen=True)
class GameSpec:
    """A game declared as data, plus the one constructor of its rounds.

    What the runtime looks up is declared here too: ``reader`` (what reads the result), ``result_mark`` (the
    outcome on a results board), ``progressive_spots`` (the spots a progressive slot bets on), the button
    actions it takes by default (``takes_button_action``) and ``strategy`` (the simulated table's virtual
    players, by family name: controller/runtime/players.py) and ``meters`` (the jackpot meters a table feeds,
    which its configuration must set up). ``docs_page`` is the game's page under docs/games/ (``<id>.md`` unless
    a family of games shares one page).
    """

    id: str
    name: str
    seeds: tuple[str, ...]
    variants: tuple[VariantSpec, ...]
    options: tuple[OptionSpec, ...]
    spots: tuple[SpotSpec, ...]
    actions: tuple[ActionSpec, ...]
    devices: tuple[str, ...]
    new_round: Callable[[RoundConfig, tuple[Bet, ...]], "Round"]
    paytable_file: str | None = None
    interpretations: tuple[str, ...] = ()
    validate: Callable[[RoundConfig], None] | None = None  # raises ValueError on an illegal table set-up
    board: BoardSpec | None = None  # how the outcome is marked on the last-results board (pit view, sign)
    decisions: Callable[[RoundConfig], tuple[str, ...]] | None = None  # the players' decisions a table set up
    # so can take (None: every action whose ``who`` is ``player``); config check wants an input for each
    reader: ReaderSpec | None = None
    result_mark: Callable[[Mapping[str, Any]], ResultMark | None] | None = None
    progressive_spots: tuple[str, ...] = ()
    strategy: str | None = None
    docs_page: str | None = None
    meters: Callable[[RoundConfig], Mapping[str, str]] | None = None  # the meters a table set up so feeds, by
    # the option that names each (``{"meter": "oasis-progressive"}``); config check wants a [jackpot.NAME] for each
    table_warnings: str | None = None  # "module:function" of the game's math that config check asks for warnings
    # (function(round_config, jackpots by name) -> lines); imported only then, so the game stays free of numpy

    @property
    def page(self) -> str:
        """The file name of the game's page under docs/games/."""
        return self.docs_page or f"{self.id}.md"

    def player_decisions(self, config: RoundConfig) -> tuple[str, ...]:
        """The decisions the players of a table set up as ``config`` can make (each needs an input)."""
        if self.decisions is not None:
            return self.decisions(config)
        return tuple(a.name for a in self.actions if a.who == "player")

    def fed_meters(self, config: RoundConfig) -> Mapping[str, str]:
        """The jackpot meters a table set up as ``config`` feeds or pays from, by the option naming each."""
        return self.meters(config) if self.meters is not None else {}

    def fed_contributions(self, config: RoundConfig) -> Mapping[str, int | None]:
        """What the game adds to each meter it feeds, by meter: the ``progressive_contribution`` option per
        progressive chip where the game has one (the game sends that amount with every contribution), else None
        (the game computes every amount itself, as the poker room's rake and drop, or only pays from the meter).
        A ``[jackpot.NAME].contribution`` never changes what such a meter gets; config check holds it to this."""
        fixed = config.get("progressive_contribution")
        return {meter: fixed if isinstance(fixed, int) else None for meter in self.fed_meters(config).values()}

    def takes_button_action(self, action: str) -> bool:
        """Whether a pin map's default ``action`` for a button applies at this game's table: the table's own
        actions, the game's declared actions, ``confirm`` where a camera's unsure result can be held, and the
        decision keypad's keys (``decision_1`` ..) where players decide."""
        return (action in TABLE_ACTIONS or any(a.name == action for a in self.actions)
                or (action == "confirm" and self.reader is not None and self.reader.camera is not None)
                or (action in DECISION_KEYS and any(a.who == "player" for a in self.actions)))

    def mark(self, outcome: Mapping[str, Any]) -> ResultMark | None:
        """The outcome on a results board, or None (a void, or a game without a board mark)."""
        if self.result_mark is None or outcome.get("void"):
            return None
        return self.result_mark(outcome)

    def variant(self, variant_id: str) -> VariantSpec:
        for v in self.variants:
            if v.id == variant_id:
                return v
        raise ValueError(f"unknown variant {variant_id!r} of {self.id} (known: {', '.join(v.id for v in self.variants)})")

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def resolve(self, variant_id: str, options: Mapping[str, Any] | None = None,
                paytable: Mapping[str, Any] | None = None) -> RoundConfig:
        """Variant defaults, then the given options, each checked; unknown ones are refused."""
        variant = self.variant(variant_id)
        allowed = [o for o in self.options if variant.options is None or o.name in variant.options]
        values: dict[str, Any] = {o.name: variant.defaults.get(o.name, o.default) for o in allowed}
        for name, value in (options or {}).items():
            if name not in values:
                known = ", ".join(o.name for o in allowed) or "none"
                raise ValueError(f"unknown option {name!r} for {self.id} {variant_id} (known: {known})")
            values[name] = self.option(name).check(value)
        config = RoundConfig(self.id, variant_id, MappingProxyType(values), MappingProxyType(dict(paytable or {})))
        if self.validate is not None:
            self.validate(config)
        return config

    def spots_for(self, variant_id: str) -> tuple[SpotSpec, ...]:
        variant = self.variant(variant_id)
        return tuple(s for s in self.spots if variant.spots is None or s.name in variant.spots)


# --------------------------------------------------------------------------- limits


def check_limits_option(name: str, value: Any) -> Mapping[str, tuple[int, int | None]]:
    """``{"spot": [min, max]}`` (max may be null) as an immutable mapping."""
    if not isinstance(value, Mapping):
        raise ValueError(f"option '{name}' must map spot names to [minimum, maximum]")
    out: dict[str, tuple[int, int | None]] = {}
    for spot, pair in value.items():
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                or not all(p is None or (isinstance(p, int) and not isinstance(p, bool) and p >= 0) for p in pair)
                or pair[0] is None):
            raise ValueError(f"option '{name}': spot {spot!r} needs [minimum, maximum] in minor units, not {pair!r}")
        low, high = pair
        if high is not None and high < low:
            raise ValueError(f"option '{name}': spot {spot!r} has a maximum {high} below its minimum {low}")
        out[str(spot)] = (low, high)
    return MappingProxyType(out)


def chip_unit(round_: "Round", default: int) -> int:
    """The smallest stake step: the table's chip unit, its smallest chip, or ``default`` (the simulated players'
    and the dealer terminal's one rule)."""
    unit = round_.config.get("chip_unit")
    if unit:
        return int(unit)
    chips = round_.config.get("chip_values") or ()
    return int(min(chips)) if chips else default


def check_stake(spot: str, amount: int | None, minimum: int, maximum: int | None, unit: int = 1) -> None:
    """Refuse a stake outside ``[minimum, maximum]`` or not a whole number of ``unit``."""
    if amount is None:
        return
    if amount <= 0:
        raise Reject(f"a bet on {spot} must be more than 0")
    if amount < minimum:
        raise Reject(f"{spot}: {amount} is below the table minimum of {minimum}")
    if maximum is not None and amount > maximum:
        raise Reject(f"{spot}: {amount} is above the table maximum of {maximum}")
    if unit > 1 and amount % unit:
        raise Reject(f"{spot}: {amount} is not a multiple of the smallest chip ({unit})")


# --------------------------------------------------------------------------- rounds


class Round(ABC):
    """One round of a game. Subclasses implement ``_apply`` and raise ``Reject`` to refuse.

    ``betting_open`` is True while the round still takes bets (the tower light shows it, the wheel reader's
    "no more bets" closes them); every game keeps it, as an attribute or a property.
    """

    betting_open: bool = False

    def __init__(self, config: RoundConfig) -> None:
        self.config = config

    def apply(self, event: Event) -> Accepted | Rejected:
        """Take one event: accepted with its effects, or rejected with the round unchanged."""
        if self.complete:
            return Rejected(self.closed_reason(event))
        saved = self._snapshot()
        try:
            effects = tuple(self._apply(event))
        except Reject as rejection:
            self._restore(saved)
            return Rejected(rejection.reason)
        return Accepted(effects)

    def copy(self) -> "Round":
        """An independent copy of the round: events applied to it leave this one as it is (the table applies an
        event to a copy and keeps the copy once the event is journaled)."""
        twin = copy.copy(self)
        twin._restore(self._snapshot())
        return twin

    def _snapshot(self) -> dict[str, Any]:
        config = self.__dict__.get("config")
        state = {k: v for k, v in self.__dict__.items() if k != "config"}
        snap = copy.deepcopy(state)
        snap["config"] = config
        return snap

    def _restore(self, saved: dict[str, Any]) -> None:
        self.__dict__.clear()
        self.__dict__.update(saved)

    @abstractmethod
    def _apply(self, event: Event) -> Iterable[Effect]:
        """Move the round on by ``event`` and return the effects, or raise ``Reject``."""

    @property
    @abstractmethod
    def complete(self) -> bool:
        """True once every bet is settled."""

    @abstractmethod
    def waiting_for(self) -> str:
        """What the round expects next, in the croupier's words."""

    @abstractmethod
    def outcome(self) -> Mapping[str, Any] | None:
        """The outcome so far (JSON-ready), or None before there is one."""

    @abstractmethod
    def settlements(self) -> Sequence[Settlement]:
        """Every settlement made so far, in order."""

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        """The [minimum, maximum] of one stake on ``spot`` as this round reads its limits (None: no maximum);
        here the table's ``limits`` option, which games with rules of their own override."""
        limits = self.config.get("limits") or {}
        return (limits[spot][0], limits[spot][1]) if spot in limits else (0, None)

    def closed_reason(self, event: Event) -> str:
        """Why an event after the end of the round is refused (a game may say more)."""
        return "the round is already settled; start the next round"

    def carried(self) -> tuple[Bet, ...]:
        """Bets that stay on the layout into the next round (stand-offs, carried raises)."""
        return ()

    def amounts(self, seat: int, action: str) -> tuple[int, int] | None:
        """The least and the most amount the player at ``seat`` may name for ``action`` now, in minor units,
        where the rules leave the amount to the player (a poker raise to between the least and the most;
        both equal where the bet is fixed, as in a limit game); None where the round takes the action without
        an amount or never names a range. The round still judges each amount it is sent."""
        return None

    def card_choice(self, seat: int, action: str) -> CardChoice | None:
        """The cards the player at ``seat`` names for ``action`` now (a draw, a discard, the setting of hands), for
        an action declared with ``cards``; None where the box names none now. The round still judges each choice."""
        return None

    def layout(self) -> Mapping[str, Any] | None:
        """What the croupier sees on the layout now, JSON-ready: ``{"dealer": {"cards": [...], "total": N},
        "boxes": [{"seat": N, "hands": [{"cards": [...], "total": N, "note": TEXT}]}]}``; None where the
        game has no cards in boxes (the dealer terminal then shows the bets and the cards in shoe order).
        Only what the croupier may see: a game with dark cards gives no totals."""
        return None


_Handler = TypeVar("_Handler", bound=Callable[..., Iterable[Effect]])


def handles(*kinds: type) -> Callable[[_Handler], _Handler]:
    """Register a method of a ``DispatchedRound`` as the one that takes the events of the classes ``kinds``."""

    def mark(method: _Handler) -> _Handler:
        setattr(method, "_handles", kinds)
        return method

    return mark


class DispatchedRound(Round):
    """A round whose ``_apply`` is one table, event class -> the method registered for it with ``@handles``
    (the house games: Oasis Stud, Russian Poker, Pai Gow Poker, Baccara, Red Dog and Bulldog). A subclass inherits
    its parent's table and may register more; an overriding method keeps its parent's registration. An event of a
    class no method takes is refused, naming ``game_name``."""

    game_name: str = "this game"
    _handlers: ClassVar[Mapping[type, str]] = MappingProxyType({})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = dict(cls._handlers)
        for name, member in vars(cls).items():
            for kind in getattr(member, "_handles", ()):
                table[kind] = name
        cls._handlers = MappingProxyType(table)

    def _apply(self, event: Event) -> Iterable[Effect]:
        name = next((self._handlers[k] for k in type(event).__mro__ if k in self._handlers), None)
        if name is None:
            raise Reject(f"a {type(event).__name__.lower()} event has no place in {self.game_name}")
        handler: Callable[[Event], Iterable[Effect]] = getattr(self, name)
        return handler(event)


class BetsThenCardsRound(DispatchedRound):
    """A dispatched round whose bets close once, in phase ``"bets"``, and whose cards each go to ``_card`` (Pai Gow
    Poker, Baccara, Red Dog and Bulldog): the two handlers those games had written alike."""

    phase: str

    def _close(self) -> list[Effect]:
        raise NotImplementedError

    def _card(self, card: Any) -> list[Effect]:
        raise NotImplementedError

    @handles(CloseBets)
    def _on_close_bets(self, event: CloseBets) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("the bets are already closed")
        return self._close()

    @handles(CardOut)
    def _on_card(self, event: CardOut) -> list[Effect]:
        return self._card(event.card)
