"""Oasis Stud Poker (seed 002 "Oasis Stud Poker är ett spel ..."): five cards against the dealer's, a card switched
for a fee, the dealer bought a game.

Ante (and a bonus); five cards each, the dealer's fifth face up. Each box
folds (ante and bonus lost), bets twice the ante (``bet``), or first switches
cards for a fee of the ante each (``switch`` with ``cards``; the bonus is then
lost), and then bets or folds. The dealer qualifies with ace-king (version B
and the tables after it: a pair of eights, or of tens). When he does not, a
box that bet is paid the ante and its bet stands, unless it buys the dealer a
game (``buy_dealer``, a fee of the ante): the dealer replaces his highest
card once for every buyer, and the buyers are settled against the new
hand, or, if it is still below a pair, neither paid nor charged beyond the
fee. In version B and the tables after it nobody buys: the dealer who does
not open exchanges his two highest cards himself ("Även dealern får byta två
kort"), free, and every box that bet is settled against the new hand as the
rules settle the first (opening or not). The bonus is paid on the box's own
five cards. In the progressive version (option ``progressive``) the bonus is
one chip, part of which feeds a meter on the jackpot display
(``MeterChange``), and its top line wins the meter. The rules of one box are
the plain functions ``qualifies``, ``box_results`` and ``bonus_result``, which
the house-edge tool settles through.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from controller.cards import Card, parse_card
from controller.events import Action, Bet
from controller.games.banked_poker import odds_of
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, MeterChange, OptionSpec, Outcome, Prompt, ReaderSpec, Reject, RoundConfig,
    Settlement, SpotSpec, VariantSpec, check_stake, handles, settle_fixed,
)
from controller.games.five_card_stud import DEALER, FiveCardStudRound
from controller.hands.high import HighHand, best_high
from controller.hands.joker import oasis_joker_high
from controller.hands.qualifiers import ace_king_or_better, pair_or_better
from controller.money import Odds


# --------------------------------------------------------------------------- the rules as functions


def rank_hand(config: RoundConfig, cards: Sequence[Card]) -> HighHand:
    """The five cards' hand: the joker table's deck has a fully wild joker."""
    return oasis_joker_high(cards) if config["jokers"] else best_high(cards)


def hand_key(hand: HighHand) -> str:
    """The paytable key: ``royal_flush``, the category, or ``ace_king`` for ace-king high."""
    if hand.royal:
        return "royal_flush"
    if hand.category == "high_card" and hand.ranks[:2] == (14, 13):
        return "ace_king"
    return hand.category


def qualifies(table: Mapping[str, Any], hand: HighHand) -> bool:
    """The dealer opens: ace-king or better, or a pair of eights (tens) or better (002, version B)."""
    need = table["qualify"]
    if need == "ace_king":
        return ace_king_or_better(hand)
    return pair_or_better(hand, int(need.split("_")[1]))


def box_results(table: Mapping[str, Any], hand: HighHand, dealer: HighHand, opened: bool,
                bought: bool) -> dict[str, tuple[str, Odds | None]]:
    """Ante and bet of a box that bet: ``opened`` the dealer qualified (first hand), ``bought`` the box bought the
    dealer a game and ``dealer`` is the new hand.

    002: the dealer below the qualifying hand pays the ante 1 to 1 and the bet stands (push); a buyer is settled
    against the new hand if it is a pair or better, else neither paid nor charged (RULES-NOTES.md). Against an
    open hand the better hand wins: the ante 1 to 1 and the bet by the table; the dealer's better hand takes
    both; equal hands push both.
    """
    if not opened and not bought:
        return {"ante": ("win", Odds(1, 1)), "bet": ("push", None)}
    if bought and not pair_or_better(dealer, 2):
        return {"ante": ("push", None), "bet": ("push", None)}
    if hand.value > dealer.value:
        key = hand_key(hand)
        odds = odds_of(table["bet"], key) if key in table["bet"] else Odds(1, 1)
        return {"ante": ("win", Odds(1, 1)), "bet": ("win", odds)}
    if hand.value == dealer.value:
        return {"ante": ("push", None), "bet": ("push", None)}
    return {"ante": ("lose", None), "bet": ("lose", None)}


def bonus_result(bonus: Mapping[str, Any], hand: HighHand) -> tuple[str, Odds | None]:
    """The bonus on the box's five cards: paid by the table, two pair and three of a kind push ("Om spelaren har en
    sämre hand än två par, förlorar han sin bonusinsats"), anything less loses."""
    key = hand_key(hand)
    if key in bonus:
        return "win", odds_of(bonus, key)
    return ("push", None) if key in ("two_pair", "three_of_a_kind") else ("lose", None)


