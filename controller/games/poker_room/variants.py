"""The poker room's games as data: how each deals, which hands it ranks, which betting it allows (seed 004).

One ``GameRule`` per game id. ``hand_types`` turns the table's scale
(``high``, ``low``, ``high-low``) into PokerKit's hand types; ``discards``
lists the discards without replacement (Pineapple, Crazy Pineapple, Crazy
Watermelon), which PokerKit cannot express and the adapter runs itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterator, Mapping

from pokerkit import (
    Card,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
)
from pokerkit.hands import BoardCombinationHand, HoleBoardCombinationHand
from pokerkit.lookups import Lookup, RegularLookup

from controller.games.poker_room.engine import PK_CARDS
from controller.games.poker_room.soko_hand import SokoPokerHand


class _OmahaRegularLowHand(HoleBoardCombinationHand):
    """Ace-to-five low of two hole cards and three board cards, with no qualifier (PokerKit has only 8-or-better)."""

    lookup = RegularLookup()
    low = True
    card_count = 5
    board_card_count = 3
    hole_card_count = 2


_PRIMES: dict[Any, int] = getattr(Lookup, "_Lookup__multipliers")  # PokerKit 0.7.7: rank -> prime


def _entries(lookup: Lookup) -> dict[tuple[int, bool], Any]:
    """PokerKit's own table of a lookup: ``(product of the rank primes, suited)`` -> entry (PokerKit 0.7.7)."""
    table = getattr(lookup, "_Lookup__entries")
    assert isinstance(table, dict)
    return table


