"""Hold em of the Swedish restaurant casinos (seed 000 "Hold em" rules 1-12, "Vinsttabell", "Bonusspel" 1-7).

No dealer hand: a box wins when its best five cards, using at least one of
its own two, make a pair of kings or better (RULES-NOTES.md). Two dark cards
to each box, burn, the flop; each box calls (a stake equal to the ante) or
folds; burn, turn, burn, river. The bonus pays on the box's own two cards and
is settled after the main game; a fold loses it. The rules of one box are
plain functions shared with the house-edge tool.
"""

from __future__ import annotations

from typing import Any, Sequence

from controller.cards import Card
from controller.events import Bet
from controller.games.banked_poker import BOARD, BURN, BankedPokerRound, StakeRule, odds_of, one_at_a_time
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, OptionSpec, Outcome, Reject, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.contract import ReaderSpec
from controller.hands.high import best_holdem_using_hole
from controller.hands.qualifiers import pair_or_better
from controller.money import Odds, fraction_of

# --------------------------------------------------------------------------- the rules as functions


def legal_maximum(config: RoundConfig, spot: str) -> int | None:
    """Rule 7 and bonus rule 4: the ante at most 1/1200, the bonus at most 1/600 of the price base amount."""
    key = {"ante": "ante_max_fraction", "call": "ante_max_fraction", "bonus": "bonus_max_fraction"}.get(spot)
    if key is None:
        return None
    num, den = config.paytable[config.variant][key]
    return fraction_of(config["price_base_amount"], int(num), int(den))


def main_result(config: RoundConfig, hand: Any | None) -> tuple[str, Odds | None]:
    """Ante and call together: ``hand`` is the box's best hand (None when it folded)."""
    table = config.paytable[config.variant]
    if hand is None or not pair_or_better(hand, int(table["qualifying_pair_rank"])):
        return "lose", None
    return "win", odds_of(table["pay"], hand.category)


def bonus_line(hole: Sequence[Card]) -> str | None:
    """Bonus rules 6-7 on the two own cards: ``ace_king_or_pair``, ``ace_or_king`` or None."""
    ranks = sorted(c.rank for c in hole)
    if ranks[0] == ranks[1] or ranks == [13, 14]:
        return "ace_king_or_pair"
    return "ace_or_king" if 13 in ranks or 14 in ranks else None


def bonus_result(config: RoundConfig, hole: Sequence[Card], played: bool) -> tuple[str, Odds | None]:
    """The bonus, settled after the main game (bonus rule 5); a fold loses it (RULES-NOTES.md)."""
    line = bonus_line(hole)
    if not played or line is None:
        return "lose", None
    return "win", odds_of(config.paytable[config.variant]["bonus"], line)


# --------------------------------------------------------------------------- the round


