"""The adapter over PokerKit: one hand's betting and pots, with the cards the shoe read.

PokerKit (pinned in pyproject.toml) keeps the stacks, the bets, who may act
and for how much, the main and side pots and who wins each of them. This
module gives it only what the table saw:

- every card comes from the shoe's reading, in the order PokerKit deals it
  (burn, hole cards one at a time from the first seat, board, replacement
  cards of a draw); PokerKit's own deck and automatic burn are never used;
- every PokerKit warning is an error here, so a card that is already in play
  (a second Ah from a one-deck shoe) or a needless fold is refused, not
  guessed at;
- the house's take (``HouseTake``): the rake is a percentage of everything
  staked in the hand, with one cap for the whole hand, not one per pot
  (PokerKit's own ``rake`` callback is per pot), and the bad beat drop; both
  are taken from the main pot first, then from the side pots in order.

Antes, blinds, bets, bet collection, pushing and pulling chips are left to
PokerKit's automations; the showdown shows every hand still in (the seed:
the face-down cards are revealed).
"""

from __future__ import annotations

import copy
import warnings
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    Pot,
    State,
    Street,
)
from pokerkit import (
    Card as PkCard,
)
from pokerkit.state import (
    BoardDealing,
    CardBurning,
    ChipsPushing,
    Folding,
    HoleDealing,
    StandingPatOrDiscarding,
)

from controller.cards import Card, card_from_index

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)  # never CARD_BURNING, HOLE_DEALING or BOARD_DEALING: those cards come from the shoe

STRUCTURES = {
    "limit": BettingStructure.FIXED_LIMIT,
    "pot-limit": BettingStructure.POT_LIMIT,
    "no-limit": BettingStructure.NO_LIMIT,
}

_TO_PK: dict[int, PkCard] = {}
_FROM_PK: dict[str, Card] = {}
for _i in range(52):
    _card = card_from_index(_i)
    (_pk,) = tuple(PkCard.parse(str(_card)))
    _TO_PK[_i] = _pk
    _FROM_PK[repr(_pk)] = _card


PK_CARDS: tuple[PkCard, ...] = tuple(_TO_PK[i] for i in range(52))  # the one PokerKit card object of each card


def to_pk(card: Card) -> PkCard:
    return _TO_PK[card.index]


def from_pk(card: PkCard) -> Card:
    return _FROM_PK[repr(card)]


def clone(value: Any) -> Any:
    """A copy deep enough for a poker state: containers are copied, the immutable rest is shared.

    PokerKit's state holds ints, bools, enums, frozen streets and operations,
    cards and functions, in lists, deques and sets, and ``Pot`` records (the
    one mutable object, changed while chips are pushed). ``copy.deepcopy`` of
    it costs milliseconds; this costs tens of microseconds. The copier is
    found by the value's exact class (one dictionary look-up for the
    immutable values, which are most of them); a subclass of a container
    falls back to the same copies by ``isinstance``.
    """
    copier = _COPIERS.get(value.__class__)
    if copier is not None:
        return copier(value)
    if value.__class__ in _SHARED or not isinstance(value, _MUTABLE):
        return value
    if isinstance(value, list):
        return _clone_list(value)
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, deque):
        return deque(clone(v) for v in value)
    if isinstance(value, set):
        return set(value)
    return copy.copy(value)


def _clone_list(value: list[Any]) -> list[Any]:
    if not value or not isinstance(value[0], _MUTABLE):  # PokerKit's lists hold one kind of item
        return value.copy()
    return [clone(v) for v in value]


def _clone_deque(value: deque[Any]) -> deque[Any]:
    if not value or not isinstance(value[0], _MUTABLE):
        return value.copy()
    return deque(clone(v) for v in value)


_MUTABLE = (list, dict, deque, set, Pot)
_COPIERS: dict[type, Any] = {
    list: _clone_list,
    dict: lambda value: {k: clone(v) for k, v in value.items()},
    deque: _clone_deque,
    set: set.copy,
    Pot: lambda pot: Pot(pot.raked_amount, pot.unraked_amount, pot.player_indices),  # copy.copy: 4 us a pot
}
_SHARED = frozenset({int, bool, str, type(None), tuple, PkCard})  # immutable: never copied
_FLAT = {"operations", "deck_cards", "mucked_cards", "burn_cards"}  # containers of immutable items only


