"""The simulated table: in-process devices and a seeded virtual croupier, players and supervisor.

The devices behave like the real ones seen from the runtime: the shoe is a
thread that deals one card of a seeded shuffled shoe when the croupier pulls
it, at a realistic pace, and posts ``CardDealt`` (then ``CutCard`` near the
end); the button panel posts the croupier's events (``CloseBets``, ``Action``); the bet sensor posts ``Bet``
records with amounts (the simulated table knows its stakes). Everything
crosses into the loop through the same ``post`` as a real driver.

The virtual croupier is game-agnostic: it asks the round what it waits for
(the last prompt's ``expects``) and otherwise tries candidate events on a copy
of the round (a card, each declared action at each box, a wheel number, a
dice throw), so a new game plugs in through its ``GameSpec`` alone.
"""

from __future__ import annotations

import asyncio
import queue
import random
import threading
import time
from typing import Any, Callable, Mapping, Protocol

from controller import cards
from controller.cards import Card
from controller.events import Action, CardOut, CloseBets, Dice, Event, Puck, Void, Wheel
from controller.games.contract import Accepted, Alert
from controller.runtime.devices.shoe import CUT_FROM_END as CUT_FROM_END, cut_from_end  # one rule, both shoes
from controller.runtime.interfaces import Command
from drivers.shoe.events import CardDealt, CutCard, ShoeEmpty



