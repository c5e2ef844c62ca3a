"""Open Face Chinese Poker (seed 004, "Chinese Open Poker"): the three hands built face up, card by card.

The seed: five cards face down to every player, who places them face up as
he likes in the front, middle and back hands; then eight deal rounds of one
card to each player, each card placed face up at once. At the end the front
holds three cards, the middle and the back five; the hands must rise from
front to back (straights and flushes do not count in the front), a hand set
wrong loses to every hand set right, and the points are scored as in Chinese
Poker (``controller.games.poker_room.chinese``: 1-3 by default), kept in the
outcome's ``protocol``.

The table: players sit with ``bet`` spot ``points``; ``close_bets`` deals the
five cards each, one at a time from box 1; each player places them with the
actions ``front``, ``middle`` and ``back`` (``cards``: the cards put in that
hand, at most 3, 5 and 5 in all); then each deal round gives one card to each
player in box order, and every player places it before the next round is
dealt. A card cannot be moved once placed.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event, Void
from controller.games.contract import ActionSpec, CardChoice, Effect, GameSpec, OptionSpec, Outcome, Prompt, Reject, Round
from controller.games.contract import ReaderSpec, RoundConfig, Settlement, SpotSpec, VariantSpec
from controller.games.poker_room.chinese import fouled, points_between, row_values
from controller.hands.high import describe_high

ROWS = {"front": 3, "middle": 5, "back": 5}


class OpenFaceRound(Round):
    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.seats: list[int] = []
        self.players: dict[int, str | None] = {}
        self.dealing = False
        self.dealt: dict[int, list[Card]] = {}
        self.rows: dict[int, dict[str, list[Card]]] = {}
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

    # -- where the deal stands

    def placed(self, seat: int) -> int:
        return sum(len(cards) for cards in self.rows[seat].values())

    def unplaced(self, seat: int) -> list[Card]:
        on_table = {c for cards in self.rows[seat].values() for c in cards}
        return [c for c in self.dealt[seat] if c not in on_table]

    def to_place(self) -> list[int]:
        return [s for s in self.seats if self.unplaced(s)]

    def next_dealee(self) -> int | None:
        """The box the next card goes to, or None while cards wait to be placed (or all 13 are out)."""
        counts = [len(self.dealt[s]) for s in self.seats]
        low, high = min(counts), max(counts)
        if low == high and low >= 5:  # a deal round is complete: its cards are placed before the next one
            if self.to_place() or low >= 13:
                return None
            target = low + 1
        elif low == high:
            target = 5  # the first five, one at a time
        else:
            target = 5 if low < 5 else high
        for turn in range(low, target):
            for seat in self.seats:
                if len(self.dealt[seat]) == turn:
                    return seat
        return None  # pragma: no cover - the loop always finds a box below the target

    def _round_dealt(self) -> bool:
        """Every box has its cards of the deal round (the first five, or one more)."""
        counts = {len(self.dealt[s]) for s in self.seats}
        return len(counts) == 1 and min(counts) >= 5

    # -- events

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
            return self._seating(event)
        if isinstance(event, CardOut):
            return self._card(event.card)
        if isinstance(event, Action) and event.action in ROWS:
            return self._place(event)
        raise Reject(self.waiting_for())

    def _seating(self, event: Event) -> list[Effect]:
        if isinstance(event, Bet):
            if event.spot != "points":
                raise Reject(f"box {event.seat}: players sit in with spot points (nothing is staked)")
            if not 1 <= event.seat <= self.config["seats"]:
                raise Reject(f"there is no box {event.seat} (the table has {self.config['seats']})")
            if event.seat in self.seats:
                raise Reject(f"box {event.seat} is in already")
            self.seats = sorted(self.seats + [event.seat])
            self.players[event.seat] = event.player
            return [self._prompt()]
        if isinstance(event, CloseBets):
            if len(self.seats) < 2:
                raise Reject("Open Face Chinese Poker needs at least two players")
            self.dealing = True
            self.dealt = {s: [] for s in self.seats}
            self.rows = {s: {row: [] for row in ROWS} for s in self.seats}
            return [self._prompt()]
        raise Reject("players sit in (spot points), then no more bets to deal")

    def _card(self, card: Card) -> list[Effect]:
        seat = self.next_dealee()
        if seat is None:
            if self.to_place():
                raise Reject(f"{', '.join(f'box {s}' for s in self.to_place())} to place the cards first")
            raise Reject("every player has thirteen cards")
        if card.is_joker:
            raise Reject("no joker in this game")
        if any(card in cards for cards in self.dealt.values()):
            raise Reject(f"{card} is already out in this deal; check the shoe (misdeal?)")
        self.dealt[seat].append(card)
        return [self._prompt()]

    def _place(self, action: Action) -> list[Effect]:
        seat, row = action.seat, action.action
        if seat not in self.rows:
            raise Reject(f"box {seat} is not in this deal")
        if not self._round_dealt():
            raise Reject("the deal round is not complete yet; place when every box has its cards")
        cards = list(action.cards or ())
        waiting = self.unplaced(seat)
        if not cards or any(c not in waiting for c in cards) or len(set(cards)) != len(cards):
            held = " ".join(map(str, waiting)) or "none"
            raise Reject(f"box {seat}: name cards it holds and has not placed ({held})")
        room = ROWS[row] - len(self.rows[seat][row])
        if len(cards) > room:
            raise Reject(f"box {seat}: the {row} hand has room for {room} more card(s)")
        self.rows[seat][row].extend(cards)
        if all(self.placed(s) == 13 for s in self.seats):
            return self._score()
        return [self._prompt()]

    def _score(self) -> list[Effect]:
        scoring, value = self.config["scoring"], self.config["point_value"]
        values: dict[int, tuple[int, int, int] | None] = {}
        hands: dict[str, Any] = {}
        for seat in self.seats:
            r = self.rows[seat]
            v = row_values(r["front"], r["middle"], r["back"])
            values[seat] = None if fouled(v) else v
            hands[str(seat)] = {row: [str(c) for c in r[row]] for row in ROWS}
            hands[str(seat)]["hands"] = [describe_high(x) for x in v]
            if values[seat] is None:
                hands[str(seat)]["foul"] = "set wrong: each hand must be better than the one before it"
        totals = {s: 0 for s in self.seats}
        protocol = []
        for i, a in enumerate(self.seats):
            for b in self.seats[i + 1:]:
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
        self._outcome = {"game": "open-face-chinese", "scoring": scoring, "point_value": value, "hands": hands,
                         "protocol": protocol, "points": {str(s): totals[s] for s in self.seats}}
        self._complete = True
        return [Outcome(self._outcome)] + effects

    # -- prompts

    def card_choice(self, seat: int, action: str) -> CardChoice | None:
        """Placing cards: the box's cards not yet placed, one up to what the row has room for."""
        if action not in ROWS or self._complete or not self.dealing or seat not in self.rows \
                or not self._round_dealt():
            return None
        waiting = self.unplaced(seat)
        room = ROWS[action] - len(self.rows[seat][action])
        return CardChoice(tuple(waiting), 1, min(room, len(waiting))) if waiting and room > 0 else None

    def layout(self) -> Mapping[str, Any] | None:
        """Each box's front, middle and back face up as placed, and its cards not yet placed face down."""
        boxes = []
        for seat in self.seats:
            hands: list[dict[str, Any]] = []
            if self.dealing:
                hands = [{"cards": [str(c) for c in self.rows[seat][row]], "note": row} for row in ROWS]
                waiting = self.unplaced(seat)
                if waiting:
                    hands.append({"cards": ["down"] * len(waiting), "note": "to place"})
            boxes.append({"seat": seat, "hands": hands})
        return {"boxes": boxes, "boards": []}

    def _prompt(self) -> Prompt:
        if not self.dealing:
            return Prompt(self.waiting_for(), None, ("bet", "close_bets"))
        seat = self.next_dealee()
        if seat is not None:
            return Prompt(self.waiting_for(), seat, ("card",))
        waiting = self.to_place()
        return Prompt(self.waiting_for(), waiting[0] if len(waiting) == 1 else None, tuple(ROWS))

    def waiting_for(self) -> str:
        if self._complete:
            return "the deal is scored"
        if not self.dealing:
            return f"players sit in (spot points; in: {', '.join(map(str, self.seats)) or 'nobody'}); no more bets"
        seat = self.next_dealee()
        if seat is not None:
            return f"card to box {seat}"
        return f"{', '.join(f'box {s}' for s in self.to_place())} to place cards in front, middle or back"


