"""What the technician console sees and does in the running daemon, and the daemon's side services.

``DaemonControl`` implements the console's ``TableControl`` on top of the
running table (the ``TableHandle`` protocol of interfaces.py, not the daemon): reads come from committed state and the journal; every change
(clear a fault, confirm or correct a jackpot) goes through ``Table.command``,
which journals it with who did it before it takes effect. ``audit`` journals
console logins, failures and privileged commands as ``console`` records.

``Services`` starts what runs beside the table on the same loop: the power-up
code check, the console (serial port and Unix socket), and the systemd
notification and watchdog, pinged only while ``Daemon.health()`` is ok.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from controller import __version__
from controller.cards import Card
from controller.runtime.audit import verify
from controller.runtime.auth import ConsoleUser, Lockout
from controller.runtime.console_server import ConsoleHost, SerialConsole, serve_unix
from controller.runtime.interfaces import Command
from controller.runtime.journal import Record
from controller.runtime.faults import fault_shown
from controller.runtime.logs import log
from controller.runtime.outputs import Terminal
from controller.runtime.selfcheck import check_code, code_digest
from controller.language import ENGLISH, Language, language
from controller.runtime.table_words import event_text, game_text, money, outcome_short
from controller.runtime.watchdog import Notifier, Watchdog

if TYPE_CHECKING:
    from controller.runtime.console_selftest import SelftestDialog
    from controller.runtime.interfaces import TableHandle
    from controller.runtime.table import Table


def _unlink(path: str) -> None:
    """The console socket goes away with the daemon (a stale one would look like a running table)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def login_history(table: "Table | None", seconds: float) -> list[tuple[str, float, str]]:
    """The journaled console logins of the last ``seconds``: (name, seconds ago, failed | locked | ok), oldest
    first, for the lockout to go on where it was before a restart."""
    import time

    if table is None or table.journal.broken:
        return []
    now_ns = time.time_ns()
    out: list[tuple[str, float, str]] = []
    for record in table.journal.console_records_since(now_ns - int(seconds * 1e9)):
        who, what = record.body.get("who"), str(record.body.get("what", ""))
        if not isinstance(who, str):
            continue
        age = max(0.0, (now_ns - record.wall_ns) / 1e9)
        if what.startswith("failed login"):
            out.append((who, age, "locked" if "locked for" in what else "failed"))
        elif what.startswith("login as"):
            out.append((who, age, "ok"))
    return out


