"""Russian Poker (seed 002 "Spelversion A Spelöversikt Russian Poker är ett spel ..."): five cards against the
dealer's, a sixth card bought or cards exchanged, two combinations paid at once, insurance, the dealer bought a
game.

Ante (and a bonus); five cards each, the dealer's fifth face up. Each box folds (ante and bonus lost), raises
twice the ante (``raise``), or first buys a sixth card (``buy``) or exchanges one to five cards (``exchange`` with
``cards``; at most three in version B, two in C), each for a fee of the ante that loses the bonus, and then raises
or folds. A box that raised with three of a kind or better may insure (``insurance`` with ``amount``: from the
ante to half of what its raise would win). The dealer qualifies with ace-king or better; when he does, the ante
stays and the raise is paid by its table (or by the table of two combinations, when the five or six cards hold
two combinations each with a card the other lacks), or both are lost to his better hand. When he does not, the
ante is paid 1 to 1 and the raise stays, unless the box buys him a game (``buy_dealer``, a fee of the ante): he
replaces his highest card once for all the buyers, and they are settled against the new hand, or, below a game,
neither paid nor charged beyond the fee. The rules of one box are the plain functions ``raise_line``,
``box_results``, ``insurance_result`` and ``bonus_result``, which the house-edge tool settles through.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import Card, parse_card
from controller.events import Action, Bet, CloseBets
from controller.games.banked_poker import odds_of
from controller.games.contract import (
    ActionSpec, CardChoice, Effect, GameSpec, OptionSpec, Outcome, Prompt, ReaderSpec, Reject, RoundConfig,
    Settlement, SpotSpec, VariantSpec, check_stake, handles, settle_fixed,
)
from controller.games.five_card_stud import DEALER, FiveCardStudRound
from controller.hands.high import HighHand, best_high
from controller.hands.qualifiers import ace_king_or_better
from controller.hands.russian import russian_combinations
from controller.money import Odds, win_amount

FEES = ("buy", "exchange", "buy_dealer")
INSURABLE = ("three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush")

# --------------------------------------------------------------------------- the rules as functions


def hand_key(hand: HighHand) -> str | None:
    """The raise's single line: ``royal_flush``, the category, ``ace_king`` for ace-king high, None below it."""
    if hand.royal:
        return "royal_flush"
    if hand.category == "high_card":
        return "ace_king" if hand.ranks[:2] == (14, 13) else None
    return hand.category


def two_combination_lines(paytable: Mapping[str, Any], cards: Sequence[Card], lost_line: bool) -> dict[str, Odds]:
    """The lines of the table of two combinations that the five or six cards hold (002: "För att fåvinsten betald
    för två skilda kombinationer måste spelaren använda till båda kombinationerna åtminstone ett sådant kort som
    inte ingår i den andra kombinationen"; ``controller.hands.russian``), with ``lost_lines`` when ``lost_line``."""
    table = dict(paytable["two_combinations"])
    if lost_line:
        table.update(paytable["lost_lines"])
    return {key: odds_of(table, key) for key in sorted(russian_combinations(cards)) if key in table}


def raise_line(paytable: Mapping[str, Any], cards: Sequence[Card], lost_line: bool = True) -> tuple[str, Odds] | None:
    """What a winning raise is paid: the best of the hand's own line and the two-combination lines it holds (the
    line's key and odds), or None for a hand below ace-king."""
    candidates: dict[str, Odds] = {}
    key = hand_key(best_high(cards))
    if key is not None:
        candidates[key] = odds_of(paytable["raise"], key)
    candidates.update(two_combination_lines(paytable, cards, lost_line))
    if not candidates:
        return None
    best = max(candidates, key=lambda k: (candidates[k].paid / candidates[k].per, k == key))
    return best, candidates[best]


def qualifies(hand: HighHand) -> bool:
    """The dealer has a game with ace-king or better ("Ifall dealerns hand är svagare än ess & kung")."""
    return ace_king_or_better(hand)