SPEC = GameSpec(
    id="open-face-chinese", name="Open Face Chinese Poker", seeds=("004 Chinese Open Poker",),
    variants=(VariantSpec("points", "Open Face Chinese Poker for points, 1-3 scoring by default",
                          "004 Chinese Open Poker"),),
    options=(
        OptionSpec("seats", 3, "players at the table", minimum=2, maximum=4),
        OptionSpec("scoring", "1-3", "1-3 (004) or 1-6, as Chinese Poker", kind="choice", choices=("1-3", "1-6")),
        OptionSpec("point_value", 100, "the money value of a point, in minor units (fixed before the game, 004)",
                   kind="amount", minimum=1),
    ),
    spots=(SpotSpec("points", "a player in the deal: the points won or lost, at point_value"),),
    actions=(ActionSpec("front", "cards: put in the front hand (three in all)", cards=True),
             ActionSpec("middle", "cards: put in the middle hand (five in all)", cards=True),
             ActionSpec("back", "cards: put in the back hand (five in all)", cards=True)),
    devices=("shoe",), reader=ReaderSpec("shoe"), docs_page="poker-room.md", strategy="open-face-chinese",
    new_round=lambda config, carried: OpenFaceRound(config, carried),
    interpretations=(
        "Every deal round is dealt, to thirteen cards each: the seed allows fewer rounds when the result is clear "
        "early, which is the players' agreement and is not decided here.",
        "The first five cards each are dealt one at a time from box 1 and placed once all are out; after that one "
        "card a box, in box order, each placed before the next round is dealt.",
        "Fouls and the scoring are Chinese Poker's.",
    ),
)
