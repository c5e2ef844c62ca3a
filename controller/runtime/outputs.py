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

from controller.runtime.interfaces import Output
from controller.runtime.journal import Record
from controller.runtime.table_words import event_text, money, outcome_lines, outcome_parts, settlement_totals


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
    """A display rendered as one text line per new state (the sign, tower and jackpot display on the terminal).

    The same words paced and ``--fast``: the line comes from the table's view, whichever device (a luma dummy,
    a real display, none) shows it.
    """

    def __init__(self, name: str, stream: TextIO | None = None) -> None:
        self.name = name
        self.stream = stream or sys.stdout
        self.seq = 0  # the journal sequence number the state was derived from (for the write-ahead tests)

    def show(self, state: Mapping[str, Any]) -> None:
        self.stream.write(f"  [{self.name} @{self.seq}] {self.text(self.name, state)}\n")
        self.stream.flush()

    @staticmethod
    def text(name: str, state: Mapping[str, Any]) -> str:
        if name == "tower":  # the pattern's name in the tower legend (docs/devices/tower-light.md)
            return str(state.get("pattern", ""))
        if name == "jackpot_display":
            return " ".join(f"{meter}={value}" for meter, value in state.get("meters", {}).items()) or "(no meters)"
        return " | ".join(state.get("lines", []))


class Terminal:
    """Prints the table as a pit supervisor beside it wants to read it (a listener: committed state only).

    One line per record: the event in the table's currency and the croupier's next prompt. When a round
    is settled: its outcome (the dealer or the result, each box with every hand and total), each box's
    settlements summed, and the round's drop and win. ``session()`` is the summary at the end.
    """

    def __init__(self, stream: TextIO | None = None, quiet: bool = False, currency: str = "",
                 minor_unit: int = 100) -> None:
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.currency, self.minor_unit = currency, minor_unit
        self.settlements: list[Mapping[str, Any]] = []  # the open round's, so far
        self.outcome: Mapping[str, Any] | None = None
        self.rounds = self.drop = self.win = 0  # this run's settled rounds, total staked, the house's net

    def money(self, amount: int) -> str:
        return money(amount, self.minor_unit, self.currency)

    def __call__(self, table: Any, records: Sequence[Record]) -> None:
        for record in records:
            if record.kind == "event":
                self._event(record)
                continue
            line = self.shown(record, self.minor_unit, self.currency)
            if line and not (self.quiet and record.kind in ("reject", "refuse", "command", "meter", "shoe")):
                self.stream.write(f"#{record.seq} r{record.round} {line}\n")
        if not records and table.faults:
            names = ", ".join(sorted(table.faults))
            self.stream.write(f"#- FAULT latched: {names} (input stopped where it is affected)\n")
        self.stream.flush()

    @staticmethod
    def shown(record: Record, minor_unit: int = 100, currency: str = "") -> str:
        """The text of the record's own line on the live terminal (after ``#seq rN``)."""
        if record.kind != "event":
            return Terminal.line(record, minor_unit, currency)
        body = record.body
        parts = [event_text(body["event"], minor_unit, currency)]
        if "confirmed_by" in body:
            parts[0] += f" (confirmed by {body['confirmed_by']})"
        parts += [f"-> {effect['prompt']}" for effect in body.get("effects") or [] if "prompt" in effect]
        return "; ".join(parts)

    def _event(self, record: Record) -> None:
        body = record.body
        alerts = []
        for effect in body.get("effects") or []:
            if "settlement" in effect:
                self.settlements.append(effect["settlement"])
            elif "outcome" in effect:
                self.outcome = effect["outcome"]
            elif "alert" in effect:
                alerts.append(f"   ALERT {effect['alert']}: {effect['text']}")
        if not self.quiet:
            self.stream.write(f"#{record.seq} r{record.round} {self.shown(record, self.minor_unit, self.currency)}\n")
        for alert in alerts:
            self.stream.write(alert + "\n")
        if body.get("complete"):
            self._round_end(record.round)

    def _round_end(self, number: int) -> None:
        write = self.stream.write
        head, hands = outcome_parts(self.outcome or {})
        write(f"   round {number}: {'; '.join(head) or 'settled'}\n")
        totals = settlement_totals(self.settlements)
        drop = win = 0
        for seat in sorted(set(hands) | set(totals)):
            staked, net, what = totals.get(seat, (0, 0, []))
            paid = f"{self.money(net)} ({', '.join(what)})" if what else "nothing staked"
            write(f"     box {seat}: " + (f"{hands[seat]}: " if seat in hands else "") + paid + "\n")
            drop, win = drop + staked, win - net
        write(f"   round {number}: drop {self.money(drop)}, win {self.money(win)}\n")
        self.rounds, self.drop, self.win = self.rounds + 1, self.drop + drop, self.win + win
        self.settlements, self.outcome = [], None

    def session(self, journal: str) -> str:
        """The run's summary: rounds, drop, win, hold and where its journal is."""
        hold = f"{self.win * 100 / self.drop:.1f} %" if self.drop else "-"
        rounds = f"{self.rounds} round{'' if self.rounds == 1 else 's'}"
        return (f"session: {rounds}, drop {self.money(self.drop)}, win {self.money(self.win)}, "
                f"hold {hold}; journal {journal}")

    @staticmethod
    def line(record: Record, minor_unit: int = 100, currency: str = "") -> str:
        """One record as one line (``journal tail``, the console)."""
        b = record.body
        if record.kind == "event":
            parts = [event_text(b["event"], minor_unit, currency)]
            for effect in b["effects"]:
                if "prompt" in effect:
                    parts.append(f"-> {effect['prompt']}")
                elif "outcome" in effect:
                    parts.append("result: " + "; ".join(outcome_lines(effect["outcome"])))
                elif "settlement" in effect:
                    s = effect["settlement"]
                    net = f" {money(s['net'], minor_unit, currency)}" if "net" in s else ""
                    odds = f" at {s['odds'][0]}:{s['odds'][1]}" if "odds" in s else ""
                    parts.append(f"box {s['seat']} {s['spot']} {s['result']}{odds}{net}")
                elif "alert" in effect:
                    parts.append(f"ALERT {effect['alert']}: {effect['text']}")
            if "confirmed_by" in b:
                parts[0] += f" (confirmed by {b['confirmed_by']})"
            return "; ".join(parts)
        if record.kind in ("reject", "refuse"):
            return f"{record.kind.upper()} {event_text(b['event'], minor_unit, currency)}: {b['reason']}"
        if record.kind == "round_open":
            carried = [c for c in b.get("carried") or [] if c.get("spot") != "puck"]
            puck = next((c for c in b.get("carried") or [] if c.get("spot") == "puck"), None)
            notes = ([f"{len(carried)} stake{'s' if len(carried) != 1 else ''} carried"] if carried else []) + \
                ([f"burn puck last at box {puck['seat']}"] if puck else [])
            return f"=== round {record.round} opens: place your bets" + (f" ({'; '.join(notes)})" if notes else "")
        if record.kind == "meter":
            return (f"meter {b['meter']} {b['kind']} {money(b['amount'], minor_unit, currency)} -> "
                    f"{money(b['value'], minor_unit, currency)}")
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
