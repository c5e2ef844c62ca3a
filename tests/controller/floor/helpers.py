"""Configurations and bus look-ups shared by the floor tests."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, Callable

import nats

from controller.floor import schema


def table_toml(folder: Path, table: str, servers: list[str], site: str = "sthlm", pit: str = "pit-1",
               link: str | None = None, game: str = "caribbean-stud") -> Path:
    path = folder / f"{table}.toml"
    link_line = f'link = "{link}"\n' if link else 'cap = 25000000\noverflow = true\n'
    path.write_text(f"""
[table]
id = "{table}"
game = "{game}"
variant = "classic"
currency = "EUR"
minor_unit = 100

[options]
boxes = 7
progressive = true
progressive_stake = 100
progressive_contribution = 70
meter = "cs-progressive"

[limits]
ante = [500, 10000]
bet = [1000, 20000]

[devices.shoe]
driver = "simulated"
[devices.gpio]
driver = "simulated"
[devices.sign]
driver = "simulated"
[devices.jackpot_display]
driver = "simulated"

[jackpot.cs-progressive]
base = 1000000
contribution = 70
{link_line}
[journal]
path = "{folder / table / 'journal.sqlite'}"

[floor]
servers = {json.dumps(servers)}
site = "{site}"
pit = "{pit}"
domain = "hub"
""")
    return path


def floor_toml(folder: Path, servers: list[str], http: str = "", links: dict[str, int] | None = None,
               checkpoint_s: float = 1.0, keys: Path | None = None) -> Path:
    path = folder / "floor.toml"
    text = f"""
[floor]
id = "test-floor"
servers = {json.dumps(servers)}
journal = "{folder / 'floor' / 'floor.sqlite'}"
http = "{http}"
currency = "EUR"
minor_unit = 100
checkpoint_s = {checkpoint_s}
domain = "hub"
"""
    if keys is not None:
        text += f'keys = "{keys}"\n'
    for name, base in (links or {}).items():
        text += f'\n[link.{name}]\nbase = {base}\njournal = "{folder / "floor" / f"link-{name}.sqlite"}"\n'
    path.write_text(text)
    return path


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def query(url: str, what: dict[str, Any], timeout: float = 3.0) -> dict[str, Any]:
    nc = await nats.connect(url, connect_timeout=2, allow_reconnect=False)
    try:
        reply = await nc.request(schema.query_subject("test-floor"), json.dumps(what).encode(), timeout=timeout)
        return json.loads(reply.data)
    finally:
        await nc.close()


def wait_for(what: str, check: Callable[[], Any], timeout: float, every: float = 0.3,
             show: Callable[[], Any] | None = None) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
            if last:
                return last
        except Exception as exc:  # the floor not answering yet
            last = repr(exc)
        time.sleep(every)
    if show is not None:
        try:
            last = show()
        except Exception as exc:
            last = repr(exc)
    raise AssertionError(f"{what}: not within {timeout} s (last: {str(last)[:400]})")


async def stream_records(url: str, stream: str, subject: str) -> list[dict[str, Any]]:
    """Every message of one subject in the stream, in stream order (the test reads the bus itself)."""
    nc = await nats.connect(url, connect_timeout=2, allow_reconnect=False)
    js = nc.jetstream(timeout=5)
    out: list[dict[str, Any]] = []
    try:
        info = await js.stream_info(stream)
        last = info.state.last_seq
        sub = await js.subscribe(subject, stream=stream, ordered_consumer=True,
                                 config=nats.js.api.ConsumerConfig(deliver_policy=nats.js.api.DeliverPolicy.ALL))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                msg = await sub.next_msg(timeout=1.0)
            except nats.errors.TimeoutError:
                break
            out.append(json.loads(msg.data))
            if msg.metadata.sequence.stream >= last:
                break
        await sub.unsubscribe()
    finally:
        await nc.close()
    return out