class EngineError(ValueError):
    """PokerKit refused an operation; the message is PokerKit's, for the croupier's sentence."""


# --------------------------------------------------------------------------- the house's take


@dataclass(frozen=True)
class HouseTake:
    """The rake and the bad beat drop of one hand, in minor units.

    ``rake_bp``: the percentage in basis points (500 = 5 %) of everything
    staked in the hand; ``rake_cap``: the most the house takes in one hand
    (``None``: no cap); ``rake_unit``: the rake is rounded down to this chip;
    ``no_flop_no_drop``: nothing is taken from a hand that ends before its
    second betting round; ``drop``: the bad beat jackpot's drop, taken only
    from a hand with ``drop_players`` or more dealt in that reaches its
    second betting round.
    """

    rake_bp: int = 0
    rake_cap: int | None = None
    rake_unit: int = 1
    no_flop_no_drop: bool = True
    drop: int = 0
    drop_players: int = 6

    def amounts(self, staked: int, reached_second_round: bool, dealt_in: int) -> tuple[int, int]:
        """``(rake, drop)`` of a hand with ``staked`` in its pots."""
        if self.no_flop_no_drop and not reached_second_round:
            rake = 0
        else:
            rake = staked * self.rake_bp // 10_000
            if self.rake_cap is not None:
                rake = min(rake, self.rake_cap)
            rake -= rake % max(1, self.rake_unit)
        drop = 0
        if self.drop and reached_second_round and dealt_in >= self.drop_players:
            drop = min(self.drop, staked - rake)
        return rake, drop


class RoomState(State):
    """PokerKit's state with the house's take applied across the pots of the whole hand."""

    house: HouseTake
    first_hole_count: int

    @property
    def pots(self) -> Iterator[Pot]:
        cached = self.__dict__.get("_pots")
        if cached is not None:
            yield from cached
            return
        raw = self._pots_by_stake()
        house: HouseTake | None = self.__dict__.get("house")
        if house is None or not raw:
            yield from raw
            return
        staked = sum(p.amount for p in raw)
        rake, drop = house.amounts(staked, self.reached_second_round(), self.player_count)
        left = rake + drop
        for pot in raw:
            take = min(left, pot.unraked_amount)
            left -= take
            yield Pot(pot.raked_amount + take, pot.unraked_amount - take, pot.player_indices)

    def _begin_hand_killing(self) -> None:
        self.__dict__["_in_before_killing"] = list(self.statuses)
        super()._begin_hand_killing()

    def _pots_by_stake(self) -> list[Pot]:
        """The main pot and the side pots, one for each stake level of the players still in at the showdown.

        PokerKit 0.7.7 kills the hands that cannot win anything before it
        forms the pots, and forms them from the players left: where the main
        pot and a side pot then have the same players it makes one pot of
        them, so an odd chip of a split can fall to another player than the
        pot-by-pot split gives. The rule is that each pot is split on its own:
        the pots are formed from the players still in before the hands were
        killed (only folds merge stake levels), and then the killed hands are
        taken out of each pot's players.
        """
        before: list[bool] | None = self.__dict__.get("_in_before_killing")
        now = self.statuses
        if before is None or before == now:
            return list(State.pots.fget(self))  # type: ignore[attr-defined]
        self.statuses = before
        try:
            by_stake = list(State.pots.fget(self))  # type: ignore[attr-defined]
        finally:
            self.statuses = now
        kept = [Pot(p.raked_amount, p.unraked_amount, tuple(i for i in p.player_indices if now[i]))
                for p in by_stake]
        merged = len(list(State.pots.fget(self)))  # type: ignore[attr-defined]
        if merged != len(kept):
            self.__dict__["pots_kept_apart"] = len(kept) - merged
        return kept

    def _update_chips_pushing(self, operation: Any = None) -> None:
        if not self.__dict__.get("_halves_checked"):
            self.__dict__["_halves_checked"] = True
            self._give_unwinnable_halves_to_high()
        super()._update_chips_pushing(operation)

    def _give_unwinnable_halves_to_high(self) -> None:
        """A pot's low half that none of that pot's players can win goes to its high half.

        PokerKit 0.7.7 opens a low half in every pot once any player in the
        hand has a qualifying low, and where none of a side pot's players has
        one it shares that half among all of them ("the best of no hands").
        The rule (004: the best and the weakest hand split the pot; without a
        qualifying low the high hand takes it) is that each pot is split on
        its own: the high hand of that pot takes the whole of it.
        """
        sub_pots: list[tuple[int, int, int | None, int | None]] = self.__dict__.get("_sub_pots") or []
        pots = self.__dict__.get("_pots") or []
        if len(self.hand_types) < 2 or not sub_pots:
            return
        winnable: list[tuple[int, int, int | None, int | None]] = []
        moved: dict[tuple[int, int | None], int] = {}
        for amount, pot, board, kind in sub_pots:
            if kind is None or board is None or kind == 0:
                winnable.append((amount, pot, board, kind))
                continue
            players = pots[pot].player_indices
            if any(self.get_up_hand(i, board, kind) is not None for i in players if self.statuses[i]):
                winnable.append((amount, pot, board, kind))
            else:
                moved[(pot, board)] = moved.get((pot, board), 0) + amount
        if not moved:
            return
        out = []
        for amount, pot, board, kind in winnable:
            if kind == 0 and (pot, board) in moved:
                amount += moved.pop((pot, board))
            out.append((amount, pot, board, kind))
        if moved:  # a pot had no high half to take it: leave PokerKit's split as it was
            return
        self.__dict__["halves_moved"] = sum(a for a, *_ in sub_pots) - sum(a for a, *_ in winnable)
        sub_pots[:] = out

    def reached_second_round(self) -> bool:
        """Has the hand reached its second betting round (a flop, fourth street, a draw)?"""
        if any(self.board_cards):
            return True
        first = self.__dict__.get("first_hole_count", 0)
        if any(len(h) > first for h in self.hole_cards):
            return True
        return any(isinstance(op, StandingPatOrDiscarding) for op in self.operations)


