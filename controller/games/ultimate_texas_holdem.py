"""Ultimate Texas Hold'em and Texas Hold'em Progressive (seed 002).

Equal ante and blind, an optional trips bet (and, with the ``progressive``
option, the progressive chip); two own cards each and the dealer's two; before
the flop the box plays four or three times the ante or checks, on the flop it
plays twice the ante or checks, after the turn and the river it plays once the
ante or folds; a box that has played decides no more. The dealer qualifies
with a pair. The rules of one box are the plain functions ``contest``,
``main_results`` and ``trips_result``, which the house-edge tool settles through.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import deck
from controller.events import Action, Bet
from controller.games.banked_poker import BOARD, DEALER, odds_of
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, OptionSpec, Outcome, ReaderSpec, Reject, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.holdem_streets import (
    Street, StreetsRound, check_progressive_options, hand_key, progressive_cards, progressive_meters,
    progressive_options,
)
from controller.hands.high import best_high
from controller.hands.qualifiers import pair_or_better
from controller.money import Odds

MULTIPLES = {"preflop": (4, 3), "flop": (2,), "river": (1,)}

# --------------------------------------------------------------------------- the rules as functions


def contest(player: Any, dealer: Any) -> str:
    """``player_higher``, ``tie`` or ``dealer_higher`` (best five of seven each)."""
    if player.value > dealer.value:
        return "player_higher"
    return "tie" if player.value == dealer.value else "dealer_higher"


def dealer_qualifies(dealer: Any) -> bool:
    """002: the dealer's hand is a pair or better."""
    return pair_or_better(dealer, 2)


def blind_table(config: RoundConfig) -> Mapping[str, Any]:
    table: Mapping[str, Any] = config.paytable["blind"][config["blind_table"]]
    return table


def main_results(config: RoundConfig, key: str, versus: str | None,
                 qualifies: bool) -> dict[str, tuple[str, Odds | None]]:
    """Ante, blind and play of one box: ``{spot: (result, odds)}``; ``versus`` None means folded.

    002 a)-c) for a dealer with a pair or better, and the same with the ante
    pushed for a dealer below a pair; the blind wins by its table on a win with
    a straight or better and pushes on a smaller win.
    """
    if versus is None:
        return {"ante": ("lose", None), "blind": ("lose", None)}
    if versus == "tie":
        return {"ante": ("push", None), "blind": ("push", None), "play": ("push", None)}
    if versus == "dealer_higher":
        return {"ante": ("lose", None) if qualifies else ("push", None), "blind": ("lose", None),
                "play": ("lose", None)}
    table = config.paytable["main"]
    blind = blind_table(config)
    return {"ante": ("win", odds_of(table, "ante")) if qualifies else ("push", None),
            "blind": ("win", odds_of(blind, key)) if key in blind else ("push", None),
            "play": ("win", odds_of(table, "play"))}


def trips_result(config: RoundConfig, key: str) -> tuple[str, Odds | None]:
    """Trips on the box's best five of seven, whatever the dealer holds and also after a fold."""
    table = config.paytable["trips"][config.variant]
    return ("win", odds_of(table, key)) if key in table else ("lose", None)


# --------------------------------------------------------------------------- the round


