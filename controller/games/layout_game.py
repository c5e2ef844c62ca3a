"""The round shared by the games a wheel or dice settle (roulette, Tärning, Sic Bo).

Bets go on a ``BetTable`` (every legal spot of the table, by name). ``close_bets``
ends the betting; the result event (``wheel`` or ``dice``) closes the bets if
they were still open and settles the whole layout in one step. A ``void``
(omslag, no spin, a die off the table) cancels the result in progress: the
bets stay and the next result settles them; the round records who called it
and why.

A game supplies a ``LayoutRules`` object: its bet table, how to read its
result event, how one spot settles (a pure function, shared with the exact
house-edge tools), and the outcome record.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Iterable, Mapping, Sequence

from controller.events import Bet, CloseBets, Event, Void
from controller.games.contract import (
    Alert, Effect, Outcome, Prompt, Reject, Round, RoundConfig, Settlement, check_stake, settle_fixed,
)
from controller.games.grid import BetTable, Shape, chips_make
from controller.money import Odds, fraction_of

SpotResult = tuple[str, Odds | None, str | None]  # (result, odds of a win, note)


class LayoutRules(ABC):
    """What one game adds to the shared round: its spots, its result, its settlement."""

    game_name: str = ""
    again: str = "Spin again"  # what the croupier does after a void
    result_words: str = "the result"
    result_event: str = "wheel"  # the event type that carries the result
    seed_rule: str = ""  # SE: the seed's rule list, such as "seed 000 Roulett rule" (rules 5-7 are cited)

    def __init__(self, config: RoundConfig) -> None:
        self.config = config
        self.table = self.build_table()

    def __deepcopy__(self, memo: dict[int, Any]) -> "LayoutRules":
        return self  # immutable once built

    @abstractmethod
    def build_table(self) -> BetTable:
        """Every legal spot of this table."""

    @abstractmethod
    def read_result(self, event: Event) -> Any:
        """The result carried by ``event`` (hashable), or ``Reject`` if it is not one or not valid."""

    @abstractmethod
    def spot_result(self, shape: Shape, result: Any) -> SpotResult:
        """How one unit on ``shape`` settles against ``result``."""

    @abstractmethod
    def outcome_data(self, result: Any) -> dict[str, Any]:
        """The outcome record a display shows (number, dice, colour, ...)."""

    # -- limits shared by the SE games (seed 000 Roulett/Tärning rules 5-7)

    @property
    def swedish(self) -> bool:
        return self.config.variant.startswith("se")

    def legal_maximum(self) -> int | None:
        """SE: 1/6000 of the price base amount, per chip and per player and spot (rules 5, 6)."""
        if not self.swedish:
            return None
        return fraction_of(self.config["price_base_amount"], 1, 6000)

    def limit(self, shape: Shape) -> tuple[int, int | None]:
        """(minimum, maximum) of one player's stake on one spot: the spot's own limit, else its kind's."""
        limits = self.config["limits"]
        low, high = limits.get(shape.name) or limits.get(shape.kind) or (0, None)
        legal = self.legal_maximum()
        if legal is not None:
            high = legal if high is None else min(high, legal)
        return low, high


def validate_layout_config(rules: LayoutRules) -> None:
    """Table set-up errors shared by the layout games: limit keys, chip values, legal SE maxima."""
    config = rules.config
    names = {s.name for s in rules.table} | set(rules.table.kinds)
    for key, (low, high) in config["limits"].items():
        if key not in names:
            raise ValueError(f"limits: {key!r} is neither a bet nor a kind of bet at this {config.game} table "
                             f"(kinds: {', '.join(rules.table.kinds)})")
    legal = rules.legal_maximum()
    if legal is None:
        return
    for value in config.get("chip_values", ()):
        if value > legal:
            raise ValueError(f"chip_values: a chip of {value} is above 1/6000 of the price base amount "
                             f"({legal}; {rules.seed_rule} 5)")
    for key, (low, high) in config["limits"].items():
        if high is not None and high > legal:
            raise ValueError(f"limits.{key}: maximum {high} is above 1/6000 of the price base amount "
                             f"({legal}; {rules.seed_rule} 6)")
        if low > legal:
            raise ValueError(f"limits.{key}: minimum {low} is above 1/6000 of the price base amount ({legal})")


