"""What a blackjack round says (a mixin of ``BlackjackRound``): prompts in croupier words and the
outcome. Two Decks prompts do not show the dark cards' total; the burned card appears only in
the outcome of a settled round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from controller.cards import Card
from controller.games.blackjack import rules as R
from controller.games.blackjack.state import Box
from controller.games.contract import Prompt
from controller.hands.blackjack import ACE, card_value, describe_total, hand_total, is_blackjack

if TYPE_CHECKING:
    from controller.games.blackjack.state import RoundState as _Base
else:
    _Base = object


def _words(options: list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def _up_word(card: Card) -> str:
    value = card_value(card)
    return "an ace" if value == ACE else str(value)


class Words(_Base):
    """Prompts and the outcome, read from the round's state."""

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
            if self.deal_pos == 0 and self.rules.burn and self._puck_blocked():
                return Prompt(f"Burn puck to box {self._expected_puck()}, then the first card",
                              expects=("puck", "card"))
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
            if self.rules.dealer_cards == "hole":  # decisions wait for the peek
                return Prompt(f"{offer} Then no more insurance: the dealer peeks",
                              expects=("insurance", "even_money", "close_bets"))
            text = f"{offer} {text}"
            expects = ("insurance", "even_money", "close_bets") + expects
        return Prompt(text, seat=box.seat, expects=expects)

    def layout(self) -> Mapping[str, Any] | None:
        """The dealer's cards and every box's hands as the croupier sees them (Two Decks: the dark cards
        face down, no totals)."""
        dark = self.rules.dark_cards
        total, soft = hand_total(self.dealer) if self.dealer else (0, False)
        dealer: dict[str, Any] = {"cards": [str(c) for c in self.dealer]}
        if self.dealer:
            dealer["total"] = describe_total(total, soft)
        turn = self._turn() if self.phase == "play" else None
        boxes = []
        for box in self.boxes.values():
            hands = []
            for i, hand in enumerate(box.hands):
                entry: dict[str, Any] = {"cards": ["down"] * len(hand.cards) if dark else [str(c) for c in hand.cards]}
                if hand.cards and not dark:
                    entry["total"] = describe_total(*hand.total)
                notes = [n for n, on in (("Black Jack", hand.blackjack and not dark), ("doubled", bool(hand.doubled)),
                                         ("stands", hand.stood), (hand.result or "", bool(hand.result))) if on]
                if notes:
                    entry["note"] = ", ".join(notes)
                if turn is not None and turn[0].seat == box.seat and turn[1] == i:
                    entry["turn"] = True
                hands.append(entry)
            item: dict[str, Any] = {"seat": box.seat, "hands": hands}
            if box.insurance:
                item["insured"] = True
            boxes.append(item)
        return {"dealer": dealer, "boxes": boxes}

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
