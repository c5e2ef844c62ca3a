"""Console transports: a Unix socket for `tablectl console`, and a serial port for a terminal.

Both run on the daemon's asyncio loop and only move text to and from a
``ConsoleSession``. The serial port is read in its own thread, which only hands
the bytes to the loop (``call_soon_threadsafe``); the loop echoes what is typed
(a serial terminal does not echo locally), except while a PIN is typed.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any, Callable, Mapping

from controller.runtime.auth import ConsoleUser, Lockout
from controller.runtime.console import MAX_LINE, ConsoleSession, Reply, TableControl

TICK_SECONDS = 1.0
DIALOG_TICK_SECONDS = 0.1  # while a dialog watches the devices, so a pressed button is answered at once


def tick_seconds(session: ConsoleSession) -> float:
    return DIALOG_TICK_SECONDS if session.in_dialog else TICK_SECONDS


class ConsoleHost:
    """Makes sessions for every transport, sharing one lockout book and one clock."""

    def __init__(self, users: Mapping[str, ConsoleUser], control: TableControl, clock: Callable[[], float],
                 idle_seconds: float = 600.0, lockout: Lockout | None = None) -> None:
        self.users = users
        self.control = control
        self.clock = clock
        self.idle_seconds = idle_seconds
        self.lockout = lockout or Lockout()
        self.sessions: dict[int, ConsoleSession] = {}
        self.closed = False

    def session(self, source: str) -> ConsoleSession:
        session = ConsoleSession(self.users, self.control, self.lockout, self.idle_seconds, source)
        session.defer_checks = True  # scrypt in a worker thread: the loop never waits for a PIN check
        self.sessions[id(session)] = session
        return session

    def ended(self, session: ConsoleSession) -> None:
        """A connection went away: its logout is journaled (unless the daemon already did so at its stop)."""
        self.sessions.pop(id(session), None)
        session.hang_up(self.clock())
        if session.user is not None and not self.closed:
            self.control.audit(session.user.name, f"disconnected on {session.source}", True)
        session.user = None

    def close_all(self) -> None:
        """The daemon stops: every logged-in session's last audit record, while the journal is still open."""
        self.closed = True
        for session in list(self.sessions.values()):
            session.hang_up(self.clock())
            if session.user is not None:
                self.control.audit(session.user.name, f"disconnected on {session.source}: the daemon stops", True)
                session.user = None
        summary = self.lockout.flush()
        if summary:
            self.control.audit(None, summary, False)


def render(reply: Reply, newline: str = "\n") -> str:
    body = "".join(line + newline for line in reply.lines)
    return body + reply.prompt


# --------------------------------------------------------------------------- Unix socket


async def serve_unix(host: ConsoleHost, path: str) -> asyncio.base_events.Server:
    """Listen on ``path`` (mode 0660) for `tablectl console`."""
    if os.path.exists(path):
        os.unlink(path)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = host.session("socket")
        writer.write(render(session.start(host.clock())).encode())
        await writer.drain()
        try:
            while True:
                try:
                    raw = await asyncio.wait_for(reader.readline(), tick_seconds(session))
                except ValueError:  # over the reader's limit: the rest of the line is dropped, and said so
                    writer.write(render(Reply((f"That line is longer than {MAX_LINE:,} characters: refused.",),
                                              session.prompt)).encode())
                    await writer.drain()
                    continue
                except asyncio.TimeoutError:
                    idle = session.tick(host.clock())
                    if idle is not None:
                        writer.write(render(idle).encode())
                        await writer.drain()
                    continue
                if not raw:
                    break
                reply = session.feed(raw.decode("utf-8", "replace"), host.clock())
                if reply.check is not None:
                    ok = await asyncio.get_running_loop().run_in_executor(None, reply.check)
                    reply = session.checked(ok, host.clock())
                writer.write(render(reply).encode())
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            host.ended(session)
            writer.close()

    server = await asyncio.start_unix_server(handle, path=path, limit=MAX_LINE * 4)
    os.chmod(path, 0o660)
    return server


# --------------------------------------------------------------------------- serial terminal


class LineEditor:
    """Turns typed bytes into lines with echo, backspace and CR/LF handling, for a serial terminal."""

    def __init__(self) -> None:
        self.buffer: list[str] = []
        self.echo = True
        self._last_cr = False

    def feed(self, data: bytes) -> tuple[str, list[str]]:
        """Returns (what to echo back, completed lines)."""
        echo_out: list[str] = []
        lines: list[str] = []
        for ch in data.decode("latin-1"):
            if ch == "\n" and self._last_cr:
                self._last_cr = False
                continue
            self._last_cr = ch == "\r"
            if ch in "\r\n":
                lines.append("".join(self.buffer))
                self.buffer.clear()
                echo_out.append("\r\n")
            elif ch in "\x7f\x08":
                if self.buffer:
                    self.buffer.pop()
                    if self.echo:
                        echo_out.append("\b \b")
            elif ch == "\x15":  # Ctrl-U: erase the line
                if self.echo:
                    echo_out.append("\b \b" * len(self.buffer))
                self.buffer.clear()
            elif ch.isprintable() and len(self.buffer) < MAX_LINE:
                self.buffer.append(ch)
                if self.echo:
                    echo_out.append(ch)
        return "".join(echo_out), lines


class SerialConsole:
    """The console on a serial port (the Pi's UART or a USB gadget port), given as a pyserial URL."""

    def __init__(self, host: ConsoleHost, loop: asyncio.AbstractEventLoop, port: Any) -> None:
        self.host = host
        self.loop = loop
        self.port = port  # an open pyserial port (serial_for_url(...)) or anything with read/write
        self.session = host.session("serial")
        self.editor = LineEditor()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name="console-serial", daemon=True)
        self._ticker: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._send(render(self.session.start(self.host.clock()), "\r\n"))
        self._thread.start()
        self._schedule_tick()

    def stop(self) -> None:
        self.host.ended(self.session)
        self._stop.set()
        if self._ticker is not None:
            self._ticker.cancel()
        self._thread.join(timeout=2)

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.port.read(64)
            except Exception:  # the port went away; the daemon's device health reports it
                self._stop.wait(0.5)
                continue
            if data:
                self.loop.call_soon_threadsafe(self._on_bytes, bytes(data))

    def _on_bytes(self, data: bytes) -> None:
        echo, lines = self.editor.feed(data)
        if echo:
            self._send(echo)
        for line in lines:
            self._show(self.session.feed(line, self.host.clock()))

    def _show(self, reply: Reply) -> None:
        if reply.check is not None:  # the PIN check in a worker thread; its answer comes back on the loop
            future = self.loop.run_in_executor(None, reply.check)
            future.add_done_callback(lambda f: self._show(self.session.checked(
                bool(f.result()) if not f.cancelled() and f.exception() is None else False, self.host.clock())))
            return
        self.editor.echo = reply.echo
        self._send(render(reply, "\r\n"))

    def _schedule_tick(self) -> None:
        self._ticker = self.loop.call_later(tick_seconds(self.session), self._tick)

    def _tick(self) -> None:
        idle = self.session.tick(self.host.clock())
        if idle is not None:
            self._show(idle)
        if not self._stop.is_set():
            self._schedule_tick()

    def _send(self, text: str) -> None:
        try:
            self.port.write(text.encode("utf-8", "replace"))
        except Exception:
            pass
