"""What the dealer terminal and the pit view show: one JSON snapshot of the table's committed state.

``TableState`` is a table listener (``Table.listeners``): after every commit it
notes what the records say (the open round's events, the outcomes for the
results board, the finished rounds for hands per hour), bumps its version and
wakes the pages waiting on it. ``snapshot()`` is built from committed state
only (the table, the journal), once per version, on the loop. The pages own no
state: they draw the snapshot and send the decisions it offers.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from controller.events import Bet, CardOut, Event, event_from_json
from controller.games import boards
from controller.games.contract import chip_unit
from controller.games.decisions import Legal, legal, players_at, seats_with_bets
from controller.language import language
from controller.money import format_amount
from controller.runtime.decision_keys import keypad
from controller.runtime.faults import role_to_clear
from controller.runtime.journal import Record
from controller.runtime.web.words import layout_in, shown

if TYPE_CHECKING:
    from controller.runtime.table import Table

HISTORY = 200  # outcomes kept for the results board
HOUR_NS = 3600 * 10**9
SAID = 512  # translated texts remembered (a round's prompts, reasons and notes; a full cache starts again)


def money(amount: int, minor: int) -> str:
    """An amount in minor units as the table's money (``12.50``): the one formatter, controller.money."""
    return format_amount(amount, minor)


def table_chip(table: "Table") -> int:
    """The smallest chip of the table in minor units: ``[terminal] chip_unit``, else the game's own (its
    ``chip_unit`` or its smallest chip), else one minor unit. An amount typed at the terminal is a whole number
    of them."""
    given = (getattr(table.config, "terminal", None) or {}).get("chip_unit")
    return int(given) if given else chip_unit(table.round, 1)


