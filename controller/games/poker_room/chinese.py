"""Chinese Poker (seed 004): thirteen cards, three hands, points between every two players.

The seed: thirteen cards to every player, who sets them as a front hand of
three, a middle and a back hand of five; the back must be better than the
middle and the middle better than the front; in the front, straights and
flushes do not count. A hand set wrong (a front better than the middle, a
wrong number of cards) loses to every hand set right. In the 1-3 scoring,
each player compares his three hands with every other player's: winning two
of the three scores one point, all three scores three. The points have a
money value fixed before the game, and the scoring used is kept in a
separate protocol (here: the outcome's ``protocol``, every pair of players).

The table: players sit with ``bet`` spot ``points`` (no amount: nothing is
staked, the points are settled between the players); ``close_bets`` deals;
thirteen cards each, one at a time from box 1; each player's ``set`` action
names the front three and the middle five (``cards``, eight cards; the back
is the rest). When all have set, every player settles on spot ``points``:
``net`` is the points won less the points lost, times ``point_value``.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event, Void
from controller.games.contract import ActionSpec, CardChoice, Effect, GameSpec, OptionSpec, Outcome, Prompt, Reject, Round
from controller.games.contract import ReaderSpec, RoundConfig, Settlement, SpotSpec, VariantSpec
from controller.hands.fast import high_value
from controller.hands.high import describe_high
from controller.hands.values import HIGH_CARD, PAIR, TRIPS, make_value

ROWS = ("front", "middle", "back")


def front_value(three: Sequence[Card]) -> int:
    """A front hand's value on the five-card scale: trips, a pair or high cards (no straights or flushes)."""
    counts = Counter(c.rank for c in three)
    if len(counts) == 1:
        return make_value(TRIPS, (three[0].rank,))
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return make_value(PAIR, (pair, kicker))
    return make_value(HIGH_CARD, sorted(counts, reverse=True))


def row_values(front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card]) -> tuple[int, int, int]:
    return front_value(front), high_value(middle), high_value(back)


def fouled(values: tuple[int, int, int]) -> bool:
    """Set wrong: the middle better than the back, or the front better than the middle."""
    return values[0] > values[1] or values[1] > values[2]


def points_between(a: tuple[int, int, int] | None, b: tuple[int, int, int] | None, scoring: str) -> int:
    """What ``a`` scores from ``b`` (negative: pays); None stands for a fouled hand."""
    if a is None and b is None:
        return 0
    if a is None:
        return -points_between(b, a, scoring)
    if b is None:
        wins, losses = 3, 0  # a fouled hand loses every row to a hand set right
    else:
        wins = sum(1 for x, y in zip(a, b) if x > y)
        losses = sum(1 for x, y in zip(a, b) if x < y)
    if scoring == "1-6":  # one point a row, three more for all three
        net = wins - losses
        return net + (3 if wins == 3 else -3 if losses == 3 else 0)
    if wins == 3:
        return 3
    if losses == 3:
        return -3
    return 1 if wins >= 2 else -1 if losses >= 2 else 0


