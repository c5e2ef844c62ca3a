"""Texas Hold'em Bonus and Texas Hold'em Bonus Progressive (seed 002).

An ante, an optional bonus on the own two cards (and, with the
``progressive`` option, the progressive chip); two own cards each and the
dealer's two; before the flop the box folds (ante and bonus lost) or bets
twice the ante on the flop box; after the flop and after the turn it may bet
once the ante (turn and river boxes) or check; the river; the better hand
wins the flop, turn and river bets 1 to 1, and the ante 1 to 1 only with the
variant's hand (``a`` three tens, ``b`` a straight, ``c`` a flush, or better),
else the ante pushes. The bonus pays by table I or II (option ``bonus_table``)
whatever the dealer holds. The rules of one box are the plain functions
``main_results`` and ``bonus_result``, which the house-edge tool settles through.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet
from controller.games.banked_poker import BOARD, DEALER, odds_of
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, OptionSpec, Outcome, ReaderSpec, Reject, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.holdem_streets import (
    Street, StreetsRound, check_progressive_options, hand_key, progressive_cards, progressive_meters,
    progressive_options,
)
from controller.hands.high import CATEGORIES, best_high
from controller.money import Odds

BETS = ("flop", "turn", "river")  # the spots a bet decision stakes, street by street

# --------------------------------------------------------------------------- the rules as functions


def contest(player: Any, dealer: Any) -> str:
    """``player_higher``, ``tie`` or ``dealer_higher`` (best five of seven each; no dealer qualification)."""
    if player.value > dealer.value:
        return "player_higher"
    return "tie" if player.value == dealer.value else "dealer_higher"


def at_least(hand: Any, rule: Mapping[str, Any]) -> bool:
    """The hand is ``rule["category"]`` (of at least ``rule["rank"]``, where given) or a better category."""
    mine, least = CATEGORIES.index(hand.category), CATEGORIES.index(str(rule["category"]))
    if mine != least:
        return mine > least
    return "rank" not in rule or hand.ranks[0] >= int(rule["rank"])


def main_results(config: RoundConfig, hand: Any, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
    """Ante and the flop, turn and river bets of one box: ``{spot: (result, odds)}``; ``versus`` None: folded."""
    if versus is None:
        return {"ante": ("lose", None)}
    if versus == "tie":
        return {spot: ("push", None) for spot in ("ante",) + BETS}
    if versus == "dealer_higher":
        return {spot: ("lose", None) for spot in ("ante",) + BETS}
    table = config.paytable["main"]
    ante = ("win", odds_of(table, "ante")) if at_least(hand, table["ante_rule"][config.variant]) else ("push", None)
    return {"ante": ante, **{spot: ("win", odds_of(table, "bets")) for spot in BETS}}


def bonus_line(hole: Sequence[Card], dealer: Sequence[Card], table: Mapping[str, Any]) -> str | None:
    """The bonus line of the own two cards (``aces_against_aces`` where the table has it), or None."""
    high, low = sorted((c.rank for c in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if high == low:
        if high == 14:
            if "aces_against_aces" in table and all(c.rank == 14 for c in dealer):
                return "aces_against_aces"
            return "aces"
        return "kings_queens_or_jacks" if high >= 11 else "tens_or_lower"
    if high != 14 or low < 11:
        return None
    if low == 13:
        return "ace_king_suited" if suited else "ace_king_offsuit"
    return "ace_queen_or_jack_suited" if suited else "ace_queen_or_jack_offsuit"


def bonus_table(config: RoundConfig) -> Mapping[str, Any]:
    table: Mapping[str, Any] = config.paytable["bonus"][config["bonus_table"]]
    return table


def bonus_result(config: RoundConfig, hole: Sequence[Card], dealer: Sequence[Card],
                 played: bool) -> tuple[str, Odds | None]:
    """The bonus on the own two cards, whatever the dealer holds (II: the dealer's aces too); a fold loses it."""
    table = bonus_table(config)
    line = bonus_line(hole, dealer, table)
    if not played or line is None:
        return "lose", None
    return "win", odds_of(table, line)


# --------------------------------------------------------------------------- the round


class HoldemBonusRound(StreetsRound):
    """Bets, two cards each, bet 2x or fold; flop, bet 1x or check; turn, bet 1x or check; river; showdown."""

    main_spot = "ante"
    side_spots: tuple[str, ...] = ("bonus", "progressive")
    action_spots = BETS
    decisions = ("bet", "check", "fold")
    game_name = "Texas Hold'em Bonus"
    streets = (
        Street("preflop", (), ("bet", "fold"), "bet twice the ante on the flop box, or fold", "before the flop"),
        Street("flop", (3,), ("bet", "check"), "bet once the ante on the turn box, or check", "on the flop"),
        Street("turn", (1,), ("bet", "check"), "bet once the ante on the river box, or check", "on the turn"),
    )
    board_after = (1,)

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot == "bonus" and self.bet_of(bet.seat, self.main_spot) is None:
            raise Reject(f"box {bet.seat}: the bonus needs the {self.main_spot} first (002: not the bonus alone)")
        if bet.spot == "progressive":
            self._check_progressive(bet, f"the {self.main_spot}")

    def _on_close(self) -> list[Effect]:
        return self._progressive_contributions()

    def _street_stakes(self, action: Action, street: Street) -> list[Bet]:
        if action.multiple is not None:
            raise Reject(f"'{action.action}' takes no multiple: the stake follows from the rules")
        if action.action != "bet":
            return []
        spot = BETS[[s.name for s in self.streets].index(street.name)]
        main = self.bet_of(action.seat, self.main_spot)
        assert main is not None
        multiple = 2 if spot == "flop" else 1
        amount = None if main.amount is None else main.amount * multiple
        return [Bet(action.seat, spot, amount)]

    def suggested(self, seat: int) -> Action:
        """The stated strategy's decision for a box now (the virtual players' hook; not a rule)."""
        street = self.streets[self.street].name
        bets = basic_strategy(street, self.hand_of(seat), self.hand_of(BOARD))
        return Action(seat, "bet" if bets else ("fold" if street == "preflop" else "check"))

    def _box_results(self, hand: Any, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
        return main_results(self.config, hand, versus)

    def _settle(self) -> list[Effect]:
        board = self.hand_of(BOARD)
        dealer_hole = self.hand_of(DEALER)
        dealer = best_high(dealer_hole + board) if len(board) == 5 else None
        effects: list[Effect] = []
        hits: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in self.boxes_in_play():
            hole = self.hand_of(seat)
            played = seat not in self.folded
            hand = best_high(hole + board) if played else None
            versus = contest(hand, dealer) if hand is not None and dealer is not None else None
            results = self._box_results(hand, versus)
            for spot in (self.main_spot,) + BETS:
                bet = self.bet_of(seat, spot)
                if bet is not None and spot in results:
                    effects.append(self.settle(bet, *results[spot], note=None if played else "folded"))
            bonus = self.bet_of(seat, "bonus")
            if bonus is not None:
                result, odds = bonus_result(self.config, hole, dealer_hole, played)
                effects.append(self.settle(bonus, result, odds, note=None if played else "folded"))
            if self.bet_of(seat, "progressive") is not None:
                cards = progressive_cards(self.config, hole, board) if played else None
                effects.extend(self.progressive_effects(seat, hand_key(best_high(cards)) if cards else None, hits))
            box = self.box_outcome(seat, hand)
            box["versus"] = versus
            boxes.append(box)
        self.outcome_data = {
            "board": [str(c) for c in board],
            "dealer": self.dealer_outcome(dealer),
            "boxes": boxes,
        }
        return [Outcome(self.outcome_data)] + effects + hits


# --------------------------------------------------------------------------- a stated strategy (not a rule)


def basic_strategy(street: str, hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """The virtual players' and the math tool's stated strategy: bet now (True) or fold/check (False).

    Before the flop: bet with every hand but an offsuit two with a three to a
    seven (folding costs the ante; betting, with the rest of this strategy, costs
    less with every other hand, by a sampled estimate per starting hand). On the
    flop and on the turn: bet with a pair or better that uses an own card, else check.
    """
    ranks = sorted((c.rank for c in hole), reverse=True)
    if street == "preflop":
        suited = hole[0].suit == hole[1].suit
        return suited or ranks[1] != 2 or ranks[0] > 7 or ranks[0] == 2
    others = [c.rank for c in board]
    return ranks[0] == ranks[1] or any(r in others for r in ranks)


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "bonus"):
            raise ValueError(f"limits: no spot {spot!r} in texas-holdem-bonus (ante, bonus; the flop, turn and river "
                             "bets follow from the ante, the progressive is one chip)")
    check_progressive_options(config)


_RULE = {"a": "three tens or better", "b": "a straight or better", "c": "a flush or better"}

SPEC = GameSpec(
    id="texas-holdem-bonus",
    name="Texas Hold'em Bonus",
    seeds=("002 Texas Hold'em Bonus", "002 Texas Hold'em Bonus Progressive"),
    variants=tuple(VariantSpec(v, f"the ante wins on a win with {words}", f"002 Texas Hold'em Bonus, "
                                                                         f"'Vinstutbetalning' alternative {v.upper()}")
                   for v, words in _RULE.items()),
    options=(
        OptionSpec("boxes", 6, "boxes at the table (002: six players)", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units (ante, bonus)", kind="limits"),
        OptionSpec("burn_cards", False, "a card is burned before the flop, the turn and the river (002 names none)",
                   kind="bool"),
        OptionSpec("bonus_table", "i", "the bonus table posted at the table: I, or II with 1000 to 1 for aces against "
                   "the dealer's aces (002 'Bonusspel')", kind="choice", choices=("i", "ii")),
    ) + progressive_options("texas-holdem-bonus-progressive"),
    spots=(
        SpotSpec("ante", "the ante, needed to play (002 'Anteinsats')", "table limits"),
        SpotSpec("flop", "placed by the bet before the flop: twice the ante (002)", "twice the ante"),
        SpotSpec("turn", "placed by a bet on the flop: the ante (002)", "equal to the ante"),
        SpotSpec("river", "placed by a bet on the turn: the ante (002)", "equal to the ante"),
        SpotSpec("bonus", "optional, on the box's own two cards; needs the ante (002 'Bonusspel')", "table limits"),
        SpotSpec("progressive", "the progressive chip, with the ante, before the deal "
                 "(002 Texas Hold'em Bonus Progressive)", "exactly one chip"),
    ),
    actions=(
        ActionSpec("bet", "before the flop: twice the ante on the flop box; on the flop and on the turn: the ante "
                   "on the turn or river box"),
        ActionSpec("check", "on the flop and on the turn: no bet now"),
        ActionSpec("fold", "before the flop: ante, bonus and progressive are lost"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    progressive_spots=("progressive",),
    strategy="holdem-streets",
    new_round=lambda config, carried: HoldemBonusRound(config, carried),
    paytable_file="texas-holdem-bonus.toml",
    interpretations=(
        "Cards are dealt one at a time, boxes from box 1 and the dealer last in each turn; then the flop, the turn "
        "and the river, each after the decisions before it. No burn cards unless the option burn_cards is on. "
        "When every box has folded before the flop no board is dealt.",
        "The dealer does not qualify: the better hand wins (002 names no qualification).",
        "Alternative A, 'tre tior (10-10-10) eller bättre': three of a kind of tens or higher, or any better "
        "category (two pair is below three of a kind).",
        "The bonus is settled at the showdown, win or lose against the dealer, and is lost on a fold; bonus II's "
        "1000 to 1 needs the dealer's own two cards to be aces too.",
        "The progressive pays on the own two cards and the flop by default (option progressive_cards = seven: the "
        "best five of seven), whatever the dealer holds; a fold before the flop loses it, like the bonus.",
        "Settlements are listed box by box from box 1: ante, flop, turn, river, bonus, progressive; progressive hits "
        "last.",
        "Special prizes (option special_prizes): at the showdown the table's random-draw apparatus draws one number "
        "per progressive chip still in the hand; a number up to the paytable's special.wins takes its prize from "
        "the meter, after the box's hand prize (002 names no figures, no moment and no number of draws).",
    ),
    validate=lambda config: _validate(config),
    meters=progressive_meters,
)