class SimulatedShoe:
    """A shoe of ``decks`` decks shuffled from ``(seed, shoe_no)``, dealt card by card on a thread."""

    def __init__(self, decks: int, seed: int, shoe_no: int = 1, dealt: int = 0, pace_s: float = 0.8,
                 jokers_per_deck: int = 0) -> None:
        self.decks, self.seed, self.pace_s, self.jokers = decks, seed, pace_s, jokers_per_deck
        self._requests: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.pulls = 0
        self.cards_out = 0
        self._shuffle(shoe_no, dealt)

    def _shuffle(self, shoe_no: int, dealt: int = 0) -> None:
        self.shoe_no = shoe_no
        self.cards = cards.shuffled(cards.shoe(self.decks, self.jokers), random.Random(f"{self.seed}:{shoe_no}"))
        self.position = min(dealt, len(self.cards))
        self.cut_posted = False  # after a restart past the cut card, it is posted again with the next card

    def start(self, post: Callable[[object], None]) -> None:
        self._post = post
        self._thread = threading.Thread(target=self._run, name="sim-shoe", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._requests.put(None)
        if self._thread is not None:
            self._thread.join(timeout=2)

    def health(self) -> Mapping[str, Any]:
        return {"ok": self._thread is not None and self._thread.is_alive(), "shoe": self.shoe_no,
                "position": self.position, "cards_out": self.cards_out, "pulls": self.pulls}

    def pull(self) -> None:
        """The croupier draws the next card (thread-safe)."""
        self._requests.put("pull")

    def new_shoe(self, shoe_no: int) -> None:
        self._requests.put(("shuffle", shoe_no))

    def _run(self) -> None:
        while True:
            request = self._requests.get()
            if request is None:
                return
            if isinstance(request, tuple):
                self._shuffle(request[1])
                continue
            self.pulls += 1
            if self.pace_s:
                time.sleep(self.pace_s)
            if self.position >= len(self.cards):
                self._post(ShoeEmpty())
                continue
            card = self.cards[self.position]
            self.position += 1
            self.cards_out += 1
            self._post(CardDealt(str(card)))
            if self.position >= len(self.cards) - cut_from_end(self.decks) and not self.cut_posted:
                self.cut_posted = True
                self._post(CutCard())


class Sender(Protocol):
    """A device the virtual croupier hands an event to: a stand-in, the croupier's hands, a reader."""

    def send(self, raw: object) -> None: ...


class Dealer(Protocol):
    """A shoe the virtual croupier deals from: ``SimulatedShoe``, or the shoe kind's emulator."""

    decks: int
    cards: list[Any]
    position: int

    def pull(self) -> None: ...

    def new_shoe(self, shoe_no: int) -> None: ...


class SimulatedPanel:
    """A device that posts what it is told to: the dealer buttons, the bet sensors."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.posted = 0
        self._post: Callable[[object], None] | None = None

    def start(self, post: Callable[[object], None]) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None

    def health(self) -> Mapping[str, Any]:
        return {"ok": self._post is not None, "posted": self.posted}

    def send(self, raw: object) -> None:
        if self._post is not None:
            self.posted += 1
            self._post(raw)


class SeededWheel:
    """The emulated wheel: a seeded, fair single-zero wheel of ``pockets`` numbers (0 to pockets - 1)."""

    def __init__(self, seed: int, pockets: int = 37) -> None:
        self.rng = random.Random(f"wheel:{seed}")
        self.pockets = pockets
        self.spins = 0

    def spin(self) -> Wheel:
        self.spins += 1
        return Wheel(self.rng.randrange(self.pockets))


class SeededDice:
    """The emulated dice: seeded fair dice, each with its colour (Tärning's red and green die, Sic Bo's three)."""

    PALETTES = (("red", "green"), ("white", "white", "white"))

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"dice:{seed}")
        self.throws = 0

    def throw(self, colours: tuple[str, ...]) -> Dice:
        self.throws += 1
        colours = tuple(self.rng.sample(colours, len(colours)))  # the dice land in any order
        return Dice(tuple(self.rng.randint(1, 6) for _ in colours), colours)


class VirtualCroupier:
    """Seeded players, croupier and supervisor that play the table through its devices.

    The players' strategy comes from ``controller.runtime.players`` (one per
    game family); the croupier sends their moves, draws cards, spins the
    seeded wheel or throws the seeded dice when the round waits for them, and
    otherwise tries candidate events on a copy of the round.
    """

    def __init__(self, table: Any, shoe: Dealer, buttons: Sender, bets: Sender,
                 command: Callable[[Command], None], seed: int, fast: bool,
                 results: Sender | None = None, puck: Sender | None = None) -> None:
        self.table, self.shoe, self.buttons, self.bets = table, shoe, buttons, bets
        self.results = results or buttons  # the wheel reader or the dice camera
        self.puck = puck or buttons
        self.command = command
        self.rng = random.Random(seed)
        self.wheel = SeededWheel(seed)
        self.dice = SeededDice(seed)
        self.fast = fast
        self.changed = asyncio.Event()
        self.stopping = False
        from controller.runtime.players import CARD, players_for  # every game's rounds: only when played

        self.players = players_for(table.config.spec, table.round, random.Random(f"players:{seed}"),
                                   table.config.minor_unit)
        self.card_move = CARD
        self.one_deck = shoe.decks == 1
        self.counts = {"bets": 0, "bets_skipped": 0, "moves": 0, "voids": 0, "jackpots_confirmed": 0,
                       "results_confirmed": 0}
        self.laid: dict[int, int] = {}  # round -> its puck events seen: the puck laid, nothing played yet
        table.listeners.append(self._committed)

    def _committed(self, _table: Any, records: Any) -> None:
        for record in records:
            if record.kind == "event" and record.body.get("event", {}).get("type") == "puck":
                self.laid[record.round] = self.laid.get(record.round, 0) + 1
        self.changed.set()

    def _untouched(self) -> bool:
        """Nothing played in this round yet: no event, or only the burn puck sensed where it was laid."""
        return self.table.round_events == self.laid.get(self.table.round_no, 0)

    async def _pause(self, low: float, high: float) -> None:
        await asyncio.sleep(0 if self.fast else self.rng.uniform(low, high))

    async def _settle(self, timeout: float = 5.0) -> bool:
        """Wait until the table committed something (the event we caused)."""
        try:
            async with asyncio.timeout(timeout):  # not wait_for: in 3.11 it can swallow a cancellation
                await self.changed.wait()
        except TimeoutError:
            return False
        self.changed.clear()
        return True

    async def _send(self, device: Sender, raw: object) -> bool:
        self.changed.clear()
        device.send(raw)
        return await self._settle(getattr(device, "settle_s", 5.0))  # the roulette camera renders a whole spin

    def probe(self, event: Event) -> bool:
        """Would the round take this event? Tried and then undone at once, on the loop, so nothing sees it."""
        return self._try(event) is not None

    def _try(self, event: Event) -> Accepted | None:
        answer = self.table.round.copy().apply(event)  # tried on a copy: the table's round is untouched
        return answer if isinstance(answer, Accepted) else None

    async def run(self) -> None:
        while not self.stopping:
            if not self.table.summary()["accepting"]:
                await asyncio.sleep(0.2)
                continue
            await self._supervise()
            await self._play_round()

    async def _supervise(self) -> None:
        if getattr(self.results, "truth", None) is not None and getattr(self.table, "pending_result", None) is None:
            for name in [n for n in self.table.faults if n.startswith("reader_failing.")]:
                await self._pause(2.0, 5.0)  # the supervisor looked at the camera (cleaned the lens) and clears it
                self.changed.clear()
                self.command(Command("clear_fault", {"name": name, "reason": "camera checked"}, "sim-supervisor"))
                await self._settle()
        for meter, _hit in self.table.meters.pending():
            await self._pause(1.0, 3.0)
            self.changed.clear()
            self.command(Command("confirm_jackpot", {"meter": meter}, "sim-supervisor"))
            if await self._settle():
                self.counts["jackpots_confirmed"] += 1
        fresh_deck = self.one_deck and self.shoe.position > 0  # a one-deck game deals every round from a new deck
        if (self.table.cut_card or fresh_deck) and self.table.round_events == 0:
            self.changed.clear()
            self.command(Command("new_shoe", {}, "sim-croupier"))
            if await self._settle():
                self.shoe.new_shoe(self.table.shoe_no)

    async def _play_round(self) -> None:
        table = self.table
        number = table.round_no
        boxes = int(table.config.round_config.get("boxes", table.config.round_config.get("seats", 7)) or 7)
        if self._untouched():
            for bet in self.players.bets(table.round, boxes):
                if not self.probe(bet):
                    self.counts["bets_skipped"] += 1  # the croupier refuses it before it is placed
                    continue
                await self._pause(0.3, 1.2)
                await self._send(self.bets, bet)
                self.counts["bets"] += 1
                if table.round_no != number:
                    return
        stuck = 0
        while table.round_no == number and table.summary()["accepting"] and not self.stopping:
            before = (table.round_no, table.round_events)
            if await self._next(boxes) and (table.round_no, table.round_events) != before:
                stuck = 0
                continue
            stuck += 1  # nothing taken, or taken by the game and refused by the table (a stopped progressive)
            await asyncio.sleep(0.05 if self.fast else 0.5)
            if stuck > 3:
                if self.probe(Void("the round cannot go on")):
                    self.counts["voids"] += 1
                    await self._send(self.buttons, Void("the round cannot go on", "sim-croupier"))
                return

    async def _draw(self) -> bool:
        if self.shoe.position >= len(self.shoe.cards):  # cannot happen with the cut card; never spin on it
            await asyncio.sleep(1.0)
            return False
        await self._pause(0.3, 0.8)
        self.changed.clear()
        self.shoe.pull()
        return await self._settle(timeout=10.0)

    async def _confirm_result(self) -> bool:
        """A reader was unsure: the croupier looks at the dice or wheel (the emulated camera's truth), confirms it."""
        truth = getattr(self.results, "truth", None)
        if truth is None:
            return False
        confirmation = getattr(self.results, "confirmation", None)  # the roulette camera: the number launched
        if confirmation is not None:
            args = confirmation()
        else:
            values, colors = truth
            args = {"values": list(values), "colors": list(colors)}
        await self._pause(1.0, 3.0)
        self.changed.clear()
        self.command(Command("confirm_result", args,
                             f"sim-croupier (looked at {getattr(self.results, 'looked_at', 'the dice')})"))
        self.counts["results_confirmed"] += 1
        return await self._settle()

    async def _next(self, boxes: int) -> bool:
        """Make the round's next move; False when nothing the croupier can do is taken."""
        if getattr(self.table, "pending_result", None) is not None:
            return await self._confirm_result()
        prompt = self.table.last_prompt if self.table.round_events else None
        expects = tuple(prompt.expects) if prompt else ()
        for move in self.players.moves(self.table.round, prompt):
            if move == self.card_move:
                return await self._draw()
            answer = self._try(move) if not isinstance(move, str) else None
            if answer is None or (isinstance(move, Puck) and any(isinstance(e, Alert) for e in answer.effects)):
                continue
            await self._pause(0.5, 2.0)
            self.counts["moves"] += 1
            if isinstance(move, CloseBets):
                return await self._send(self.buttons, CloseBets())
            return await self._send(self.puck if isinstance(move, Puck) else self.buttons, move)
        if self.probe(CloseBets()):
            await self._pause(0.5, 1.5)
            return await self._send(self.buttons, CloseBets())
        if "card" in expects or (not expects and self.probe(CardOut(Card(2, "c")))):
            return await self._draw()
        spec = self.table.config.spec
        seats = [prompt.seat] if prompt and prompt.seat else list(range(1, boxes + 1))
        names = [a for a in expects if a in {x.name for x in spec.actions}] or [a.name for a in spec.actions]
        tries = [Action(seat, name) for seat in seats for name in names]
        self.rng.shuffle(tries)
        for action in tries:
            if self.probe(action):
                return await self._send(self.buttons, action)
        if self.probe(Wheel(0)):
            await self._pause(8.0, 15.0)  # the ball runs
            return await self._send(self.results, self.wheel.spin())
        for colours in SeededDice.PALETTES:
            if self.probe(Dice((1,) * len(colours), colours)):
                await self._pause(2.0, 5.0)
                return await self._send(self.results, self.dice.throw(colours))
        return False


READERS = ("wheel", "camera")
"""The stand-ins of ``simulated_extras`` that read a result: the croupier's spins and throws go to them."""


def simulated_extras(spec: Any) -> list[str]:
    """The simulated devices a game needs beyond the shoe, buttons and bet sensors (named as in the config)."""
    extras = []
    if "wheel_reader" in spec.devices:
        extras.append("wheel")
    elif "camera" in spec.devices:
        extras.append("camera")
    if "puck" in spec.devices:
        extras.append("puck")
    return extras
