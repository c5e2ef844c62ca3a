"""The poker room's games as data: how each deals, which hands it ranks, which betting it allows (seed 004).

One ``GameRule`` per game id. ``hand_types`` turns the table's scale
(``high``, ``low``, ``high-low``) into PokerKit's hand types; ``discards``
lists the discards without replacement (Pineapple, Crazy Pineapple, Crazy
Watermelon), which PokerKit cannot express and the adapter runs itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from pokerkit import (
    Card,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
)
from pokerkit.hands import HoleBoardCombinationHand
from pokerkit.lookups import RegularLookup

from controller.games.poker_room.soko_hand import SokoPokerHand


class _OmahaRegularLowHand(HoleBoardCombinationHand):
    """Ace-to-five low of two hole cards and three board cards, with no qualifier (PokerKit has only 8-or-better)."""

    lookup = RegularLookup()
    low = True
    card_count = 5
    board_card_count = 3
    hole_card_count = 2


def _quick(base: type) -> type:
    """``base`` with each hand's lookup entry kept once found.

    PokerKit looks a hand's entry up again at every comparison and forms a
    player's best hand again for every pot and every player who might still
    win; a nine-player showdown forms each best hand about eleven times.
    Keeping the entry on the hand, and the best hand of the same cards
    (PokerKit's own ``from_game``, remembered for the last 4,096 card sets
    of this hand type), gives the same hands, the same order and the same
    winners, several times faster. The cross-check plays PokerKit's own
    classes against these.
    """

    def entry(self: Any) -> Any:
        found = self.__dict__.get("_entry")
        if found is None:
            found = self.__dict__["_entry"] = self.lookup.get_entry(self.cards)
        return found

    @lru_cache(maxsize=4096)
    def best(hole: tuple[Any, ...], board: tuple[Any, ...]) -> Any:
        return base_from_game.__func__(quick, hole, board)

    def from_game(cls: type, hole_cards: Any, board_cards: Any = ()) -> Any:
        return best(tuple(Card.clean(hole_cards)), tuple(Card.clean(board_cards)))

    base_from_game = getattr(base, "from_game")
    quick = type(base.__name__, (base,), {"entry": property(entry), "from_game": classmethod(from_game),
                                          "__doc__": base.__doc__, "__module__": __name__,
                                          "forget": staticmethod(best.cache_clear)})
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
