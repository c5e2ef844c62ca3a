"""The table's committed state as the real displays show it: tower pattern, sign content, jackpot display.

``DeviceView`` is a table listener: it sees only committed records (the
write-ahead guarantee of Table.submit), keeps the last results the sign
shows, and computes each output's desired state:

- ``tower``: a pattern name of drivers/gpio/tower.py (``tower_pattern``);
- ``sign``: a ``SignContent`` (game name, minimum and maximum per spot, last
  results: roulette numbers with their colours, dice throws, Punto Banco
  winners). How an outcome is marked is the game's own declaration
  (``GameSpec.result_mark``): the drivers know no games;
- ``jackpot_display``: the first meter's value and state (``ok``, ``pending``
  while a hit waits, ``untrusted`` when the meter is stopped by a fault or
  the journal cannot commit).

``TowerOutput``, ``SignOutput`` and ``JackpotOutput`` are ``Output``s (see
interfaces.py) that hand that state to the driver objects; each keeps a short
text of what it shows for the terminal and the tests.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Mapping, Sequence

from controller.runtime.faults import SELF_CLEARING

MAX_RESULTS = 10
BOARD_MARKS = 100  # the outcomes the sign's last-results board counts (hot and cold, the road's counts)


def tower_pattern(table: Any) -> str:
    """The tower pattern for the table's committed state (legend: docs/devices/tower-light.md)."""
    faults = list(table.faults.values())
    if any(f.kind not in SELF_CLEARING + ("maintenance",) for f in faults):
        return "latched_fault"
    if any(f.kind == "maintenance" for f in faults):
        return "maintenance"
    if faults:
        return "device_fault"
    if table.meters.pending():
        return "jackpot_pending"
    if getattr(table, "pending_result", None) is not None:
        return "result_pending"
    if table.round_events == 0:
        return "idle"
    if table.betting_open():
        return "betting_open"
    prompt = table.last_prompt
    expects = tuple(getattr(prompt, "expects", ()) or ())
    if "confirm" in expects:
        return "result_pending"
    if prompt is not None and prompt.seat is not None and any(e != "card" for e in expects):
        return "waiting_decision"
    return "dealing"




class DeviceView:
    """Listener keeping the sign's last results; ``state(table)`` is every real output's desired state."""

    def __init__(self, table: Any) -> None:
        self.results: deque[tuple[str, str | None]] = deque(maxlen=MAX_RESULTS)
        self.marks: deque[Mapping[str, Any]] = deque(maxlen=BOARD_MARKS)  # the game's board (sign_board.py)
        self.table = table
        self._recover()

    def _recover(self) -> None:
        """After a restart the sign shows the last results again: read from the journal's last outcomes."""
        query = getattr(self.table.journal, "_query", None)
        if query is None:
            return
        where = "kind = 'event' AND body LIKE ? ORDER BY seq DESC LIMIT ?"
        recent = list(query(where, '%"outcome"%', BOARD_MARKS))
        self(self.table, list(reversed(recent)))

    def __call__(self, table: Any, records: Sequence[Any]) -> None:
        for record in records:
            if record.kind != "event":
                continue
            for effect in record.body.get("effects", ()):
                if "outcome" in effect and isinstance(effect["outcome"], Mapping):
                    mark = table.config.spec.mark(effect["outcome"])
                    if mark is not None:
                        self.results.appendleft(mark)
                    board = getattr(getattr(table.config, "spec", None), "board", None)
                    marked = board.mark(effect["outcome"]) if board is not None else None
                    if marked is not None:
                        self.marks.append(marked)

    def sign_content(self, table: Any) -> Any:
        from drivers.displays.sign import ResultMark, SignContent, SpotLimit

        config = table.config
        limits = []
        for spot, pair in (config.round_config.get("limits", {}) or {}).items():
            low, high = pair
            if high is not None:
                limits.append(SpotLimit(spot.replace("_", " ").upper(), int(low), int(high)))
        results = list(self.results)
        pages: list[tuple[str, list[tuple[str, str | None]]]] = []
        board = getattr(config.spec, "board", None)
        if board is not None and self.marks:  # the game's last-results board: the same marks as the pit view
            from controller.games.boards import build
            from controller.runtime.sign_board import sign_pages

            pages = sign_pages(build(board, config.round_config, list(self.marks)))
        return SignContent(title=config.spec.name, limits=tuple(limits),
                           results=tuple(ResultMark(t, c) for t, c in results),
                           results_label="LAST" if results else "", currency=config.currency,
                           minor_per_major=config.minor_unit,
                           boards=tuple((label, tuple(ResultMark(t, c) for t, c in marks)) for label, marks in pages))

    def jackpot(self, table: Any) -> dict[str, Any]:
        states = table.meters.states
        if not states:
            return {"meter": None, "amount": 0, "state": "untrusted"}
        name, meter = next(iter(states.items()))
        if meter.pending:
            state = "pending"
        elif meter.stopped or table.journal.broken is not None:
            state = "untrusted"
        else:
            state = "ok"
        return {"meter": name, "amount": int(meter.value), "state": state}

    def state(self, table: Any) -> dict[str, dict[str, Any]]:
        return {"tower": {"pattern": tower_pattern(table)}, "sign": {"content": self.sign_content(table)},
                "jackpot_display": self.jackpot(table)}


