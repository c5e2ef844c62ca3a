"""A started table: the loop's jobs around the ``Table``, with every field set (``Daemon.start`` makes it).

Device threads only call ``post`` (``loop.call_soon_threadsafe``) with a frozen event record; the record
is taken on the loop (``_receive``: once journaled it is acknowledged, controller/runtime/exactly_once.py)
and submitted to the table. Commands (the console, the supervisor key, the virtual supervisor) go through
``commands``, an ``asyncio.Queue`` the loop drains. ``show`` is the listener that renders the table's one
view on every output; ``health()`` is the summary a watchdog uses. ``Running`` is a ``TableHandle``
(interfaces.py): the console and the self-test are given it, not the daemon.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable, Mapping, Sequence, TextIO

from controller.config import TableConfig
from controller.runtime import devices as real_devices
from controller.runtime.devices import registry
from controller.runtime.exactly_once import ExactlyOnce, is_delivery
from controller.runtime.interfaces import Command, InputDevice
from controller.runtime.journal import Record
from controller.runtime.logs import log
from controller.runtime.outputs import OutputSlot, Terminal, TextOutput
from controller.runtime.table import SourceHealth, Table


class Running:
    """A started table: its journal open, its devices built and started, its outputs shown. Every field is set
    (``Daemon.start`` makes it); the loop's jobs (the inputs, the command queue, the health watch) are here."""

    def __init__(self, config: TableConfig, loop: asyncio.AbstractEventLoop, table: Table,
                 built: real_devices.Built, terminal: Terminal, simulate: bool, stream: TextIO,
                 rounds: int | None = None, until_round: int | None = None) -> None:
        self.config, self.loop, self.table, self.built, self.terminal = config, loop, table, built, terminal
        self.simulate, self.stream, self.rounds, self.until_round = simulate, stream, rounds, until_round
        self.first_round = table.round_no  # the round open when this run started: --rounds counts from it
        self.exactly_once = ExactlyOnce(table)
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        self.stopped = asyncio.Event()
        self.devices: dict[str, InputDevice] = {}
        self.slots: dict[str, OutputSlot] = {}
        self.real_outputs: set[str] = set()  # outputs driven by a real (or luma dummy) device
        self.echo: dict[str, OutputSlot] = {}  # their line on the terminal, from the view
        self.loop_lag_ms = 0.0
        self.closing = False
        self.stop_reason = "stopped"

    def _walked(self) -> tuple[Any, Any]:
        """The first built device whose kind has a self-test walk, and the walk; (None, None) if none has."""
        return next(((self.built.inputs[kind.name], kind.selftest) for kind in registry.all_kinds()
                     if kind.selftest is not None and kind.name in self.built.inputs), (None, None))

    @property
    def panel(self) -> Any:
        """The built device the self-test walks (the GPIO panel), if the table has one."""
        return self._walked()[0]

    @property
    def walk(self) -> Any:
        """Its kind's self-test walk (``DeviceKind.selftest``), if the table has such a device."""
        return self._walked()[1]

    def post_for(self, name: str) -> Callable[[object], None]:
        loop = self.loop

        def post(raw: object) -> None:
            try:
                loop.call_soon_threadsafe(self._receive, name, raw, time.perf_counter_ns())  # stamped for the bench
            except RuntimeError:  # the loop is closed: the daemon is stopping, the event was never taken
                pass
        return post

    def _receive(self, name: str, raw: object, t0_ns: int) -> None:
        if self.closing:  # stopping: an event that arrives now is not taken (the device will send it again)
            return
        if is_delivery(raw):  # acknowledged only once journaled
            self.exactly_once.receive(name, raw, lambda event: self._submit(name, event))
            return
        self._submit(name, raw)

    def _submit(self, name: str, raw: object) -> None:
        try:
            self.table.submit(name, raw)
        except Exception as exc:  # a bug must not take the table down: log it, count it, keep the loop
            log(logging.ERROR, "input failed", source=name, error=repr(exc))
            self.table.health.setdefault(name, SourceHealth()).dropped += 1

    def command(self, cmd: Command) -> None:
        """Queue a command (thread-safe: the console thread and buttons may call it)."""
        self.loop.call_soon_threadsafe(self.commands.put_nowait, cmd)

    def stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stopped.set()

    async def drain_commands(self) -> None:
        while True:
            cmd = await self.commands.get()
            answer = self.table.command(cmd)
            log(logging.INFO, "command", command=cmd.name, by=cmd.by, answer=answer)
            if cmd.name == "stop":
                self.stop(f"stop command by {cmd.by}")

    async def watch(self) -> None:
        """Every second: the loop's lag, and each device's health; a device that is not ok latches a fault."""
        while True:
            t = time.monotonic()
            await asyncio.sleep(1.0)
            self.loop_lag_ms = max(0.0, (time.monotonic() - t - 1.0) * 1000)
            for name, device in self.devices.items():
                try:
                    ok = bool(device.health().get("ok", False))
                except Exception:
                    ok = False
                if not ok and f"device_silent.{name}" not in self.table.faults and not self.stopped.is_set():
                    self.table.latch(f"device_silent.{name}", f"{name} stopped answering" + _why(device))

    def show(self, table: Table, records: Sequence[Record]) -> None:
        """The listener that shows the table's one view on every output (controller/runtime/view.py)."""
        view = table.view()  # the one view; each output renders its part
        seq = table.journal.last_seq
        for name, slot in self.slots.items():
            if isinstance(slot.output, TextOutput):
                slot.output.seq = seq
            slot.set(view[name])
        for name, slot in self.echo.items():  # a real display's line on the terminal: the --fast words
            if isinstance(slot.output, TextOutput):
                slot.output.seq = seq
            slot.set(view[name])

    def redraw(self) -> None:
        """Show the table's state again on every output, even where it has not changed (after a lamp test)."""
        for slot in self.slots.values():
            slot.shown = None
        self.show(self.table, [])

    def check_done(self, table: Table, records: Sequence[Record]) -> None:
        played = table.round_no - self.first_round  # rounds this run has settled
        if (self.rounds is not None and played >= self.rounds) or \
                (self.until_round is not None and table.round_no > self.until_round):
            self.stop(f"{self.rounds} rounds played (--rounds)" if self.rounds is not None
                      else f"round {self.until_round} reached (--until-round)")

    def health(self) -> Mapping[str, Any]:
        """The watchdog's view: ok only while the loop, the journal and every device are healthy."""
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