def box_results(line: tuple[str, Odds] | None, hand: HighHand, first: HighHand, final: HighHand | None,
                ) -> dict[str, tuple[str, Odds | None]]:
    """Ante and raise of a box that raised. ``first`` is the dealer's hand as opened, ``final`` his hand after a
    game the box bought (None: the box did not buy), ``line`` the box's ``raise_line``.

    002: the dealer without a game pays the ante 1 to 1 and the raise stays. Against a dealer with a game the
    ante stays ("Ante-insatsen varken vinner eller förlorar ifall dealerns hand är ess & kung eller starkare")
    and the raise is paid by its line when the box's hand is stronger; the dealer's stronger hand takes both;
    equal hands keep both. A buyer is settled so against the new hand if it is a game, and keeps both if not.
    """
    dealer = first if final is None else final
    if not qualifies(dealer):
        return {"ante": ("win", Odds(1, 1)) if final is None else ("push", None), "raise": ("push", None)}
    if hand.value > dealer.value:
        assert line is not None  # a hand above a dealer's game is at least ace-king
        return {"ante": ("push", None), "raise": ("win", line[1])}
    if hand.value == dealer.value:
        return {"ante": ("push", None), "raise": ("push", None)}
    return {"ante": ("lose", None), "raise": ("lose", None)}


def insurance_result(hand: HighHand, first: HighHand) -> tuple[str, Odds | None]:
    """The insurance against the dealer's hand as opened: 1 to 1 when he has no game, lost when he has one weaker
    than the box's, returned when his is as strong or stronger (002 "Försäkring")."""
    if not qualifies(first):
        return "win", Odds(1, 1)
    return ("lose", None) if first.value < hand.value else ("push", None)


def insurance_most(line: tuple[str, Odds] | None, raised: int) -> int:
    """The most a box may insure: half of what its raise of ``raised`` would win (rounded down to the minor unit)."""
    if line is None:
        return 0
    return win_amount(raised, line[1])[0] // 2


def insurable(hand: HighHand) -> bool:
    """Insurance from three of a kind up ("Ifall spelaren har en hand vars värde är triss eller högre")."""
    return hand.category in INSURABLE


def bonus_result(bonus: Mapping[str, Any], hand: HighHand) -> tuple[str, Odds | None]:
    """The bonus on the first five cards: paid by its table whatever the dealer holds, lost below a straight."""
    key = hand_key(hand)
    return ("win", odds_of(bonus, key)) if key is not None and key in bonus else ("lose", None)


def dealer_replaces(cards: Sequence[Card]) -> int:
    """The position of the card the dealer replaces when bought a game: his highest ("byter dealern ut sitt högsta
    kort"; a hand without a game has no pair, so the highest is one card)."""
    return max(range(len(cards)), key=lambda i: (cards[i].rank, -i))


# --------------------------------------------------------------------------- the stated strategy


def strategy(table: Mapping[str, Any], cards: Sequence[Card], drawn: bool) -> tuple[str, tuple[Card, ...] | None]:
    """The stated strategy (docs/games/russian-poker.md), as (decision, cards):

    1. A pair or better raises (five cards, or six once a card is bought).
    2. Once a card is bought or exchanged, anything less folds.
    3. Four cards to a flush, or four ranks in sequence (an ace low or high): buy a sixth card.
    4. Otherwise, where the version allows three cards or more (A, B), exchange the cards below a queen, the
       lowest first, as many as it allows; where it allows two (C), fold.
    """
    hand = best_high(cards)
    if hand.category != "high_card":
        return "raise", None
    if drawn:
        return "fold", None
    suits: dict[str, int] = {}
    for card in cards:
        suits[card.suit] = suits.get(card.suit, 0) + 1
    ranks = sorted({c.rank for c in cards} | ({1} if any(c.rank == 14 for c in cards) else set()))
    if max(suits.values()) == 4 or any(ranks[i + 3] - ranks[i] == 3 for i in range(len(ranks) - 3)):
        return "buy", None
    most = int(table["exchange_cards"])
    if most < 3:
        return "fold", None
    low = sorted((c for c in cards if c.rank < 12), key=lambda c: (c.rank, c.suit))  # five ranks: two at least
    return "exchange", tuple(low[:most])


