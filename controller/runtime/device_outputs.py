"""The real displays: the tower light, the LED sign and the jackpot display, each rendering its part of the
table's one view (controller/runtime/view.py, ``Table.view``).

``TowerOutput``, ``SignOutput`` and ``JackpotOutput`` are ``Output``s (see
interfaces.py) that hand their part of the view to the driver objects
(``tower``: ``{"pattern"}``; ``sign``: ``{"content"}``; ``jackpot_display``:
``{"meter", "amount", "state"}``); each keeps a short text of what it shows
for the terminal and the tests. ``DeviceView`` is the same view, read the way
the real outputs read it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Mapping, Sequence

from controller.runtime.faults import tower_pattern
from controller.runtime.view import MAX_RESULTS, jackpot, sign_content

IDLE_TICK_S = 1.0
"""An output's own tick, when its picture does not change sooner (a failed write is tried again as often)."""
__all__ = ["DeviceView", "JackpotOutput", "MAX_RESULTS", "SignOutput", "TowerOutput", "tower_pattern"]


class DeviceView:
    """The real outputs' part of the table's one view; called with records, it marks them on the table's board
    (as the table does with every record it commits)."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def __call__(self, table: Any, records: Sequence[Any]) -> None:
        table.board.add(table.config.spec, records)

    @property
    def results(self) -> Any:
        """The results board's marks, newest first."""
        return self.table.board.marks

    def sign_content(self, table: Any) -> Any:
        return sign_content(table, table.board)

    def jackpot(self, table: Any) -> dict[str, Any]:
        state = jackpot(table)
        return {k: state[k] for k in ("meter", "amount", "state")}

    def state(self, table: Any) -> dict[str, dict[str, Any]]:
        return {"tower": {"pattern": tower_pattern(table)}, "sign": {"content": self.sign_content(table)},
                "jackpot_display": self.jackpot(table)}


class _Ticked:
    """Shared by the outputs: the loop's clock, and a tick of their own when no GPIO panel ticks the driver."""

    def __init__(self, driver: Any, loop: asyncio.AbstractEventLoop, ticked: bool,
                 retick: Callable[[], None] | None = None) -> None:
        self.driver, self.loop = driver, loop
        self.text = ""
        self.shows = 0
        self._handle: asyncio.Handle | None = None
        self._retick = retick if ticked else None  # the panel that ticks the driver: told of a new picture
        if not ticked:
            self._handle = loop.call_soon(self._tick)

    def _tick(self) -> None:
        now = self.loop.time()
        self.driver.update(now)
        self._schedule(now)

    def _schedule(self, now: float) -> None:
        """The next tick when the driver's picture next changes (its ``deadline``), at least every second; when
        a panel ticks the driver, the panel is told to look at its deadline again."""
        if self._handle is None:
            if self._retick is not None:
                self._retick()
            return
        self._handle.cancel()
        deadline = getattr(self.driver, "deadline", lambda: now + 0.05)()
        wait = IDLE_TICK_S if deadline is None else min(max(deadline - now, 0.001), IDLE_TICK_S)
        self._handle = self.loop.call_later(wait, self._tick)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()


class TowerOutput(_Ticked):
    """The tower light (drivers/gpio/tower.TowerLight): ``{"pattern": name}``; the lamps change at once."""

    def __init__(self, tower: Any, loop: asyncio.AbstractEventLoop, retick: Callable[[], None] | None = None) -> None:
        super().__init__(tower, loop, ticked=True, retick=retick)

    def show(self, state: Mapping[str, Any]) -> None:
        now = self.loop.time()
        self.driver.show(state["pattern"], now)
        self.driver.update(now)
        self._schedule(now)  # the panel's next tick: the new pattern's first blink
        self.text = state["pattern"]
        self.shows += 1


class SignOutput(_Ticked):
    """The LED sign (drivers/displays/sign.Sign): ``{"content": SignContent}``.

    ``show`` runs in the table's listeners, right after the journal commit: it
    only hands the content over, and the frame is drawn on the loop's next turn
    (``call_soon``), so that laying out and drawing never delays the next
    event's commit, and the sign never shows what is not yet committed.
    """

    _draw_handle: asyncio.Handle | None = None

    def show(self, state: Mapping[str, Any]) -> None:
        from drivers.displays.sign import limit_text

        content = state["content"]
        self.driver.show(content, self.loop.time())
        if self._draw_handle is None:
            self._draw_handle = self.loop.call_soon(self._draw)
        parts = [content.title] + [limit_text(limit, content) for limit in content.limits]
        if content.results:
            parts.append(content.results_label + " " + " ".join(
                f"{m.text}{'(' + m.colour + ')' if m.colour else ''}" for m in content.results))
        self.text = " | ".join(parts)
        self.shows += 1

    def _draw(self) -> None:
        self._draw_handle = None
        now = self.loop.time()
        self.driver.update(now)
        self._schedule(now)

    def close(self) -> None:
        if self._draw_handle is not None:
            self._draw_handle.cancel()
        super().close()


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
            self._schedule(now)
            self.text = f"{state['meter']} {state['state']} {self.driver.text_at(now)}"
        self.shows += 1
