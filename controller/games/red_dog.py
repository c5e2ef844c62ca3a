"""Red Dog (seed 002 "Red Dog"): a bet on where a third card falls between two, six decks.

Bets on the spots (several players on one spot, each deciding alone:
``player``); two cards face up. Consecutive ranks: no third card, every
stake pushes. A pair: no raise; the third card makes three of a kind (11 to
1) or a push. Otherwise the spread (the number of ranks strictly between the
two, ace high) sets the odds, every player may raise up to the bet, and the
third card wins when it falls strictly between. The rules of one stake are
the plain functions ``spread_of``, ``odds_for`` and ``stake_result``, which
the house-edge tool settles through. ``controller.games.bulldog`` is this
game with a third card to every spot.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, Void
from controller.games.banked_poker import odds_of
from controller.games.contract import (
    ActionSpec, BetsThenCardsRound, Effect, GameSpec, OptionSpec, Outcome, Prompt, ReaderSpec, Reject, RoundConfig,
    Settlement, SpotSpec, VariantSpec, check_stake, handles, settle_fixed, settle_void,
)
from controller.money import Odds

PLAYERS_PER_SPOT = 3

# --------------------------------------------------------------------------- the rules as functions


def spread_of(first: Card, second: Card) -> int | None:
    """Ranks strictly between the two cards (ace high); None for a pair, 0 for consecutive cards."""
    if first.rank == second.rank:
        return None
    return abs(first.rank - second.rank) - 1


def odds_for(table: Mapping[str, Any], spread: int | None) -> Odds:
    """The odds of a spread (or, for a pair, of three of a kind) from the paytable."""
    if spread is None:
        return odds_of(table, "three_of_a_kind")
    if str(spread) in table["spread"]:
        return odds_of(table["spread"], str(spread))
    return odds_of(table, "spread_rest")


def stake_result(table: Mapping[str, Any], first: Card, second: Card,
                 third: Card | None) -> tuple[str, Odds | None]:
    """One stake (bet or raise) on the two cards and its third card (None: consecutive, no third card)."""
    spread = spread_of(first, second)
    if spread == 0:
        return "push", None
    assert third is not None
    if spread is None:
        return ("win", odds_for(table, None)) if third.rank == first.rank else ("push", None)
    low, high = sorted((first.rank, second.rank))
    return ("win", odds_for(table, spread)) if low < third.rank < high else ("lose", None)


def odds_words(table: Mapping[str, Any], spread: int | None) -> str:
    odds = odds_for(table, spread)
    if spread is None:
        return f"a pair: no raise, three of a kind pays {odds}"
    return f"spread {spread}, pays {odds}"


# --------------------------------------------------------------------------- the round


class RedDogRound(BetsThenCardsRound):
    """Bets, two cards, raises while a spread is open, the third card(s), settlement."""

    game_name = "Red Dog"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = list(carried)
        self.raises: list[Bet] = []
        self.cards: list[Card] = []
        self.phase = "bets"  # bets -> base -> raise -> third -> done
        self.betting_open = True
        self.outcome_data: dict[str, Any] | None = None
        self._settlements: list[Settlement] = []

    @property
    def table(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self.config.paytable[self.config.variant]
        return table

    # ------------------------------------------------------------------ for Bulldog

    def third_targets(self) -> list[int]:
        """The spots that get a third card, in the order it is dealt (Red Dog: one card for all, 0)."""
        return [0]

    # ------------------------------------------------------------------ helpers

    def spots_in_play(self) -> list[int]:
        return sorted({b.seat for b in self.bets})

    def bet_of(self, seat: int, player: str | None) -> Bet | None:
        return next((b for b in self.bets if b.seat == seat and b.player == player), None)

    def spread(self) -> int | None:
        return spread_of(self.cards[0], self.cards[1])

    def limit_of(self, spot: str) -> tuple[int, int | None]:
        configured = self.config["limits"].get(spot)
        return configured if configured else (0, None)

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        return self.limit_of(spot)

    # ------------------------------------------------------------------ events

    @handles(Bet)
    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the cards are being dealt")
        if bet.spot == "raise":
            raise Reject("a raise is placed by the raise decision once the spread is announced, not as a bet")
        if bet.spot != "bet":
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: bet)")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no spot {bet.seat} at this table (spots 1 to {self.config['boxes']})")
        if self.bet_of(bet.seat, bet.player) is not None:
            who = f"player {bet.player}" if bet.player else "the spot's holder"
            raise Reject(f"spot {bet.seat}: {who} already has a bet")
        here = [b for b in self.bets if b.seat == bet.seat]
        if len(here) >= PLAYERS_PER_SPOT:
            raise Reject(f"spot {bet.seat} has {PLAYERS_PER_SPOT} players: at most three on one spot (002)")
        if bet.player is not None and any(b.player == bet.player and b.seat != bet.seat for b in self.bets):
            raise Reject(f"player {bet.player} already plays another spot: one spot a player (002)")
        low, high = self.limit_of("bet")
        check_stake("bet", bet.amount, low, high)
        self.bets.append(bet)
        return []

    def _close(self) -> list[Effect]:
        if not self.bets:
            raise Reject("no bets: nothing to deal")
        self.phase = "base"
        self.betting_open = False
        return [Prompt("No more bets. First card", expects=("card",))]

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if card.is_joker:
            raise Reject(f"a joker is not part of the {self.game_name} shoe")
        if self.phase == "bets":
            effects.extend(self._close())
        if self.phase == "done":
            raise Reject("no card expected now")
        if sum(1 for c in self.cards if c == card) >= self.config["decks"]:
            raise Reject(f"{card} is out once more than the {self.config['decks']}-deck shoe holds: check the shoe")
        self.cards.append(card)
        if self.phase == "base":
            if len(self.cards) == 1:
                return effects + [Prompt("Second card", expects=("card",))]
            spread = self.spread()
            if spread == 0:
                return effects + self._finish()
            if spread is None:
                self.phase = "third"
                return effects + [Prompt(f"{odds_words(self.table, None)}. {self._next_card_words()}",
                                         expects=("card",))]
            self.phase = "raise"
            return effects + [Prompt(f"{odds_words(self.table, spread)}. Raises, then the third card",
                                     expects=("action", "card"))]
        self.phase = "third"
        if len(self.cards) - 2 < len(self.third_targets()):
            return effects + [Prompt(self._next_card_words(), expects=("card",))]
        return effects + self._finish()

    def _next_card_words(self) -> str:
        targets = self.third_targets()
        target = targets[len(self.cards) - 2]
        return "Third card" if target == 0 else f"Third card to spot {target}"

    @handles(Action)
    def _raise(self, action: Action) -> list[Effect]:
        if action.action != "raise":
            raise Reject(f"'{action.action}' is not a decision at {self.game_name} (raise, with an amount)")
        if self.phase != "raise":
            if self.phase == "third" and self.spread() is None:
                raise Reject("a pair: no raise (002 C)")
            if self.phase == "third":
                raise Reject("the third card is out: no more raises")
            raise Reject(f"no raise now: raises only after the two cards show a spread (waiting for "
                         f"{self.waiting_for()})")
        if action.hand is not None or action.multiple is not None or action.cards is not None:
            raise Reject("a raise takes the spot, the player and the amount only")
        bet = self.bet_of(action.seat, action.player)
        if bet is None:
            who = f"player {action.player}" if action.player else "the spot's holder"
            raise Reject(f"spot {action.seat}: {who} has no bet to raise")
        if any(r.seat == action.seat and r.player == action.player for r in self.raises):
            raise Reject(f"spot {action.seat}: {action.player or 'the holder'} has already raised")
        amount = action.amount if action.amount is not None else bet.amount
        if bet.amount is None:
            if action.amount is not None:
                raise Reject("the bet's amount is not known: raise without an amount (as much as the bet)")
        elif amount is None or amount <= 0:
            raise Reject("a raise must be more than 0")
        elif amount > bet.amount:
            raise Reject(f"spot {action.seat}: a raise of {amount} is more than the bet of {bet.amount}: at most "
                         "doubling (002)")
        self.raises.append(Bet(action.seat, "raise", amount, action.player))
        return [Prompt("Raised. Raises, then the third card", expects=("action", "card"))]

    def _finish(self) -> list[Effect]:
        self.phase = "done"
        first, second = self.cards[0], self.cards[1]
        spread = self.spread()
        targets = self.third_targets() if spread != 0 else []
        thirds = dict(zip(targets, self.cards[2:]))
        effects: list[Effect] = []
        spots = []
        for seat in self.spots_in_play():
            third = thirds.get(seat, thirds.get(0))
            for bet in [b for b in self.bets if b.seat == seat]:
                result, odds = stake_result(self.table, first, second, third)
                raised = [r for r in self.raises if r.seat == seat and r.player == bet.player]
                for stake in [bet] + raised:
                    settlement = settle_fixed(stake, result, odds,
                                              note="consecutive cards: no third card" if spread == 0 else None)
                    effects.append(settlement)
            spots.append({"spot": seat, "third": str(third) if third is not None else None})
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        self.outcome_data = {"cards": [str(first), str(second)],
                             "spread": spread, "pair": spread is None, "consecutive": spread == 0,
                             "odds": odds_for(self.table, spread).as_list() if spread != 0 else None,
                             "third": [str(c) for c in self.cards[2:]]}
        if targets != [0]:
            self.outcome_data["spots"] = spots
        return [Outcome(self.outcome_data)] + effects

    @handles(Void)
    def _void(self, event: Void) -> list[Effect]:
        self.phase = "done"
        self.outcome_data = {"void": event.reason}
        effects: list[Effect] = [Outcome(self.outcome_data)]
        settlements = settle_void(self.bets + self.raises, event.reason)
        self._settlements.extend(settlements)
        effects.extend(settlements)
        return effects

    # ------------------------------------------------------------------ the contract

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    def waiting_for(self) -> str:
        if self.phase == "done":
            return "nothing: the round is settled"
        if self.phase == "bets":
            return "bets, then no more bets"
        if self.phase == "base":
            return "first card" if not self.cards else "second card"
        if self.phase == "raise":
            return "raises (up to the bet), then the third card"
        return self._next_card_words().lower()

    def outcome(self) -> Mapping[str, Any] | None:
        return self.outcome_data

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)

    def wants_raise(self, seat: int, player: str | None) -> bool:
        """The stated strategy (virtual players): raise the full bet on a spread of 7 or more (not a rule)."""
        spread = self.spread() if len(self.cards) >= 2 else None
        return self.phase == "raise" and spread is not None and spread >= 7


# --------------------------------------------------------------------------- the declaration


def validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot != "bet":
            raise ValueError(f"limits: no spot {spot!r} in {config.game} (bet; the raise is at most the bet)")


def options() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("boxes", 7, "spots at the table (002 is silent)", minimum=1, maximum=9),
        OptionSpec("decks", 6, "decks in the shoe (002: six)", minimum=1, maximum=8),
        OptionSpec("limits", {}, "[minimum, maximum] of a bet in minor units (bet; the raise is at most the bet)",
                   kind="limits"),
    )


def spots() -> tuple[SpotSpec, ...]:
    return (
        SpotSpec("bet", "the bet; up to three players on one spot, each with its own bet (player)", "table limits"),
        SpotSpec("raise", "placed by the raise decision: at most the bet (002: at most doubling it)",
                 "at most the bet"),
    )


SPEC = GameSpec(
    id="red-dog",
    name="Red Dog",
    seeds=("002 Red Dog",),
    variants=(VariantSpec("fi", "Finnish casino rules: six decks, 11/5/4/2/1", "002 Red Dog"),),
    options=options(),
    spots=spots(),
    actions=(ActionSpec("raise", "after a spread is announced: raise up to the bet (amount; none: the whole bet)"),),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="red-dog",
    new_round=lambda config, carried: RedDogRound(config, carried),
    paytable_file="red-dog.toml",
    interpretations=(
        "The spread is the number of ranks strictly between the two cards, ace high (RULES-NOTES.md).",
        "Consecutive cards: no third card and every stake pushes; the players may then leave, change or take back "
        "their bets for the next round (002 B), so nothing carries by itself.",
        "A pair: no raise; the third card makes three of a kind (11 to 1) or a push (002 C).",
        "A third card equal in rank to either of the two loses: it is not between them.",
        "Up to three players on one spot, each with their own bet (player) and their own raise; a named player "
        "plays one spot only (002: 'en spelare reservera endast en spelplats').",
        "A raise without an amount raises the whole bet; raises are taken until the croupier deals the third card.",
        "The raise is paid at the same odds as the bet (002: 'Odds för bet- och raise-insatser').",
    ),
    validate=validate,
)