# --------------------------------------------------------------------------- the hand


@dataclass(frozen=True)
class Setup:
    """Everything PokerKit needs for one hand, in PokerKit's player order (first to be dealt first)."""

    streets: tuple[Street, ...]
    hand_types: tuple[type, ...]
    structure: str
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    bring_in: int
    stacks: tuple[int, ...]
    boards: int = 1
    house: HouseTake = HouseTake()
    discards: tuple[tuple[int, int], ...] = ()  # (street index after whose betting, cards thrown without replacement)
    ante_trimming: bool = True  # PokerKit's ante trimming: on for antes alike, off for a big blind ante


def streets_for(kind: str, hole: int, small: int, big: int, structure: str, burn: bool,
                draws: int = 1, low: bool = False, flop: int = 3, first_board: int = 0,
                bring_in: int = 0, blinds: bool = True) -> tuple[Street, ...]:
    """The streets of a family of games: ``board`` (hold'em, Omaha), ``stud`` or ``draw``.

    Fixed limit: a bet and three raises a round, the small bet on the first
    two rounds of a board game, the big bet after (stud: from fifth street;
    draw: after the first draw, or after the second of three). Where blinds
    are posted the big blind is the first round's bet, so three raises follow
    it (PokerKit's own limit games allow four raises over the blind).
    """
    cap = 4 if structure == "limit" else None
    first_cap = 3 if cap and blinds else cap
    if kind == "board":
        return (
            Street(False, (False,) * hole, first_board, False, Opening.POSITION, small, first_cap),
            Street(burn, (), flop, False, Opening.POSITION, small, cap),
            Street(burn, (), 1, False, Opening.POSITION, big, cap),
            Street(burn, (), 1, False, Opening.POSITION, big, cap),
        )
    if kind == "stud" and hole == 5:  # five-card stud (Sökö): the highest up card opens when there is no bring-in
        first = Opening.LOW_CARD if bring_in else Opening.HIGH_CARD
        return (
            Street(False, (False, True), 0, False, first, small, cap),
            Street(burn, (True,), 0, False, Opening.HIGH_HAND, small, cap),
            Street(burn, (True,), 0, False, Opening.HIGH_HAND, big, cap),
            Street(burn, (True,), 0, False, Opening.HIGH_HAND, big, cap),
        )
    if kind == "stud":
        bring = Opening.HIGH_CARD if low else Opening.LOW_CARD
        after = Opening.LOW_HAND if low else Opening.HIGH_HAND
        return (
            Street(False, (False, False, True), 0, False, bring, small, cap),
            Street(burn, (True,), 0, False, after, small, cap),
            Street(burn, (True,), 0, False, after, big, cap),
            Street(burn, (True,), 0, False, after, big, cap),
            Street(burn, (False,), 0, False, after, big, cap),
        )
    if kind == "draw":
        out = [Street(False, (False,) * hole, 0, False, Opening.POSITION, small, first_cap)]
        for n in range(draws):
            out.append(Street(burn, (), 0, True, Opening.POSITION, small if n == 0 and draws > 1 else big, cap))
        return tuple(out)
    raise ValueError(f"no street family {kind!r}")


