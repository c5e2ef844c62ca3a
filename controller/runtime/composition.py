"""The shoe's composition: every card out of the shoe counted against what a shoe of that many decks holds.

A shoe of D decks holds each of the 52 cards D times, and jokers only where
the game's options say so (``jokers`` per deck). The seventh A♠ out of a
six-deck shoe, or a joker where there is none, cannot be a card of this
shoe: it is refused before the game sees it, with a misdeal alert for the
croupier (a foreign card, a card from another shoe, or a misread), and it is
not counted. Every card that is counted carries the shoe's count in its
journal record (``"shoe": {"no": 2, "cards": 57, "copy": 3}``: shoe 2, the
57th card out, the 3rd of its kind), so the journal alone shows the count;
after a restart the count is rebuilt from the records since the last new shoe.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

from controller.cards import Card, CardError, parse_card


class ShoeComposition:
    """The cards of one shoe seen so far."""

    def __init__(self, decks: int, jokers_per_deck: int = 0, shoe_no: int = 1) -> None:
        self.decks = max(1, decks)
        self.jokers = max(0, jokers_per_deck) * self.decks
        self.shoe_no = shoe_no
        self.seen: Counter[str] = Counter()
        self.cards = 0

    @classmethod
    def for_options(cls, options: Mapping[str, Any], shoe_no: int = 1) -> "ShoeComposition":
        decks = options.get("decks", 1)
        jokers = options.get("jokers", 0)
        return cls(decks if isinstance(decks, int) and not isinstance(decks, bool) else 1,
                   jokers if isinstance(jokers, int) and not isinstance(jokers, bool) else 0, shoe_no)

    def new_shoe(self, shoe_no: int) -> None:
        self.shoe_no, self.cards = shoe_no, 0
        self.seen.clear()

    def allowed(self, card: Card) -> int:
        return self.jokers if card.is_joker else self.decks

    def refuse(self, card: Card) -> str | None:
        """The croupier's words if ``card`` cannot be in this shoe any more; None if it can."""
        allowed = self.allowed(card)
        if card.is_joker and allowed == 0:
            return (f"MISDEAL: a joker came out, and this {self.decks}-deck shoe has none; take it off the table "
                    f"and call the supervisor")
        if self.seen[str(card)] >= allowed:
            return (f"MISDEAL: a {_nth(self.seen[str(card)] + 1)} {card} came out of shoe {self.shoe_no}, and "
                    f"{self.decks} deck{'s' if self.decks != 1 else ''} hold{'' if self.decks != 1 else 's'} only "
                    f"{allowed}; take it off the table and call the supervisor")
        return None

    def take(self, card: Card) -> dict[str, int]:
        """Count ``card``; returns the count journaled with it."""
        self.seen[str(card)] += 1
        self.cards += 1
        return {"no": self.shoe_no, "cards": self.cards, "copy": self.seen[str(card)]}

    def rebuild(self, card_texts: Iterable[str]) -> None:
        """After a restart: the cards counted since the last new shoe, in journal order."""
        for text in card_texts:
            try:
                self.take(parse_card(text))
            except CardError:
                continue


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