class ChinesePokerRound(Round):
    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.seats: list[int] = []
        self.players: dict[int, str | None] = {}
        self.dealing = False
        self.hands: dict[int, list[Card]] = {}
        self.sets: dict[int, tuple[list[Card], list[Card], list[Card]]] = {}
        self._settlements: list[Settlement] = []
        self._outcome: dict[str, Any] | None = None
        self._complete = False

    @property
    def complete(self) -> bool:
        return self._complete

    def outcome(self) -> Mapping[str, Any] | None:
        return self._outcome

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)

    def _apply(self, event: Event) -> Iterable[Effect]:
        effects = self._dispatch(event)
        self.betting_open = not self.dealing and not self.complete  # players sit in until no more bets
        return effects

    def _dispatch(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Void):
            if not self.dealing:
                raise Reject("nothing has been dealt; nothing to void")
            self._outcome = {"void": event.reason}
            self._complete = True
            return [Outcome(self._outcome)]
        if not self.dealing:
            if isinstance(event, Bet):
                if event.spot != "points":
                    raise Reject(f"box {event.seat}: players sit in with spot points (nothing is staked)")
                if not 1 <= event.seat <= self.config["seats"]:
                    raise Reject(f"there is no box {event.seat} (the table has {self.config['seats']})")
                if event.seat in self.seats:
                    raise Reject(f"box {event.seat} is in already")
                self.seats.append(event.seat)
                self.seats.sort()
                self.players[event.seat] = event.player
                return [self._prompt()]
            if isinstance(event, CloseBets):
                if len(self.seats) < 2:
                    raise Reject("Chinese Poker needs at least two players")
                self.dealing = True
                self.hands = {s: [] for s in self.seats}
                return [self._prompt()]
            raise Reject("players sit in (spot points), then no more bets to deal")
        if isinstance(event, CardOut):
            seat = self._next_dealee()
            if seat is None:
                raise Reject("every player has thirteen cards; the players set their hands")
            if event.card.is_joker:
                raise Reject("no joker in Chinese Poker")
            if any(event.card in h for h in self.hands.values()):
                raise Reject(f"{event.card} is already out in this deal; check the shoe (misdeal?)")
            self.hands[seat].append(event.card)
            return [self._prompt()]
        if isinstance(event, Action) and event.action == "set":
            return self._set(event)
        raise Reject(self.waiting_for())

    def _next_dealee(self) -> int | None:
        for turn in range(13):
            for seat in self.seats:
                if len(self.hands[seat]) == turn:
                    return seat
        return None

    def _set(self, action: Action) -> list[Effect]:
        seat = action.seat
        if self._next_dealee() is not None:
            raise Reject("the cards are not all dealt yet")
        if seat not in self.hands:
            raise Reject(f"box {seat} is not in this deal")
        if seat in self.sets:
            raise Reject(f"box {seat} has set its hands already")
        named = list(action.cards or ())
        held = self.hands[seat]
        if any(c not in held for c in named) or len(set(named)) != len(named):
            raise Reject(f"box {seat}: name eight of its own cards, the front three then the middle five")
        front, middle = named[:3], named[3:8]
        back = [c for c in held if c not in named]
        self.sets[seat] = (front, middle, back)  # a wrong count is a foul, not a refusal (004)
        if len(self.sets) < len(self.seats):
            return [self._prompt()]
        return self._score()

    def _score(self) -> list[Effect]:
        scoring, value = self.config["scoring"], self.config["point_value"]
        values: dict[int, tuple[int, int, int] | None] = {}
        rows: dict[int, Any] = {}
        for seat, (front, middle, back) in self.sets.items():
            if (len(front), len(middle), len(back)) != (3, 5, 5):
                values[seat] = None
                rows[seat] = {"foul": "wrong number of cards"}
                continue
            v = row_values(front, middle, back)
            values[seat] = None if fouled(v) else v
            rows[seat] = {"front": [str(c) for c in front], "middle": [str(c) for c in middle],
                          "back": [str(c) for c in back], "hands": [describe_high(x) for x in v]}
            if values[seat] is None:
                rows[seat]["foul"] = "set wrong: each hand must be better than the one before it"
        totals = {s: 0 for s in self.seats}
        protocol = []
        for a, b in combinations(self.seats, 2):
            p = points_between(values[a], values[b], scoring)
            totals[a] += p
            totals[b] -= p
            protocol.append({"boxes": [a, b], "points": [p, -p]})
        effects: list[Effect] = []
        for seat in self.seats:
            net = totals[seat] * value
            result = "win" if net > 0 else "lose" if net < 0 else "push"
            settlement = Settlement(seat, "points", result, stake=max(0, -net), net=net, player=self.players.get(seat),
                                    note=f"{totals[seat]:+d} points at {value}")
            self._settlements.append(settlement)
            effects.append(settlement)
        self._outcome = {"game": "chinese-poker", "scoring": scoring, "point_value": value,
                         "hands": {str(s): rows[s] for s in self.seats}, "protocol": protocol,
                         "points": {str(s): totals[s] for s in self.seats}}
        self._complete = True
        return [Outcome(self._outcome)] + effects

    def card_choice(self, seat: int, action: str) -> CardChoice | None:
        """Setting the hands: eight of the box's thirteen cards, the front three first, then the middle five."""
        if action != "set" or self._complete or not self.dealing or self._next_dealee() is not None \
                or seat not in self.hands or seat in self.sets:
            return None
        return CardChoice(tuple(self.hands[seat]), 8, 8, "the front three, then the middle five; the back is the rest")

    def layout(self) -> Mapping[str, Any] | None:
        """Each box's thirteen cards face down as dealt (the players set them face down too: they are shown at the
        scoring); a box that has set its hands says so."""
        boxes = []
        for seat in self.seats:
            one: dict[str, Any] = {"cards": ["down"] * len(self.hands.get(seat, ()))}
            if seat in self.sets:
                one["note"] = "hands set"
            boxes.append({"seat": seat, "hands": [one]})
        return {"boxes": boxes, "boards": []}

    def _prompt(self) -> Prompt:
        seat = self._next_dealee() if self.dealing else None
        if not self.dealing:
            return Prompt(self.waiting_for(), None, ("bet", "close_bets"))
        if seat is not None:
            return Prompt(self.waiting_for(), seat, ("card",))
        return Prompt(self.waiting_for(), None, ("set",))

    def waiting_for(self) -> str:
        if self._complete:
            return "the deal is scored"
        if not self.dealing:
            return f"players sit in (spot points; in: {', '.join(map(str, self.seats)) or 'nobody'}); no more bets"
        seat = self._next_dealee()
        if seat is not None:
            return f"card to box {seat}"
        left = [s for s in self.seats if s not in self.sets]
        return f"{', '.join(f'box {s}' for s in left)} to set front three and middle five (set, with the cards)"


SPEC = GameSpec(
    id="chinese-poker", name="Chinese Poker", seeds=("004 Chinese Poker",),
    variants=(VariantSpec("points", "Chinese Poker for points, 1-3 scoring by default", "004 Chinese Poker"),),
    options=(
        OptionSpec("seats", 4, "players at the table", minimum=2, maximum=4),
        OptionSpec("scoring", "1-3", "1-3 (004: two rows of three win one point, all three win three) or 1-6 "
                   "(a point a row and three more for all three)", kind="choice", choices=("1-3", "1-6")),
        OptionSpec("point_value", 100, "the money value of a point, in minor units (fixed before the game, 004)",
                   kind="amount", minimum=1),
    ),
    spots=(SpotSpec("points", "a player in the deal: the points won or lost, at point_value"),),
    actions=(ActionSpec("set", "cards: the front three, then the middle five; the back is the rest", cards=True),),
    devices=("shoe",), reader=ReaderSpec("shoe"), docs_page="poker-room.md", strategy="chinese-poker",
    new_round=lambda config, carried: ChinesePokerRound(config, carried),
    interpretations=(
        "A fouled hand (set wrong, or a wrong number of cards) loses all three rows to every hand set right; "
        "two fouled hands score nothing between them.",
        "1-3 scoring: of the three rows compared with one other player, winning more rows than he does and at "
        "least two scores one point, all three three points; a tied row is won by neither.",
        "The front hand is three cards on the five-card scale: trips, a pair with its kicker, or high cards; "
        "straights and flushes do not count there (004).",
        "Four players at most: thirteen cards each from one deck.",
    ),
)
