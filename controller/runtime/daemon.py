"""The daemon: one asyncio loop owning the table, its devices, its outputs and its command queue.

Device threads only call ``post`` (``loop.call_soon_threadsafe``) with a frozen
event record; everything else happens on the loop. Commands (the console
later, the supervisor key, the virtual supervisor) go through ``commands``, an
``asyncio.Queue`` the loop drains. ``health()`` is the summary a watchdog can
use: the loop's lag, the journal, the faults and every device's counters.

Drivers plug in as ``inputs`` (name -> ``InputDevice``) and ``outputs`` (name
-> ``Output``; ``sign``, ``tower``, ``jackpot_display``); without them,
``--simulate`` builds the in-process emulators and text renderers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time
from typing import Any, Callable, Mapping, TextIO

from pathlib import Path

from controller import config as table_config
from controller import games
from controller.config import TableConfig
from controller.games.contract import GameSpec
from controller.runtime import devices as real_devices
from controller.runtime import integrity
from controller.runtime.audit import replay_rounds
from controller.runtime.auth import Lockout
from controller.runtime.control import Services
from controller.runtime.decision_keys import press_sends
from controller.runtime.exactly_once import ExactlyOnce, is_delivery
from controller.runtime.faults import Fault
from controller.runtime.interfaces import Command, InputDevice, Output
from controller.runtime.journal import Record
from controller.runtime.logs import log
from controller.runtime.outputs import OutputSlot, Terminal, TextOutput
from controller.runtime.statefile import SealedState
from controller.runtime.simulate import SimulatedPanel, SimulatedShoe, VirtualCroupier, simulated_extras
from controller.runtime.table import SourceHealth, Table
from controller.runtime.web import server as web_terminal

OUTPUTS = ("sign", "tower", "jackpot_display")


class StartError(RuntimeError):
    """The daemon cannot start (journal unusable, a device driver not available); one line for the operator."""


class Daemon:
    def __init__(self, config: TableConfig, *, simulate: bool, seed: int = 1, fast: bool = False,
                 rounds: int | None = None, stream: TextIO | None = None, quiet: bool = False,
                 until_round: int | None = None,
                 croupier: bool = True, lookup: Callable[[str], GameSpec] | None = None,
                 t_start: float | None = None, inputs: Mapping[str, InputDevice] | None = None,
                 outputs: Mapping[str, Output] | None = None) -> None:
        self.config = config
        self.simulate, self.seed, self.fast, self.rounds = simulate, seed, fast, rounds
        self.until_round = until_round  # stop once the journal holds this many settled rounds
        self.first_round: int | None = None  # the round open when this run started: --rounds counts from it
        self.stream = stream or sys.stdout
        self.quiet, self.croupier_on, self.lookup = quiet, croupier, lookup
        self.t_start = t_start if t_start is not None else time.monotonic()
        self.devices: dict[str, InputDevice] = dict(inputs or {})
        self.given_outputs: dict[str, Output] = dict(outputs or {})
        self.slots: dict[str, OutputSlot] = {}
        self.real_outputs: set[str] = set()  # outputs driven by a real (or luma dummy) device
        self.echo: dict[str, OutputSlot] = {}  # their line on the terminal, from the view
        self.terminal: Terminal | None = None
        self.table: Table | None = None
        self.commands: asyncio.Queue[Command] | None = None
        self.stopped: asyncio.Event | None = None
        self.loop_lag_ms = 0.0
        self.ready_s: float | None = None
        self.croupier: VirtualCroupier | None = None
        self.closing = False
        self.built: real_devices.Built | None = None
        self.web: web_terminal.Terminal | None = None  # the dealer terminal and the pit view (controller/runtime/web)
        self.lockout = Lockout()  # one failed-PIN book for the console and the terminal
        self.floor_link: Any = None
        self.exactly_once: ExactlyOnce | None = None
        self.sealed: SealedState | None = None
        self.stop_reason = "stopped"

    # -- the loop

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.commands = asyncio.Queue()
        self.stopped = asyncio.Event()
        self._check_drivers()
        try:  # the real drivers (controller/runtime/devices.py), before the journal opens; --simulate: emulators
            built = real_devices.build(self.config, loop, simulate=self.simulate, seed=self.seed)
        except real_devices.StartProblem as exc:
            raise StartError(str(exc)) from None
        table = self._open_table()
        self.table = table
        self.first_round = table.round_no
        self.exactly_once = ExactlyOnce(table)
        services = Services(self)
        if not any(f.kind == "integrity" for f in table.faults.values()):
            services.check_code()  # before the table opens: a changed install latches code_digest
        self.terminal = Terminal(self.stream, quiet=self.quiet, currency=self.config.currency,
                                 minor_unit=self.config.minor_unit)
        table.listeners.append(self.terminal)
        if built.shoe is not None:
            built.shoe.new_shoe(table.shoe_no, table.shoe_cards)  # the emulated shoe resumes where the journal is
        self.built = built
        interval = 0 if self.fast else self.config.output_interval_ms / 1000
        for name in OUTPUTS:  # one display path: the terminal's line comes from the view, a device or none
            real, given = built.outputs.get(name), self.given_outputs.get(name)
            text = OutputSlot(name, TextOutput(name, self.stream), interval, loop)
            if given is not None:
                self.slots[name] = OutputSlot(name, given, interval, loop)
            elif real is not None:
                self.slots[name] = OutputSlot(name, real, interval, loop)
                self.real_outputs.add(name)
                self.echo[name] = text
            else:
                self.slots[name] = text
        table.listeners.append(self._outputs)
        table.listeners.append(self._check_done)
        floor_link = None
        if self.config.floor is not None:  # the floor link (controller/floor): told after each commit, never before
            from controller.floor.publisher import FloorLink

            floor_link = FloorLink(table, self.config.floor, table.wiring.progressive_spot)
            table.listeners.append(floor_link.after_commit)
            table.gates.append(floor_link.gate)
        self.floor_link = floor_link
        self._outputs(table, [])
        shoe: Any = None
        results: Any = None
        if not self.devices:  # drivers injected by the caller (tests, embedders) are used as given
            self.devices = dict(built.inputs)
            shoe = built.shoe
            if self.simulate:
                shoe_device = self.config.devices.get("shoe")
                if shoe is None and (shoe_device is None or shoe_device.driver == "simulated"):
                    decks = int(self.config.round_config.get("decks", 1) or 1)  # no decks option: one deck
                    shoe = SimulatedShoe(decks, self.seed, table.shoe_no, table.shoe_cards, 0 if self.fast else 0.8)
                    self.devices["shoe"] = shoe
                self.devices["buttons"] = real_devices.CroupierHands(
                    "buttons", built, loop, sends=lambda button, raw: press_sends(table, button, raw))
                self.devices["bets"] = SimulatedPanel("bets")
                for name in simulated_extras(self.config.spec):  # the dice camera, the burn puck, a wheel reader
                    on_panel = name == "puck" and built.panel is not None and \
                        getattr(built.panel.pin_map, "puck", None) is not None  # moved on the mock puck sensors
                    reader = built.wheel is not None or built.camera is not None  # the roulette camera reads it
                    if name not in self.devices and not on_panel and not (name == "wheel" and reader):
                        self.devices[name] = SimulatedPanel(name)
                results = next((self.devices[n] for n in ("wheel", "camera")
                                if isinstance(self.devices.get(n), SimulatedPanel)), built.camera)
        positions = self.exactly_once.positions()  # each serial device resumes after the last frame journaled
        for name, device in self.devices.items():
            resume = getattr(device, "resume", None)
            if callable(resume):
                resume(positions.get(name))
            device.start(self._post_for(name))
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self._signalled, sig.name)
            except (NotImplementedError, RuntimeError):
                pass
        tasks = [asyncio.create_task(self._drain_commands()), asyncio.create_task(self._watch())]
        tasks += await services.start(loop)  # console, systemd ready and watchdog
        self.web, terminal_tasks = web_terminal.start(self, loop)  # the dealer terminal and the pit view
        tasks += terminal_tasks
        floor_task = None  # stopped last: it sends what the journal holds, the stop record included
        if floor_link is not None:
            floor_task = asyncio.create_task(self._guard("floor link", floor_link.run))
        croupier: VirtualCroupier | None = None
        if self.simulate and self.croupier_on and shoe is not None:
            croupier = VirtualCroupier(table, shoe, self.devices["buttons"], self.devices["bets"],  # type: ignore[arg-type]
                                       self.command, self.seed * 7919 + table.round_no, self.fast,
                                       results=results, puck=self.devices.get("puck"))  # type: ignore[arg-type]
            self.croupier = croupier
            tasks.append(asyncio.create_task(self._guard("croupier", croupier.run)))
        self.ready_s = time.monotonic() - self.t_start
        held = table.pending_result
        if held is not None:  # held before the restart: the croupier still has to confirm it
            for record in table.journal.records(since=held.seq - 1, until=held.seq):
                line = Terminal.line(record, self.config.minor_unit, self.config.currency)
                self.stream.write(f"held before the restart (record {held.seq}): {line}\n")
        self.stream.write(f"ready: table {self.config.table_id} {self.config.spec.id} {self.config.round_config.variant}, "
                          f"round {table.round_no}, journal seq {table.journal.last_seq}, "
                          f"faults {', '.join(sorted(table.faults)) or 'none'}, "
                          f"start-to-ready {self.ready_s:.3f} s\n")
        self.stream.flush()
        log(logging.INFO, "ready", table=self.config.table_id, round=table.round_no, seq=table.journal.last_seq,
            ready_s=round(self.ready_s, 3))
        self._check_done(table, [])
        try:
            await self.stopped.wait()
        finally:
            self.closing = True
            if croupier is not None:
                croupier.stopping = True
            if self.web is not None:
                await self.web.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for device in self.devices.values():
                try:
                    device.stop()
                except Exception as exc:  # a device that fails to stop must not keep the journal open
                    log(logging.ERROR, "device stop failed", error=repr(exc))
            for name in self.real_outputs:
                closer = getattr(self.slots[name].output, "close", None)
                if closer is not None:
                    closer()
            services.stop()
            self._stop_record(table)
            if floor_task is not None:
                floor_task.cancel()
                await asyncio.gather(floor_task, return_exceptions=True)
            table.journal.close()
            if self.terminal is not None:
                self.stream.write(self.terminal.session(str(self.config.journal_path)) + "\n")
            self.stream.flush()
        return 0

    def _open_table(self) -> Table:
        """The journal checked before play (controller/runtime/integrity.py); on any break, a table that takes
        no input, with ``integrity`` latched naming the first bad record, that stays up for the technician."""
        opened = integrity.open_journal(Path(self.config.journal_path), self.config.table_id,
                                        lambda journal, since: replay_rounds(journal, self.lookup or games.load_game,
                                                                             since))
        problem = opened.problem
        if problem is None:
            try:
                table = Table.open(self.config, self.lookup, journal=opened.journal)
                self.sealed = opened.state
                if opened.state is not None:
                    opened.journal.on_commit = self._follow_head(opened.state)
                return table
            except Exception as exc:  # a record the recovery cannot read: the chain was good, its meaning is not
                problem = f"the journal cannot be recovered: {exc!r}"
                opened.journal.broken = f"integrity: {problem}"
        table = Table(self.config, opened.journal, self.lookup)
        name = integrity.fault_name(problem)  # integrity.record_17: the sign, the console and the log name it
        table.faults[name] = Fault(name, problem, 0)
        log(logging.CRITICAL, "fault latched", fault=name, text=problem, journaled=False)
        self.stream.write(f"#- FAULT latched: {name}: {problem}\n")
        return table

    def _follow_head(self, state: SealedState) -> Callable[[int, str], None]:
        """The sealed state follows the journal's head just after each commit, on the loop, once the commit's
        effects are out (the state may lag the journal after a crash, never lead it); a burst of commits is
        one write."""
        head: list[tuple[int, str]] = []

        def write() -> None:
            if head:
                state.advance(*head.pop())
                head.clear()

        def follow(seq: int, digest: str) -> None:
            if not head:
                self.loop.call_soon(write)
            head[:] = [(seq, digest)]
        return follow

    def _stop_record(self, table: Table) -> None:
        """A clean stop is journaled (a crash leaves none), and the sealed state is flushed to the disk."""
        if table.journal.broken:
            return
        table._commit([("stop", table.round_no, {"pid": os.getpid(), "reason": self.stop_reason})])
        if self.sealed is not None:
            self.sealed.data["head"] = {"seq": table.journal.last_seq, "hash": table.journal.last_hash}
            try:
                self.sealed.write(flush=True)
            except OSError as exc:
                log(logging.ERROR, "state file not written at stop", error=str(exc))

    async def _guard(self, name: str, job: Callable[[], Any]) -> None:
        """Run a task; if it fails, log it and restart it after a pause (the table itself is unaffected)."""
        while True:
            try:
                await job()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log(logging.ERROR, f"{name} failed; restarting it", error=repr(exc))
                import traceback
                traceback.print_exc()
                await asyncio.sleep(1.0)

    def _signalled(self, name: str) -> None:
        self.stop_reason = name
        if self.stopped is not None:
            self.stopped.set()

    def _check_drivers(self) -> None:
        """A synthetic camera needs --simulate (refused in one line); a table of stand-ins only is simulated."""
        if self.devices:
            return  # the caller wired the drivers itself
        camera = self.config.devices.get("camera")
        if not self.simulate and camera is not None and camera.driver == "synthetic":
            raise StartError(f"{self.config.source}: devices.camera.driver = 'synthetic' renders the simulated "
                             f"croupier's throws: run with --simulate, or use opencv or files")
        problem = table_config.no_devices(self.config)
        if problem is not None and not self.simulate:
            raise StartError(problem)
        self.simulate = self.simulate or all(d.driver in ("simulated", "text") for d in self.config.devices.values())

    def _post_for(self, name: str) -> Callable[[object], None]:
        loop = self.loop

        def post(raw: object) -> None:
            try:
                loop.call_soon_threadsafe(self._receive, name, raw, time.perf_counter_ns())  # stamped for the bench
            except RuntimeError:  # the loop is closed: the daemon is stopping, the event was never taken
                pass
        return post

    def _receive(self, name: str, raw: object, t0_ns: int) -> None:
        assert self.table is not None
        if self.closing:  # stopping: an event that arrives now is not taken (the device will send it again)
            return
        if is_delivery(raw) and self.exactly_once is not None:  # acknowledged only once journaled
            self.exactly_once.receive(name, raw, lambda event: self._submit(name, event))
            return
        self._submit(name, raw)

    def _submit(self, name: str, raw: object) -> None:
        assert self.table is not None
        try:
            self.table.submit(name, raw)
        except Exception as exc:  # a bug must not take the table down: log it, count it, keep the loop
            log(logging.ERROR, "input failed", source=name, error=repr(exc))
            self.table.health.setdefault(name, SourceHealth()).dropped += 1

    def command(self, cmd: Command) -> None:
        """Queue a command (thread-safe: the console thread and buttons may call it)."""
        assert self.commands is not None
        self.loop.call_soon_threadsafe(self.commands.put_nowait, cmd)

    async def _drain_commands(self) -> None:
        assert self.commands is not None and self.table is not None
        while True:
            cmd = await self.commands.get()
            answer = self.table.command(cmd)
            log(logging.INFO, "command", command=cmd.name, by=cmd.by, answer=answer)
            if cmd.name == "stop" and self.stopped is not None:
                self.stop_reason = f"stop command by {cmd.by}"
                self.stopped.set()

    async def _watch(self) -> None:
        """Every second: the loop's lag, and each device's health; a device that is not ok latches a fault."""
        assert self.table is not None
        while True:
            t = time.monotonic()
            await asyncio.sleep(1.0)
            self.loop_lag_ms = max(0.0, (time.monotonic() - t - 1.0) * 1000)
            for name, device in self.devices.items():
                try:
                    ok = bool(device.health().get("ok", False))
                except Exception:
                    ok = False
                stopping = self.stopped is not None and self.stopped.is_set()
                if not ok and f"device_silent.{name}" not in self.table.faults and not stopping:
                    self.table.latch(f"device_silent.{name}", f"{name} stopped answering" + _why(device))

    def _outputs(self, table: Table, records: list[Record] | Any) -> None:
        view = table.view()  # the one view; each output renders its part (controller/runtime/view.py)
        seq = table.journal.last_seq
        for name, slot in self.slots.items():
            if isinstance(slot.output, TextOutput):
                slot.output.seq = seq
            slot.set(view[name])
        for name, slot in self.echo.items():  # a real display's line on the terminal: the --fast words
            if isinstance(slot.output, TextOutput):
                slot.output.seq = seq
            slot.set(view[name])

    def _check_done(self, table: Table, records: Any) -> None:
        if self.stopped is None:
            return
        played = table.round_no - (self.first_round or 1)  # rounds this run has settled
        if (self.rounds is not None and played >= self.rounds) or \
                (self.until_round is not None and table.round_no > self.until_round):
            self.stop_reason = (f"{self.rounds} rounds played (--rounds)" if self.rounds is not None
                                else f"round {self.until_round} reached (--until-round)")
            self.stopped.set()

    def health(self) -> Mapping[str, Any]:
        """The watchdog's view: ok only while the loop, the journal and every device are healthy."""
        assert self.table is not None
        summary = dict(self.table.summary())
        devices = {}
        for name, device in self.devices.items():
            try:
                devices[name] = dict(device.health())
            except Exception as exc:
                devices[name] = {"ok": False, "error": repr(exc)}
        summary["devices"] = devices
        summary["loop_lag_ms"] = round(self.loop_lag_ms, 3)
        summary["outputs"] = {n: {"shows": s.shows, "failures": s.failures} for n, s in self.slots.items()}
        summary["ok"] = (summary["journal_ok"] and all(d.get("ok") for d in devices.values())
                         and self.loop_lag_ms < 500)
        return summary


def _why(device: Any) -> str:
    """What a device that is not ok says of itself (``health()['error']``), for the fault's one line."""
    try:
        error = device.health().get("error")
    except Exception:
        return ""
    return f": {error}" if error else ""
