"""The mutable pieces of a blackjack round: hands and boxes (plain data, no rules)."""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from controller.cards import Card
from controller.events import Bet
from controller.games.contract import Prompt, Round, Settlement
from controller.hands.blackjack import ACE, best_total, card_value, is_blackjack

if TYPE_CHECKING:
    from controller.games.blackjack.rules import Rules

Player = str | None  # the bet's ``player`` field; None for a box holder who gave no name


@dataclass
class Hand:
    """One hand of a box; every player in the box has a stake on it or not (back betting)."""

    cards: list[Card] = field(default_factory=list)
    base: dict[Player, int | None] = field(default_factory=dict)  # stake per player before a double
    doubled: dict[Player, int | None] = field(default_factory=dict)  # the added double stake per player
    from_split: bool = False
    split_aces: bool = False
    locked_aces: int = 0  # SE rule 15: aces that stay one after a double
    doubling: bool = False  # doubled and waiting for its one card
    stood: bool = False
    settled: bool = False
    result: str | None = None

    @property
    def values(self) -> list[int]:
        return [card_value(c) for c in self.cards]

    @property
    def hard(self) -> int:
        return sum(self.values)

    @property
    def free_aces(self) -> int:
        return self.values.count(ACE) - self.locked_aces

    @property
    def total(self) -> tuple[int, bool]:
        return best_total(self.hard, self.free_aces)

    @property
    def blackjack(self) -> bool:
        return is_blackjack(self.cards, self.from_split)

    @property
    def done(self) -> bool:
        return self.settled or self.stood

    def stake(self, player: Player) -> int | None:
        base = self.base[player]
        if base is None:
            return None
        extra = self.doubled.get(player, 0)
        return base + (extra or 0)


@dataclass
class Box:
    """A box (seat) with its main bets per player, the Ö/U 13 side bet, insurance and hands."""

    seat: int
    main: dict[Player, Bet] = field(default_factory=dict)
    side: Bet | None = None
    insurance: dict[Player, int | None] = field(default_factory=dict)
    insurance_settled: bool = False
    hands: list[Hand] = field(default_factory=list)

    @property
    def holder(self) -> Player:
        """The box holder: the bet without a player name, or else the first bet (bakomspel)."""
        if None in self.main:
            return None
        return next(iter(self.main))

    @property
    def active(self) -> bool:
        """Still in play: a hand not yet settled."""
        return any(not h.settled for h in self.hands)

    def hand_number(self, index: int) -> int | None:
        """The ``hand`` of a settlement: numbered only where the box split."""
        return index + 1 if len(self.hands) > 1 else None


@dataclass(frozen=True)
class HandView:
    """One hand as it stands, read-only: its cards, hard total, aces still counted eleven, and whether it is
    a split hand and done."""

    cards: tuple[Card, ...]
    hard: int
    free_aces: int
    from_split: bool
    done: bool


@dataclass(frozen=True)
class RoundView:
    """A blackjack round as it stands, read-only (``BlackjackRound.view()``): the phase, whether insurance
    is open, what the round waits for (None once settled), the dealer's cards and each box's hands by seat.
    The house-edge tools (controller/house_edge/blackjack.py) play through the round with it."""

    phase: str
    insurance_open: bool
    prompt: Prompt | None
    dealer: tuple[Card, ...]
    hands: Mapping[int, tuple[HandView, ...]]


class RoundState(Round):
    """What the round's mixins (betting.py, words.py, settling.py) use of each other, typed once: the state
    ``BlackjackRound.__init__`` sets and the helpers one mixin gives another. The mixins are typed against it
    (mypy only; at run time they derive from ``object``), so no mixin names the round that mixes them in."""

    rules: "Rules"
    phase: str
    boxes: dict[int, Box]
    dealer: list[Card]
    deal_order: list[int]
    deal_pos: int
    insurance_open: bool
    puck_prev: int | None
    puck_seen: int | None
    puck_override: bool
    puck_box: int | None
    burn_state: str
    burned: Card | None
    unused: list[Card]
    returned: list[tuple[int, Player, int | None, int]]
    _settlements: list[Settlement]

    @abstractmethod
    def _expected_puck(self) -> int | None: ...

    @abstractmethod
    def _puck_blocked(self) -> str | None: ...

    @abstractmethod
    def _turn(self) -> tuple[Box, int] | None: ...
