"""Connecting to the bus and making the streams: the few nats-py calls every floor part shares."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

import nats
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from controller.runtime.logs import log

DUPLICATE_WINDOW_S = 24 * 3600.0  # a record resent a day later is still dropped as a duplicate


async def connect(servers: tuple[str, ...], name: str, credentials: str | None = None,
                  on_change: Callable[[bool], None] | None = None, buffer: bool = True) -> Client:
    """Connect (once; the caller retries) with reconnects for ever: the link comes back by itself."""

    async def disconnected() -> None:
        if on_change is not None:
            on_change(False)

    async def reconnected() -> None:
        if on_change is not None:
            on_change(True)

    async def error(exc: Exception) -> None:
        log(logging.DEBUG, "bus error", name=name, error=repr(exc))

    options: dict[str, Any] = dict(servers=list(servers), name=name, allow_reconnect=True,
                                   max_reconnect_attempts=-1, reconnect_time_wait=0.5, connect_timeout=2,
                                   ping_interval=2, max_outstanding_pings=2, disconnected_cb=disconnected,
                                   reconnected_cb=reconnected, error_cb=error)
    if credentials:
        options["user_credentials"] = credentials
    if not buffer:  # a publish while the link is down fails at once (the journal is the buffer), none sent late
        options["pending_size"] = 0
    nc = await nats.connect(**options)
    if on_change is not None:
        on_change(True)
    return nc


async def connect_forever(servers: tuple[str, ...], name: str, credentials: str | None = None,
                          on_change: Callable[[bool], None] | None = None, buffer: bool = True) -> Client:
    """``connect``, retried every half second until a server answers."""
    while True:
        try:
            return await connect(servers, name, credentials, on_change, buffer)
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