class DaemonControl:
    """The console's view of a running daemon. Every method runs on the loop."""

    def __init__(self, daemon: "TableHandle", code_check: str = "not checked") -> None:
        self.daemon = daemon
        self.code_check = code_check

    @property
    def table(self) -> "Table":
        return self.daemon.table

    @property
    def lang(self) -> Language:
        """The table's language (``[table] language``): the console's words are in it."""
        return language(getattr(self.daemon.config, "language", "en"))

    def _run(self, name: str, args: dict[str, Any], who: str) -> list[str]:
        answer = self.table.command(Command(name, args, f"console:{who}"))
        if answer != "done":
            raise ValueError(answer)
        return [self.lang.t("Done (journaled).")]

    # -- reads

    def status(self) -> list[str]:
        health = self.daemon.health()
        config, t = self.daemon.config, self.lang.t
        state = t("accepting input") if health["accepting"] else t("STOPPED (a fault stops all input)")
        return [t("Table {table}: {game} {variant}, round {round}, {state}", table=config.table_id, game=config.spec.id,
                  variant=config.round_config.variant, round=health["round"], state=state),
                t("Waiting for: {waiting}", waiting=self.lang.text(self.table.waiting_for())),
                t("Journal: {count} records, {state}; faults: {faults}", count=health["seq"],
                  state=t("ok") if health["journal_ok"] else t("CANNOT COMMIT"),
                  faults=", ".join(fault_shown(f, self.lang) for f in health["faults"]) or t("none")),
                t("Health: {state}; loop lag {lag} ms", state=t("ok") if health["ok"] else t("NOT OK"),
                  lag=health["loop_lag_ms"])]

    def devices(self) -> list[str]:
        lines = []
        for name, data in self.daemon.health()["devices"].items():
            counters = ", ".join(f"{k} {v}" for k, v in data.items() if k != "ok")
            lines.append(f"{name}: {self.lang.t('ok') if data.get('ok') else self.lang.t('NOT OK')}"
                         + (f"; {counters}" if counters else ""))
        for name, data in self.table.summary()["sources"].items():
            lines.append(self.lang.t("{name} input: {counters}", name=name,
                                     counters=", ".join(f"{k} {v}" for k, v in data.items())))
        return lines or [self.lang.t("no devices")]

    def round(self) -> list[str]:
        table = self.table
        lang = self.lang
        lines = [lang.t("Round {number}: {waiting}", number=table.round_no, waiting=lang.text(table.waiting_for()))]
        config = self.daemon.config
        for record in table.journal.records(kinds=("event", "reject"), round_=table.round_no):
            text = event_text(record.body.get("event", {}), config.minor_unit, config.currency, lang)
            lines.append(("  " if record.kind == "event" else "  " + lang.t("REFUSED") + " ") + text
                         + (f": {game_text(str(record.body.get('reason')), lang, config.minor_unit, config.currency)}"
                            if record.kind == "reject" else ""))
        return lines

    def history(self, count: int) -> list[str]:
        table = self.table
        first = max(1, table.round_no - count)
        lines = []
        for number in range(first, table.round_no):
            outcome = None
            settlements = []
            for record in table.journal.records(kinds=("event",), round_=number):
                for effect in record.body.get("effects") or []:
                    if "outcome" in effect:
                        outcome = effect["outcome"]
                    elif "settlement" in effect:
                        settlements.append(effect["settlement"])
            config, lang = self.daemon.config, self.lang
            summary = outcome_short(outcome, lang) if outcome else lang.t("no outcome")
            net = -sum(int(s.get("net") or 0) for s in settlements)
            lines.append(lang.t("Round {number}: {summary}; {count} settlements, house {amount}", number=number,
                                summary=summary, count=len(settlements),
                                amount=money(net, config.minor_unit, config.currency, lang)))
        return lines or [self.lang.t("no settled rounds yet")]

    def limits(self) -> list[str]:
        config, lang = self.daemon.config, self.lang
        limits = config.round_config.get("limits", {}) or {}
        lines = [lang.t("{spot}: {low} to {high}", spot=lang.spot(spot),
                        low=money(low, config.minor_unit, config.currency, lang),
                        high=money(high, config.minor_unit, config.currency, lang) if high is not None
                        else lang.t("no maximum"))
                 for spot, (low, high) in limits.items()]
        return lines or [lang.t("no per-spot limits configured (the game's own rules apply)")]

    def jackpot(self) -> list[str]:
        meters = self.table.meters.to_json()
        minor = self.daemon.config.minor_unit
        lines = []
        for name, state in meters.items():
            extra = ", ".join(f"{k} {v}" for k, v in state.items() if k != "value")
            lines.append(f"{name}: {money(int(state['value']), minor, self.daemon.config.currency, self.lang)}"
                         + (f" ({extra})" if extra else ""))
        return lines or [self.lang.t("no jackpot meters at this table")]

    def faults(self) -> list[str]:
        return [f"{fault_shown(f.name, self.lang)}: {self.lang.text(f.text)}" for f in self.table.faults.values()] \
            or [self.lang.t("no faults")]

    def journal_verify(self) -> list[str]:
        report = verify(self.table.journal)
        t = self.lang.t
        if report["ok"]:
            return [t("Journal ok: {records} records, chain intact, {rounds} rounds settled, meters agree.",
                      records=report["records"], rounds=report["rounds_settled"])]
        return [t("JOURNAL PROBLEMS:")] + [f"  {p}" for p in report["problems"][:20]]

    def journal_tail(self, count: int) -> list[str]:
        journal = self.table.journal
        config = self.daemon.config
        return [_record_line(r, config.minor_unit, config.currency, language(getattr(config, "language", "en")))
                for r in journal.records(since=max(0, journal.last_seq - count))]

    def config_show(self) -> list[str]:
        config = self.daemon.config
        lines = [f"source: {config.source}", f"table: {config.table_id}, game {config.spec.id} "
                 f"{config.round_config.variant}, currency {config.currency} (minor unit 1/{config.minor_unit})",
                 f"journal: {config.journal_path}"]
        lines += [f"option {k} = {json.dumps(v)}" for k, v in config.options.items()]
        lines += [f"device {name}: {d.driver}" for name, d in config.devices.items()]
        lines += [f"jackpot {j.name}: base {j.base}, contribution {j.contribution}" for j in config.jackpots]
        return lines

    def config_check(self) -> list[str]:
        from controller.config import ConfigError, load

        try:
            load(config_path(self.daemon.config))
        except ConfigError as exc:
            return [str(p) for p in exc.problems]
        except OSError as exc:
            return [f"{self.daemon.config.source}: cannot read: {exc.strerror or exc}"]
        return [self.lang.t("The configuration has no problems:"), f"  {self.daemon.config.source}"]

    def version(self) -> list[str]:
        return [f"tablectl {__version__}; code {code_digest()}; self-check: {self.code_check}"]

    # -- changes (journaled by Table.command)

    def jackpot_correct(self, meter: str, amount: int, reason: str, who: str) -> list[str]:
        return self._run("correct_meter", {"meter": meter, "value": amount, "reason": reason}, who)

    def jackpot_day_end(self, drop: str, into: str, who: str) -> list[str]:
        return self._run("day_end", {"meter": drop, "into": into}, who)

    def jackpot_confirm(self, meter: str, who: str) -> list[str]:
        return self._run("confirm_jackpot", {"meter": meter}, who)

    def confirm_result(self, values: list[int], colors: list[str] | None, who: str) -> list[str]:
        args: dict[str, Any] = {"values": values}
        if colors:
            args["colors"] = colors
        return self._run("confirm_result", args, who)

    def decisions(self) -> list[str]:
        """The decisions the round offers now, as the dealer terminal shows them (controller/games/decisions)."""
        from controller.runtime.decision_keys import legal_now

        answer = legal_now(self.table)
        t = self.lang.t
        lines = [t("Waiting for: {waiting}", waiting=self.lang.text(self.table.waiting_for()))]
        for seat in answer.seats():
            words: list[str] = []
            for d in answer.for_seat(seat):
                choices = ([d.action] if d.plain else []) + [f"{d.action} {m}x" for m in d.multiples]
                these = [c + (" [amount=N]" if d.amount and d.least is None else "") for c in choices]
                if d.cards is not None:
                    count = d.cards.least if d.cards.least == d.cards.most else f"{d.cards.least}-{d.cards.most}"
                    order = f"; {d.cards.order}" if d.cards.order else ""
                    these.append(f"{d.action} cards=C,C.. ({count} of {' '.join(map(str, d.cards.cards))}{order})")
                elif d.fixed is not None:
                    these.append(f"{d.action} (amount {d.fixed})")
                elif d.least is not None:
                    these.append(f"{d.action} amount={d.least}..{d.most}")
                words.extend(w + (f" player={d.player}" if d.player else "") for w in these)
            lines.append("  " + t("box {box}: {hands}", box=seat, hands=", ".join(words)))
        if not answer.decisions:
            lines.append("  " + t("no decision is waiting"))
        return lines

    def act(self, seat: int, action: str, multiple: int | None, amount: int | None, who: str,
            cards: Sequence[Card] | None = None, player: str | None = None) -> list[str]:
        """Enter one of the offered decisions as an ``action`` event (source ``console:WHO``)."""
        from controller.runtime.decision_keys import legal_now

        decision = legal_now(self.table).find(seat, action, player)
        if decision is None:
            whose = f"box {seat}" + (f" ({player})" if player else "")
            raise ValueError(f"{action} is not a decision of {whose} now (type 'act' for the decisions)")
        event = decision.event(multiple, amount, cards)
        answer = self.table.submit(f"console:{who}", event)
        if answer != "accepted":
            record = self.table.journal.last("reject" if answer == "rejected" else "refuse")
            raise ValueError(record.body.get("reason", answer) if record is not None else answer)
        t = self.lang.t
        return [t("Done (journaled)."), t("Waiting for: {waiting}", waiting=self.lang.text(self.table.waiting_for()))]

    def clear_fault(self, name: str, who: str) -> list[str]:
        return self._run("clear_fault", {"name": name, "reason": "console"}, who)

    def _round_played(self) -> bool:
        """Something was played in this round: the burn puck sensed where it lies between rounds is not play."""
        if not self.table.round_events:
            return False
        records = self.table.journal.records(kinds=("event", "reject"), round_=self.table.round_no)
        return any(r.kind != "event" or r.body.get("event", {}).get("type") != "puck" for r in records)

    def selftest(self, who: str) -> "list[str] | SelftestDialog":
        """The device walk (a console dialog) on a table with GPIO devices; else the checks of the running table."""
        panel = self.daemon.panel
        if panel is not None:
            if self._round_played():
                raise ValueError("a round is open: run the self-test between rounds")
            if any(f.kind == "maintenance" for f in self.table.faults.values()):
                raise ValueError("a self-test is already running (or was cut off: 'faults clear maintenance')")
            from controller.runtime.console_selftest import SelftestDialog  # the walk's drivers: only when asked

            return SelftestDialog(self.daemon, panel, who, walk=self.daemon.walk)
        health = self.daemon.health()
        t = self.lang.t
        lines = [t("Self-check by {who}:", who=who)]
        for name, data in health["devices"].items():
            lines.append("  " + t("device {name}: {state}", name=name, state=t("ok") if data.get("ok") else t("NOT OK")))
        lines += ["  " + line for line in self.journal_verify()]
        lines.append("  " + t("code: {state}", state=self.code_check))
        lines.append(t("This table has no GPIO devices (no [devices.gpio] pin map), so there is no lamp, button or "
                       "puck walk; 'tablectl selftest PINMAP' walks a pin map (docs/devices/selftest.md)."))
        return lines

    def calibrate(self, device: str, who: str) -> list[str]:
        target = self.daemon.devices.get(device)
        if target is None:
            raise ValueError(f"no device named {device!r} (devices: {', '.join(self.daemon.devices) or 'none'})")
        method: Callable[[], Any] | None = getattr(target, "calibrate", None)
        if method is None:
            raise ValueError(f"{device} has nothing to calibrate")
        return [str(line) for line in (method() or ["calibrated"])]

    def audit(self, who: str | None, what: str, ok: bool) -> None:
        self.table.audit(who, what, ok)