def buys_dealer(line: tuple[str, Odds] | None) -> bool:
    """The stated strategy: buy the dealer a game when the raise's line pays 4 to 1 or more (it costs the fee and
    the ante's win; docs/games/russian-poker.md)."""
    return line is not None and line[1].paid >= 4 * line[1].per


def insures(hand: HighHand) -> bool:
    """The stated strategy: insure the least (the ante) with three of a kind or better."""
    return insurable(hand)


# --------------------------------------------------------------------------- the round


class RussianRound(FiveCardStudRound):
    game_name = "Russian Poker"
    decision_words = "fold, raise, buy or exchange"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config, carried)
        self.first: dict[int, list[str]] = {}
        self.drawn: dict[int, str] = {}  # box -> "buy" or "exchange"
        self.exchanged: dict[int, list[str]] = {}
        self.insured: dict[int, int] = {}
        # phases: bets -> deal -> decide -> insure -> buy -> redeal -> done

    def line_of(self, seat: int) -> tuple[str, Odds] | None:
        return raise_line(self.config.paytable, self.hands[seat], bool(self.config["lost_line"]))

    # ------------------------------------------------------------------ bets and cards

    @handles(Bet)
    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the cards are being dealt")
        if bet.spot in ("raise", "insurance") + FEES:
            raise Reject(f"the {bet.spot} stake is placed by the box's decision, not as a bet")
        if bet.spot not in ("ante", "bonus"):
            raise Reject(f"there is no '{bet.spot}' bet at this table (bets: ante, bonus)")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        if self.bet_of(bet.seat, bet.spot) is not None:
            raise Reject(f"box {bet.seat} already has a bet on {bet.spot}")
        if bet.spot == "bonus" and self.bet_of(bet.seat, "ante") is None:
            raise Reject(f"box {bet.seat}: the ante first, then the bonus")
        low, high = self.stake_limits(bet.spot)
        check_stake(bet.spot, bet.amount, low, high)
        self.bets.append(bet)
        return []

    def _check_card(self, card: Card) -> None:
        if card.is_joker:
            raise Reject("a joker is not part of the Russian Poker deck")

    def _dealt_five(self) -> None:
        super()._dealt_five()
        self.first = {s: [str(c) for c in self.hands[s]] for s in self.boxes()}

    def _decide_prompt(self) -> Prompt:
        seat = [s for s in self.boxes() if s not in self.decided][0]
        if seat in self.drawn:
            return Prompt(f"Box {seat}: fold or raise", seat=seat, expects=("action",))
        return Prompt(f"Box {seat}: fold, raise, buy a card or exchange", seat=seat, expects=("action",))

    # ------------------------------------------------------------------ decisions

    @handles(Action)
    def _act(self, action: Action) -> list[Effect]:
        if action.action == "buy_dealer":
            return self._buy_dealer(action)
        if action.action == "insurance":
            return self._insure(action)
        seat = self._decider(action)
        if action.action in ("buy", "exchange"):
            return self._draw(seat, action.action, action.cards)
        if action.action not in ("fold", "raise"):
            raise Reject(f"'{action.action}' is not a decision here (fold, raise, buy, exchange)")
        if action.cards is not None:
            raise Reject(f"'{action.action}' takes no cards")
        self.decided[seat] = action.action
        if action.action == "raise":
            self.bets.append(self._stake(seat, "raise", 2))
        if len(self.decided) < len(self.boxes()):
            return [self._decide_prompt()]
        return self._after_decisions()

    def _draw(self, seat: int, kind: str, cards: tuple[Card, ...] | None) -> list[Effect]:
        if seat in self.drawn:
            raise Reject(f"box {seat} has bought or exchanged already: raise or fold")
        held = self.hands[seat]
        if kind == "buy":
            if cards is not None:
                raise Reject("'buy' takes no cards: the sixth card comes from the shoe")
            self.owed = [(seat, None)]
            prompt = f"Box {seat} buys a sixth card: card to the box"
        else:
            most = int(self.table["exchange_cards"])
            given = list(cards or ())
            if not 1 <= len(given) <= most or len(set(given)) != len(given) or any(c not in held for c in given):
                raise Reject(f"box {seat}: name one to {most} cards of its own hand to exchange")
            self.exchanged[seat] = [str(c) for c in given]
            self.owed = [(seat, held.index(c)) for c in given]
            prompt = f"Box {seat} exchanges {len(given)}: card to the box"
        self.drawn[seat] = kind
        self.bets.append(self._stake(seat, kind))
        return [Prompt(prompt, expects=("card",))]

    def _insure(self, action: Action) -> list[Effect]:
        seat = action.seat
        if self.phase not in ("decide", "insure") or self.owed:
            raise Reject(f"no insurance now: waiting for {self.waiting_for()}")
        if self.decided.get(seat) != "raise":
            raise Reject(f"box {seat} has not raised: insurance only beside a raise")
        if seat in self.insured:
            raise Reject(f"box {seat} is insured already")
        if action.cards is not None or action.multiple is not None:
            raise Reject("'insurance' takes an amount only")
        if not insurable(best_high(self.hands[seat])):
            raise Reject(f"box {seat}: insurance needs three of a kind or better")
        span = self.amounts(seat, "insurance")
        if span is None:
            raise Reject(f"box {seat}: insurance needs the amounts of the ante and the raise")
        amount = span[0] if action.amount is None else action.amount
        if not span[0] <= amount <= span[1]:
            raise Reject(f"box {seat}: insurance from {span[0]} (the ante) to {span[1]} (half the raise's win)")
        ante = self._ante(seat)
        self.insured[seat] = amount
        self.bets.append(Bet(seat, "insurance", amount, ante.player))
        if self.phase == "insure" and not self._insurable_left():
            return self._open()
        if self.phase == "insure":
            return [self._insure_prompt()]
        return [self._decide_prompt()]

    def _insurable_left(self) -> list[int]:
        return [s for s in self.boxes() if self.decided.get(s) == "raise" and s not in self.insured
                and insurable(best_high(self.hands[s])) and self._ante(s).amount is not None]

    def _insure_prompt(self) -> Prompt:
        boxes = ", ".join(map(str, self._insurable_left()))
        return Prompt(f"Insurance at box {boxes}, then no more bets", expects=("action", "close_bets"))

    def _after_decisions(self) -> list[Effect]:
        if self._insurable_left():
            self.phase = "insure"
            return [self._insure_prompt()]
        return self._open()

    def _open(self) -> list[Effect]:
        raising = [s for s in self.boxes() if self.decided[s] == "raise"]
        if qualifies(best_high(self.hands[DEALER])) or not raising:
            return self._settle()
        self.phase = "buy"
        return [Prompt("The dealer has no game: buy_dealer from the boxes that buy him one, then no more bets "
                       "(or his new card)", expects=("action", "close_bets", "card"))]

    def _replacements(self) -> list[tuple[int, int | None]]:
        return [(DEALER, dealer_replaces(self.hands[DEALER]))]

    # ------------------------------------------------------------------ settlement

    def _settle(self) -> list[Effect]:
        self.phase = "done"
        first = best_high([parse_card(c) for c in self.dealer_first])
        final = best_high(self.hands[DEALER])
        effects: list[Effect] = []
        boxes = []
        for seat in self.boxes():
            hand = best_high(self.hands[seat])
            line = self.line_of(seat)
            decision = self.decided[seat]
            ante = self._ante(seat)
            if decision == "fold":
                effects.append(settle_fixed(ante, "lose", note="folded"))
            else:
                raised = self.bet_of(seat, "raise")
                assert raised is not None
                results = box_results(line, hand, first, final if seat in self.buyers else None)
                effects.append(settle_fixed(ante, *results["ante"]))
                note = None
                if results["raise"][0] == "win" and line is not None and line[0] not in self.config.paytable["raise"]:
                    note = f"two combinations: {line[0]}"
                effects.append(settle_fixed(raised, *results["raise"], note=note))
                insurance = self.bet_of(seat, "insurance")
                if insurance is not None:
                    effects.append(settle_fixed(insurance, *insurance_result(hand, first)))
            bonus = self.bet_of(seat, "bonus")
            if bonus is not None:
                effects.append(self._bonus(bonus, seat, decision))
            for spot in FEES:
                fee = self.bet_of(seat, spot)
                if fee is not None:
                    effects.append(settle_fixed(fee, "lose", note="the fee"))
            entry: dict[str, Any] = {"box": seat, "cards": [str(c) for c in self.hands[seat]], "hand": hand.name,
                                     "line": line[0] if line else None, "decision": decision}
            held = two_combination_lines(self.config.paytable, self.hands[seat], bool(self.config["lost_line"]))
            if held:
                entry["two_combinations"] = {k: v.as_list() for k, v in held.items()}
            if seat in self.drawn:
                entry["first_cards"] = self.first[seat]
                entry["drew"] = self.drawn[seat]
                if seat in self.exchanged:
                    entry["exchanged"] = self.exchanged[seat]
            if seat in self.buyers:
                entry["bought_dealer"] = True
            boxes.append(entry)
        self._outcome = {"dealer": {"cards": self.dealer_first, "up_card": self.dealer_first[-1],
                                    "hand": first.name, "qualifies": qualifies(first)},
                         "boxes": boxes}
        if self.buyers:
            self._outcome["dealer"]["bought"] = {"by": self.buyers, "cards": [str(c) for c in self.hands[DEALER]],
                                                 "hand": final.name, "qualifies": qualifies(final)}
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        return [Outcome(self._outcome)] + effects

    def _bonus(self, bet: Bet, seat: int, decision: str) -> Settlement:
        if decision == "fold":
            return settle_fixed(bet, "lose", note="folded: the bonus is lost")
        if seat in self.drawn:
            return settle_fixed(bet, "lose", note="bought or exchanged a card: the bonus is lost (002)")
        return settle_fixed(bet, *bonus_result(self.config.paytable["bonus"], best_high(self.hands[seat])))

    @handles(CloseBets)
    def _on_close_bets(self, event: CloseBets) -> list[Effect]:
        if self.phase == "insure":
            return self._open()
        return super()._on_close_bets(event)

    # ------------------------------------------------------------------ the contract

    def _waiting_extra(self) -> str | None:
        if self.phase == "insure":
            return f"insurance at box {', '.join(map(str, self._insurable_left()))}, then no more bets"
        return None

    def amounts(self, seat: int, action: str) -> tuple[int, int] | None:
        """Insurance: from the ante to half of what the raise would win."""
        if action != "insurance" or self.decided.get(seat) != "raise":
            return None
        ante, raised = self._ante(seat).amount, self.bet_of(seat, "raise")
        if ante is None or raised is None or raised.amount is None:
            return None
        return ante, max(ante, insurance_most(self.line_of(seat), raised.amount))

    def card_choice(self, seat: int, action: str) -> CardChoice | None:
        if action != "exchange" or self.phase != "decide" or seat in self.decided or seat in self.drawn \
                or seat not in self.hands:
            return None
        return CardChoice(tuple(self.hands[seat]), 1, int(self.table["exchange_cards"]))

    def layout(self) -> Mapping[str, Any] | None:
        """The dealer's cards (the fifth face up until the round is settled) and each box's cards and decision."""
        if self.phase in ("bets",):
            return None
        dealer = self.hands.get(DEALER, [])
        shown = [str(c) if self.phase in ("buy", "redeal", "done") or i == 4 else "down"
                 for i, c in enumerate(dealer)]
        boxes = []
        for seat in self.boxes():
            entry: dict[str, Any] = {"cards": [str(c) for c in self.hands.get(seat, [])]}
            if seat in self.decided:
                entry["note"] = self.decided[seat] + (f", insured {self.insured[seat]}" if seat in self.insured else "")
            elif self.phase == "decide":
                entry["turn"] = True
            boxes.append({"seat": seat, "hands": [entry]})
        return {"dealer": {"cards": shown}, "boxes": boxes}

    def suggested(self, seat: int) -> Action:
        """The stated strategy (virtual players): ``strategy`` for a decision, ``buys_dealer`` for the dealer's
        game, ``insures`` for the insurance."""
        if self.phase == "buy":
            return Action(seat, "buy_dealer")
        if self.phase == "insure" or self.decided.get(seat) == "raise":
            return Action(seat, "insurance")
        decision, cards = strategy(self.table, self.hands[seat], seat in self.drawn)
        return Action(seat, decision, cards=cards)