def progressive_share(config: RoundConfig, key: str) -> tuple[int, int] | None:
    """The progressive version: the share of the meter a bonus hand of ``key`` wins, or None (the bonus table)."""
    line = config.paytable["progressive"].get(key) if config["progressive"] else None
    return None if line is None else (int(line["share"][0]), int(line["share"][1]))


def replaced(cards: Sequence[Card], count: int) -> list[int]:
    """The positions of the dealer's cards he replaces, bought a game or (version B) exchanging on his own: his
    highest ``count`` cards outside a pair (of equals, the first dealt)."""
    ranks = Counter(c.rank for c in cards)
    singles = sorted((i for i, c in enumerate(cards) if ranks[c.rank] == 1 or c.is_joker),
                     key=lambda i: (-(15 if cards[i].is_joker else cards[i].rank), i))
    return sorted(singles[:count])


# --------------------------------------------------------------------------- the round


class OasisRound(FiveCardStudRound):
    game_name = "Oasis Stud Poker"
    played, played_words, no_game = "bet", "bet", "does not open"
    decision_words = "fold, bet or switch"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config, carried)
        self.switched: dict[int, list[str]] = {}
        self.exchanged = False  # the dealer exchanged cards of his own (version B)
        # phases: bets -> deal -> decide -> (buy -> redeal | exchange) -> done

    # ------------------------------------------------------------------ bets and cards

    @handles(Bet)
    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the cards are being dealt")
        if bet.spot in ("bet", "switch", "buy_dealer"):
            raise Reject(f"the {bet.spot} stake is placed by the box's decision, not as a bet")
        offered = [s.name for s in SPEC.spots_for(self.config.variant) if s.name in ("ante", "bonus")]
        if bet.spot not in offered:
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: {', '.join(offered)})")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        if self.bet_of(bet.seat, bet.spot) is not None:
            raise Reject(f"box {bet.seat} already has a bet on {bet.spot}")
        if bet.spot == "bonus" and self.bet_of(bet.seat, "ante") is None:
            raise Reject(f"box {bet.seat}: the ante first, then the bonus")
        if bet.spot == "bonus" and self.config["progressive"]:
            stake = self.config["progressive_stake"]
            if bet.amount is not None and bet.amount != stake:
                raise Reject(f"box {bet.seat}: the progressive bonus is one chip of exactly {stake}")
            bet = Bet(bet.seat, bet.spot, stake, bet.player)
        else:
            low, high = self.stake_limits(bet.spot)
            check_stake(bet.spot, bet.amount, low, high)
        self.bets.append(bet)
        return []

    def _close_effects(self) -> list[Effect]:
        return [MeterChange(self.config["meter"], "contribution", seat=b.seat,
                            amount=self.config["progressive_contribution"])
                for b in self.bets if b.spot == "bonus" and self.config["progressive"]]

    def _check_card(self, card: Card) -> None:
        if card.is_joker and not self.config["jokers"]:
            raise Reject("a joker is not part of this deck (the joker table only)")

    def _decide_prompt(self) -> Prompt:
        waiting = [s for s in self.boxes() if s not in self.decided]
        return Prompt(f"Box {waiting[0]}: fold, bet" + (" or switch" if self.table["switch_cards"]
                                                         and waiting[0] not in self.switched else ""),
                      seat=waiting[0], expects=("action",))

    # ------------------------------------------------------------------ decisions

    @handles(Action)
    def _act(self, action: Action) -> list[Effect]:
        if action.action == "buy_dealer":
            return self._buy_dealer(action)
        seat = self._decider(action)
        if action.action == "switch":
            return self._switch(seat, action.cards)
        if action.action not in ("fold", "bet"):
            raise Reject(f"'{action.action}' is not a decision here (fold, bet, switch, buy_dealer)")
        if action.cards is not None:
            raise Reject(f"'{action.action}' takes no cards")
        self.decided[seat] = action.action
        if action.action == "bet":
            self.bets.append(self._stake(seat, "bet", 2))
        if len(self.decided) < len(self.boxes()):
            return [self._decide_prompt()]
        return self._after_decisions()

    def _switch(self, seat: int, cards: tuple[Card, ...] | None) -> list[Effect]:
        most = int(self.table["switch_cards"])
        if not most:
            raise Reject("no switching in this version (002 A)")
        if seat in self.switched:
            raise Reject(f"box {seat} has switched already: bet or fold")
        given = list(cards or ())
        held = self.hands[seat]
        if not 1 <= len(given) <= most or len(set(given)) != len(given) or any(c not in held for c in given):
            raise Reject(f"box {seat}: name {'the card' if most == 1 else f'one to {most} cards'} of its own hand "
                         "to switch")
        self.switched[seat] = [str(c) for c in given]
        self.bets.append(self._stake(seat, "switch", len(given)))
        self.owed = [(seat, held.index(c)) for c in given]
        return [Prompt(f"Box {seat} switches {len(given)}: card to box {seat}", expects=("card",))]

    def _after_decisions(self) -> list[Effect]:
        dealer = rank_hand(self.config, self.hands[DEALER])
        betting = [s for s in self.boxes() if self.decided[s] == "bet"]
        if qualifies(self.table, dealer) or not betting:
            return self._settle()
        own = int(self.table["dealer_exchanges"])
        if own:
            self.phase, self.exchanged = "exchange", True
            self.owed = [(DEALER, i) for i in replaced(self.hands[DEALER], own)]
            return [Prompt(f"The dealer does not open: he exchanges his {own} highest cards. Card to the dealer",
                           expects=("card",))]
        if not self.table["dealer_replaces"]:
            return self._settle()
        self.phase = "buy"
        return [Prompt("The dealer does not open: buy_dealer from the boxes that buy him a game, then no more "
                       "bets (or his new card)", expects=("action", "close_bets", "card"))]

    def _buy_dealer(self, action: Action) -> list[Effect]:
        if not self.table["dealer_replaces"]:
            raise Reject("no buying the dealer a game in this version" + (
                ": the dealer exchanges his two highest cards himself when he does not open"
                if self.table["dealer_exchanges"] else " (002 A)"))
        return super()._buy_dealer(action)

    def _replacements(self) -> list[tuple[int, int | None]]:
        return [(DEALER, i) for i in replaced(self.hands[DEALER], int(self.table["dealer_replaces"]))]

    # ------------------------------------------------------------------ settlement

    def _settle(self) -> list[Effect]:
        self.phase = "done"
        first = rank_hand(self.config, self._first_dealer())
        dealer = rank_hand(self.config, self.hands[DEALER])
        opened = qualifies(self.table, first)
        judged = qualifies(self.table, dealer) if self.exchanged else opened
        effects: list[Effect] = []
        hits: list[Effect] = []
        boxes = []
        for seat in self.boxes():
            hand = rank_hand(self.config, self.hands[seat])
            decision = self.decided[seat]
            bought = seat in self.buyers
            ante, bet = self.bet_of(seat, "ante"), self.bet_of(seat, "bet")
            assert ante is not None
            if decision == "fold":
                effects.append(settle_fixed(ante, "lose", note="folded"))
            else:
                assert bet is not None
                results = box_results(self.table, hand, dealer if bought or self.exchanged else first, judged,
                                      bought)
                effects.append(settle_fixed(ante, *results["ante"]))
                effects.append(settle_fixed(bet, *results["bet"]))
            bonus = self.bet_of(seat, "bonus")
            if bonus is not None:
                effects.append(self._bonus(bonus, hand, decision, seat, hits))
            for spot in ("switch", "buy_dealer"):
                fee = self.bet_of(seat, spot)
                if fee is not None:
                    effects.append(settle_fixed(fee, "lose", note="the fee"))
            boxes.append({"box": seat, "cards": [str(c) for c in self.hands[seat]], "hand": hand.name,
                          "decision": decision, "switched": self.switched.get(seat), "bought": bought})
        self._outcome = {"dealer": {"cards": self.dealer_first, "up_card": self.dealer_first[-1],
                                    "hand": first.name, "qualifies": opened},
                         "boxes": boxes}
        if self.exchanged:
            self._outcome["dealer"]["exchanged"] = {"cards": [str(c) for c in self.hands[DEALER]],
                                                    "hand": dealer.name, "qualifies": judged}
        if self.buyers:
            self._outcome["dealer"]["bought"] = {"by": self.buyers, "cards": [str(c) for c in self.hands[DEALER]],
                                                 "hand": dealer.name}
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        return [Outcome(self._outcome)] + effects + hits

    def _first_dealer(self) -> list[Card]:
        return [parse_card(c) for c in self.dealer_first]

    def _bonus(self, bet: Bet, hand: HighHand, decision: str, seat: int, hits: list[Effect]) -> Settlement:
        if decision == "fold":
            return settle_fixed(bet, "lose", note="folded: the bonus is lost")
        if seat in self.switched:
            return settle_fixed(bet, "lose", note="switched a card: the bonus is lost (002)")
        key = hand_key(hand)
        share = progressive_share(self.config, key)
        if share is not None:
            hits.append(MeterChange(self.config["meter"], "hit", seat=bet.seat, share=share, hand=key))
            return Settlement(bet.seat, bet.spot, "win", player=bet.player,
                              note=f"progressive {key}: {100 * share[0] / share[1]:g} % of the meter, paid from the "
                                   "meter by the table (the chip is collected)")
        result, odds = bonus_result(self.config.paytable["bonus"], hand)
        settlement = settle_fixed(bet, result, odds)
        cap = self.config["bonus_cap"]
        if result == "win" and cap and bet.amount is not None and settlement.net is not None and settlement.net > cap:
            return Settlement(bet.seat, bet.spot, "win", odds=odds, stake=bet.amount, net=cap, player=bet.player,
                              note=f"the bonus is capped at {cap} (the table's cap)")
        return settlement

    # ------------------------------------------------------------------ the contract

    def suggested(self, seat: int) -> Action:
        """The stated strategy (virtual players): ``strategy`` for a decision, ``buys`` for the dealer's game."""
        if self.phase == "buy":
            return Action(seat, "buy_dealer")
        decision, cards = strategy(self.table, self.hands[seat], seat in self.switched, self.config["jokers"])
        return Action(seat, decision, cards=cards)


