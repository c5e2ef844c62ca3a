"""Playing cards, their notation, decks and shoes (DESIGN.md section 4).

A card is a frozen record of a rank (2..14, ace high; 0 for the joker) and a
suit (``c d h s``; empty for the joker).  ``Card.index`` packs it into 0..52 so
that hand evaluators and batch tools can work on small integers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER_RANK = 0
_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_RANK_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
               8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen",
               13: "king", 14: "ace"}


def hand_key(rank: int, suit: str) -> int:
    """One card's term in a hand key (``controller.hands.fast`` sums them; 0 for the joker).

    Bits 0..15 count the suits (a nibble each, c d h s); bits 16..32 are base-5
    digits counting the ranks 2..8, bits 33.. those counting 9..A. Kept on the
    card so that ranking a hand reads one number per card.
    """
    if rank == JOKER_RANK:
        return 0
    digit: int = 5 ** (rank - 2 if rank <= 8 else rank - 9)
    return _suit_bits(suit) + (digit << (16 if rank <= 8 else 33))


def _suit_bits(suit: str) -> int:
    """The suit's counter in bits 0..15 of both hand keys: a nibble each, c d h s."""
    return 1 << (4 * SUITS.index(suit))


SEVEN_RANK_TERMS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""A number per rank (2..A) such that no two multisets of seven ranks (each at most four times) have the same sum
(the rank keys of Kenneth Shackleton's SKPokerEval); the largest sum is 7,825,759."""


def seven_key(rank: int, suit: str) -> int:
    """One card's term in the seven-card hand key (``controller.hands.fast``; 0 for the joker).

    Bits 0..15 count the suits as in ``hand_key``; bits 16.. hold the rank's
    ``SEVEN_RANK_TERMS`` number, so that the seven cards' sum, shifted, is a
    place in one table of every seven-card rank multiset.
    """
    if rank == JOKER_RANK:
        return 0
    return _suit_bits(suit) + (SEVEN_RANK_TERMS[rank - 2] << 16)


class CardError(ValueError):
    """Card notation that cannot be read; the message quotes the text."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``rank`` 2..14 (ace 14), or 0 with an empty suit for the joker."""

    rank: int
    suit: str
    key: int = field(init=False, repr=False, compare=False, hash=False)
    """The card's term in the single-hand evaluator's hand key (``hand_key``; 0 for the joker)."""
    key7: int = field(init=False, repr=False, compare=False, hash=False)
    """The card's term in the seven-card hand key (``seven_key``; 0 for the joker)."""

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit != "":
                raise CardError("the joker has no suit")
        elif not (2 <= self.rank <= 14) or self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "key", hand_key(self.rank, self.suit))
        object.__setattr__(self, "key7", seven_key(self.rank, self.suit))

    def __deepcopy__(self, memo: dict[int, object]) -> "Card":
        return self  # immutable: a round's snapshot shares its cards

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def index(self) -> int:
        """0..51 as ``(rank - 2) * 4 + suit``; 52 for the joker."""
        if self.is_joker:
            return 52
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    @property
    def rank_char(self) -> str:
        return "JK" if self.is_joker else RANKS[self.rank - 2]

    @property
    def rank_word(self) -> str:
        return "joker" if self.is_joker else _RANK_WORDS[self.rank]

    def __str__(self) -> str:
        return "JK" if self.is_joker else RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


JOKER = Card(JOKER_RANK, "")
_BY_INDEX: tuple[Card, ...] = tuple(Card(2 + i // 4, SUITS[i % 4]) for i in range(52)) + (JOKER,)


def card_from_index(index: int) -> Card:
    """The card packed as ``index`` (see ``Card.index``)."""
    return _BY_INDEX[index]


def parse_card(text: object) -> Card:
    """Read one card in the notation of DESIGN.md section 4 (``Ah``, ``10d``, ``JK``)."""
    if not isinstance(text, str):
        raise CardError(f"a card must be text like 'Ah', not {text!r}")
    raw = text.strip()
    if raw.upper() == "JK":
        return JOKER
    if len(raw) < 2:
        raise CardError(f"bad card {text!r}: expected a rank and a suit, like 'Ah' or '10d'")
    rank_text, suit_text = raw[:-1].upper(), raw[-1]
    suit = _SUIT_SYMBOLS.get(suit_text, suit_text.lower())
    if suit not in SUITS:
        raise CardError(f"bad card {text!r}: unknown suit {suit_text!r} (use c, d, h, s)")
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"bad card {text!r}: unknown rank {raw[:-1]!r} (use 2-9, T or 10, J, Q, K, A)")
    return Card(RANKS.index(rank_text) + 2, suit)


def parse_cards(text: str | Sequence[str]) -> tuple[Card, ...]:
    """Read several cards, from a list or from one space- or comma-separated string."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(item) for item in items)


def deck(jokers: int = 0) -> list[Card]:
    """One 52-card deck in a fixed order, plus ``jokers`` jokers."""
    return list(_BY_INDEX[:52]) + [JOKER] * jokers


def shoe(decks: int, jokers_per_deck: int = 0) -> list[Card]:
    """``decks`` decks in a fixed order (shuffle with ``shuffled``)."""
    if decks < 1:
        raise ValueError("a shoe needs at least one deck")
    cards: list[Card] = []
    for _ in range(decks):
        cards.extend(deck(jokers_per_deck))
    return cards


def shuffled(cards: Iterable[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy; the caller owns the random source (games never do)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)