class HoldemRound(BankedPokerRound):
    """Two cards each (rule 8), burn and flop, decisions (rule 9), burn and turn, burn and river (rules 10-11)."""

    main_spot = "ante"
    side_spots = ("bonus",)
    action_spots = ("call",)
    decisions = ("fold", "call")
    game_name = "Hold em"

    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        return one_at_a_time(boxes, 2, dealer=False) + [BURN, BOARD, BOARD, BOARD]

    def _second_plan(self, playing: Sequence[int]) -> list[int]:
        return [BURN, BOARD, BURN, BOARD] if playing else []

    def _stake_rule(self, spot: str) -> StakeRule:
        rule = "1/1200 of the price base amount, 000 Hold em rule 7" if spot != "bonus" else \
            "1/600 of the price base amount, 000 Bonusspel vid Hold em rule 4"
        return StakeRule(legal_max=legal_maximum(self.config, spot), rule=rule)

    players_named = True

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot == "bonus" and self.bet_of(bet.seat, "ante") is None:
            raise Reject(f"box {bet.seat}: the bonus needs the ante first (bonus rules 1 and 3)")
        if bet.player is not None:
            boxes = sorted({b.seat for b in self.bets if b.player == bet.player} | {bet.seat})
            if boxes[-1] - boxes[0] != len(boxes) - 1:
                raise Reject(f"player {bet.player} plays boxes {', '.join(map(str, boxes))}: several boxes only "
                             "side by side (rule 5)")

    def _decision_stakes(self, seat: int, action: str) -> list[Bet]:
        if action != "call":
            return []
        ante = self.bet_of(seat, "ante")
        assert ante is not None
        return [Bet(seat, "call", ante.amount, ante.player)]  # rule 9: as large as the ante

    def _settle(self) -> list[Effect]:
        board = self.hand_of(BOARD)
        effects: list[Effect] = []
        bonus_effects: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in self.boxes_in_play():
            hole = self.hand_of(seat)
            played = self.decided[seat] == "call"
            hand = best_holdem_using_hole(hole, board, 1) if played else None
            result, odds = main_result(self.config, hand)
            for spot in ("ante", "call"):
                bet = self.bet_of(seat, spot)
                if bet is not None:
                    effects.append(self.settle(bet, result, odds))
            bonus = self.bet_of(seat, "bonus")
            if bonus is not None:
                b_result, b_odds = bonus_result(self.config, hole, played)
                bonus_effects.append(self.settle(bonus, b_result, b_odds, note=None if played else "folded"))
            box = self.box_outcome(seat, hand)
            box["wins"] = result == "win"
            boxes.append(box)
        self.outcome_data = {"board": [str(c) for c in board], "boxes": boxes}
        return [Outcome(self.outcome_data)] + effects + bonus_effects


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot, (low, high) in config["limits"].items():
        if spot not in ("ante", "bonus"):
            raise ValueError(f"limits: no spot {spot!r} in restaurant-holdem (ante, bonus; the call equals the ante)")
        legal = legal_maximum(config, spot)
        if legal is not None and (high is None or high > legal):
            fraction = "1/1200" if spot == "ante" else "1/600"
            rule = "rule 7" if spot == "ante" else "bonus rule 4"
            raise ValueError(f"limits.{spot}: maximum {high} is above the legal {fraction} of the price base "
                             f"amount ({legal}; seed 000 Hold em {rule})")


SPEC = GameSpec(
    id="restaurant-holdem",
    name="Hold em (restaurant casino)",
    seeds=("000 Hold em rules 1-12", "000 Vinsttabell", "000 Bonusspel vid Hold em rules 1-7"),
    variants=(
        VariantSpec("se", "Swedish restaurant casino: pair of kings or better wins, bonus on the own two cards",
                    "000 Hold em rules 1-12, Vinsttabell, Bonusspel rules 1-7"),
    ),
    options=(
        OptionSpec("boxes", 9, "boxes at the table (rule 4: at most 9)", minimum=1, maximum=9),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in öre (ante, bonus)", kind="limits"),
        OptionSpec("price_base_amount", 5_920_000, "the year's prisbasbelopp in öre (59 200 SEK for 2026)",
                   kind="amount", minimum=1),
    ),
    spots=(
        SpotSpec("ante", "grundinsats, needed to play", "at most 1/1200 of the price base amount (000 Hold em rule 7)"),
        SpotSpec("call", "placed by the call decision, equal to the ante (rule 9)", "equal to the ante"),
        SpotSpec("bonus", "bonus on the box's own two cards; needs the ante (bonus rules 1-3)",
                 "at most 1/600 of the price base amount (000 Bonusspel rule 4)"),
    ),
    actions=(
        ActionSpec("fold", "give up after the flop: the ante and the bonus are lost (rule 9)"),
        ActionSpec("call", "go on: a stake equal to the ante is placed (rule 9)"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="poker",
    new_round=lambda config, carried: HoldemRound(config, carried),
    paytable_file="restaurant-holdem.toml",
    interpretations=(
        "Rule 6 says 'lägst tvåpar' but the Vinsttabell starts at a pair of kings: the table wins "
        "(RULES-NOTES.md), and rule 6's 'at least one own card' holds: a board's two pair with an own kicker wins.",
        "The payout applies to ante and call together; a box that calls and misses loses both.",
        "The two own cards are dealt one at a time, boxes from the dealer's left (box 1 first); one card is burned "
        "before the flop, the turn and the river (rules 8, 10, 11). When every box folds, no turn or river is dealt.",
        "Bonus rule 6-7: A-A and K-K are pairs and pay 3 to 2; one ace or one king pays 1 to 1.",
        "A bonus bet needs the ante already on the box; a fold loses the bonus (RULES-NOTES.md).",
        "Bets may name their player: one player per box, and one player's boxes must lie side by side (rule 5).",
    ),
    validate=lambda config: _validate(config),
)
