"""Settling a blackjack round (a mixin of ``BlackjackRound``): one settlement per box, spot,
player and hand, through ``settle_fixed``; what a player keeps against a dealer Black Jack
(000 rule 13, the option original_bets_only) is handed back and noted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from controller.events import Bet
from controller.games.blackjack import rules as R
from controller.games.blackjack.state import Box, Player
from controller.games.contract import Effect, Outcome, Settlement, settle_fixed
from controller.hands.blackjack import hand_total, is_blackjack
from controller.money import Odds

if TYPE_CHECKING:
    from controller.games.blackjack.state import RoundState as _Base
else:
    _Base = object


class Settling(_Base):
    """Settlements: state lives on the round (``_settlements``, ``returned``)."""

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
            if player in hand.doubled:
                this_note = f"doubled; {note}" if note else "doubled"
            if keep == parts:
                this_result = "push"
                this_note = f"{this_note}; the stake is kept" if this_note else "the stake is kept"
            elif keep:
                back = hand.base[player] if "base" in keep else hand.doubled[player]
                this_note = f"{this_note}; the {'original' if 'base' in keep else 'doubled'} stake is kept"
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
