"""Outputs get a desired state and are rate-limited; text renderers stand in for the displays.

``OutputSlot`` keeps the latest desired state of one output and shows it at
most once per interval (the latest state wins; an unchanged state is not sent
again). ``TextOutput`` is the simulated sign, tower light or jackpot display:
it prints its state as one line. ``Terminal`` prints the round as it goes:
every committed record with its sequence number, the prompts, the outcome and
the settlements. Both are listeners of the table: they only ever see
committed state.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any, Mapping, Sequence, TextIO

from controller.events import describe, event_from_json
from controller.runtime.interfaces import Output
from controller.runtime.journal import Record


class OutputSlot:
    """Desired state of one output, shown at most every ``interval_s`` seconds (latest wins)."""

    def __init__(self, name: str, output: Output, interval_s: float, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.name = name
        self.output = output
        self.interval_s = interval_s
        self.loop = loop
        self.desired: Mapping[str, Any] | None = None
        self.shown: Mapping[str, Any] | None = None
        self.last_show = -1e9
        self.scheduled = False
        self.shows = 0
        self.failures = 0

    def set(self, state: Mapping[str, Any]) -> None:
        self.desired = state
        if state == self.shown:
            return
        now = time.monotonic()
        wait = self.last_show + self.interval_s - now
        if wait <= 0 or self.loop is None:
            self._flush()
        elif not self.scheduled:
            self.scheduled = True
            self.loop.call_later(wait, self._flush)

    def _flush(self) -> None:
        self.scheduled = False
        if self.desired is None or self.desired == self.shown:
            return
        try:
            self.output.show(self.desired)
        except Exception:  # an output must never take the loop down; the health counters say it failed
            self.failures += 1
            return
        self.shown = self.desired
        self.last_show = time.monotonic()
        self.shows += 1


class TextOutput:
    """A display rendered as one text line per new state (the simulated sign, tower and jackpot display)."""

    def __init__(self, name: str, stream: TextIO | None = None) -> None:
        self.name = name
        self.stream = stream or sys.stdout
        self.seq = 0  # the journal sequence number the state was derived from (for the write-ahead tests)

    def show(self, state: Mapping[str, Any]) -> None:
        if self.name == "tower":
            text = " ".join([str(state.get("pattern", ""))] + [f"{lamp}:{state[lamp]}" for lamp in
                                                              ("green", "amber", "red", "buzzer") if lamp in state])
        elif self.name == "jackpot_display":
            text = " ".join(f"{name}={value}" for name, value in state.get("meters", {}).items()) or "(no meters)"
        else:
            text = " | ".join(state.get("lines", []))
        self.stream.write(f"  [{self.name} @{self.seq}] {text}\n")
        self.stream.flush()


class Terminal:
    """Prints each committed record of the table as the croupier would want to read it."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.quiet = quiet

    def __call__(self, table: Any, records: Sequence[Record]) -> None:
        for record in records:
            line = self.line(record)
            if line and not (self.quiet and record.kind in ("event",) and "settle" not in line):
                self.stream.write(f"#{record.seq} r{record.round} {line}\n")
        if not records and table.faults:
            names = ", ".join(sorted(table.faults))
            self.stream.write(f"#- FAULT latched: {names} (input stopped where it is affected)\n")
        self.stream.flush()

    @staticmethod
    def line(record: Record) -> str:
        b = record.body
        if record.kind == "event":
            parts = [describe(event_from_json(b["event"]))]
            for effect in b["effects"]:
                if "prompt" in effect:
                    parts.append(f"-> {effect['prompt']}")
                elif "outcome" in effect:
                    parts.append("OUTCOME " + " ".join(f"{k}={v}" for k, v in effect["outcome"].items()
                                                       if not isinstance(v, (list, dict))))
                elif "settlement" in effect:
                    s = effect["settlement"]
                    net = f" net {s['net']}" if "net" in s else ""
                    odds = f" at {s['odds'][0]}:{s['odds'][1]}" if "odds" in s else ""
                    parts.append(f"settle box {s['seat']} {s['spot']} {s['result']}{odds}{net}")
                elif "alert" in effect:
                    parts.append(f"ALERT {effect['alert']}: {effect['text']}")
            if "confirmed_by" in b:
                parts[0] += f" (confirmed by {b['confirmed_by']})"
            return "; ".join(parts)
        if record.kind in ("reject", "refuse"):
            return f"{record.kind.upper()} {describe(event_from_json(b['event']))}: {b['reason']}"
        if record.kind == "round_open":
            carried = f" ({len(b['carried'])} stakes carried)" if b.get("carried") else ""
            return f"=== round {record.round} opens: place your bets{carried}"
        if record.kind == "meter":
            return f"meter {b['meter']} {b['kind']} {b['amount']} -> {b['value']}"
        if record.kind == "fault":
            return f"FAULT {b['name']}: {b['text']}"
        if record.kind == "clear":
            return f"CLEAR {', '.join(b['names'])} by {b['by']}"
        if record.kind == "command":
            return f"command {b['command']} by {b['by']}" + (f" refused: {b['refused']}" if "refused" in b else "")
        if record.kind == "shoe":
            return f"shoe: {b['note']}" + (f" {b['shoe']}" if "shoe" in b else "")
        if record.kind == "pending":
            guess = " ".join("?" if v is None else str(v) for v in b["values"])
            if "refused" in b:
                return f"REFUSE unsure {b['source']} read [{guess}]: {b['refused']}"
            return f"{b['source']} read [{guess}] -> {b['prompt']}"
        if record.kind == "start":
            return f"start: table {b['table']} {b['game']} {b['variant']}, recovered {b['recovered']}"
        return record.kind
