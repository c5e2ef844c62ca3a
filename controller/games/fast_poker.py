"""Fast Poker and Caribbean Fast Poker (seed 000 "Fast Poker och Caribbean Fast Poker" rules 1-22, the variant).

Three cards against the bank; fold or play (the play stake equals the bet, or
twice the bet in Caribbean Fast Poker); the bank opens with queen high. The
rules of one box are plain functions (``contest``, ``main_results``,
``bonus_result``) shared with the exact house-edge tool.
"""

from __future__ import annotations

from typing import Any, Sequence

from controller.events import Bet
from controller.games.banked_poker import DEALER, BankedPokerRound, StakeRule, odds_of, one_at_a_time
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, OptionSpec, Outcome, Reject, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.contract import ReaderSpec
from controller.games.three_card_poker import contest
from controller.hands.qualifiers import queen_high_or_better
from controller.hands.three import three_card
from controller.money import Odds

ABOVE_PAIR = ("straight_flush", "three_of_a_kind", "straight", "flush")

# --------------------------------------------------------------------------- the rules as functions


def main_results(config: RoundConfig, category: str, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
    """Bet and play of one box: ``{spot: (result, odds)}``; ``versus`` None means the box gave up.

    Rule 18: giving up loses the bet (the bonus too, see ``bonus_result``).
    Rule 20: a bank below queen high pays the bet 1 to 1 and returns the play.
    Rule 21: the higher hand wins bet and play 1 to 1, the play 3 to 2 above a pair.
    Rule 14: equal hands are a stand-off.
    """
    table = config.paytable[config.variant]
    if versus is None:
        return {"bet": ("lose", None)}
    if versus == "no_qualify":
        return {"bet": ("win", odds_of(table, "bet")), "play": ("push", None)}
    if versus == "tie":
        return {"bet": ("push", None), "play": ("push", None)}
    if versus == "dealer_higher":
        return {"bet": ("lose", None), "play": ("lose", None)}
    play = odds_of(table, "play_above_pair" if category in ABOVE_PAIR else "play")
    return {"bet": ("win", odds_of(table, "bet")), "play": ("win", play)}


def bonus_line(category: str, ranks: Sequence[int]) -> str | None:
    """Which bonus line a hand makes (rule 22): ``above_pair``, ``pair``, ``ace_high`` or None."""
    if category in ABOVE_PAIR:
        return "above_pair"
    if category == "pair":
        return "pair"
    return "ace_high" if 14 in ranks else None


def bonus_result(config: RoundConfig, category: str, ranks: Sequence[int], played: bool) -> tuple[str, Odds | None]:
    """Rule 22: the bonus wins or loses on the box's own cards whatever the bank holds; rule 18: a fold loses it."""
    line = bonus_line(category, ranks)
    if not played or line is None:
        return "lose", None
    return "win", odds_of(config.paytable[config.variant]["bonus"], line)


# --------------------------------------------------------------------------- the round


class FastPokerRound(BankedPokerRound):
    """Bets, three cards each one at a time clockwise (the bank last), decisions, showdown."""

    main_spot = "bet"
    side_spots = ("bonus",)
    action_spots = ("play",)
    decisions = ("fold", "play")
    game_name = "Fast Poker"

    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        return one_at_a_time(boxes, 3, dealer=True)  # rule 17

    def _stake_rule(self, spot: str) -> StakeRule:
        legal = self.config.paytable[self.config.variant]["legal_limits"].get(spot)
        if legal is None:
            return StakeRule()
        return StakeRule(legal[0], legal[1], "000 Fast Poker rule 11 and the variant")

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot == "bonus" and self.bet_of(bet.seat, "bet") is None:
            raise Reject(f"box {bet.seat}: the bonus needs a bet in the Bet box first (rule 16)")

    def _decision_stakes(self, seat: int, action: str) -> list[Bet]:
        if action != "play":
            return []
        bet = self.bet_of(seat, "bet")
        assert bet is not None
        multiple = int(self.config.paytable[self.config.variant]["play_multiple"])
        amount = None if bet.amount is None else bet.amount * multiple
        if amount is not None:
            low, high = self.limit_of("play")
            if amount < low or (high is not None and amount > high):
                raise Reject(f"box {seat}: a play stake of {amount} is outside the play limits {low}-{high}")
        return [Bet(seat, "play", amount)]

    def _settle(self) -> list[Effect]:
        dealer = three_card(self.hand_of(DEALER))
        effects: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in self.boxes_in_play():
            cards = self.hand_of(seat)
            hand = three_card(cards)
            played = self.decided[seat] == "play"
            versus = contest(hand, dealer) if played else None
            for spot, (result, odds) in main_results(self.config, hand.category, versus).items():
                bet = self.bet_of(seat, spot)
                if bet is not None:
                    effects.append(self.settle(bet, result, odds))
            bonus = self.bet_of(seat, "bonus")
            if bonus is not None:
                result, odds = bonus_result(self.config, hand.category, [c.rank for c in cards], played)
                effects.append(self.settle(bonus, result, odds, note=None if played else "gave up (rule 18)"))
            box = self.box_outcome(seat, hand)
            box["versus"] = versus
            boxes.append(box)
        self.outcome_data = {
            "dealer": {"cards": [str(c) for c in self.hand_of(DEALER)], "hand": dealer.name,
                       "qualifies": bool(queen_high_or_better(dealer))},
            "deal": self.config["deal"],
            "boxes": boxes,
        }
        return [Outcome(self.outcome_data)] + effects


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    legal = config.paytable[config.variant]["legal_limits"]
    for spot, (low, high) in config["limits"].items():
        if spot not in legal:
            raise ValueError(f"limits: no spot {spot!r} in fast-poker {config.variant} (bet, play, bonus)")
        lo, hi = legal[spot]
        if low < lo or (high is not None and high > hi):
            raise ValueError(f"limits.{spot}: [{low}, {high}] is outside the legal {lo}-{hi} öre "
                             f"(seed 000 Fast Poker rule 11{' and the variant' if config.variant != 'se' else ''})")


SPEC = GameSpec(
    id="fast-poker",
    name="Fast Poker",
    seeds=("000 Fast Poker och Caribbean Fast Poker rules 1-22", "000 Varianten Caribbean Fast Poker"),
    variants=(
        VariantSpec("se", "Fast Poker: play equal to the bet, 10-30 kronor", "000 Fast Poker rules 1-22"),
        VariantSpec("se-caribbean", "Caribbean Fast Poker: play twice the bet, bet 10-20 kronor",
                    "000 Varianten Caribbean Fast Poker"),
    ),
    options=(
        OptionSpec("boxes", 7, "boxes at the table", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in öre, within the legal limits", kind="limits"),
        OptionSpec("deal", "dark", "players' cards dealt face down or face up (rule 3)", kind="choice",
                   choices=("dark", "open")),
    ),
    spots=(
        SpotSpec("bet", "the Bet box, needed to play", "10-30 kronor; Caribbean 10-20 kronor (000 rule 11, the variant)"),
        SpotSpec("play", "placed by the play decision: the bet, or twice it in Caribbean (rule 19, the variant)",
                 "10-30 kronor; Caribbean 20-40 kronor"),
        SpotSpec("bonus", "the Bonus box on the box's own three cards; needs a bet (rules 16, 22)",
                 "10-60 kronor (000 rule 11)"),
    ),
    actions=(
        ActionSpec("fold", "give up: the bet and the bonus are lost (rule 18)"),
        ActionSpec("play", "go on: the play stake is placed (rule 19)"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="poker",
    new_round=lambda config, carried: FastPokerRound(config, carried),
    paytable_file="fast-poker.toml",
    interpretations=(
        "Rule 22 'Vid ess och par' reads as: ace high and a pair each pay 1 to 1; 'högre än par' (straight, "
        "flush, three of a kind, straight flush) pays 3 to 2; below ace high the bonus loses.",
        "Rule 18: a box that gives up loses its bonus too, even where its cards would have won it.",
        "Rule 20: when the bank does not qualify the bonus still settles on its own (it pays 'eventuell vinst').",
        "Rule 20 opens with 'Om banken har bättre spelhand än spelaren, förlorar spelaren' before the queen-high "
        "test; rule 21 repeats it for a qualifying bank, so it is read as the common rule: a bank below queen high "
        "pays the bet whatever the two hands are.",
        "The legal limits of rule 11 and the variant are hard limits: a configured limit outside them is a "
        "configuration error, a stake outside them is refused.",
        "Open or dark deal (rule 3) changes only what the croupier does with the cards, not the settlement.",
    ),
    validate=lambda config: _validate(config),
)