def strategy(table: Mapping[str, Any], cards: Sequence[Card], switched: bool,
             jokers: int) -> tuple[str, tuple[Card, ...] | None]:
    """The stated strategy: bet with a pair or better or ace-king; otherwise, where switching is allowed and the
    box has not switched, switch the odd card of four to a flush; otherwise fold where the dealer opens with
    ace-king, and bet where he needs a pair (version B and the tables after it: even after his own exchange
    he fails to open more than half the time, and a bet then earns the ante, so betting a hand without a
    pair loses about three quarters of the ante on average, less than the whole ante a fold gives up).
    (decision, cards)."""
    hand = oasis_joker_high(cards) if jokers else best_high(cards)
    if hand.category != "high_card" or hand.ranks[:2] == (14, 13):
        return "bet", None
    suits = Counter(c.suit for c in cards if not c.is_joker)
    suit, count = suits.most_common(1)[0]
    if table["switch_cards"] and not switched and count == 4:
        return "switch", tuple(c for c in cards if c.suit != suit and not c.is_joker)[:1]
    return ("fold" if table["qualify"] == "ace_king" else "bet"), None


def buys(table: Mapping[str, Any], hand: HighHand) -> bool:
    """The stated strategy: buy the dealer a game with two pair or better (the bet then pays 2 to 1 or more
    in the first table)."""
    return hand.category not in ("high_card", "pair")