def _record_line(record: Record, minor_unit: int = 100, currency: str = "", lang: Language = ENGLISH) -> str:
    when = time.strftime("%H:%M:%S", time.gmtime(record.wall_ns / 1e9))
    return f"#{record.seq} {when} r{record.round} {Terminal.line(record, minor_unit, currency, lang)}"


def config_path(config: Any) -> Path:
    return Path(config.source)


def console_users(config: Any) -> dict[str, ConsoleUser]:
    users = config.console.get("users", {}) or {}
    return {name: ConsoleUser(name, entry["role"], entry["pin"]) for name, entry in users.items()}


class Services:
    """The code check, the console and the systemd watchdog of one daemon."""

    def __init__(self, daemon: "TableHandle", environ: dict[str, str] | None = None,
                 lockout: Lockout | None = None) -> None:
        self.daemon = daemon
        self.lockout = lockout  # the failed-PIN book the console shares with the dealer terminal
        self.notifier = Notifier(environ)
        self.watchdog = Watchdog(self.notifier, self._healthy)
        self.control = DaemonControl(daemon)
        self._closers: list[Callable[[], Any]] = []
        self._host: ConsoleHost | None = None

    def check_code(self) -> None:
        """Before the table opens: a stored digest that differs latches ``code_digest`` (all input stops)."""
        stored = self.daemon.config.code_digest
        if stored is None:
            self.control.code_check = "no stored digest configured"
            return
        result = check_code(Path(stored))
        self.control.code_check = result.message
        self.daemon.table.audit("selfcheck", f"power-up code check: {result.message}", result.ok)
        if not result.ok:
            self.daemon.table.latch("code_digest", f"{result.message} (now {result.actual})")

    async def start(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[Any]]:
        tasks: list[asyncio.Task[Any]] = []
        console = self.daemon.config.console
        if console.get("enabled", False):
            host = ConsoleHost(console_users(self.daemon.config), self.control, loop.time,
                               idle_seconds=60.0 * float(console.get("idle_minutes", 10)),
                               lockout=self.lockout)
            host.lockout.restore(login_history(self.daemon.table, host.lockout.lock_seconds), loop.time())
            self._host = host
            socket_path = console.get("socket") or os.environ.get("TABLECTL_CONSOLE")
            port = console.get("port")
            if self.daemon.simulate:  # every device emulated: the console socket sits beside the journal, no UART
                socket_path = str(Path(self.daemon.config.journal_path).with_name("console.sock"))
                port = None
            if socket_path:
                try:
                    server = await serve_unix(host, str(socket_path))
                    self._closers.append(functools.partial(_unlink, str(socket_path)))  # closers run last-first
                    self._closers.append(server.close)
                except OSError as exc:
                    log(logging.ERROR, "console socket unavailable", path=str(socket_path), error=str(exc))
            if port:
                import serial  # the console's own port: opened exclusively, 8-N-1

                try:
                    serial_port = serial.serial_for_url(port, int(console.get("baud", 115200)), timeout=0.1,
                                                        exclusive=True)
                except (OSError, ValueError) as exc:
                    log(logging.ERROR, "console port unavailable", port=str(port), error=str(exc))
                else:
                    serial_console = SerialConsole(host, loop, serial_port)
                    serial_console.start()
                    self._closers.extend([serial_console.stop, serial_port.close])
        self.notifier.ready(f"table {self.daemon.config.table_id} open")
        if self.watchdog.interval:
            tasks.append(asyncio.create_task(self._beat()))
        return tasks

    async def _beat(self) -> None:
        assert self.watchdog.interval is not None
        while True:
            self.watchdog.beat()
            await asyncio.sleep(self.watchdog.interval)

    def _healthy(self) -> tuple[bool, str]:
        health = self.daemon.health()
        if health["ok"]:
            return True, ""
        bad = [name for name, data in health["devices"].items() if not data.get("ok")]
        reasons = ([] if health["journal_ok"] else ["journal cannot commit"]) + [f"device {n}" for n in bad]
        if health["loop_lag_ms"] >= 500:
            reasons.append(f"loop lag {health['loop_lag_ms']} ms")
        return False, ", ".join(reasons) or "unhealthy"

    def stop(self) -> None:
        self.notifier.stopping()
        if self._host is not None:
            self._host.close_all()  # the sessions' last audit records, before the journal closes
        for close in reversed(self._closers):
            try:
                close()
            except Exception:  # noqa: BLE001 - shutting down: one device's failure must not stop the rest
                continue