# --------------------------------------------------------------------------- the declaration


def validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "bonus"):
            raise ValueError(f"limits: no spot {spot!r} in russian-poker (ante, bonus; the raise, the fees and the "
                             "insurance follow the ante)")


_VARIANTS = (
    VariantSpec("fi-a", "version A: one to five cards exchanged", "002 Russian Poker, Spelversion A"),
    VariantSpec("fi-b", "version B: at most three cards exchanged", "002 Russian Poker, Spelversion B"),
    VariantSpec("fi-c", "version C: at most two cards exchanged", "002 Russian Poker, Spelversion C"),
)

SPEC = GameSpec(
    id="russian-poker",
    name="Russian Poker",
    seeds=("002 Russian Poker",),
    variants=_VARIANTS,
    options=(
        OptionSpec("boxes", 6, "boxes at the table (002: 'spelplatser för 4-6 spelare')", minimum=1, maximum=6),
        OptionSpec("lost_line", True, "pay straight flush + straight 54 to 1, the line lost from 002's table of two "
                                      "combinations (its example shows the hand)", kind="bool"),
        OptionSpec("limits", {}, "[minimum, maximum] of ante and bonus in minor units", kind="limits"),
    ),
    spots=(
        SpotSpec("ante", "the ante, needed to play", "table limits"),
        SpotSpec("raise", "placed by the raise decision: twice the ante (002)", "twice the ante"),
        SpotSpec("bonus", "the bonus, on the box's first five cards; lost on a fold, a bought or exchanged card",
                 "table limits"),
        SpotSpec("insurance", "placed by the insurance decision, from three of a kind up",
                 "from the ante to half the raise's win (002)"),
    ),
    actions=(
        ActionSpec("fold", "give up: ante and bonus lost"),
        ActionSpec("raise", "play on: a raise of twice the ante"),
        ActionSpec("buy", "buy a sixth card for a fee of the ante; the bonus is lost"),
        ActionSpec("exchange", "exchange cards (cards: the ones given up) for a fee of the ante; the bonus is lost",
                   cards=True),
        ActionSpec("insurance", "insure a raise with three of a kind or better (amount: from the ante to half the "
                                "raise's win)", amount=True),
        ActionSpec("buy_dealer", "the dealer has no game: buy him one for a fee of the ante"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="russian",
    new_round=lambda config, carried: RussianRound(config, carried),
    paytable_file="russian-poker.toml",
    validate=validate,
)
