"""The daemon: start-up and stop of one table on one asyncio loop.

Device threads only call ``post`` (``loop.call_soon_threadsafe``) with a frozen
event record; everything else happens on the loop. ``Daemon.start`` opens the
journal, builds and starts everything and returns a ``Running`` table
(running.py: the inputs, the command queue, the health watch, the outputs),
whose fields are all set; ``Daemon.run`` starts the console, the watchdog, the
floor link and the virtual croupier beside it, waits for a stop, and stops
everything in order (the stop record last but the floor link's final send).

Drivers plug in as ``inputs`` (name -> ``InputDevice``) and ``outputs`` (name
-> ``Output``; ``sign``, ``tower``, ``jackpot_display``); without them, the
device kinds build the configured devices (controller/runtime/devices/) and
``--simulate`` wires the simulated table around them (simulation.py).

The console and the self-test talk to the running table through the small
``TableHandle`` protocol (interfaces.py), never to the daemon.
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
from controller.language import language
from controller.runtime import devices as real_devices
from controller.runtime import integrity
from controller.runtime.audit import replay_rounds
from controller.runtime.auth import Lockout
from controller.runtime.control import Services
from controller.runtime.draws import SeededDraws
from controller.runtime.faults import Fault
from controller.runtime.interfaces import Command, InputDevice, Output
from controller.runtime.logs import log
from controller.runtime.outputs import OutputSlot, Terminal, TextOutput
from controller.runtime.statefile import HeadFollower, SealedState
from controller.runtime.simulate import VirtualCroupier
from controller.runtime.simulation import wire
from controller.runtime.running import Running
from controller.runtime.table import Table
from controller.runtime.web import server as web_terminal

OUTPUTS = ("sign", "tower", "jackpot_display")
IDLE_CHECKPOINT_S = 0.5  # no commit for this long: the loop checkpoints the journal's WAL


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
        self.stream = stream or sys.stdout
        self.quiet, self.croupier_on, self.lookup = quiet, croupier, lookup
        self.t_start = t_start if t_start is not None else time.monotonic()
        self.given_inputs: dict[str, InputDevice] = dict(inputs or {})
        self.given_outputs: dict[str, Output] = dict(outputs or {})
        self.running: Running | None = None  # set by start(): the table and everything around it
        self.ready_s: float | None = None
        self.croupier: VirtualCroupier | None = None
        self.web: web_terminal.Terminal | None = None  # the dealer terminal and the pit view (controller/runtime/web)
        self.lockout = Lockout()  # one failed-PIN book for the console and the terminal
        self.floor_link: Any = None
        self.sealed: SealedState | None = None
        self.follower: HeadFollower | None = None

    # -- what a started daemon has (None before start(); tests and tools read these)

    @property
    def table(self) -> Table | None:
        return self.running.table if self.running is not None else None

    @property
    def built(self) -> real_devices.Built | None:
        return self.running.built if self.running is not None else None

    @property
    def stopped(self) -> asyncio.Event | None:
        return self.running.stopped if self.running is not None else None

    @property
    def devices(self) -> dict[str, InputDevice]:
        return self.running.devices if self.running is not None else self.given_inputs

    @property
    def slots(self) -> dict[str, OutputSlot]:
        return self.running.slots if self.running is not None else {}

    def command(self, cmd: Command) -> None:
        """Queue a command on the running table (thread-safe)."""
        assert self.running is not None, "the daemon has not started"
        self.running.command(cmd)

    def health(self) -> Mapping[str, Any]:
        assert self.running is not None, "the daemon has not started"
        return self.running.health()

    # -- start-up

    def start(self, loop: asyncio.AbstractEventLoop) -> tuple[Running, Services, Any]:
        """Build the devices, open the journal and the table, show the outputs, wire the simulation; the
        devices are started. Returns the running table, its services and the simulation (None when real)."""
        self._check_drivers()
        try:  # the device kinds (controller/runtime/devices/), before the journal opens; --simulate: emulators
            built = real_devices.build(self.config, loop, simulate=self.simulate, seed=self.seed)
        except real_devices.StartProblem as exc:
            raise StartError(str(exc)) from None
        table = self._open_table()
        terminal = Terminal(self.stream, quiet=self.quiet, currency=self.config.currency,
                            minor_unit=self.config.minor_unit, lang=language(getattr(self.config, "language", "en")))
        running = Running(self.config, loop, table, built, terminal, self.simulate, self.stream, self.rounds,
                          self.until_round)
        self.running = running
        services = Services(running, lockout=self.lockout)
        if not any(f.kind == "integrity" for f in table.faults.values()):
            services.check_code()  # before the table opens: a changed install latches code_digest
        table.listeners.append(terminal)
        dealer = built.simulation.dealer
        if dealer is not None:
            dealer.new_shoe(table.shoe_no, table.shoe_cards)  # the emulated shoe resumes where the journal is
        interval = 0 if self.fast else self.config.output_interval_ms / 1000
        for name in OUTPUTS:  # one display path: the terminal's line comes from the view, a device or none
            real, given = built.outputs.get(name), self.given_outputs.get(name)
            text = OutputSlot(name, TextOutput(name, self.stream), interval, loop)
            if given is not None:
                running.slots[name] = OutputSlot(name, given, interval, loop)
            elif real is not None:
                running.slots[name] = OutputSlot(name, real, interval, loop)
                running.real_outputs.add(name)
                running.echo[name] = text
            else:
                running.slots[name] = text
        table.listeners.append(running.show)
        table.listeners.append(running.check_done)
        if self.config.floor is not None:  # the floor link (controller/floor): told after each commit, never before
            from controller.floor.publisher import FloorLink

            self.floor_link = FloorLink(table, self.config.floor, table.wiring.progressive_spot)
            table.listeners.append(self.floor_link.after_commit)
            table.gates.append(self.floor_link.gate)
        table.listeners.append(self._checkpoint_when_idle(table, loop))  # last: after every effect of a commit
        running.show(table, [])
        simulation = None
        if self.given_inputs:  # drivers injected by the caller (tests, embedders) are used as given
            running.devices = dict(self.given_inputs)
        elif self.simulate:  # the simulated table: the emulators, and stand-ins for the rest (simulation.py)
            simulation = wire(self.config, built, loop, table, self.seed, self.fast)
            running.devices = simulation.devices
        else:
            running.devices = dict(built.inputs)
        positions = running.exactly_once.positions()  # each serial device resumes after the last frame journaled
        for name, device in running.devices.items():
            resume = getattr(device, "resume", None)
            if callable(resume):
                resume(positions.get(name))
            device.start(running.post_for(name))
        return running, services, simulation

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        running, services, simulation = self.start(loop)
        table = running.table
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, running.stop, sig.name)
            except (NotImplementedError, RuntimeError):
                pass
        tasks = [asyncio.create_task(running.drain_commands()), asyncio.create_task(running.watch())]
        tasks += await services.start(loop)  # console, systemd ready and watchdog
        floor_task = None  # stopped last: it sends what the journal holds, the stop record included
        if self.floor_link is not None:
            floor_task = asyncio.create_task(self._guard("floor link", self.floor_link.run))
        croupier = None
        if simulation is not None and self.croupier_on:
            croupier = simulation.croupier(table, running.command, self.seed, self.fast)
        if croupier is not None:
            self.croupier = croupier
            tasks.append(asyncio.create_task(self._guard("croupier", croupier.run)))
        self.ready_s = time.monotonic() - self.t_start
        held = table.pending_result
        if held is not None:  # held before the restart: the croupier still has to confirm it
            for record in table.journal.records(since=held.seq - 1, until=held.seq):
                line = Terminal.line(record, self.config.minor_unit, self.config.currency, running.terminal.lang)
                self.stream.write(f"held before the restart (record {held.seq}): {line}\n")
        self.stream.write(f"ready: table {self.config.table_id} {self.config.spec.id} {self.config.round_config.variant}, "
                          f"round {table.round_no}, journal seq {table.journal.last_seq}, "
                          f"faults {', '.join(sorted(table.faults)) or 'none'}, "
                          f"start-to-ready {self.ready_s:.3f} s\n")
        self.stream.flush()
        log(logging.INFO, "ready", table=self.config.table_id, round=table.round_no, seq=table.journal.last_seq,
            ready_s=round(self.ready_s, 3))
        running.check_done(table, [])
        for device in running.devices.values():  # what a device may load once the table is ready (the emulated
            warm = getattr(device, "after_ready", None)  # camera's reader): off the start's path
            if callable(warm):
                warm()
        try:
            # the dealer terminal and the pit view come up right after ready (the table already takes cards and
            # bets from its devices): its web server's modules load off the start's path
            self.web, terminal_tasks = web_terminal.start(self, loop)
            tasks += terminal_tasks
            await running.stopped.wait()
        finally:
            running.closing = True
            if croupier is not None:
                croupier.stopping = True
            if self.web is not None:
                await self.web.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for device in running.devices.values():
                try:
                    device.stop()
                except Exception as exc:  # a device that fails to stop must not keep the journal open
                    log(logging.ERROR, "device stop failed", error=repr(exc))
            for name in running.real_outputs:
                closer = getattr(running.slots[name].output, "close", None)
                if closer is not None:
                    closer()
            services.stop()
            self._stop_record(table, running.stop_reason)
            if floor_task is not None:
                floor_task.cancel()
                await asyncio.gather(floor_task, return_exceptions=True)
            table.journal.close()
            self.stream.write(running.terminal.session(str(self.config.journal_path)) + "\n")
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
                table = Table.open(self.config, self.lookup, journal=opened.journal,
                                   draws=SeededDraws(self.seed) if self.simulate else None)
                self.sealed = opened.state
                if opened.state is not None:  # the state file follows the head on its own thread, off the
                    # commit's and the sign's path (statefile.HeadFollower)
                    self.follower = HeadFollower(opened.state)
                    opened.journal.on_commit = self.follower
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

    @staticmethod
    def _checkpoint_when_idle(table: Table, loop: asyncio.AbstractEventLoop,
                              idle_s: float = IDLE_CHECKPOINT_S) -> Callable[[Table, Any], None]:
        """Once no commit came for ``idle_s`` and enough came since the last checkpoint (Journal.checkpoint_due),
        the loop copies the journal's WAL into its file (Journal.checkpoint): SQLite's own checkpoint, inside the
        commit that brings the WAL to 1,000 pages, no longer comes, and the next commits reuse the WAL from its
        start instead of making it longer. Every commit was durable before (synchronous=FULL). A commit only notes
        its time; one timer at a time."""
        last = [0.0]
        timer: list[asyncio.TimerHandle] = []

        def due() -> None:
            wait = last[0] + idle_s - loop.time()
            if wait > 0:  # a commit came meanwhile: wait for the quiet again
                timer[:] = [loop.call_later(wait, due)]
                return
            timer.clear()
            if table.journal.checkpoint_due:
                table.journal.checkpoint()

        def after_commit(_table: Table, records: Any) -> None:
            if not records:
                return
            last[0] = loop.time()
            if not timer:
                timer.append(loop.call_later(idle_s, due))
        return after_commit

    def _stop_record(self, table: Table, reason: str) -> None:
        """A clean stop is journaled (a crash leaves none), and the sealed state is flushed to the disk."""
        if table.journal.broken:
            if self.follower is not None:
                self.follower.close()
            return
        table._commit([("stop", table.round_no, {"pid": os.getpid(), "reason": reason})])
        if self.follower is not None:
            self.follower.close()  # every head handed over is written before the last, flushed one
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

    def _check_drivers(self) -> None:
        """A device its kind refuses at start (a synthetic camera without --simulate) is refused in one line; a
        table of stand-ins only is simulated."""
        if self.given_inputs:
            return  # the caller wired the drivers itself
        problem = real_devices.refusal(self.config, self.simulate)
        if problem is not None:
            raise StartError(problem)
        problem = table_config.no_devices(self.config)
        if problem is not None and not self.simulate:
            raise StartError(problem)
        self.simulate = self.simulate or all(d.driver in ("simulated", "text") for d in self.config.devices.values())
