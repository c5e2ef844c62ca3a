"""Three Card Poker (seed 002 "Three Card Poker").

Ante, then fold or play (play equal to the ante); the dealer opens with queen
high or better. The rules of one box are the plain functions ``contest``,
``main_results`` and ``pair_plus_result`` so that the exact house-edge tool
settles through the very same code as the ``Round``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.events import Bet
from controller.games.banked_poker import DEALER, BankedPokerRound, odds_of, one_at_a_time
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, OptionSpec, Outcome, Reject, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.contract import ReaderSpec
from controller.hands.qualifiers import queen_high_or_better
from controller.hands.three import three_card
from controller.money import Odds

VERSUS = ("no_qualify", "player_higher", "tie", "dealer_higher")

# --------------------------------------------------------------------------- the rules as functions


def contest(player: Any, dealer: Any) -> str:
    """How a played hand stands against the dealer: one of ``VERSUS``."""
    if not queen_high_or_better(dealer):
        return "no_qualify"
    if player.value > dealer.value:
        return "player_higher"
    return "tie" if player.value == dealer.value else "dealer_higher"


def ante_bonus_table(config: RoundConfig) -> Mapping[str, Any]:
    name = config["ante_bonus"]
    table: Mapping[str, Any] = config.paytable[config.variant]["ante_bonus"] if name == "seed" else \
        config.paytable["ante_bonus_tables"][name]
    return table


def main_results(config: RoundConfig, category: str, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
    """Ante, play and ante bonus of one box: ``{spot: (result, odds)}``; ``versus`` None means folded.

    002: a fold loses the ante; a dealer below queen high pays the ante 1 to 1 and
    returns the play; otherwise the better hand wins ante and play (a tie is a
    push: the seed is silent, common practice). The ante bonus is paid on a
    played hand whatever the dealer holds.
    """
    table = config.paytable[config.variant]
    if versus is None:
        return {"ante": ("lose", None)}
    out: dict[str, tuple[str, Odds | None]]
    if versus == "no_qualify":
        out = {"ante": ("win", odds_of(table, "ante")), "play": ("push", None)}
    elif versus == "player_higher":
        out = {"ante": ("win", odds_of(table, "ante")), "play": ("win", odds_of(table, "play"))}
    elif versus == "tie":
        out = {"ante": ("push", None), "play": ("push", None)}
    else:
        out = {"ante": ("lose", None), "play": ("lose", None)}
    bonus = ante_bonus_table(config)
    if category in bonus:
        out["ante_bonus"] = ("win", odds_of(bonus, category))
    return out


def pair_plus_result(config: RoundConfig, category: str, played: bool) -> tuple[str, Odds | None]:
    """Pair Plus on the box's own three cards; 002: a fold loses it too."""
    table = config.paytable[config.variant]["pair_plus"]
    if not played or category not in table:
        return "lose", None
    return "win", odds_of(table, category)


# --------------------------------------------------------------------------- the round


class ThreeCardPokerRound(BankedPokerRound):
    """Bets, three cards each (one at a time, boxes from the dealer's left, then the dealer), decisions, showdown."""

    main_spot = "ante"
    side_spots = ("pair_plus",)
    action_spots = ("play",)
    decisions = ("fold", "play")
    game_name = "Three Card Poker"

    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        return one_at_a_time(boxes, 3, dealer=True)

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot == "pair_plus" and self.bet_of(bet.seat, "ante") is None:
            raise Reject(f"box {bet.seat}: Pair Plus needs the ante first (a fold loses both, 002)")

    def _decision_stakes(self, seat: int, action: str) -> list[Bet]:
        if action != "play":
            return []
        ante = self.bet_of(seat, "ante")
        assert ante is not None
        return [Bet(seat, "play", ante.amount)]  # 002: play equal to the ante

    def _settle(self) -> list[Effect]:
        dealer = three_card(self.hand_of(DEALER))
        effects: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in self.boxes_in_play():
            hand = three_card(self.hand_of(seat))
            played = self.decided[seat] == "play"
            versus = contest(hand, dealer) if played else None
            results = main_results(self.config, hand.category, versus)
            for spot in ("ante", "play"):
                bet = self.bet_of(seat, spot)
                if bet is not None and spot in results:
                    effects.append(self.settle(bet, *results[spot]))
            if "ante_bonus" in results:
                ante = self.bet_of(seat, "ante")
                assert ante is not None
                effects.append(self.settle(Bet(seat, "ante_bonus", ante.amount), *results["ante_bonus"],
                                           note=f"ante bonus on the ante stake: {hand.name}, whatever the dealer holds"))
            pair_plus = self.bet_of(seat, "pair_plus")
            if pair_plus is not None:
                result, odds = pair_plus_result(self.config, hand.category, played)
                effects.append(self.settle(pair_plus, result, odds, note=None if played else "folded"))
            box = self.box_outcome(seat, hand)
            box["versus"] = versus
            boxes.append(box)
        self.outcome_data = {
            "dealer": {"cards": [str(c) for c in self.hand_of(DEALER)], "hand": dealer.name,
                       "qualifies": bool(queen_high_or_better(dealer))},
            "boxes": boxes,
        }
        return [Outcome(self.outcome_data)] + effects


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "pair_plus"):
            raise ValueError(f"limits: no spot {spot!r} in three-card-poker (the play stake equals the ante)")
    if config["ante_bonus"] != "seed" and config["ante_bonus"] not in config.paytable.get("ante_bonus_tables", {}):
        raise ValueError(f"ante_bonus: no table {config['ante_bonus']!r} in three-card-poker.toml")


SPEC = GameSpec(
    id="three-card-poker",
    name="Three Card Poker",
    seeds=("002 Three Card Poker",),
    variants=(
        VariantSpec("fi", "Finnish casino rules: ante bonus 3/2/1, Pair Plus 40/30/6/3/1", "002 Three Card Poker"),
    ),
    options=(
        OptionSpec("boxes", 6, "boxes at the table", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units (ante, pair_plus)", kind="limits"),
        OptionSpec("ante_bonus", "seed", "ante bonus table: the seed's 3/2/1, or another posted in the paytable file",
                   kind="choice", choices=("seed", "5-4-1")),
    ),
    spots=(
        SpotSpec("ante", "the ante, needed to play", "table limits"),
        SpotSpec("play", "placed by the play decision, equal to the ante (002)", "equal to the ante"),
        SpotSpec("pair_plus", "Pair Plus on the box's own three cards; needs an ante (002)", "table limits"),
    ),
    actions=(
        ActionSpec("fold", "give up the hand: ante and Pair Plus are lost (002)"),
        ActionSpec("play", "go on: a play stake equal to the ante is placed (002)"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="poker",
    new_round=lambda config, carried: ThreeCardPokerRound(config, carried),
    paytable_file="three-card-poker.toml",
    interpretations=(
        "A tie between a played hand and a qualifying dealer is a push of ante and play (002 is silent; common practice).",
        "The ante bonus is paid on every played hand that earns it, also when the dealer wins or does not qualify "
        "(002: 'Dealerns hand påverkar inte extravinsten'); it settles as its own line, spot 'ante_bonus', "
        "on the ante stake.",
        "A fold loses the Pair Plus bet as well (002: 'mister de insatser han har lagt i anterutan och i "
        "pairplusrutan'), so a Pair Plus bet needs an ante.",
        "Cards are dealt one at a time, boxes from the dealer's left (box 1) and the dealer last in each turn (002).",
    ),
    validate=lambda config: _validate(config),
)