class UltimateRound(StreetsRound):
    """Bets, two cards each, play 4x/3x or check; flop, play 2x or check; turn and river, play 1x or fold."""

    main_spot = "ante"
    side_spots = ("blind", "trips", "progressive")
    equal_spots = ("blind",)
    action_spots = ("play",)
    decisions = ("play", "check", "fold")
    game_name = "Ultimate Texas Hold'em"
    streets = (
        Street("preflop", (), ("play", "check"), "play with multiple 4 or 3, or check", "before the flop"),
        Street("flop", (3,), ("play", "check"), "play (2x), or check", "on the flop"),
        Street("river", (1, 1), ("play", "fold"), "play (1x), or fold", "after the river"),
    )

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot in ("blind", "trips") and self.bet_of(bet.seat, "ante") is None:
            raise Reject(f"box {bet.seat}: the {bet.spot} bet needs the ante first (002 'Anteinsats')")
        if bet.spot == "blind":
            ante = self.bet_of(bet.seat, "ante")
            assert ante is not None
            if bet.amount is not None and ante.amount is not None and bet.amount != ante.amount:
                raise Reject(f"box {bet.seat}: the blind must equal the ante ({ante.amount}; 002 'lika stora "
                             "insatser i rutorna Ante och Blind')")
        if bet.spot == "progressive":
            self._check_progressive(bet, "the ante and the blind")

    def _on_close(self) -> list[Effect]:
        for seat in self.boxes_in_play():
            if self.bet_of(seat, "blind") is None:
                raise Reject(f"box {seat} has an ante but no blind: ante and blind are equal bets, both needed "
                             "(002 'Anteinsats')")
        return self._progressive_contributions()

    def _special_seats(self) -> list[int]:
        """Every progressive chip takes part in the special prize draw: the progressive pays also after a fold."""
        return [s for s in self.boxes_in_play() if self.bet_of(s, "progressive") is not None]

    def _deciders(self) -> list[int]:
        return [s for s in self.boxes_in_play() if self.bet_of(s, "play") is None and s not in self.folded]

    def _street_stakes(self, action: Action, street: Street) -> list[Bet]:
        if action.action != "play":
            if action.multiple is not None:
                raise Reject(f"'{action.action}' takes no multiple")
            return []
        allowed = MULTIPLES[street.name]
        multiple = action.multiple
        if multiple is None:
            if len(allowed) > 1:
                raise Reject(f"box {action.seat}: play how much? multiple 4 or 3 of the ante before the flop")
            multiple = allowed[0]
        if multiple not in allowed:
            words = " or ".join(map(str, allowed))
            raise Reject(f"box {action.seat}: {street.when} the play is {words} times the ante, not {multiple}")
        ante = self.bet_of(action.seat, "ante")
        assert ante is not None
        amount = None if ante.amount is None else ante.amount * multiple
        self.check_amount("play", amount)
        return [Bet(action.seat, "play", amount)]

    def suggested(self, seat: int) -> Action:
        """The stated strategy's decision for a box now (the virtual players' hook; not a rule)."""
        street = self.streets[self.street].name
        multiple = basic_strategy(street, self.hand_of(seat), self.hand_of(BOARD))
        if multiple is not None:
            return Action(seat, "play", multiple=multiple)
        return Action(seat, "fold" if street == "river" else "check")

    def _settle(self) -> list[Effect]:
        board = self.hand_of(BOARD)
        dealer = best_high(self.hand_of(DEALER) + board)
        qualifies = dealer_qualifies(dealer)
        effects: list[Effect] = []
        hits: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in self.boxes_in_play():
            hole = self.hand_of(seat)
            hand = best_high(hole + board)
            key = hand_key(hand)
            versus = None if seat in self.folded else contest(hand, dealer)
            results = main_results(self.config, key, versus, qualifies)
            for spot in ("ante", "blind", "play"):
                bet = self.bet_of(seat, spot)
                if bet is not None and spot in results:
                    effects.append(self.settle(bet, *results[spot], note="folded" if versus is None else None))
            trips = self.bet_of(seat, "trips")
            if trips is not None:
                effects.append(self.settle(trips, *trips_result(self.config, key)))
            progressive = self.bet_of(seat, "progressive")
            if progressive is not None:
                cards = progressive_cards(self.config, hole, board)
                assert cards is not None  # every card is out at the showdown
                effects.extend(self.progressive_effects(seat, hand_key(best_high(cards)), hits))
            box = self.box_outcome(seat, hand)
            box["versus"] = versus
            play = self.bet_of(seat, "play")
            ante = self.bet_of(seat, "ante")
            if play is not None and play.amount is not None and ante is not None and ante.amount:
                box["play_multiple"] = play.amount // ante.amount
            boxes.append(box)
        self.outcome_data = {
            "board": [str(c) for c in board],
            "dealer": {**self.dealer_outcome(dealer), "qualifies": qualifies},
            "boxes": boxes,
        }
        return [Outcome(self.outcome_data)] + effects + hits


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "trips", "play"):
            raise ValueError(f"limits: no spot {spot!r} in ultimate-texas-holdem (ante, trips, play; the blind equals "
                             "the ante, the progressive is one chip)")
    if config["blind_table"] not in config.paytable["blind"]:
        raise ValueError(f"blind_table: no table {config['blind_table']!r} in ultimate-texas-holdem.toml")
    check_progressive_options(config)