class LayoutRound(Round):
    """Bets, no more bets, voids, then one result settles every spot."""

    def __init__(self, config: RoundConfig, rules: LayoutRules, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.rules = rules
        self.bets: list[Bet] = list(carried)
        self.betting_open = True
        self.voids: list[dict[str, Any]] = []
        self.result: Any = None
        self.done = False
        self._settlements: list[Settlement] = []

    # -- snapshots: everything the round holds is immutable but its lists, so copying the lists suffices
    # (a full layout holds hundreds of bets; the base class's deep copy on every event would cost O(n) each)

    def _snapshot(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}

    def _restore(self, saved: dict[str, Any]) -> None:
        self.__dict__.clear()
        self.__dict__.update(saved)

    # -- bets

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        return self.rules.limit(self.rules.table.shape(spot))

    def _place(self, bet: Bet) -> Iterable[Effect]:
        if not self.betting_open:
            raise Reject("no more bets: the bets are closed for this round")
        seats = self.config["seats"]
        if not 1 <= bet.seat <= seats:
            raise Reject(f"there is no seat {bet.seat} at this table (seats 1 to {seats})")
        shape = self.rules.table.shape(bet.spot)
        if self.rules.swedish:
            if bet.player is None:
                raise Reject(f"name the chip colour of this bet (player): every player plays one colour "
                             f"({self.rules.seed_rule} 7)")
            for other in self.bets:
                if other.player == bet.player and other.seat != bet.seat:
                    raise Reject(f"colour {bet.player} already plays at seat {other.seat}: one colour is one player "
                                 f"({self.rules.seed_rule} 7)")
        same = [b for b in self.bets if (b.seat, b.player, b.spot) == (bet.seat, bet.player, bet.spot)]
        if bet.amount is None:
            if same:
                raise Reject(f"seat {bet.seat}{self._who(bet)} already has a bet on {bet.spot}")
            self.bets.append(bet)
            return ()
        if bet.amount == 0:
            raise Reject(f"a bet on {bet.spot} must be more than 0")
        if any(b.amount is None for b in same):
            raise Reject(f"seat {bet.seat}{self._who(bet)} {bet.spot} is already marked as playing without an amount")
        chips = self.config.get("chip_values", ())
        if chips and not chips_make(bet.amount, chips):
            raise Reject(f"{bet.spot}: {bet.amount} cannot be made of this table's chips "
                         f"({', '.join(map(str, sorted(chips)))})")
        low, high = self.rules.limit(shape)
        total = bet.amount + sum(b.amount or 0 for b in same)
        if high is not None and total > high:
            legal = self.rules.legal_maximum()
            why = f" ({self.rules.seed_rule} 6: 1/6000 of the price base amount)" if high == legal else ""
            raise Reject(f"{bet.spot}: {total}{' in all' if same else ''} for seat {bet.seat}{self._who(bet)} is "
                         f"above the maximum of {high} per player and spot{why}")
        check_stake(bet.spot, total, low, high)
        if same:
            self.bets = [b for b in self.bets if b not in same] + [Bet(bet.seat, bet.spot, total, bet.player)]
        else:
            self.bets.append(bet)
        return ()

    @staticmethod
    def _who(bet: Bet) -> str:
        return f" ({bet.player})" if bet.player else ""

    # -- result and voids

    def _void(self, event: Void) -> Iterable[Effect]:
        record = {"by": event.by or "croupier", "reason": event.reason}
        self.voids.append(record)
        text = f"Omslag: {event.reason} (called by {record['by']}). The bets stay. {self.rules.again}."
        return (Alert("void", text), Prompt(self.waiting_for(), expects=self._expects()))

    def _settle(self, result: Any) -> list[Effect]:
        self.result = result
        self.betting_open = False
        self.done = True
        effects: list[Effect] = [Outcome(self.outcome() or {})]
        for bet in self.bets:
            shape = self.rules.table.shape(bet.spot)
            kind, odds, note = self.rules.spot_result(shape, result)
            settlement = settle_fixed(bet, kind, odds, note=note)
            self._settlements.append(settlement)
            effects.append(settlement)
        return effects

    def _expects(self) -> tuple[str, ...]:
        words = ("bet", "close_bets") if self.betting_open else ()
        return words + (self.rules.result_event, "void")

    # -- the contract

    def _apply(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Bet):
            return self._place(event)
        if isinstance(event, CloseBets):
            if not self.betting_open:
                raise Reject("the bets are already closed")
            self.betting_open = False
            return (Prompt(f"No more bets. {self.rules.result_words.capitalize()}, please", expects=self._expects()),)
        if isinstance(event, Void):
            return self._void(event)
        result = self.rules.read_result(event)
        return self._settle(result)

    @property
    def complete(self) -> bool:
        return self.done

    def closed_reason(self, event: Event) -> str:
        return f"the round is settled ({self._result_text()}); this belongs to the next round"

    def _result_text(self) -> str:
        data = self.rules.outcome_data(self.result)
        return ", ".join(f"{k} {v}" for k, v in data.items() if k in ("number", "dice", "total"))

    def waiting_for(self) -> str:
        if self.done:
            return "nothing: the round is settled"
        if self.betting_open:
            return f"bets, then no more bets and {self.rules.result_words}"
        voided = f" ({len(self.voids)} void{'s' if len(self.voids) > 1 else ''} so far)" if self.voids else ""
        return f"{self.rules.result_words}{voided}"

    def outcome(self) -> Mapping[str, Any] | None:
        if not self.done:
            return None
        data = self.rules.outcome_data(self.result)
        data["voids"] = [dict(v) for v in self.voids]
        return data

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)
