"""One blackjack round, card by card in shoe order (seed 000 Black Jack, Burn, Two Decks, Ö/U 13,
bakomspel; seed 002 "Kortspelet Blackjack" and versions A and B).

The round always knows what comes next: a card to a box or to the dealer in
the deal, the decision of the box whose turn it is (a hit is simply the next
card), the burn decision, the dealer's draw. Every rule decision goes through
``rules.py``. A card the rules cannot place (no box waiting, the dealer on a
standing total, the deal blocked by the burn puck) is *accepted* with a
``misdeal`` alert and kept out of play: the card has physically left the
shoe, so the journal records it, and the round is otherwise unchanged.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event, Puck
from controller.games.blackjack import rules as R
from controller.games.blackjack.state import Box, Hand, Player
from controller.games.contract import (
    Accepted, Alert, Effect, Outcome, Prompt, Reject, Rejected, Round, RoundConfig, Settlement,
    check_stake, settle_fixed,
)
from controller.hands.blackjack import ACE, card_value, describe_total, hand_total, is_blackjack
from controller.money import Odds, fraction_of

PLAY_ACTIONS = ("stand", "double", "split", "surrender")
ACTIONS = PLAY_ACTIONS + ("insurance", "even_money", "burn", "puck_override")
PUCK_SPOT = "puck"  # the carried marker of where the burn puck lay (not a bet; no money)


def _words(options: list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def _up_word(card: Card) -> str:
    value = card_value(card)
    return "an ace" if value == ACE else str(value)


class BlackjackRound(Round):
    """Bets, the puck (Burn), the deal, insurance, each box in turn, the burn, the dealer, settlement."""

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.rules = R.rules_of(config)
        self.phase = "bets"  # bets | deal | play | dealer | done
        self.boxes: dict[int, Box] = {}
        self.dealer: list[Card] = []
        self.deal_order: list[int] = []  # seats, 0 for the dealer
        self.deal_pos = 0
        self.insurance_open = False
        self.follow: tuple[int, str, int] | None = None  # (seat, double|split, hand index) for back bettors
        self.puck_prev: int | None = config.get("previous_puck_box")
        for bet in carried:
            if bet.spot == PUCK_SPOT:
                self.puck_prev = bet.seat
        self.puck_seen: int | None = None
        self.puck_override = False
        self.puck_box: int | None = None
        self.burn_state = "none"  # none | offered | armed | burned | passed
        self.burned: Card | None = None
        self.unused: list[Card] = []
        self._settlements: list[Settlement] = []
        self.returned: list[tuple[int, Player, int | None, int]] = []  # (seat, player, hand, amount) handed back

    # ------------------------------------------------------------------ the contract

    def _snapshot(self) -> dict[str, Any]:
        rules = self.__dict__.pop("rules")
        try:
            snap = super()._snapshot()
        finally:
            self.rules = rules
        snap["rules"] = rules
        return snap

    def apply(self, event: Event) -> Accepted | Rejected:
        """As ``Round.apply``; a card after the round is settled is a misdeal: accepted, alerted, not used."""
        if self.complete and isinstance(event, CardOut):
            self.unused.append(event.card)
            return Accepted((Alert("misdeal", f"misdeal: the round is settled and no box or dealer takes a card; "
                                              f"{event.card} is not used"),))
        return super().apply(event)

    def _apply(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, CardOut):
            effects = self._card(event.card)
        else:
            if isinstance(event, Bet):
                effects = self._place(event)
            elif isinstance(event, Puck):
                effects = self._puck(event.seat)
            elif isinstance(event, CloseBets):
                effects = self._close()
            elif isinstance(event, Action):
                effects = self._action(event)
            else:
                raise Reject(f"a {type(event).__name__.lower()} event has no place in blackjack")
        if self.phase != "done":
            effects.append(self._prompt())
        return effects

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    def waiting_for(self) -> str:
        return "nothing: the round is settled" if self.phase == "done" else self._prompt().text

    def settlements(self) -> tuple[Settlement, ...]:
        return tuple(self._settlements)

    def carried(self) -> tuple[Bet, ...]:
        """Blackjack stakes never carry; at a Burn table the puck's box does, as a marker without money."""
        if self.rules.burn and self.puck_box is not None:
            return (Bet(self.puck_box, PUCK_SPOT),)
        return ()

    def closed_reason(self, event: Event) -> str:
        return "the round is settled; bets and decisions go to the next round"

    # ------------------------------------------------------------------ bets and the puck

    def _maximum(self, spot: str) -> int | None:
        limit = self.config["limits"].get(spot)
        maximum = limit[1] if limit else None
        if self.config.variant.startswith("se"):
            legal = fraction_of(self.config["price_base_amount"], 1, 600)  # 000 rule 6
            maximum = legal if maximum is None else min(maximum, legal)
        return maximum

    def _minimum(self, spot: str) -> int:
        limit = self.config["limits"].get(spot)
        return limit[0] if limit else 0

    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the deal has started")
        spots = ("main", "over13", "under13") if self.rules.over_under else ("main",)
        if bet.spot == "insurance":
            raise Reject("insurance is taken with the insurance action when the dealer shows an ace")
        if bet.spot not in spots:
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: {', '.join(spots)})")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        box = self.boxes.get(bet.seat)
        if bet.spot == "main":
            return self._place_main(box or Box(bet.seat), bet)
        return self._place_side(box, bet)

    def _place_main(self, box: Box, bet: Bet) -> list[Effect]:
        old = box.main.get(bet.player)
        if old is not None and (old.amount is None or bet.amount is None):
            raise Reject(f"box {bet.seat} already has a main bet" + (f" for {bet.player}" if bet.player else ""))
        amount = None if bet.amount is None else bet.amount + ((old.amount or 0) if old else 0)
        check_stake("main", amount, self._minimum("main"), self._maximum("main"))
        maximum = self._maximum("main")
        if maximum is not None and amount is not None:
            others = sum(b.amount or 0 for p, b in box.main.items() if p != bet.player)
            if others + amount > maximum:
                raise Reject(f"box {bet.seat}: all stakes in one box together must stay within the maximum "
                             f"of {maximum} (bakomspel rule 3); {others} is already there")
        box.main[bet.player] = Bet(bet.seat, "main", amount, bet.player)
        self.boxes[bet.seat] = box
        self.boxes = dict(sorted(self.boxes.items()))
        return []

    def _place_side(self, box: Box | None, bet: Bet) -> list[Effect]:
        if box is None:
            raise Reject(f"box {bet.seat} has no main bet: Ö/U 13 is played only with Black Jack in the same box "
                         "(Ö/U 13 rule 3)")
        if bet.player is not None and bet.player != box.holder:
            raise Reject("no back betting on Ö/U 13 (Ö/U 13 rule 11): only the box holder may bet on it")
        if box.side is not None and box.side.spot != bet.spot:
            raise Reject(f"box {bet.seat} already bets {box.side.spot}: over or under 13, not both (Ö/U 13 rule 4)")
        if box.side is not None and (box.side.amount is None or bet.amount is None):
            raise Reject(f"box {bet.seat} already has a bet on {bet.spot}")
        amount = None if bet.amount is None else bet.amount + ((box.side.amount or 0) if box.side else 0)
        check_stake(bet.spot, amount, self._minimum(bet.spot), self._maximum(bet.spot))
        main = box.main[box.holder].amount
        if amount is not None and main is not None and amount > main:
            raise Reject(f"{bet.spot}: {amount} is above the box's main bet of {main} (Ö/U 13 rule 6)")
        box.side = Bet(bet.seat, bet.spot, amount, box.holder)
        return []

    def _expected_puck(self) -> int | None:
        """Burn rules 2 and 4: the first box with a bet in the first round, then clockwise (rising box
        number, wrapping) to the next box with a bet."""
        seats = sorted(self.boxes)
        if not seats:
            return None
        if self.puck_prev is None:
            return seats[0]
        return next((s for s in seats if s > self.puck_prev), seats[0])

    def _puck(self, seat: int) -> list[Effect]:
        if not self.rules.burn:
            raise Reject("there is no burn puck at this table")
        if self.phase != "bets":
            raise Reject("the burn puck moves only between rounds, just before the deal (Burn rule 4)")
        expected = self._expected_puck()
        if expected is None:
            raise Reject("no box has a bet yet: the puck goes to the first box with a bet (Burn rule 2)")
        self.puck_seen = seat
        self.puck_override = False
        if seat != expected:
            return [Alert("puck", f"burn puck sensed at box {seat} but it belongs at box {expected}: move it "
                                  f"to box {expected} (or a supervisor override); the deal waits")]
        return []

    def _puck_blocked(self) -> str | None:
        """Why the deal may not open at a Burn table, or None (and the puck's box is then fixed)."""
        if not self.rules.burn:
            return None
        expected = self._expected_puck()
        if self.puck_override and self.puck_seen in self.boxes:
            self.puck_box = self.puck_seen
            return None
        if not self.config.get("puck_sensor", True):
            self.puck_box = expected
            return None
        if self.puck_seen == expected:
            self.puck_box = expected
            return None
        where = f"it was sensed at box {self.puck_seen}" if self.puck_seen is not None else "it was not sensed"
        return f"the burn puck must be at box {expected} before the deal; {where}"

    def _open_deal(self) -> None:
        seats = list(self.boxes)
        self.deal_order = seats + [0] + seats + ([0] if self.rules.dealer_cards != "one" else [])
        for box in self.boxes.values():
            box.hands = [Hand(base={p: b.amount for p, b in box.main.items()})]
        self.phase = "deal"

    def _close(self) -> list[Effect]:
        if self.phase == "bets":
            if not self.boxes:
                raise Reject("no box has a bet: nothing to deal")
            blocked = self._puck_blocked()
            if blocked:
                raise Reject(blocked)
            self._open_deal()
            return []
        if self.insurance_open:
            return self._close_insurance()
        raise Reject("the bets are already closed")

    # ------------------------------------------------------------------ cards

    def _misdeal(self, card: Card, why: str) -> list[Effect]:
        self.unused.append(card)
        return [Alert("misdeal", f"misdeal: {why}; {card} is not used")]

    def _card(self, card: Card) -> list[Effect]:
        if card.is_joker:
            raise Reject("a joker is not part of a blackjack shoe (000 rule 4)")
        self.follow = None
        if self.phase == "bets":
            if not self.boxes:
                return self._misdeal(card, "no box has a bet")
            blocked = self._puck_blocked()
            if blocked:
                return self._misdeal(card, blocked)
            self._open_deal()
        if self.phase == "deal":
            return self._deal_card(card)
        if self.phase == "play":
            effects: list[Effect] = []
            if self.insurance_open:
                effects += self._close_insurance()
                if self.phase == "done":
                    return effects + self._misdeal(card, "the dealer has Black Jack and the round is settled")
            if self.phase == "dealer":
                return effects + self._dealer_card(card)
            return effects + self._hit(card)
        return self._dealer_card(card)

    def _deal_card(self, card: Card) -> list[Effect]:
        seat = self.deal_order[self.deal_pos]
        self.deal_pos += 1
        effects: list[Effect] = []
        if seat == 0:
            self.dealer.append(card)
        else:
            box = self.boxes[seat]
            box.hands[0].cards.append(card)
            if len(box.hands[0].cards) == 2:
                effects += self._box_dealt(box)
        if self.deal_pos == len(self.deal_order):
            effects += self._after_deal()
        return effects

    def _box_dealt(self, box: Box) -> list[Effect]:
        """The box's first two cards: Ö/U 13 is settled, and SE rule 10 pays a Black Jack at once."""
        effects: list[Effect] = []
        hand = box.hands[0]
        if box.side is not None:
            a, b = hand.values
            result, odds = R.over_under_result(box.side.spot, a, b, self.config.paytable[self.config.variant])
            effects.append(self._pay(box.seat, box.side.spot, box.side.player, box.side.amount, result, odds))
        if hand.blackjack and R.blackjack_paid_at_once(self.rules, card_value(self.dealer[0])):
            effects += self._settle_hand(box, 0, "win", self.rules.blackjack,
                                         note="Black Jack paid at once (000 rule 10)")
        return effects

    def _after_deal(self) -> list[Effect]:
        up = card_value(self.dealer[0])
        if self.rules.dealer_cards == "two_up" and is_blackjack(self.dealer):
            return self._settle_all()
        if self.rules.insurance_offered and up == ACE and any(b.active for b in self.boxes.values()):
            self.insurance_open = True
        elif self.rules.dealer_cards == "hole" and up == 10 and is_blackjack(self.dealer):
            return self._settle_all()  # 002 version A: the peek finds an ace under a ten
        return self._start_play()

    def _close_insurance(self) -> list[Effect]:
        """No more insurance: with a hole card the dealer now peeks (002 version A)."""
        self.insurance_open = False
        if self.rules.dealer_cards == "hole" and is_blackjack(self.dealer):
            return self._settle_all()
        if self.rules.dealer_cards == "hole":
            return self._settle_insurance(dealer_blackjack=False)
        return []

    def _start_play(self) -> list[Effect]:
        self.phase = "play"
        return self._advance()

    def _turn(self) -> tuple[Box, int] | None:
        for box in self.boxes.values():
            for i, hand in enumerate(box.hands):
                if not hand.done:
                    return box, i
        return None

    def _advance(self) -> list[Effect]:
        """Move to the next hand that needs play; a hand of 21 stands by itself; then the dealer."""
        while True:
            turn = self._turn()
            if turn is None:
                return self._dealer_turn()
            box, i = turn
            hand = box.hands[i]
            if len(hand.cards) >= 2 and hand.total[0] == 21 and not hand.doubling:
                hand.stood = True
                continue
            return []

    def _hit(self, card: Card) -> list[Effect]:
        turn = self._turn()
        assert turn is not None
        box, i = turn
        hand = box.hands[i]
        hand.cards.append(card)
        effects: list[Effect] = []
        total = hand.total[0]
        if total > 21:
            effects += self._settle_hand(box, i, "lose", None, note=f"bust ({total}, 000 rule 11)")
        elif hand.doubling:
            hand.doubling = False
            hand.stood = True
        elif hand.split_aces and len(hand.cards) == 2:
            hand.stood = True
        return effects + self._advance()

    # ------------------------------------------------------------------ decisions

    def _who(self, box: Box, player: str | None) -> Player:
        if player is None:
            return box.holder
        if player not in box.main:
            raise Reject(f"{player} has no bet at box {box.seat}")
        return player

    def _action(self, a: Action) -> list[Effect]:
        if a.action not in ACTIONS:
            raise Reject(f"unknown decision {a.action!r} (decisions: {', '.join(ACTIONS)})")
        if a.action == "puck_override":
            return self._override(a.seat)
        box = self.boxes.get(a.seat)
        if box is None:
            raise Reject(f"box {a.seat} has no bet")
        if self.phase in ("bets", "deal"):
            raise Reject(f"no decisions before the deal is complete; {self._prompt().text}")
        if a.action == "burn":
            return self._burn(box)
        if a.action in ("insurance", "even_money"):
            return self._insure(box, a)
        player = self._who(box, a.player)
        if player != box.holder:
            return self._follow(box, player, a)
        if self.insurance_open:
            if self.rules.dealer_cards == "hole":
                raise Reject("insurance first: say no more insurance so the dealer can peek")
            self.insurance_open = False
        self.follow = None
        if self.phase != "play":
            raise Reject(f"no box is playing now; {self._prompt().text}")
        turn = self._turn()
        assert turn is not None
        now, i = turn
        label = self._label(now, i)
        if now.seat != box.seat:
            raise Reject(f"it is {label}'s turn, not box {box.seat}'s")
        if a.hand is not None and a.hand != i + 1:
            raise Reject(f"it is {label}'s turn, not hand {a.hand}")
        hand = now.hands[i]
        if hand.doubling or len(hand.cards) < 2:
            raise Reject(f"{label} takes a card now")
        if a.action == "stand":
            hand.stood = True
            return self._advance()
        if a.action == "double":
            return self._double(box, i)
        if a.action == "split":
            return self._split(box, i)
        return self._surrender(box, i)

    def _double(self, box: Box, i: int) -> list[Effect]:
        hand = box.hands[i]
        refusal = R.double_refusal(self.rules, hand.hard, hand.free_aces, len(hand.cards), hand.from_split,
                                   hand.split_aces)
        if refusal:
            raise Reject(f"{self._label(box, i)}: {refusal}")
        if R.double_locks_aces(self.rules, hand.hard, hand.free_aces):
            hand.locked_aces = hand.values.count(ACE)
        hand.doubled[box.holder] = hand.base[box.holder]
        hand.doubling = True
        self.follow = (box.seat, "double", i)
        return []

    def _split(self, box: Box, i: int) -> list[Effect]:
        hand = box.hands[i]
        if len(hand.cards) != 2:
            raise Reject(f"{self._label(box, i)}: split only a first pair of two cards")
        a, b = hand.cards
        refusal = R.split_refusal(self.rules, a.rank, b.rank, card_value(a), card_value(b), len(hand.cards),
                                  len(box.hands), hand.split_aces)
        if refusal:
            raise Reject(f"{self._label(box, i)}: {refusal} ({a} {b})")
        aces = card_value(a) == ACE
        hand.cards = [a]
        hand.from_split = True
        hand.split_aces = aces
        new = Hand(cards=[b], base={box.holder: hand.base[box.holder]}, from_split=True, split_aces=aces)
        box.hands.insert(i + 1, new)
        self.follow = (box.seat, "split", i)
        return []

    def _surrender(self, box: Box, i: int) -> list[Effect]:
        hand = box.hands[i]
        refusal = R.surrender_refusal(self.rules, len(hand.cards), hand.from_split, card_value(self.dealer[0]))
        if refusal:
            raise Reject(f"{self._label(box, i)}: {refusal}")
        return self._settle_hand(box, i, "surrender", None, note="surrendered: half the stake back") + self._advance()

    def _follow(self, box: Box, player: Player, a: Action) -> list[Effect]:
        """Bakomspel rules 4-5: a back bettor follows the box holder, adding a stake or not at a double or split."""
        if a.action not in ("double", "split"):
            raise Reject(f"the box holder decides for box {box.seat}; a back bettor only adds a stake or not "
                         "when the holder doubles or splits (bakomspel rule 4)")
        if self.follow is None or self.follow[:2] != (box.seat, a.action):
            raise Reject(f"the box holder of box {box.seat} has not just chosen to {a.action}")
        i = self.follow[2]
        hand = box.hands[i]
        if player not in hand.base:
            raise Reject(f"{player} has no stake on this hand of box {box.seat}")
        if a.action == "double":
            if player in hand.doubled:
                raise Reject(f"{player} has already doubled here")
            hand.doubled[player] = hand.base[player]
        else:
            new = box.hands[i + 1]
            if player in new.base:
                raise Reject(f"{player} has already added a stake for the split hand")
            new.base[player] = hand.base[player]
        return []

    def _insure(self, box: Box, a: Action) -> list[Effect]:
        if not self.insurance_open:
            raise Reject("insurance and even money are offered only when the dealer's first card is an ace, "
                         "before the boxes play")
        hand = box.hands[0]
        player = self._who(box, a.player)
        if a.action == "even_money":
            if player != box.holder:
                raise Reject("even money is the box holder's decision")
            if not hand.blackjack or hand.settled:
                raise Reject(f"even money is only for a Black Jack; box {box.seat} has none")
            assert self.rules.even_money is not None
            return self._settle_hand(box, 0, "win", self.rules.even_money, note="even money (000 rule 14)")
        if hand.settled:
            raise Reject(f"box {box.seat} is already settled")
        if player in box.insurance:
            raise Reject(f"box {box.seat} is already insured" + (f" for {player}" if player else ""))
        stake = box.main[player].amount
        half = None if stake is None else stake // 2
        amount = a.amount if a.amount is not None else half
        if half is not None and amount is not None:
            if half == 0:
                raise Reject(f"a stake of {stake} is too small to insure")
            if self.rules.insurance_odds is None and amount != half:
                raise Reject(f"insurance is half the original bet: {half} (000 rule 13)")
            if not 0 < amount <= half:
                raise Reject(f"insurance may be at most half the original bet: {half}")
        box.insurance[player] = amount
        return []

    def _override(self, seat: int) -> list[Effect]:
        if not self.rules.burn:
            raise Reject("there is no burn puck at this table")
        if self.phase != "bets":
            raise Reject("the burn puck is settled before the deal")
        if seat not in self.boxes:
            raise Reject(f"box {seat} has no bet: the burn puck cannot stay there")
        self.puck_seen = seat
        self.puck_override = True
        return [Alert("puck", f"supervisor override: the burn puck is accepted at box {seat}")]

    def _burn(self, box: Box) -> list[Effect]:
        if not self.rules.burn:
            raise Reject("burning the dealer's card is only played at a Black Jack Burn table")
        if self.burn_state != "offered":
            raise Reject("the burn is offered only when the dealer is about to take the second card (Burn rule 5)"
                         if self.burn_state == "none" else "the dealer's second card is already decided")
        if box.seat != self.puck_box:
            raise Reject(f"only box {self.puck_box}, which has the burn puck, may burn (Burn rule 2)")
        self.burn_state = "armed"
        return []

    # ------------------------------------------------------------------ the dealer

    def _needs_dealer(self) -> bool:
        return any(box.active or (box.insurance and not box.insurance_settled) for box in self.boxes.values())

    def _second_card_only(self) -> bool:
        """Only Black Jacks and insurance wait: the dealer's second card decides them."""
        return all(h.settled or h.blackjack for box in self.boxes.values() for h in box.hands)

    def _dealer_turn(self) -> list[Effect]:
        self.phase = "dealer"
        if not self._needs_dealer():
            return self._settle_all()
        if len(self.dealer) >= 2:
            hand_hard = sum(card_value(c) for c in self.dealer)
            if self._second_card_only() or not R.dealer_must_draw(self.rules, hand_hard, self._dealer_aces()):
                return self._settle_all()
            return []
        if self.rules.burn and self.puck_box is not None and self.boxes[self.puck_box].active:
            self.burn_state = "offered"
        return []

    def _dealer_aces(self) -> int:
        return sum(1 for c in self.dealer if card_value(c) == ACE)

    def _dealer_card(self, card: Card) -> list[Effect]:
        if self.burn_state == "armed":
            self.burned = card
            self.burn_state = "burned"
            return []
        if self.burn_state == "offered":
            self.burn_state = "passed"
        self.dealer.append(card)
        if len(self.dealer) == 2 and (is_blackjack(self.dealer) or self._second_card_only()):
            return self._settle_all()
        hard = sum(card_value(c) for c in self.dealer)
        if R.dealer_must_draw(self.rules, hard, self._dealer_aces()):
            return []
        return self._settle_all()

    # ------------------------------------------------------------------ settlement

    def _pay(self, seat: int, spot: str, player: Player, amount: int | None, result: str, odds: Odds | None,
             hand: int | None = None, note: str | None = None) -> Settlement:
        settlement = settle_fixed(Bet(seat, spot, amount, player), result, odds, hand=hand, note=note)
        self._settlements.append(settlement)
        return settlement

    def _settle_hand(self, box: Box, i: int, result: str, odds: Odds | None, note: str | None = None,
                     kept: Mapping[Player, frozenset[str]] | None = None) -> list[Effect]:
        """Settle every player's stake on one hand. ``kept`` names, per player, the parts of a losing
        stake ("base", "double") that go back to the player instead (SE rule 13, original bets only)."""
        hand = box.hands[i]
        hand.settled = True
        hand.result = result
        number = box.hand_number(i)
        out: list[Effect] = []
        for player in hand.base:
            stake = hand.stake(player)
            parts = {"base", "double"} if player in hand.doubled else {"base"}
            keep = (kept or {}).get(player, frozenset()) & parts
            this_result, this_note = result, note
            if keep == parts:
                this_result = "push"
                this_note = f"{note}; the stake is kept" if note else "the stake is kept"
            elif keep:
                back = hand.base[player] if "base" in keep else hand.doubled[player]
                this_note = f"{note}; the {'original' if 'base' in keep else 'doubled'} stake is kept"
                if stake is not None and back is not None:
                    stake -= back
                    self.returned.append((box.seat, player, number, back))
            out.append(self._pay(box.seat, "main", player, stake, this_result,
                                 odds if this_result == "win" else None, number, this_note))
        return out

    def _settle_insurance(self, dealer_blackjack: bool) -> list[Effect]:
        out: list[Effect] = []
        result, odds = R.insurance_result(self.rules, dealer_blackjack)
        for box in self.boxes.values():
            if box.insurance and not box.insurance_settled:
                box.insurance_settled = True
                for player, amount in box.insurance.items():
                    out.append(self._pay(box.seat, "insurance", player, amount, result, odds))
        return out

    def _kept_against_blackjack(self, box: Box, i: int) -> dict[Player, frozenset[str]]:
        """Stake parts a player keeps when the dealer has Black Jack: the insured original bet (SE rule 13),
        and with the option original_bets_only every double and every split hand's stake."""
        kept: dict[Player, frozenset[str]] = {}
        for player in box.hands[i].base:
            parts: set[str] = set()
            if self.rules.original_bets_only:
                parts |= {"double"} if i == 0 else {"base", "double"}
            if self.rules.insurance_odds is None and player in box.insurance and i == 0:
                parts.add("base")
            kept[player] = frozenset(parts)
        return kept

    def _settle_all(self) -> list[Effect]:
        self.phase = "done"
        self.insurance_open = False
        dealer_total = hand_total(self.dealer)[0]
        dealer_bj = is_blackjack(self.dealer[:2]) and len(self.dealer) >= 2
        out: list[Effect] = []
        for box in self.boxes.values():
            for i, hand in enumerate(box.hands):
                if hand.settled:
                    continue
                total = hand.total[0]
                result, odds = R.hand_result(self.rules, total, hand.blackjack, dealer_total, dealer_bj)
                kept = self._kept_against_blackjack(box, i) if dealer_bj and result == "lose" else None
                note = "dealer Black Jack" if dealer_bj and result == "lose" else None
                if dealer_bj and result == "push" and hand.blackjack:
                    note = "Black Jack against Black Jack"
                elif result == "lose" and not dealer_bj and total == dealer_total and self.rules.tie != "push":
                    note = f"equal {total}: the dealer wins" + (" (000 rule 8)" if self.rules.tie == "se" else "")
                out += self._settle_hand(box, i, result, odds, note, kept)
        out += self._settle_insurance(dealer_bj)
        out.insert(0, Outcome(self.outcome() or {}))
        return out

    # ------------------------------------------------------------------ words

    def _label(self, box: Box, i: int) -> str:
        return f"box {box.seat}" + (f" hand {i + 1}" if len(box.hands) > 1 else "")

    def _choices(self, box: Box, i: int) -> list[str]:
        hand = box.hands[i]
        options = ["tuck", "card"] if self.rules.dark_cards else ["stand", "hit"]
        if not R.double_refusal(self.rules, hand.hard, hand.free_aces, len(hand.cards), hand.from_split,
                                hand.split_aces):
            options.append("double")
        a, b = (hand.cards + [hand.cards[0]])[:2]
        if len(hand.cards) == 2 and not R.split_refusal(self.rules, a.rank, b.rank, card_value(a), card_value(b),
                                                        2, len(box.hands), hand.split_aces):
            options.append("split")
        if not R.surrender_refusal(self.rules, len(hand.cards), hand.from_split, card_value(self.dealer[0])):
            options.append("surrender")
        return options

    def _prompt(self) -> Prompt:
        if self.phase == "bets":
            if self.rules.burn and self.boxes:
                expected = self._expected_puck()
                return Prompt(f"Bets; burn puck to box {expected}; then no more bets",
                              expects=("bet", "puck", "close_bets"))
            return Prompt("Bets, then no more bets", expects=("bet", "close_bets"))
        if self.phase == "deal":
            seat = self.deal_order[self.deal_pos]
            first = self.deal_pos < len(self.boxes) + 1
            if seat == 0:
                which = "first card" if first else ("hole card" if self.rules.dealer_cards == "hole" else "second card")
                return Prompt(f"Dealer's {which}", expects=("card",))
            return Prompt(f"{'First' if first else 'Second'} card to box {seat}", seat=seat, expects=("card",))
        if self.phase == "play":
            return self._play_prompt()
        if self.phase == "dealer":
            if self.burn_state == "offered":
                return Prompt(f"Box {self.puck_box} (burn puck): burn the dealer's second card?",
                              seat=self.puck_box, expects=("burn", "card"))
            if self.burn_state == "armed":
                return Prompt(f"Burn the next card for box {self.puck_box}: face down to the burn box",
                              expects=("card",))
            if len(self.dealer) == 1:
                return Prompt(f"Dealer's second card (dealer has {_up_word(self.dealer[0])})", expects=("card",))
            total, soft = hand_total(self.dealer)
            return Prompt(f"Dealer must draw: {describe_total(total, soft)}", expects=("card",))
        return Prompt("Round settled")

    def _play_prompt(self) -> Prompt:
        turn = self._turn()
        assert turn is not None
        box, i = turn
        hand = box.hands[i]
        label = self._label(box, i).capitalize()
        up = _up_word(self.dealer[0])
        if hand.doubling:
            text = f"{label}: doubled — one card"
            expects: tuple[str, ...] = ("card",)
        elif len(hand.cards) < 2:
            text = f"{label}: second card to the split {hand.cards[0].rank_word}"
            expects = ("card",)
        else:
            options = self._choices(box, i)
            total, soft = hand.total
            shown = "" if self.rules.dark_cards else f" {describe_total(total, soft)}"
            text = f"{label}:{shown} against {up} — {_words(options)}?"
            expects = tuple("card" if o in ("hit", "card") else "stand" if o == "tuck" else o for o in options)
        if self.insurance_open:
            evens = [b.seat for b in self.boxes.values() if b.hands[0].blackjack and not b.hands[0].settled]
            offer = "Dealer shows an ace: insurance?"
            if evens and self.rules.even_money is not None:
                offer += " Even money for box " + ", ".join(map(str, evens)) + "?"
            if self.rules.dealer_cards == "hole":
                offer += " Then no more insurance, the dealer peeks."
            text = f"{offer} {text}"
            expects = ("insurance", "even_money", "close_bets") + expects
        return Prompt(text, seat=box.seat, expects=expects)

    def outcome(self) -> Mapping[str, Any] | None:
        if self.phase != "done":
            return None
        total, soft = hand_total(self.dealer) if self.dealer else (0, False)
        out: dict[str, Any] = {
            "dealer": {"cards": [str(c) for c in self.dealer], "total": total,
                       "blackjack": len(self.dealer) >= 2 and is_blackjack(self.dealer[:2]), "bust": total > 21},
            "boxes": [{"seat": box.seat, "hands": [self._hand_json(box, i) for i in range(len(box.hands))]}
                      for box in self.boxes.values()],
        }
        if self.rules.burn:
            out["puck_box"] = self.puck_box
            out["burned"] = str(self.burned) if self.burned is not None else None
        if self.unused:
            out["unused_cards"] = [str(c) for c in self.unused]
        return out

    def _hand_json(self, box: Box, i: int) -> dict[str, Any]:
        hand = box.hands[i]
        total, soft = hand.total
        out: dict[str, Any] = {"hand": i + 1, "cards": [str(c) for c in hand.cards], "total": total}
        if soft:
            out["soft"] = True
        if hand.blackjack:
            out["blackjack"] = True
        if hand.doubled:
            out["doubled"] = True
        if hand.locked_aces:
            out["ace_counts_one"] = True
        if hand.result:
            out["result"] = hand.result
        return out
