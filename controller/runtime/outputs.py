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

from controller.language import ENGLISH, Language
from controller.runtime.interfaces import Output
from controller.runtime.journal import Record
from controller.runtime.faults import fault_shown
from controller.runtime.table_words import event_text, game_text, money, outcome_lines, outcome_parts, settlement_totals


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
                 minor_unit: int = 100, lang: Language = ENGLISH) -> None:
        self.stream = stream or sys.stdout
        self.lang = lang
        self.quiet = quiet
        self.currency, self.minor_unit = currency, minor_unit
        self.settlements: list[Mapping[str, Any]] = []  # the open round's, so far
        self.outcome: Mapping[str, Any] | None = None
        self.rounds = self.drop = self.win = 0  # this run's settled rounds, total staked, the house's net

    def money(self, amount: int) -> str:
        return money(amount, self.minor_unit, self.currency, self.lang)

    def __call__(self, table: Any, records: Sequence[Record]) -> None:
        for record in records:
            if record.kind == "event":
                self._event(record)
                continue
            line = self.shown(record, self.minor_unit, self.currency, self.lang)
            if line and not (self.quiet and record.kind in ("reject", "refuse", "command", "meter", "shoe")):
                self.stream.write(f"#{record.seq} r{record.round} {line}\n")
        if not records and table.faults:
            names = ", ".join(fault_shown(name, self.lang) for name in sorted(table.faults))
            self.stream.write("#- " + self.lang.t("FAULT latched: {names} (input stopped where it is affected)",
                                                   names=names) + "\n")
        self.stream.flush()

    @staticmethod
    def shown(record: Record, minor_unit: int = 100, currency: str = "", lang: Language = ENGLISH) -> str:
        """The text of the record's own line on the live terminal (after ``#seq rN``)."""
        if record.kind != "event":
            return Terminal.line(record, minor_unit, currency, lang)
        body = record.body
        parts = [event_text(body["event"], minor_unit, currency, lang)]
        if "confirmed_by" in body:
            parts[0] += " " + lang.t("(confirmed by {who})", who=body["confirmed_by"])
        parts += [f"-> {game_text(effect['prompt'], lang, minor_unit, currency)}"
                  for effect in body.get("effects") or [] if "prompt" in effect]
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
                alerts.append("   " + self.lang.t("ALERT {kind}: {text}", kind=self.lang.word(effect["alert"]),
                                                     text=game_text(effect["text"], self.lang, self.minor_unit,
                                                                    self.currency)))
        if not self.quiet:
            self.stream.write(f"#{record.seq} r{record.round} "
                              f"{self.shown(record, self.minor_unit, self.currency, self.lang)}\n")
        for alert in alerts:
            self.stream.write(alert + "\n")
        if body.get("complete"):
            self._round_end(record.round)

    def _round_end(self, number: int) -> None:
        write, t = self.stream.write, self.lang.t
        head, hands = outcome_parts(self.outcome or {}, self.lang)
        write("   " + t("round {number}: {outcome}", number=number, outcome="; ".join(head) or t("settled")) + "\n")
        totals = settlement_totals(self.settlements, self.lang)
        drop = win = 0
        for seat in sorted(set(hands) | set(totals)):
            staked, net, what = totals.get(seat, (0, 0, []))
            paid = f"{self.money(net)} ({', '.join(what)})" if what else t("nothing staked")
            write("     " + t("box {box}: {hands}", box=seat, hands=(f"{hands[seat]}: " if seat in hands else "")
                                + paid) + "\n")
            drop, win = drop + staked, win - net
        write("   " + t("round {number}: drop {drop}, win {win}", number=number, drop=self.money(drop),
                        win=self.money(win)) + "\n")
        self.rounds, self.drop, self.win = self.rounds + 1, self.drop + drop, self.win + win
        self.settlements, self.outcome = [], None

    def session(self, journal: str) -> str:
        """The run's summary: rounds, drop, win, hold and where its journal is."""
        hold = self.lang.percent(self.win, self.drop) if self.drop else "-"
        t = self.lang.t
        rounds = t("1 round") if self.rounds == 1 else t("{count} rounds", count=self.rounds)
        return t("session: {rounds}, drop {drop}, win {win}, hold {hold}; journal {journal}", rounds=rounds,
                 drop=self.money(self.drop), win=self.money(self.win), hold=hold, journal=journal)

    @staticmethod
    def line(record: Record, minor_unit: int = 100, currency: str = "", lang: Language = ENGLISH) -> str:
        """One record as one line (``journal tail``, the console), in ``lang``."""
        b, t, w = record.body, lang.t, lang.word
        if record.kind == "event":
            parts = [event_text(b["event"], minor_unit, currency, lang)]
            for effect in b["effects"]:
                if "prompt" in effect:
                    parts.append(f"-> {game_text(effect['prompt'], lang, minor_unit, currency)}")
                elif "outcome" in effect:
                    parts.append(t("result: {outcome}", outcome="; ".join(outcome_lines(effect["outcome"], lang))))
                elif "settlement" in effect:
                    s = effect["settlement"]
                    net = f" {money(s['net'], minor_unit, currency, lang)}" if "net" in s else ""
                    odds = " " + t("at {odds}", odds=f"{s['odds'][0]}:{s['odds'][1]}") if "odds" in s else ""
                    parts.append(t("box {box} {spot} {result}", box=s["seat"], spot=lang.spot(s["spot"]),
                                   result=w(s["result"])) + f"{odds}{net}")
                elif "alert" in effect:
                    parts.append(t("ALERT {kind}: {text}", kind=w(effect["alert"]),
                                   text=game_text(effect["text"], lang, minor_unit, currency)))
            if "confirmed_by" in b:
                parts[0] += " " + t("(confirmed by {who})", who=b["confirmed_by"])
            return "; ".join(parts)
        if record.kind in ("reject", "refuse"):
            return t("REJECT {event}: {reason}" if record.kind == "reject" else "REFUSE {event}: {reason}",
                     event=event_text(b["event"], minor_unit, currency, lang),
                     reason=game_text(b["reason"], lang, minor_unit, currency))
        if record.kind == "round_open":
            carried = [c for c in b.get("carried") or [] if c.get("spot") != "puck"]
            puck = next((c for c in b.get("carried") or [] if c.get("spot") == "puck"), None)
            notes = ([t("1 stake carried") if len(carried) == 1 else t("{count} stakes carried", count=len(carried))]
                     if carried else []) + ([t("burn puck last at box {box}", box=puck["seat"])] if puck else [])
            return "=== " + t("round {number} opens: place your bets", number=record.round) + \
                (f" ({'; '.join(notes)})" if notes else "")
        if record.kind == "meter":
            return t("meter {meter} {kind} {amount} -> {value}", meter=b["meter"], kind=w(b["kind"]),
                     amount=money(b["amount"], minor_unit, currency, lang), value=money(b["value"], minor_unit, currency, lang))
        if record.kind == "fault":
            return t("FAULT {name}: {text}", name=fault_shown(str(b["name"]), lang), text=lang.text(b["text"]))
        if record.kind == "clear":
            return t("CLEAR {names} by {who}", names=", ".join(b["names"]), who=b["by"])
        if record.kind == "command":
            line = t("command {command} by {who}", command=b["command"], who=b["by"])
            refused = t("refused: {reason}", reason=game_text(b["refused"], lang, minor_unit, currency)) \
                if "refused" in b else ""
            return line + (" " + refused if refused else "")
        if record.kind == "shoe":
            return t("shoe: {note}", note=w(b["note"])) + (f" {b['shoe']}" if "shoe" in b else "")
        if record.kind == "pending":
            guess = " ".join("?" if v is None else str(v) for v in b["values"])
            if "refused" in b:
                return t("REFUSE unsure {source} read [{guess}]: {reason}", source=b["source"], guess=guess,
                         reason=game_text(b["refused"], lang, minor_unit, currency))
            return t("{source} read [{guess}] -> {prompt}", source=b["source"], guess=guess,
                     prompt=game_text(b["prompt"], lang, minor_unit, currency))
        if record.kind == "start":
            given = b.get("recovered")
            recovered: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
            line = t("start: table {table} {game} {variant}, round {round}, {replayed} events replayed",
                     table=b["table"], game=b["game"], variant=b["variant"], round=recovered.get("round", record.round),
                     replayed=recovered.get("replayed", 0))
            faults = [fault_shown(str(name), lang) for name in recovered.get("faults") or []]
            return line + (t(", latched: {faults}", faults=", ".join(faults)) if faults else "")
        return record.kind
