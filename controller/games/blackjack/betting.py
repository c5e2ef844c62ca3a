"""Bets, limits and the burn puck of a blackjack round (a mixin of ``BlackjackRound``).

SE limits are 1/600 of the price base amount per winning chance (000 Black Jack rule 6),
for all players of a box together (bakomspel rule 3); Ö/U 13 never above the box's main
bet (Ö/U rule 6). The puck moves clockwise to the next box with a bet (Burn rules 2, 4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.events import Bet
from controller.games.blackjack.state import Box
from controller.games.contract import Alert, Effect, Reject, check_stake
from controller.money import fraction_of

if TYPE_CHECKING:
    from controller.games.blackjack.state import RoundState as _Base
else:
    _Base = object


class Betting(_Base):
    """Bets and the puck: state lives on the round (``boxes``, ``puck_*``)."""

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        """The [minimum, maximum] of one stake on ``spot``, the SE legal maximum included."""
        return self._minimum(spot), self._maximum(spot)

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
        if not self.rules.back_bets and box.main and bet.player not in box.main:
            raise Reject(f"box {bet.seat} already has its player: no back betting at Black Jack Burn (seed 000 "
                         f"allows it only at Black Jack and Two Decks Black Jack)")
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
        if not self._before_first_card():
            raise Reject("the burn puck moves only between rounds, before the first card (Burn rule 4)")
        expected = self._expected_puck()
        self.puck_seen = seat
        self.puck_override = False
        if expected is not None and seat != expected:
            return [Alert("puck", f"burn puck sensed at box {seat} but it belongs at box {expected}: move it "
                                  f"to box {expected} (or a supervisor override); the deal waits")]
        return []

    def _before_first_card(self) -> bool:
        """Burn rule 4: the dealer moves the puck "just before the deal begins", so until the first card."""
        return self.phase == "bets" or (self.phase == "deal" and self.deal_pos == 0)

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

    def _override(self, seat: int) -> list[Effect]:
        if not self.rules.burn:
            raise Reject("there is no burn puck at this table")
        if not self._before_first_card():
            raise Reject("the burn puck is settled before the first card")
        if seat not in self.boxes:
            raise Reject(f"box {seat} has no bet: the burn puck cannot stay there")
        self.puck_seen = seat
        self.puck_override = True
        return [Alert("puck", f"supervisor override: the burn puck is accepted at box {seat}")]