# --------------------------------------------------------------------------- the declaration


def validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "bonus"):
            raise ValueError(f"limits: no spot {spot!r} in oasis-stud (ante, bonus; bet and fees follow the ante)")
    if config["progressive"]:
        if config.variant == "fi-joker":
            raise ValueError("option 'progressive': the joker table has no bonus, so no progressive")
        if config["progressive_contribution"] > config["progressive_stake"]:
            raise ValueError(f"progressive_contribution: {config['progressive_contribution']} is more than the "
                             f"progressive chip {config['progressive_stake']}")
        if "bonus" in config["limits"]:
            raise ValueError("limits: no bonus limits at a progressive table (the bonus is one chip of "
                             "progressive_stake)")
    if bool(config["jokers"]) != (config.variant == "fi-joker"):
        raise ValueError("option 'jokers': 1 for the joker table (fi-joker) only, 0 otherwise")


_VARIANTS = (
    VariantSpec("fi", "Oasis Stud as the seed first states it: one card switched, the dealer opens with ace-king",
                "002 Oasis Stud Poker"),
    VariantSpec("fi-a", "version A: no switching, for oneself or for the dealer", "002 Oasis Stud Poker, A"),
    VariantSpec("fi-b", "version B: two cards switched, the dealer exchanges two, opens with a pair of eights",
                "002 Oasis Stud Poker, B"),
    VariantSpec("fi-joker", "the table after B with a joker (53 cards, five of a kind), as B otherwise; no bonus",
                "002 Oasis Stud Poker, the first table after B", defaults={"jokers": 1}, spots=("ante", "bet")),
    VariantSpec("fi-tens", "the table after B opening with a pair of tens, as B otherwise",
                "002 Oasis Stud Poker, the second table after B"),
)