class TableState:
    """The pages' view of one table; every method runs on the daemon's loop."""

    def __init__(self, table: "Table", health: Callable[[], Mapping[str, Any]] | None = None,
                 clock_ns: Callable[[], int] = time.time_ns) -> None:
        self.table = table
        self.health = health
        self.clock_ns = clock_ns
        self.version = 0
        self._waiters: set[asyncio.Event] = set()
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._legal: tuple[int, Legal] | None = None
        self.events: list[Event] = []  # the open round's accepted events
        self.carried: list[Event] = []
        self.rejects: deque[dict[str, Any]] = deque(maxlen=5)
        self.marks: deque[Mapping[str, Any]] = deque(maxlen=HISTORY)
        self.finished: deque[int] = deque()  # wall_ns of each round settled in the last hour
        self.last_outcome: dict[str, Any] | None = None
        self.last_settlements: list[dict[str, Any]] = []
        self.round_no = table.round_no
        self.closing = False  # the daemon stops: the pages' event streams end
        self._said: dict[str, str] = {}  # texts already put in the table's language (a prompt comes back often)
        self._load()

    # -- from the journal at start, then record by record

    def _load(self) -> None:
        journal = self.table.journal
        since = self.clock_ns() - HOUR_NS
        opened = journal.last("round_open")
        outcomes: list[tuple[Record, Mapping[str, Any]]] = []
        for record in journal.completed_rounds(HISTORY):
            outcomes.append((record, record.body))
        for record, body in reversed(outcomes):
            self._settled(record, body)
        self.finished = deque(ns for ns in self.finished if ns >= since)
        if opened is not None:
            self.carried = [event_from_json(b) for b in opened.body.get("carried", [])]
            for record in journal.records(since=opened.seq, kinds=("event",), round_=opened.round):
                self.events.append(event_from_json(record.body["event"]))

    def _settled(self, record: Record, body: Mapping[str, Any]) -> None:
        outcome = next((e["outcome"] for e in body.get("effects", []) if "outcome" in e), None)
        self.finished.append(record.wall_ns)
        self.last_settlements = [e["settlement"] for e in body.get("effects", []) if "settlement" in e]
        if outcome is not None:
            self.last_outcome = outcome
            board = self.table.config.spec.board
            mark = board.mark(outcome) if board is not None else None
            if mark is not None:
                self.marks.append(mark)

    def __call__(self, table: "Table", records: Sequence[Record]) -> None:
        for record in records:
            if record.kind == "event":
                self.events.append(event_from_json(record.body["event"]))
                if record.body.get("complete"):
                    self._settled(record, record.body)
            elif record.kind == "round_open":
                self.events = []
                self.carried = [event_from_json(b) for b in record.body.get("carried", [])]
                self.rejects.clear()
            elif record.kind == "reject":
                self.rejects.append({"seq": record.seq, "source": record.body.get("source"),
                                     "reason": record.body.get("reason")})
        self.round_no = table.round_no
        self.version += 1
        self.wake()

    def wake(self) -> None:
        for waiter in self._waiters:
            waiter.set()

    async def changed(self, seen: int, timeout: float) -> int:
        """Wait until the version is past ``seen`` (or ``timeout`` seconds); the version now."""
        if self.version > seen:
            return self.version
        waiter = asyncio.Event()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)
        return self.version

    # -- what the pages read

    def legal(self) -> Legal:
        """The decisions the round accepts now (worked out once per commit)."""
        if self._legal is None or self._legal[0] != self.version:
            table = self.table
            accepting = not any(f.stops_all() for f in table.faults.values())
            if table.round.complete or not accepting:
                answer = Legal()
            else:
                answer = legal(table.round_spec, table.round, table.last_prompt,
                               seats_with_bets(self.events, self.carried), betting_open=table.betting_open(),
                               players=players_at(self.events, self.carried))
            self._legal = (self.version, answer)
        return self._legal[1]

    def hands_per_hour(self) -> int:
        since = self.clock_ns() - HOUR_NS
        while self.finished and self.finished[0] < since:
            self.finished.popleft()
        return len(self.finished)

    def said(self, english: str) -> str:
        """``english`` (a text the table wrote) in the table's language, remembered: matching a text against the
        catalogue costs up to a millisecond, and the same prompts and reasons come back round after round."""
        known = self._said.get(english)
        if known is None:
            if len(self._said) >= SAID:
                self._said.clear()
            known = self._said[english] = shown(language(getattr(self.table.config, "language", "en") or "en"),
                                                english)
        return known

    def snapshot(self) -> dict[str, Any]:
        """What the pages draw, built once per version: machine fields as the journal has them, and every text a
        person reads in the table's language (``[table] language``)."""
        if self._cache is not None and self._cache[0] == self.version:
            return self._cache[1]
        table = self.table
        config = table.config
        lang = language(getattr(config, "language", "en") or "en")
        minor = config.minor_unit
        prompt = table.last_prompt
        bets: dict[int, list[dict[str, Any]]] = {}
        for event in self.carried + self.events:
            if isinstance(event, Bet):
                entry: dict[str, Any] = {"spot": event.spot, "spot_text": lang.spot(event.spot)}
                if event.amount is not None:
                    entry["amount"] = money(event.amount, minor)
                if event.player:
                    entry["player"] = event.player
                bets.setdefault(event.seat, []).append(entry)
        cards = [str(e.card) for e in self.events if isinstance(e, CardOut)]
        pending = table.pending_result
        held = None
        if pending is not None:
            held = {"kind": pending.kind, "values": list(pending.values), "colors": list(pending.colors),
                    "reason": self.said(pending.reason), "prompt": self.said(pending.prompt),
                    "source": pending.source, "seq": pending.seq}
        faults = [{"name": f.name, "text": self.said(f.text), "kind": f.kind, "clear_by": role_to_clear(f.name)}
                  for f in table.faults.values()]  # who may clear it: the fault table's (faults.FAULTS)
        view = table.view()
        board = config.spec.board
        wiring = getattr(table, "wiring", None)
        keys = set(wiring.actions.values()) if wiring is not None else set()
        offered = self.legal().to_json()
        for decision in offered["decisions"]:
            if decision.get("cards", {}).get("order"):
                decision["cards"]["order"] = self.said(decision["cards"]["order"])
        waiting = table.waiting_for()
        snap: dict[str, Any] = {
            "version": self.version, "seq": table.journal.last_seq, "lang": lang.code,
            "table": config.table_id, "game": config.spec.id, "game_name": lang.word(config.spec.name),
            "variant": config.round_config.variant, "currency": config.currency, "minor_unit": minor,
            "chip_unit": table_chip(table),
            "round": table.round_no, "complete": table.round.complete,
            "betting_open": table.betting_open(),
            "prompt": {"text": self.said(prompt.text), "seat": prompt.seat, "expects": list(prompt.expects)}
            if prompt is not None else {"text": self.said(waiting), "seat": None, "expects": []},
            "waiting_for": self.said(waiting),
            "layout": layout_in(self.said, table.round.layout()),
            "bets": [{"seat": s, "bets": b} for s, b in sorted(bets.items())],
            "cards": cards,
            "legal": offered,
            "keypad": [{"key": i + 1, "seat": d.seat, "action": d.action} for i, d in enumerate(keypad(self.legal()))
                       if f"decision_{i + 1}" in keys],  # only the keys this table has wired
            "pending": held,
            "faults": faults,
            "accepting": not any(f.stops_all() for f in table.faults.values()),
            "tower": view["tower"],
            "meters": view["jackpot_display"]["meters"],
            "jackpot_pending": [name for name, _ in table.meters.pending()],
            "last_outcome": self.last_outcome,
            "last_settlements": [{**x, "spot_text": lang.spot(str(x.get("spot", ""))),
                                  "result_text": lang.word(str(x.get("result", "")))} for x in self.last_settlements],
            "rejects": [{**r, "reason": self.said(str(r.get("reason") or ""))} for r in self.rejects],
            "board": boards.build(board, config.round_config, list(self.marks)) if board is not None else None,
            "hands_per_hour": self.hands_per_hour(),
            "limits": [{"spot": spot, "spot_text": lang.spot(spot), "min": money(low, minor),
                        "max": money(high, minor) if high is not None else None}
                       for spot, (low, high) in (config.round_config.get("limits", {}) or {}).items()],
            "shoe": {"number": table.shoe_no, "cut_card": table.cut_card},
        }
        self._cache = (self.version, snap)
        return snap