def _variant(vid: str, fh: int, fl: int, st: int, quads: int) -> VariantSpec:
    return VariantSpec(vid, f"trips table {vid.upper()}: full house {fh}, flush {fl}, straight {st}, "
                            f"four of a kind {quads} to 1", f"002 Ultimate Texas Hold'em, 'Odds för Trips-insatsen' "
                                                            f"Trips {vid.upper()}")


SPEC = GameSpec(
    id="ultimate-texas-holdem",
    name="Ultimate Texas Hold'em",
    seeds=("002 Ultimate Texas Hold'em", "002 Texas Hold'em Progressive"),
    variants=(_variant("i", 9, 7, 4, 30), _variant("ii", 8, 6, 5, 30), _variant("iii", 8, 7, 4, 30),
              _variant("iv", 7, 6, 5, 20)),
    options=(
        OptionSpec("boxes", 6, "boxes at the table (002: six players)", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units (ante, trips, play)",
                   kind="limits"),
        OptionSpec("burn_cards", False, "a card is burned before the flop, the turn and the river (002 names none)",
                   kind="bool"),
        OptionSpec("blind_table", "seed", "the blind's table: the seed's (flush 3 to 1) or the common one "
                   "(flush 3 to 2)", kind="choice", choices=("seed", "common")),
    ) + progressive_options("texas-holdem-progressive"),
    spots=(
        SpotSpec("ante", "the ante, needed to play (002 'Anteinsats')", "table limits"),
        SpotSpec("blind", "the blind, equal to the ante and needed with it (002 'Anteinsats')", "equal to the ante"),
        SpotSpec("play", "placed by the play decision: 4 or 3 times the ante before the flop, 2 on the flop, "
                 "1 at the end (002)", "the multiple of the ante"),
        SpotSpec("trips", "optional, on the box's best five of seven (002 'Tripsspel')", "table limits"),
        SpotSpec("progressive", "the progressive chip, with the ante and blind, before the deal "
                 "(002 Texas Hold'em Progressive)", "exactly one chip"),
    ),
    actions=(
        ActionSpec("play", "place the play bet: multiple 4 or 3 before the flop, 2 on the flop, 1 after the river",
                   multiples=(4, 3, 2, 1)),
        ActionSpec("check", "no play bet now (before the flop and on the flop)"),
        ActionSpec("fold", "after the river, instead of playing: ante and blind are lost, trips still settle"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    progressive_spots=("progressive",),
    strategy="holdem-streets",
    new_round=lambda config, carried: UltimateRound(config, carried),
    paytable_file="ultimate-texas-holdem.toml",
    interpretations=(
        "Cards are dealt one at a time, boxes from box 1 and the dealer last in each turn; then three flop cards, "
        "then the turn and the river together (002). No burn cards unless the option burn_cards is on.",
        "A box that has played decides no more; the play bet is made once (002 'såvida han inte har lagt någon "
        "insats i rutan Play tidigare').",
        "Trips settle on the box's best five of seven whatever the dealer holds, also after a fold; trips tables "
        "II to IV lost their royal-flush line in the seed's text: 50 to 1 in all four (RULES-NOTES.md).",
        "The blind pays by the seed's table on a win with a straight or better (flush 3 to 1 as written; option "
        "blind_table = common for 3 to 2), pushes on a smaller win or a tie, loses when the dealer wins.",
        "The progressive (Texas Hold'em Progressive) pays on the box's own two cards and the flop by default "
        "(option progressive_cards = seven: the best five of seven), whatever the dealer holds and also after a fold.",
        "Settlements are listed box by box from box 1: ante, blind, play, trips, progressive; progressive hits last.",
        "Special prizes (option special_prizes): at the showdown the table's random-draw apparatus draws one number "
        "per progressive chip, a folded box's too; a number up to the paytable's special.wins takes its prize from "
        "the meter, after the box's hand prize (002 names no figures, no moment and no number of draws).",
    ),
    validate=lambda config: _validate(config),
    meters=progressive_meters,
)


# --------------------------------------------------------------------------- a stated strategy (not a rule)


def _preflop_plays(hole: Sequence[Any]) -> bool:
    """4x with a pair of threes or better, any ace, K2s+/K5o+, Q6s+/Q8o+, J8s+/JTo."""
    high, low = sorted((c.rank for c in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if high == low:
        return bool(high >= 3)
    if high == 14:
        return True
    least = {13: (2, 5), 12: (6, 8), 11: (8, 10)}.get(high)
    return least is not None and low >= least[0 if suited else 1]


def _hidden_pair(hole: Sequence[Any], board: Sequence[Any]) -> bool:
    """An own card pairs another card (the board or the other own card)."""
    ranks = [c.rank for c in tuple(hole) + tuple(board)]
    return any(ranks.count(c.rank) >= 2 for c in hole)


def dealer_outs(hole: Sequence[Any], board: Sequence[Any]) -> int:
    """How many unseen cards would give the dealer, with the board, a hand beating the box's seven cards."""
    mine = best_high(tuple(hole) + tuple(board)).value
    seen = set(hole) | set(board)
    return sum(1 for c in deck() if c not in seen and best_high(tuple(board) + (c,)).value > mine)


def basic_strategy(street: str, hole: Sequence[Any], board: Sequence[Any]) -> int | None:
    """The virtual players' and the math tool's stated strategy: the multiple to play now, or None (check or fold).

    Before the flop 4x with the hands of ``_preflop_plays``; on the flop 2x with
    two pair or better made with an own card, a pair with an own card (not a bare
    pair of twos in the hand), or four to a flush holding an own ten or better of
    that suit; after the river 1x with a pair or better made with an own card, or
    when fewer than 21 unseen cards would beat the box with the board. This is the
    common published 'simple strategy' for the game, not the optimal one.
    """
    if street == "preflop":
        return 4 if _preflop_plays(hole) else None
    cards = tuple(hole) + tuple(board)
    if street == "flop":
        category = best_high(cards).category
        flop_category = "three_of_a_kind" if len({c.rank for c in board}) == 1 else "pair" \
            if len({c.rank for c in board}) == 2 else "high_card"
        order = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                 "four_of_a_kind", "straight_flush")
        if order.index(category) >= 2 and order.index(category) > order.index(flop_category):
            return 2
        pocket_twos = hole[0].rank == hole[1].rank == 2 and not any(c.rank == 2 for c in board)
        if _hidden_pair(hole, board) and not pocket_twos:
            return 2
        for suit in {c.suit for c in hole}:
            if sum(1 for c in cards if c.suit == suit) == 4 and any(c.suit == suit and c.rank >= 10 for c in hole):
                return 2
        return None
    if _hidden_pair(hole, board) or best_high(cards).value > best_high(board).value \
            and best_high(cards).category not in ("high_card", "pair", "two_pair", "three_of_a_kind"):
        return 1
    return 1 if dealer_outs(hole, board) < 21 else None
