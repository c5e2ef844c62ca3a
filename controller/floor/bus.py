"""Connecting to the bus and making the streams: the few nats-py calls every floor part shares."""

from __future__ import annotations

import asyncio
import logging
import ssl
from typing import Any, Awaitable, Callable

import nats
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from controller.floor.security import BusRefused, Security
from controller.runtime.logs import log

DUPLICATE_WINDOW_S = 24 * 3600.0  # a record resent a day later is still dropped as a duplicate


class _SslEofNoise(logging.Filter):
    """asyncio's "returning true from eof_received() has no effect when using ssl" (each TLS connection the
    broker closes, harmless): not shown, so a refusal stays the one line that says what is wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "eof_received()" not in record.getMessage()


def _quiet_ssl_eof() -> None:
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, _SslEofNoise) for f in logger.filters):
        logger.addFilter(_SslEofNoise())


async def connect(servers: tuple[str, ...], name: str, security: Security | None = None,
                  on_change: Callable[[bool], None] | None = None, buffer: bool = True,
                  on_refused: Callable[[str], None] | None = None) -> Client:
    """Connect, with reconnects for ever afterwards: the link comes back by itself.

    A broker that refuses this client (credentials it does not know, a certificate not from the CA) raises
    ``BusRefused`` in words on the first connection; on a later reconnect it is logged once and told to
    ``on_refused`` (the client goes on trying: the broker's operator may put it right).
    """
    security = security or Security()
    connected = False
    told: set[str] = set()

    async def disconnected() -> None:
        if on_change is not None:
            on_change(False)

    async def reconnected() -> None:
        told.clear()
        if on_change is not None:
            on_change(True)

    async def error(exc: Exception) -> None:
        refused = security.refusal(exc, servers)
        if refused is None:
            log(logging.DEBUG, "bus error", name=name, error=repr(exc))
            return
        if not connected:
            raise BusRefused(f"{name}: {refused}")
        if refused not in told:
            told.add(refused)
            log(logging.ERROR, "floor link refused", name=name, text=refused)
            if on_refused is not None:
                on_refused(refused)

    options: dict[str, Any] = dict(servers=list(servers), name=name, allow_reconnect=True,
                                   max_reconnect_attempts=-1, reconnect_time_wait=0.5, connect_timeout=2,
                                   ping_interval=2, max_outstanding_pings=2, disconnected_cb=disconnected,
                                   reconnected_cb=reconnected, error_cb=error)
    try:
        options.update(security.connect_options())
    except (OSError, UnicodeDecodeError, IndexError, ssl.SSLError) as exc:
        raise BusRefused(f"{name}: {security.login}: the files cannot be read now ({exc})") from None
    if "tls" in options:
        _quiet_ssl_eof()
    if not buffer:  # a publish while the link is down fails at once (the journal is the buffer), none sent late
        options["pending_size"] = 0
    nc = Client()
    try:
        await nc.connect(**options)
    except BusRefused:
        await within(nc.close(), 1.0)
        raise
    connected = True
    if on_change is not None:
        on_change(True)
    return nc


async def connect_forever(servers: tuple[str, ...], name: str, security: Security | None = None,
                          on_change: Callable[[bool], None] | None = None, buffer: bool = True,
                          on_refused: Callable[[str], None] | None = None) -> Client:
    """``connect``, retried every half second until a server answers; ``BusRefused`` is not retried here."""
    while True:
        try:
            return await connect(servers, name, security, on_change, buffer, on_refused)
        except BusRefused:
            raise
        except (OSError, asyncio.TimeoutError, nats.errors.Error) as exc:
            log(logging.DEBUG, "bus not reachable", name=name, error=repr(exc))
            await asyncio.sleep(0.5)


async def ensure_stream(js: JetStreamContext, name: str, subjects: list[str], replicas: int = 1) -> None:
    """Create the stream, or leave it as it is: file storage, limits retention, day-long de-duplication."""
    config = StreamConfig(name=name, subjects=subjects, retention=RetentionPolicy.LIMITS,
                          storage=StorageType.FILE, num_replicas=replicas, duplicate_window=DUPLICATE_WINDOW_S,
                          discard=DiscardPolicy.OLD)
    try:
        await js.stream_info(name)
        return
    except NotFoundError:
        pass
    try:
        await js.add_stream(config)
    except BadRequestError as exc:  # made by another floor part at the same moment
        log(logging.DEBUG, "stream exists", stream=name, error=repr(exc))


async def retrying(what: str, job: Callable[[], Awaitable[Any]], pause: float = 0.5) -> Any:
    """Run ``job`` until it succeeds (the bus is away for a while)."""
    while True:
        try:
            return await job()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log(logging.DEBUG, f"{what} failed; retrying", error=repr(exc))
            await asyncio.sleep(pause)


async def within(job: Any, seconds: float) -> bool:
    """Run ``job`` for at most ``seconds``; never wait for a job that does not end when cancelled."""
    task = asyncio.ensure_future(job)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.cancel()
        return False
    return task.exception() is None
