"""The legal decisions of a round right now, judged by the game itself.

Every input surface (the dealer terminal, the console's ``act``, the decision
buttons and keypad) offers what ``legal`` returns and nothing else, and sends
it as an ordinary ``action`` (or ``close_bets``, ``void``) event. No surface
knows a game's rules: the candidates come from the round's last ``Prompt``
(what it ``expects``) and the ``GameSpec`` (its actions, with the multiples
or amount a player may choose), and each candidate is tried on a copy of the
round, so a decision is offered exactly when the round would accept it.
The live round is never touched. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, CloseBets, Event, Void
from controller.games.contract import ActionSpec, CardChoice, GameSpec, Prompt, Reject, Round

PROBE_VOID = "probe: is a void accepted now"


@dataclass(frozen=True, slots=True)
class Decision:
    """One legal decision at one box.

    ``plain``: legal as it is (with the game's default stake); ``multiples``: the multiples the player may
    choose between, each one legal; ``amount``: the player may name an amount (the round judges it when it
    is sent and says why it refuses one); ``least`` and ``most``: the amounts the round says the player may
    name now (``Round.amounts``: a poker bet or raise), the least of them legal; equal for a fixed bet.
    """

    seat: int
    action: str
    description: str = ""
    plain: bool = True
    multiples: tuple[int, ...] = ()
    amount: bool = False
    least: int | None = None
    most: int | None = None
    cards: CardChoice | None = None  # the cards the player names (a draw, a discard, setting the hands)
    player: str | None = None  # a player named at the box (a back bettor) whose own decision this is

    @property
    def fixed(self) -> int | None:
        """The one amount the decision takes (a limit game's bet), else None."""
        return self.least if self.least is not None and self.least == self.most else None

    def event(self, multiple: int | None = None, amount: int | None = None,
              cards: Sequence[Card] | None = None) -> Action:
        """The ``action`` event of this decision (a multiple must be one offered; a fixed bet takes its amount;
        the cards named must be the box's own, as many as the choice allows)."""
        if self.cards is not None or cards is not None:
            return self._cards_event(cards)
        if multiple is not None and multiple not in self.multiples:
            raise ValueError(f"{self.action} at box {self.seat}: {multiple}x is not offered "
                             f"({', '.join(f'{m}x' for m in self.multiples) or 'no multiples'})")
        if multiple is None and not self.plain and self.multiples and amount is None:
            raise ValueError(f"{self.action} at box {self.seat}: choose "
                             f"{' or '.join(f'{m}x' for m in self.multiples)}")
        if amount is not None and not self.amount:
            raise ValueError(f"{self.action} at box {self.seat} takes no amount: the stake follows from the rules")
        if amount is None and multiple is None and not self.plain and self.least is not None:
            if self.fixed is None:
                raise ValueError(f"{self.action} at box {self.seat}: name the amount ({self.least} to {self.most} "
                                 "in minor units)")
            amount = self.fixed
        return Action(self.seat, self.action, player=self.player, multiple=multiple, amount=amount)

    def _cards_event(self, cards: Sequence[Card] | None) -> Action:
        choice = self.cards
        if choice is None:
            raise ValueError(f"{self.action} at box {self.seat} names no cards")
        named = tuple(cards or ())
        count = f"{choice.least}" if choice.least == choice.most else f"{choice.least} to {choice.most}"
        if not choice.least <= len(named) <= choice.most:
            raise ValueError(f"{self.action} at box {self.seat}: name {count} of its cards, not {len(named)}")
        strange = [str(c) for c in named if c not in choice.cards]
        if strange or len(set(named)) != len(named):
            raise ValueError(f"{self.action} at box {self.seat}: name its own cards, each once "
                             f"({' '.join(map(str, choice.cards))})")
        return Action(self.seat, self.action, player=self.player, cards=named)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.action, "plain": self.plain}
        if self.player is not None:
            out["player"] = self.player
        if self.cards is not None:
            out["cards"] = {"from": [str(c) for c in self.cards.cards], "least": self.cards.least,
                            "most": self.cards.most, "order": self.cards.order}
        if self.description:
            out["description"] = self.description
        if self.multiples:
            out["multiples"] = list(self.multiples)
        if self.amount:
            out["amount"] = True
        if self.least is not None:
            out["least"], out["most"] = self.least, self.most
        return out


@dataclass(frozen=True, slots=True)
class Legal:
    """Everything the croupier may enter now besides cards and results: decisions, no more bets, void."""

    decisions: tuple[Decision, ...] = ()
    close_bets: bool = False
    void: bool = False
    expects: tuple[str, ...] = ()  # the prompt's expects, for the words around the buttons (a card, a number)

    def for_seat(self, seat: int) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.seat == seat)

    def find(self, seat: int, action: str, player: str | None = None) -> Decision | None:
        return next((d for d in self.decisions if d.seat == seat and d.action == action and d.player == player),
                    None)

    def offers(self, action: str) -> bool:
        return any(d.action == action for d in self.decisions)

    def seats(self) -> tuple[int, ...]:
        return tuple(sorted({d.seat for d in self.decisions}))

    def to_json(self) -> dict[str, Any]:
        return {"decisions": [d.to_json() for d in self.decisions], "close_bets": self.close_bets,
                "void": self.void, "expects": list(self.expects)}