def _strict(call: Any, *args: Any) -> Any:
    """Run one PokerKit operation with its warnings as errors; ``EngineError`` on refusal."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Returning reserved")  # a draw dealt from the re-shuffled muck
        try:
            return call(*args)
        except (ValueError, UserWarning) as exc:
            raise EngineError(str(exc)) from None


class PokerHand:
    """One hand through PokerKit. Player ``i`` is PokerKit's index; the round maps seats to it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        state = _strict(lambda: RoomState(
            AUTOMATIONS, Deck.STANDARD, setup.hand_types, setup.streets, STRUCTURES[setup.structure],
            setup.ante_trimming, setup.antes, setup.blinds, setup.bring_in, setup.stacks, len(setup.stacks),
            mode=Mode.CASH_GAME, starting_board_count=setup.boards))
        state.house = setup.house
        state.first_hole_count = len(setup.streets[0].hole_dealing_statuses)
        self.state: RoomState = state
        self.burned: list[Card] = []
        self.dealt: list[list[Card]] = [[] for _ in setup.stacks]  # every card a player was given, in order
        self.board: list[Card] = []
        self.discards: list[list[Card]] = [[] for _ in setup.stacks]
        self.thrown_streets: set[int] = set()  # discard phases done (Pineapple's kind, no replacement)
        self._show()

    def clone(self) -> "PokerHand":
        """An independent copy of the hand (the round's snapshot before each event)."""
        twin = object.__new__(PokerHand)
        for key, value in self.__dict__.items():
            if key == "state":
                state = object.__new__(RoomState)
                state.__dict__.update({k: (v.copy() if k in _FLAT else clone(v)) for k, v in value.__dict__.items()})
                twin.__dict__["state"] = state
            else:
                twin.__dict__[key] = clone(value)
        return twin

    # -- what the hand waits for

    @property
    def done(self) -> bool:
        return not self.state.status

    def card_step(self) -> str | None:
        """``burn``, ``hole``, ``board`` or None when no card is due."""
        s = self.state
        if not s.status:
            return None
        if self.discard_phase() is not None:
            return "discard"
        if any(s.standing_pat_or_discarding_statuses):
            return None  # a draw: the players say what they throw before the burn and the new cards
        if s.card_burning_status:
            return "burn"
        if any(s.hole_dealing_statuses) and not any(s.standing_pat_or_discarding_statuses):
            return "hole"
        if any(s.board_dealing_counts):
            return "board"
        return None

    def discard_phase(self) -> int | None:
        """The street whose discard (without replacement) is due now, or None."""
        s = self.state
        if not s.status or s.street_index is None:
            return None
        for street, _count in self.setup.discards:
            if street not in self.thrown_streets and s.street_index > street:
                return street
        return None

    def discard_target(self, street: int) -> int:
        """How many cards a player holds once the discards up to ``street`` are made."""
        thrown = sum(n for k, n in self.setup.discards if k <= street)
        return len(self.setup.streets[0].hole_dealing_statuses) - thrown

    def must_discard(self) -> list[int]:
        """The players still in who have not yet thrown their card(s) in the due discard."""
        street = self.discard_phase()
        if street is None:
            return []
        target = self.discard_target(street)
        return [i for i in self.state.player_indices
                if self.state.statuses[i] and len(self.state.hole_cards[i]) > target]

    def discard(self, player: int, cards: Sequence[Card]) -> None:
        """``player`` throws ``cards`` away, face down, and gets none back (Pineapple's discard)."""
        street = self.discard_phase()
        if street is None:
            raise EngineError("no discard is due now")
        if player not in self.must_discard():
            raise EngineError("this player has no card to throw away now")
        count = dict(self.setup.discards)[street]
        if len(cards) != count or len(set(cards)) != count:
            raise EngineError(f"throw away exactly {count} card{'s' if count > 1 else ''}")
        s = self.state
        for card in cards:
            pk = to_pk(card)
            if pk not in s.hole_cards[player]:
                raise EngineError(f"{card} is not in this player's hand")
        for card in cards:
            pk = to_pk(card)
            index = s.hole_cards[player].index(pk)
            s.hole_cards[player].pop(index)
            s.hole_card_statuses[player].pop(index)
            s.mucked_cards.append(pk)
            self.discards[player].append(card)
        if not self.must_discard():
            self.thrown_streets.add(street)

    def hole_dealee(self) -> int | None:
        return self.state.hole_dealee_index

    @property
    def actor(self) -> int | None:
        return self.state.actor_index

    @property
    def drawer(self) -> int | None:
        return self.state.stand_patter_or_discarder_index

    def options(self) -> dict[str, Any]:
        """What the player to act may do, with the amounts (``to`` amounts for the street)."""
        s = self.state
        out: dict[str, Any] = {"player": s.actor_index, "actions": []}
        if s.actor_index is None:
            if s.stand_patter_or_discarder_index is not None:
                out["player"] = s.stand_patter_or_discarder_index
                out["actions"] = ["draw", "stand_pat"]
            return out
        acts: list[str] = []
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            if s.can_post_bring_in():
                acts.append("bring_in")
                out["bring_in"] = s.effective_bring_in_amount
            if s.can_fold():
                acts.append("fold")
            if s.can_check_or_call():
                call = s.checking_or_calling_amount or 0
                acts.append("call" if call else "check")
                out["call"] = call
            if s.can_complete_bet_or_raise_to():
                low = s.min_completion_betting_or_raising_to_amount
                high = s.max_completion_betting_or_raising_to_amount
                facing = max(s.bets) > 0
                acts.append("complete" if s.bring_in_status else ("raise" if facing else "bet"))
                out["min_to"], out["max_to"] = low, high
        out["actions"] = acts
        return out

    # -- the table's inputs

    def card(self, card: Card) -> tuple[str, int | None]:
        """The next card from the shoe goes where PokerKit deals it: ``(step, player or None)``."""
        step = self.card_step()
        pk = to_pk(card)
        if step == "burn":
            _strict(self.state.burn_card, pk)
            self.burned.append(card)
            self._show()
            return step, None
        if step == "hole":
            player = self.state.hole_dealee_index
            _strict(self.state.deal_hole, pk)
            assert player is not None
            self.dealt[player].append(card)
            self._show()
            return step, player
        if step == "board":
            _strict(self.state.deal_board, pk)
            self.board.append(card)
            self._show()
            return step, None
        raise EngineError("no card is due now")

    def act(self, action: str, amount: int | None = None, cards: Sequence[Card] = ()) -> int:
        """The player to act does ``action``; returns PokerKit's player index."""
        s = self.state
        if action in ("draw", "stand_pat"):
            player = s.stand_patter_or_discarder_index
            if player is None:
                raise EngineError("nobody draws now")
            thrown = tuple(cards) if action == "draw" else ()
            _strict(s.stand_pat_or_discard, tuple(to_pk(c) for c in thrown))
            self.discards[player].extend(thrown)
            self._show()
            return player
        player = s.actor_index
        if player is None:
            raise EngineError("nobody is to act now")
        if action == "fold":
            _strict(s.fold)
        elif action in ("check", "call"):
            call = s.checking_or_calling_amount or 0
            if action == "check" and call:
                raise EngineError(f"there is {call} to call; a check is not possible")
            if action == "call" and not call:
                raise EngineError("there is nothing to call; the player can check")
            _strict(s.check_or_call)
        elif action == "bring_in":
            _strict(s.post_bring_in)
        elif action in ("bet", "raise", "complete", "all_in"):
            if action == "all_in":
                amount = s.max_completion_betting_or_raising_to_amount
                if amount is None:  # cannot raise: all-in is a call of what is left
                    _strict(s.check_or_call)
                    self._show()
                    return player
            if amount is None:
                raise EngineError(f"a {action} needs the amount it makes the bet, in minor units")
            _strict(s.complete_bet_or_raise_to, amount)
        else:
            raise EngineError(f"no action {action!r} in this game")
        self._show()
        return player

    def _show(self) -> None:
        """At the showdown every hand still in is shown, in PokerKit's order."""
        s = self.state
        while s.status and s.showdown_index is not None:
            _strict(s.show_or_muck_hole_cards, True)

    # -- results

    def payoffs(self) -> list[int]:
        return list(self.state.payoffs)

    def stacks(self) -> list[int]:
        return list(self.state.stacks)

    def pushes(self) -> list[ChipsPushing]:
        return [op for op in self.state.operations if isinstance(op, ChipsPushing)]

    def final_pots(self) -> list[dict[str, Any]]:
        """Each pot of the finished hand: its size before the take, the take, the players it was for, who won."""
        pots = self.state.__dict__.get("_pots") or []
        out = [{"amount": p.raked_amount, "taken": p.raked_amount, "players": list(p.player_indices), "won": {}}
               for p in pots]
        for push in self.pushes():
            pot = out[push.pot_index]
            pot["amount"] += sum(push.amounts)
            for i, amount in enumerate(push.amounts):
                if amount:
                    pot["won"][i] = pot["won"].get(i, 0) + amount
        return out

    def house_take(self) -> tuple[int, int]:
        """``(rake, drop)`` actually taken from this hand's pots."""
        pots = self.state.__dict__.get("_pots") or []
        raked = sum(p.raked_amount for p in pots)
        if not pots:
            return 0, 0
        staked = self.state.total_pushed_amount + raked
        rake, drop = self.setup.house.amounts(staked, self.state.reached_second_round(), self.state.player_count)
        assert rake + drop == raked, (rake, drop, raked)
        return rake, drop

    def folded(self) -> set[int]:
        ops = self.state.operations
        known = self.__dict__.get("_folded")
        if known is not None and known[0] == len(ops):
            return set(known[1])
        found = {op.player_index for op in ops if isinstance(op, Folding)}
        self.__dict__["_folded"] = (len(ops), frozenset(found))
        return found

    def at_showdown(self) -> list[int]:
        """The players who were still in when the cards were shown (none when the hand ended on a fold)."""
        left = [i for i in self.state.player_indices if i not in self.folded()]
        return left if len(left) > 1 else []

    def final_hole(self, player: int) -> list[Card]:
        """The player's cards at the end: every card dealt, less those thrown away, each throw taking one card
        (a card thrown away and dealt to the same player again from the shuffled muck is held once more)."""
        held = list(self.dealt[player])
        for card in self.discards[player]:
            held.remove(card)
        return held

    def best_hand(self, player: int, board: int = 0, hand_type: int = 0) -> Any:
        """PokerKit's best hand of ``player`` on ``board`` for the hand type (None where it makes none)."""
        s = self.state
        hole = [to_pk(c) for c in self.final_hole(player)]
        return s.hand_types[hand_type].from_game_or_none(hole, list(s.get_board_cards(board)))

    def contribution_pots(self, put_in: Sequence[int]) -> list[tuple[int, list[int]]]:
        """The main pot and the side pots as the stakes made them: ``(amount, players who can win it)``."""
        folded = self.folded()
        alone = [i for i in range(len(put_in)) if i not in folded]
        levels = sorted({a for a in put_in if a > 0})
        out: list[tuple[int, list[int]]] = []
        below = 0
        for level in levels:
            amount = sum(min(a, level) - min(a, below) for a in put_in)
            players = alone if len(alone) == 1 else [i for i, a in enumerate(put_in) if a >= level and i not in folded]
            if out and out[-1][1] == players:
                out[-1] = (out[-1][0] + amount, players)
            else:
                out.append((amount, players))
            below = level
        return out

    def hole_now(self, player: int) -> list[Card]:
        return [from_pk(c) for c in self.state.hole_cards[player]]

    def board_now(self, index: int = 0) -> list[Card]:
        return [from_pk(c) for c in self.state.get_board_cards(index)]

    def operations_count(self) -> int:
        return len(self.state.operations)


CARD_OPS = (CardBurning, HoleDealing, BoardDealing)
