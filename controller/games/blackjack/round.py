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

from typing import Any, Iterable

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event, Puck
from controller.games.blackjack import rules as R
from controller.games.blackjack.betting import Betting
from controller.games.blackjack.settling import Settling
from controller.games.blackjack.state import Box, Hand, HandView, Player, RoundView
from controller.games.blackjack.words import Words
from controller.games.contract import Accepted, Alert, Effect, Reject, Rejected, Round, RoundConfig, Settlement
from controller.hands.blackjack import ACE, card_value, is_blackjack

PLAY_ACTIONS = ("stand", "double", "split", "surrender")
ACTIONS = PLAY_ACTIONS + ("insurance", "even_money", "burn", "puck_override")
PUCK_SPOT = "puck"  # the carried marker of where the burn puck lay (not a bet; no money)


class BlackjackRound(Betting, Settling, Words, Round):
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
        # the puck lies where it lay last round until a sensor says it moved (the sensor reports moves only)
        self.puck_seen: int | None = self.puck_prev
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

    @property
    def betting_open(self) -> bool:  # type: ignore[override]
        """Bets are taken until no more bets (or the first card)."""
        return self.phase == "bets"

    def waiting_for(self) -> str:
        return "nothing: the round is settled" if self.phase == "done" else self._prompt().text

    def view(self) -> RoundView:
        """The round as it stands, read-only (state.RoundView): copies, so the reader cannot change the round."""
        hands = {seat: tuple(HandView(tuple(h.cards), h.hard, h.free_aces, h.from_split, h.done) for h in box.hands)
                 for seat, box in self.boxes.items()}
        prompt = None if self.phase == "done" else self._prompt()
        return RoundView(self.phase, self.insurance_open, prompt, tuple(self.dealer), hands)

    def settlements(self) -> tuple[Settlement, ...]:
        return tuple(self._settlements)

    def carried(self) -> tuple[Bet, ...]:
        """Blackjack stakes never carry; at a Burn table the puck's box does, as a marker without money."""
        if self.rules.burn and self.puck_box is not None:
            return (Bet(self.puck_box, PUCK_SPOT),)
        return ()

    def closed_reason(self, event: Event) -> str:
        return "the round is settled; bets and decisions go to the next round"

    # ------------------------------------------------------------------ the deal

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
            self._open_deal()  # the burn puck may still move until the first card (Burn rule 4)
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
        if self.phase == "deal" and self.deal_pos == 0:
            blocked = self._puck_blocked()  # Burn rule 4: the puck is placed just before the deal begins
            if blocked:
                return self._misdeal(card, blocked)
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
            effects = self._settle_insurance(dealer_blackjack=False)
            if self.phase == "dealer":  # every hand was waiting for the peek: the dealer's turn goes on now
                effects += self._dealer_turn()
            return effects
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
            note = "even money (000 rule 14)" if self.rules.immediate_blackjack else "even money"
            effects = self._settle_hand(box, 0, "win", self.rules.even_money, note=note)
            if self.phase == "dealer" and not self._needs_dealer():
                effects += self._settle_all()  # nothing else waits for the dealer: the round ends (000 rule 14)
            return effects
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
        maximum = self._maximum("insurance")
        if maximum is not None and amount is not None:
            together = sum(a or 0 for a in box.insurance.values()) + amount
            if together > maximum:
                raise Reject(f"insurance: {together} in box {box.seat} is above the maximum of {maximum}")
        box.insurance[player] = amount
        return []


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
        if self.insurance_open and self.rules.dealer_cards == "hole":
            return []  # 002 version A: insurance and even money are offered before the dealer peeks
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
