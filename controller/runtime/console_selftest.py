"""The device self-test walk over the console, on the running daemon's own GPIO devices.

``SelftestDialog`` is a console ``Dialog``: it puts the table into
maintenance (the ``maintenance`` fault: all game input is refused with that
reason and journaled, the tower shows ``maintenance``), diverts the GPIO
panel's events to the walk, and drives ``drivers.selftest.walk`` one step at a
time: a question waits for the technician's y/n, an action is watched on each
console tick (the devices keep being ticked by the daemon's loop, so nothing
blocks the loop). When the walk ends or is aborted it gives the events back to
the game, clears the maintenance fault, redraws the displays and journals the
report with who ran it (a ``console`` record through ``Table.audit``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Generator

from controller.runtime.console import Turn
from controller.runtime.interfaces import Command
from controller.runtime.logs import log
from drivers.selftest import EventLog, Report, Step

if TYPE_CHECKING:
    from controller.runtime.devices import GpioPanel
    from controller.runtime.interfaces import TableHandle

YES = ("y", "yes", "j", "ja", "k", "kyllä")
NO = ("n", "no", "nej", "e", "ei")
MAINTENANCE = "maintenance"
ACTION_TIMEOUT_S = 20.0  # how long the walk watches for each press or puck, as in 'tablectl selftest'


class SelftestDialog:
    """One walk, started by ``who`` on the console; ``timeout`` seconds for each action."""

    def __init__(self, daemon: "TableHandle", panel: "GpioPanel", who: str, timeout: float | None = None,
                 clock: Callable[[], float] = time.monotonic, walk: Callable[..., Any] | None = None) -> None:
        self.daemon, self.panel, self.who, self.clock = daemon, panel, who, clock
        self.walk = walk  # the panel's kind's walk (DeviceKind.selftest)
        self.timeout = ACTION_TIMEOUT_S if timeout is None else timeout
        self.watcher = EventLog()
        self.steps: Generator[Step, bool | None, Report] | None = None
        self.question: Step | None = None
        self.report: Report | None = None

    @property
    def table(self) -> Any:
        return self.daemon.table

    # -- the Dialog protocol

    def begin(self, now: float) -> Turn:
        self.table.latch(MAINTENANCE, f"device self-test by {self.who} on the console")
        self.panel.divert = self.watcher
        if self.walk is None:
            raise ValueError("this device has no self-test walk")
        self.steps = self.walk(self.panel, self.watcher, self.clock, self.timeout)
        lines = [f"Device self-test by {self.who}: the table is in maintenance, game input is refused.",
                 "Answer y or n; type 'abort' to stop the walk."]
        return self._advance(None, lines)

    def answer(self, text: str, now: float) -> Turn:
        if MAINTENANCE not in self.table.faults:
            return self._cut_off()
        if self.question is None:
            return Turn(("Waiting for the device; type 'abort' to stop the walk.",))
        word = text.strip().lower()
        if word not in YES + NO:
            return Turn(("Please answer y or n.",), self._ask(self.question))
        self.question = None
        return self._advance(word in YES, [])

    def poll(self, now: float) -> Turn | None:
        if self.steps is None:
            return None
        if MAINTENANCE not in self.table.faults:
            return self._cut_off()
        if self.question is not None:
            return None
        turn = self._advance(None, [])
        return turn if turn.lines or turn.done or turn.ask else None

    def abort(self, now: float, why: str) -> Turn:
        if self.steps is not None:
            self.steps.close()
        lines = self._restore()
        self.table.audit(self.who, f"selftest aborted ({why})", False)
        return Turn(tuple(lines + [f"Self-test aborted ({why}); nothing was recorded as passed."]), done=True)

    def _cut_off(self) -> Turn:
        """Someone cleared ``maintenance`` (``faults clear``) mid-walk: the game has the table again, so stop."""
        if self.steps is not None:
            self.steps.close()
        lines = self._restore()
        self.table.audit(self.who, "selftest stopped: maintenance was cleared during the walk", False)
        return Turn(tuple(lines + ["Self-test stopped: 'maintenance' was cleared while it ran; the table plays."]),
                    done=True)

    # -- the walk

    @staticmethod
    def _ask(step: Step) -> str:
        return f"{step.text} [y/n]"

    def _advance(self, answer: bool | None, lines: list[str]) -> Turn:
        """Run the walk until it asks a question, waits for an event, or ends."""
        assert self.steps is not None
        while True:
            try:
                step = self.steps.send(answer)
            except StopIteration as end:
                return self._finish(end.value, lines)
            except Exception as exc:  # a device that fails mid-walk must not leave the table in maintenance
                log(logging.ERROR, "selftest failed", who=self.who, error=repr(exc))
                restored = self._restore()
                self.table.audit(self.who, f"selftest stopped by an error: {exc!r}"[:2000], False)
                return Turn(tuple(lines + [f"Self-test stopped by an error: {exc!r}"] + restored), done=True)
            answer = None
            if step.kind == "look":
                self.question = step
                return Turn(tuple(lines), self._ask(step))
            if step.kind == "wait":
                return Turn(tuple(lines))
            lines.extend(step.text.split("\n"))  # tell, do
            if (step.device, step.target) == ("tower", "legend"):  # lamp test over: show maintenance again
                self._redraw()

    def _finish(self, report: Report, lines: list[str]) -> Turn:
        self.steps = None
        self.report = report
        restored = self._restore()
        summary = report.lines()[-1]
        checks = "; ".join(c.line() for c in report.checks if not c.ok) or "every check passed"
        self.table.audit(self.who, f"{summary}: {checks}"[:2000], report.ok)
        return Turn(tuple(lines + ["", "Report:"] + ["  " + line for line in report.lines()] + restored
                          + ["The report is journaled."]), done=True)

    def _restore(self) -> list[str]:
        """Give the events back to the game, end maintenance, and redraw the tower and displays."""
        self.steps = None
        self.question = None
        self.panel.divert = None
        lines = []
        if MAINTENANCE in self.table.faults:
            answer = self.table.command(Command("clear_fault", {"name": MAINTENANCE, "reason": "self-test ended"},
                                                f"console:{self.who}"))
            lines.append("Maintenance ended: the table takes game input again." if answer == "done"
                         else f"Maintenance could not be ended: {answer}")
        self._redraw()
        return lines

    def _redraw(self) -> None:
        """The walk drew test lamps and pictures: show the table's state again."""
        self.daemon.redraw()