def copy_of(round_: Round) -> Round:
    """An independent copy of a round (its state deep-copied, its immutable config shared)."""
    twin = copy.copy(round_)
    twin._restore(round_._snapshot())
    return twin


class _Prober:
    """Tries events on copies of the round, never on the round itself."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.tried = 0

    def accepts(self, event: Event) -> bool:
        """Whether the round takes ``event`` (Round.apply's judgment on a copy, which is then thrown away)."""
        if self.round.complete:
            return False
        twin = copy_of(self.round)  # one copy per probe: the copy is not restored after a rejection either
        self.tried += 1
        try:
            list(twin._apply(event))
        except Reject:
            return False
        return True


def _candidate_actions(spec: GameSpec, prompt: Prompt | None) -> tuple[str, ...]:
    """The actions worth trying: the ones the prompt names, or all of the game's when it says ``action``."""
    if prompt is None:
        return ()
    names = tuple(a.name for a in spec.actions)
    if "action" in prompt.expects:
        return names
    return tuple(n for n in names if n in prompt.expects)


def legal(spec: GameSpec, round_: Round, prompt: Prompt | None, seats: Iterable[int],
          betting_open: bool = False, players: Mapping[int, Sequence[str]] | None = None) -> Legal:
    """The legal decisions now: each action the prompt expects, at the prompt's box and at every box in
    ``seats`` (the boxes with a bet), tried on a copy of the round; ``close_bets`` and ``void`` likewise.

    ``betting_open`` (the table's view) adds the no-more-bets probe while bets are still taken. ``players``
    (``players_at``: the players named on each box's bets) adds each named player's own decision where the
    box's decision without a name is not taken (the box has decided; a back bettor decides after it).
    """
    prober = _Prober(round_)
    expects = tuple(prompt.expects) if prompt is not None else ()
    boxes: list[int] = []
    if prompt is not None and prompt.seat is not None:
        boxes.append(prompt.seat)
    boxes.extend(s for s in sorted(set(seats)) if s not in boxes)
    specs = {a.name: a for a in spec.actions}
    found: list[Decision] = []
    named = players or {}
    for action in _candidate_actions(spec, prompt):
        declared = specs[action]
        for seat in boxes:
            decision = _probe(prober, declared, seat, None)
            if decision is not None:
                found.append(decision)
                continue
            for player in named.get(seat, ()):  # the box has decided, or cannot: its back bettors may
                decision = _probe(prober, declared, seat, player)
                if decision is not None:
                    found.append(decision)
    close = ("close_bets" in expects or betting_open) and prober.accepts(CloseBets())
    void = prober.accepts(Void(PROBE_VOID))
    order = {(seat, p): i for seat in boxes for i, p in enumerate((None,) + tuple(named.get(seat, ())))}
    return Legal(tuple(sorted(found, key=lambda d: (boxes.index(d.seat), order.get((d.seat, d.player), 0),
                                                    _order(spec, d.action)))), close, void, expects)


def _probe(prober: _Prober, declared: ActionSpec, seat: int, player: str | None) -> Decision | None:
    """The decision ``declared`` at ``seat`` (for ``player``), as the round takes it now, or None."""
    round_, action = prober.round, declared.name
    if declared.cards:  # a choice of the box's cards: offered with the cards, never as a plain tap
        choice = round_.card_choice(seat, action)
        if choice is not None and prober.accepts(Action(seat, action, player=player,
                                                        cards=choice.cards[:choice.least])):
            return Decision(seat, action, declared.description, False, cards=choice, player=player)
        return None
    plain = prober.accepts(Action(seat, action, player=player))
    multiples = tuple(m for m in declared.multiples
                      if prober.accepts(Action(seat, action, player=player, multiple=m)))
    span = round_.amounts(seat, action) if declared.amount else None  # the amounts the player may name
    if span is not None and not plain and not prober.accepts(Action(seat, action, player=player, amount=span[0])):
        span = None
    if not (plain or multiples or span is not None):
        return None
    least, most = span if span is not None else (None, None)
    return Decision(seat, action, declared.description, plain, multiples, declared.amount, least, most,
                    player=player)


def players_at(events: Sequence[Event], carried: Sequence[Event] = ()) -> dict[int, tuple[str, ...]]:
    """The players named on each box's bets so far (in the order they first bet)."""
    out: dict[int, list[str]] = {}
    for event in list(carried) + list(events):
        seat, player = getattr(event, "seat", None), getattr(event, "player", None)
        if isinstance(event, Bet) and isinstance(seat, int) and isinstance(player, str):
            if player not in out.setdefault(seat, []):
                out[seat].append(player)
    return {seat: tuple(names) for seat, names in out.items()}


def _order(spec: GameSpec, action: str) -> int:
    return next(i for i, a in enumerate(spec.actions) if a.name == action)


def seats_with_bets(events: Sequence[Event], carried: Sequence[Event] = ()) -> tuple[int, ...]:
    """The boxes that have a bet in the round so far (from its accepted events and the carried bets)."""
    out: set[int] = set()
    for event in list(carried) + list(events):
        seat = getattr(event, "seat", None)
        if isinstance(event, Bet) and isinstance(seat, int):
            out.add(seat)
    return tuple(sorted(out))