class _Ticked:
    """Shared by the outputs: the loop's clock, and a tick of their own when no GPIO panel ticks the driver."""

    def __init__(self, driver: Any, loop: asyncio.AbstractEventLoop, ticked: bool) -> None:
        self.driver, self.loop = driver, loop
        self.text = ""
        self.shows = 0
        self._handle: asyncio.TimerHandle | None = None
        if not ticked:
            self._handle = loop.call_soon(self._tick)

    def _tick(self) -> None:
        self.driver.update(self.loop.time())
        self._handle = self.loop.call_later(0.05, self._tick)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()


class TowerOutput(_Ticked):
    """The tower light (drivers/gpio/tower.TowerLight): ``{"pattern": name}``; the lamps change at once."""

    def __init__(self, tower: Any, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(tower, loop, ticked=True)

    def show(self, state: Mapping[str, Any]) -> None:
        now = self.loop.time()
        self.driver.show(state["pattern"], now)
        self.driver.update(now)
        self.text = state["pattern"]
        self.shows += 1


class SignOutput(_Ticked):
    """The LED sign (drivers/displays/sign.Sign): ``{"content": SignContent}``."""

    def show(self, state: Mapping[str, Any]) -> None:
        from drivers.displays.sign import limit_text

        content = state["content"]
        now = self.loop.time()
        self.driver.show(content, now)
        self.driver.update(now)
        parts = [content.title] + [limit_text(limit, content) for limit in content.limits]
        if content.results:
            parts.append(content.results_label + " " + " ".join(
                f"{m.text}{'(' + m.colour + ')' if m.colour else ''}" for m in content.results))
        self.text = " | ".join(parts)
        self.shows += 1


class JackpotOutput(_Ticked):
    """The jackpot display (drivers/displays/jackpot.JackpotDisplay): ``{"amount", "state"}``."""

    def show(self, state: Mapping[str, Any]) -> None:
        now = self.loop.time()
        if state.get("meter") is None:  # a table without a progressive: the display stays dark
            self.driver.show_text(" " * 8)
            self.text = "(no meter)"
        else:
            self.driver.show(int(state["amount"]), state["state"], now)
            self.driver.update(now)
            self.text = f"{state['meter']} {state['state']} {self.driver.text_at(now)}"
        self.shows += 1


class Both:
    """A real output and the text line the terminal shows for it (``--simulate``: the luma dummy's content)."""

    def __init__(self, real: Any, stream: Any, name: str) -> None:
        self.real, self.stream, self.name = real, stream, name
        self.seq = 0

    def show(self, state: Mapping[str, Any]) -> None:
        self.real.show(state)
        self.stream.write(f"  [{self.name} @{self.seq}] {self.real.text}\n")
