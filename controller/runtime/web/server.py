"""The terminal's HTTP server: uvicorn serving the app as a task on the daemon's own loop.

One loop owns the table: the routes run on it, between the devices' events,
so a tap is judged, journaled and shown exactly like a button press. uvicorn's
own signal handling is off (the daemon's SIGTERM handler stops the table, and
the server with it). The socket is bound before the task starts, so a port
that is taken is one line at start and the port the server got (``port = 0``
in tests) is known.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from controller.runtime.logs import log

if TYPE_CHECKING:
    from controller.runtime.daemon import Daemon

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def settings_of(config: Any) -> Mapping[str, Any]:
    return getattr(config, "terminal", None) or {}


def key_path(config: Any) -> Path:
    terminal = settings_of(config)
    given = terminal.get("key_file")
    return Path(given) if given else Path(config.journal_path).with_name("terminal.key")


class _Server:
    """uvicorn's Server without its signal handlers (the daemon owns SIGTERM and SIGINT)."""

    def __init__(self, config: Any) -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            """Ticks once a second (its Date header), not every 0.1 s, and stops at once on ``stop``.

            uvicorn's own main loop sleeps 0.1 s between ticks: ten wake-ups a second of an idle table.
            """

            stopping: "asyncio.Event | None" = None

            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

            async def main_loop(self) -> None:
                self.stopping = asyncio.Event()
                counter = 0
                should_exit = await self.on_tick(counter)
                while not should_exit and not self.should_exit:
                    try:
                        await asyncio.wait_for(self.stopping.wait(), 1.0)
                    except asyncio.TimeoutError:
                        pass
                    counter = (counter + 10) % 864000  # on_tick refreshes the Date header every tenth count
                    should_exit = await self.on_tick(counter)

            def stop(self) -> None:
                self.should_exit = True
                if self.stopping is not None:
                    self.stopping.set()

        self.server = Quiet(config)


class Terminal:
    """The running terminal of one daemon: its state listener, its app and its server task."""

    def __init__(self, daemon: "Daemon") -> None:
        from controller.runtime.auth import Lockout
        from controller.runtime.control import console_users
        from controller.runtime.web.app import TerminalApp
        from controller.runtime.web.session import Sessions, load_key
        from controller.runtime.web.state import TableState

        assert daemon.table is not None
        config = daemon.config
        self.settings = settings_of(config)
        self.state = TableState(daemon.table, daemon.health)
        daemon.table.listeners.append(self.state)
        lockout = getattr(daemon, "lockout", None) or Lockout()
        self.sessions = Sessions(console_users(config), load_key(key_path(config)), lockout,
                                 hours=float(self.settings.get("session_hours", 12)))
        self.tls = bool(self.settings.get("cert"))
        self.app = TerminalApp(daemon.table, self.state, self.sessions, secure=self.tls)
        self.host = str(self.settings.get("address", "127.0.0.1"))
        self.port = int(self.settings.get("port", 8080))
        self.sock: socket.socket | None = None
        self.server: Any = None
        self.task: "asyncio.Task[Any] | None" = None

    def bind(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # inherited by each connection: an answer's
        # head and body go out at once, not 40 ms apart (Nagle's wait for the page's delayed ACK)
        sock.bind((self.host, self.port))
        sock.listen(64)
        sock.setblocking(False)
        self.sock = sock
        self.port = sock.getsockname()[1]

    def start(self, loop: asyncio.AbstractEventLoop) -> "asyncio.Task[Any] | None":
        import uvicorn

        try:
            self.bind()
        except OSError as exc:
            log(logging.ERROR, "terminal unavailable", address=self.host, port=self.port, error=str(exc))
            return None
        config = uvicorn.Config(self.app.app, log_level="warning", access_log=False, lifespan="off",
                                ssl_certfile=self.settings.get("cert"), ssl_keyfile=self.settings.get("key"),
                                timeout_graceful_shutdown=1)
        self.server = _Server(config).server
        assert self.sock is not None
        log(logging.INFO, "terminal", url=self.url)
        self.task = loop.create_task(self.server.serve(sockets=[self.sock]))
        return self.task

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/"

    async def close(self, timeout: float = 2.0) -> None:
        """Stop serving: the open event streams end, then the server (its task) within ``timeout`` seconds."""
        self.state.closing = True
        self.state.wake()
        if self.server is not None:
            self.server.stop()
            if self.task is not None:
                try:
                    await asyncio.wait_for(asyncio.shield(self.task), timeout)
                except (asyncio.TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping anyway
                    pass
        if self.sock is not None:
            self.sock.close()


def start(daemon: "Daemon", loop: asyncio.AbstractEventLoop) -> tuple["Terminal | None", list["asyncio.Task[Any]"]]:
    """Start the terminal when ``[terminal] enabled``: the terminal and its task (none when it is off)."""
    if not settings_of(daemon.config).get("enabled", False):
        return None, []
    terminal = Terminal(daemon)
    task = terminal.start(loop)
    return terminal, [task] if task is not None else []