def _combos(base: Any, hole: tuple[Any, ...], board: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """The five-card combinations PokerKit's ``from_game`` of ``base`` tries, in its own order."""
    if issubclass(base, HoleBoardCombinationHand):
        for held in combinations(hole, base.hole_card_count):
            for shared in combinations(board, base.board_card_count):
                yield from combinations(held + shared, base.card_count)
    elif issubclass(base, BoardCombinationHand):
        for shared in combinations(board, base.board_card_count):
            yield from combinations(hole + shared, base.card_count)
    else:
        yield from combinations(hole + board, base.card_count)


def _cards(values: Any) -> tuple[Any, ...]:
    """``Card.clean`` without its costly abstract-class check for the tuples, lists and iterators PokerKit passes."""
    if isinstance(values, (str, Card)):
        return Card.clean(values)
    return tuple(values)


_CANONICAL: dict[int, int] = {id(card): i for i, card in enumerate(PK_CARDS)}


def _canonical(cards: tuple[Any, ...]) -> tuple[int, ...] | None:
    """The cards as indices, where they are the table's own card objects (``engine.PK_CARDS``), else None.

    Those 52 objects live as long as the program, so their identities name
    them; comparing PokerKit's card objects by value costs far more.
    """
    try:
        return tuple([_CANONICAL[id(c)] for c in cards])
    except KeyError:
        return None


@lru_cache(maxsize=None)
def _combo_indices(base: Any, hole: int, board: int) -> tuple[tuple[int, ...], ...]:
    """``_combos`` of ``hole`` and ``board`` cards as positions in ``hole + board``."""
    return tuple(_combos(base, tuple(range(hole)), tuple(range(hole, hole + board))))


def _quick(base: Any) -> type:
    """``base`` with each hand's lookup entry kept once found, and its best hand formed in one pass.

    PokerKit looks a hand's entry up again at every comparison, builds a hand
    object (and checks it) for every five-card combination of a player's
    cards, and forms a player's best hand again for every pot and every
    player who might still win; a nine-player showdown forms each best hand
    about eleven times. Here the combinations are tried in PokerKit's own
    order against PokerKit's own lookup table (the key is the product of the
    rank primes and whether the five are suited, as PokerKit's), the first
    strongest one is kept, as PokerKit keeps it, and only that one becomes a
    hand; the best hand of the same cards is remembered for the last 4,096
    card sets of this hand type. Same hands, same cards, same order, same
    winners; the cross-check plays PokerKit's own classes against these and
    ``tests/controller/games/poker_room/test_quick_hands.py`` compares them
    with PokerKit's on random cards.
    """
    table = _entries(base.lookup)
    low = bool(base.low)

    def entry(self: Any) -> Any:
        found = self.__dict__.get("_entry")
        if found is None:
            found = self.__dict__["_entry"] = self.lookup.get_entry(self.cards)
        return found

    def less(self: Any, other: Any) -> Any:
        if type(self) is not type(other):
            return NotImplemented
        mine, theirs = self.entry.index, other.entry.index
        return mine > theirs if low else mine < theirs

    def more(self: Any, other: Any) -> Any:
        if type(self) is not type(other):
            return NotImplemented
        mine, theirs = self.entry.index, other.entry.index
        return mine < theirs if low else mine > theirs

    if base.card_count != 5:
        raise TypeError(f"{base.__name__}: only five-card hands are formed this way")
    remembered: dict[tuple[tuple[int, ...], tuple[int, ...]], Any] = {}

    def best(hole: tuple[Any, ...], board: tuple[Any, ...]) -> Any:
        cards = hole + board
        primes = [_PRIMES[c.rank] for c in cards]
        suits = [c.suit for c in cards]
        found, strongest = None, None
        for a, b, c, d, e in _combo_indices(base, len(hole), len(board)):
            s = suits[a]
            candidate = table.get((primes[a] * primes[b] * primes[c] * primes[d] * primes[e],
                                   s == suits[b] == suits[c] == suits[d] == suits[e]))
            if candidate is None:
                continue  # no hand of this type (an eight-or-better low with a nine, a pair)
            if strongest is None or (candidate.index < strongest.index if low else candidate.index > strongest.index):
                found, strongest = (a, b, c, d, e), candidate
        if found is None:
            raise ValueError(f"No valid {base.__qualname__} hand can be formed from the hole and board cards.")
        hand = quick(tuple(cards[i] for i in found))
        hand.__dict__["_entry"] = strongest
        return hand

    def from_game(cls: type, hole_cards: Any, board_cards: Any = ()) -> Any:
        hole, board = _cards(hole_cards), _cards(board_cards)
        key = _canonical(hole), _canonical(board)
        if key[0] is None or key[1] is None:
            return best(hole, board)  # cards that are not the table's own objects: not remembered
        hand = remembered.get(key)  # type: ignore[arg-type]
        if hand is None:
            if len(remembered) >= 4096:
                remembered.clear()
            hand = remembered[key] = best(hole, board)  # type: ignore[index]
        return hand

    quick = type(base.__name__, (base,), {"entry": property(entry), "from_game": classmethod(from_game),
                                          "__lt__": less, "__gt__": more,
                                          "__le__": lambda a, b: NotImplemented if type(a) is not type(b)
                                          else not more(a, b),
                                          "__ge__": lambda a, b: NotImplemented if type(a) is not type(b)
                                          else not less(a, b),
                                          "__eq__": base.__eq__, "__hash__": base.__hash__,
                                          "__doc__": base.__doc__, "__module__": __name__,
                                          "forget": staticmethod(remembered.clear)})
    return quick


OmahaRegularLowHand = _quick(_OmahaRegularLowHand)
SCALES = ("high", "low", "high-low")
STRUCTURES = ("no-limit", "pot-limit", "limit")


@dataclass(frozen=True)
class GameRule:
    id: str
    name: str
    family: str  # board | stud | draw
    seed: str
    hole: int = 2  # cards dealt to each player before the first betting round
    first_board: int = 0  # board cards dealt with the hole cards (Courchevel: 1)
    flop: int = 3
    boards: int = 1
    omaha: bool = False  # exactly two hole cards and three board cards
    structures: tuple[str, ...] = STRUCTURES  # the first is the default variant
    scales: tuple[str, ...] = SCALES
    default_scale: str = "high"
    max_seats: int = 12
    discards: Mapping[int, int] = field(default_factory=dict)  # street index after whose betting -> cards thrown
    ranking: str = "standard"  # or "soko": Sökö's four-card straights and flushes
    notes: tuple[str, ...] = ()

    def hand_types(self, scale: str, low_qualifier: str, lowball: str = "ace-to-five") -> tuple[type, ...]:
        if self.ranking == "soko":
            return (SokoPokerHand,)
        return tuple(QUICK[t] for t in self._hand_types(scale, low_qualifier, lowball))

    def _hand_types(self, scale: str, low_qualifier: str, lowball: str) -> tuple[type, ...]:
        high = OmahaHoldemHand if self.omaha else StandardHighHand
        if self.family == "draw" and scale == "low":
            return (StandardLowHand,) if lowball == "deuce-to-seven" else (RegularLowHand,)
        if self.omaha:
            low: type = OmahaEightOrBetterLowHand if low_qualifier == "eight" else OmahaRegularLowHand
            plain_low: type = OmahaRegularLowHand
        else:
            low = EightOrBetterLowHand if low_qualifier == "eight" else RegularLowHand
            plain_low = RegularLowHand
        if scale == "high":
            return (high,)
        if scale == "low":
            return (plain_low,)
        return (high, low)


QUICK: dict[type, type] = {t: _quick(t) for t in (
    StandardHighHand, StandardLowHand, RegularLowHand, EightOrBetterLowHand, OmahaHoldemHand,
    OmahaEightOrBetterLowHand)}
QUICK[OmahaRegularLowHand] = OmahaRegularLowHand



def forget_hands() -> None:
    """Empty the remembered best hands (the benchmark times the adapter from cold)."""
    for quick in QUICK.values():
        quick.forget()  # type: ignore[attr-defined]


_FOUR_OMAHA = "exactly two of the player's own cards and three of the board"

RULES: tuple[GameRule, ...] = (
    GameRule("texas-holdem", "Texas Hold'em", "board", "004 Texas Hold'em", hole=2),
    GameRule("pineapple", "Pineapple", "board", "004 Pineapple", hole=3, discards={0: 1},
             notes=("three cards each; after the first betting round each player throws one away (no replacement)",)),
    GameRule("crazy-pineapple", "Crazy Pineapple", "board", "004 Crazy Pineapple", hole=3, discards={1: 1},
             notes=("three cards each; after the betting on the flop each player throws one away",)),
    GameRule("crazy-watermelon", "Crazy Watermelon", "board", "004 Crazy Watermelon", hole=4, discards={0: 1, 1: 1},
             max_seats=11,
             notes=("four cards each; one thrown away after the first betting round, another after the flop's",)),
    GameRule("omaha", "Omaha", "board", "004 Omaha", hole=4, omaha=True,
             structures=("pot-limit", "no-limit", "limit"), max_seats=10, notes=(_FOUR_OMAHA,)),
    GameRule("omaha-5", "Five Card Omaha", "board", "004 Omaha (five cards)", hole=5, omaha=True,
             structures=("pot-limit", "no-limit", "limit"), max_seats=8, notes=(_FOUR_OMAHA,)),
    GameRule("courchevel", "Courchevel", "board", "004 Courchevel", hole=5, first_board=1, flop=2, omaha=True,
             structures=("pot-limit", "no-limit", "limit"), max_seats=8,
             notes=("five cards each and the first board card with them; the flop adds two", _FOUR_OMAHA)),
    GameRule("double-board-holdem", "Double Board Hold'em", "board", "004 Double Board Hold'em", hole=2, boards=2,
             notes=("two boards; each board's half of every pot goes to its best hand",)),
    GameRule("seven-card-stud", "Seven Card Stud", "stud", "004 Seven Card Stud",
             structures=("limit", "pot-limit", "no-limit"), max_seats=8),
    GameRule("razz", "Razz", "stud", "004 Seven Card Stud (Razz)", structures=("limit", "pot-limit", "no-limit"),
             scales=("low",), default_scale="low", max_seats=8),
    GameRule("soko", "Sökö", "stud", "004 Sökö", hole=5, ranking="soko", structures=("limit", "pot-limit", "no-limit"),
             scales=("high",), max_seats=10,
             notes=("five-card stud: one down and one up, a betting round, then one up at a time to four up",
                    "Sökö's ranking: one pair < four-card straight < four-card flush < two pair")),
    GameRule("five-card-draw", "Five Card Draw", "draw", "004 Five Card Draw", hole=5,
             structures=("limit", "pot-limit", "no-limit"), max_seats=6),
    GameRule("lowball", "Lowball", "draw", "004 Five Card Draw (Lowball)", hole=5,
             structures=("limit", "pot-limit", "no-limit"), scales=("low",), default_scale="low", max_seats=6),
)

BY_ID: dict[str, GameRule] = {rule.id: rule for rule in RULES}