SPEC = GameSpec(
    id="oasis-stud",
    name="Oasis Stud Poker",
    seeds=("002 Oasis Stud Poker",),
    variants=_VARIANTS,
    options=(
        OptionSpec("boxes", 7, "boxes at the table (002 is silent)", minimum=1, maximum=7),
        OptionSpec("jokers", 0, "a joker in the deck: the joker table (fi-joker) only", minimum=0, maximum=1),
        OptionSpec("bonus_cap", 0, "the most a bonus win pays, in minor units (002: 'Ett penningmässigt vinsttak "
                                   "kan sättas'); 0: no cap", kind="amount"),
        OptionSpec("limits", {}, "[minimum, maximum] of ante and bonus in minor units", kind="limits"),
        OptionSpec("progressive", False, "the progressive version: the bonus is one chip feeding a meter on the "
                                         "jackpot display, the royal flush wins the meter (002: 'ackumuleras ... på "
                                         "en elektronisk tavla')", kind="bool"),
        OptionSpec("progressive_stake", 50, "the progressive bonus chip in minor units (002 is silent)", kind="amount",
                   minimum=1),
        OptionSpec("progressive_contribution", 10, "minor units of each progressive chip added to the meter (002 is "
                                                   "silent; the casino's figure: with the bonus table's other lines "
                                                   "returning 75.9 % of the chip, keep it below about 23 %)",
                   kind="amount"),
        OptionSpec("meter", "oasis-stud", "name of the progressive meter this table feeds", kind="text"),
    ),
    spots=(
        SpotSpec("ante", "the ante, needed to play", "table limits"),
        SpotSpec("bet", "placed by the bet decision: twice the ante (002)", "twice the ante"),
        SpotSpec("bonus", "the bonus, on the box's own five cards; lost on a fold or a switch", "table limits"),
    ),
    actions=(
        ActionSpec("fold", "give up: ante and bonus lost"),
        ActionSpec("bet", "play on: a bet of twice the ante"),
        ActionSpec("switch", "switch cards (cards: the ones given up) for a fee of the ante each; the bonus is lost"),
        ActionSpec("buy_dealer", "the dealer does not open: buy him a game for a fee of the ante"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    progressive_spots=("bonus",),
    strategy="oasis",
    new_round=lambda config, carried: OasisRound(config, carried),
    paytable_file="oasis-stud.toml",
    validate=validate,
    meters=lambda config: {"meter": config["meter"]} if config["progressive"] else {},
    table_warnings="controller.house_edge.oasis_stud:progressive_warnings",
)
