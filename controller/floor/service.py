"""``tablectl floor``: the floor service. Consumes every table's stream, checks each chain, keeps the floor's state.

One ordered consumer over the ``TABLES`` stream, started just after the
stream sequence of the floor's last checkpoint (its own journal; each
table's saved state is the journal's state row ``table:ID``), so a
restarted floor service rebuilds exactly the state it had. Each record is
checked against its table's chain as it arrives (``schema.Chain``): a gap or
a break is a floor alarm naming the table and the records, journaled and
shown; a record the floor already has (a resend) is counted and dropped.

Queries: request/reply on ``floor.<id>.query`` (``{"what": "tables"}``,
``{"what": "table", "table": ID}``, ``{"what": "links"}``, ``{"what":
"alarms"}``) and the same over HTTP (``/api/...``) beside the floor view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from nats.js.api import ConsumerConfig, DeliverPolicy

from controller.floor import schema
from controller.floor.bus import connect_forever, ensure_stream, retrying, within
from controller.floor.security import BusRefused
from controller.floor.settings import FloorConfig
from controller.floor.state import TableState
from controller.runtime.journal import Journal
from controller.runtime.logs import log

from controller.runtime.integrity import public_key_from_hex, verify_record

GAP_S = 10.0  # a record missing for this long while later ones of its table are here: a floor alarm
STALL_S = 3.0  # the stream has more than the floor and nothing arrived for this long: start the consumer again
TICK_S = 0.5  # the floor's housekeeping: gaps looked at, a share of the changed tables saved
STATE_ROW = "table:"  # a table's saved state: the journal's state row table:ID, written with a checkpoint record
KEY_LOOK_S = 5.0  # a table without a key on the floor: its keys folder is looked at again after this long
KEY_NAMES = ("{table}.pub", "{table}.key.pub")  # the table's journal.sqlite.key.pub, copied under its table id


class FloorService:
    def __init__(self, config: FloorConfig) -> None:
        self.config = config
        self.journal = Journal(config.journal)
        self.tables: dict[str, TableState] = {}
        self.links: dict[str, dict[str, Any]] = {}
        self.alarms: list[dict[str, Any]] = []
        self.stream_seq = 0
        self.waiting: dict[str, dict[int, tuple[schema.Received, int, float]]] = {}
        self.dirty: dict[str, int] = {}  # table -> the first stream record applied since its state was saved
        self.keys: dict[str, tuple[Any, float]] = {}  # table -> (its public key or None, when looked up)
        self.key_problems: set[str] = set()  # a bad key file is an alarm once, not at every look-up
        self.connected = False
        self.listeners: set[asyncio.Queue[dict[str, Any]]] = set()
        self.last_arrival = time.monotonic()
        self.latencies_ns: list[tuple[int, int]] = []  # (commit wall time, commit to applied here): the benchmark
        self.keep_latencies = False
        self.checkpoints_ns: list[tuple[int, int]] = []  # (wall time it began, how long it held the loop): the same
        self._recover()

    # -- the floor's own journal

    def _recover(self) -> None:
        """The state of the last checkpoint: each table's state as last saved (beside the records, in the journal's
        state rows ``table:ID``), the links, and the stream position to go on from. A journal from before tables
        were saved one by one has the whole state in its last checkpoint record."""
        checkpoint = self.journal.last("checkpoint")
        if checkpoint is not None:
            self.stream_seq = int(checkpoint.body["stream_seq"])
            saved = dict(checkpoint.body.get("tables", {}))
            saved.update({name[len(STATE_ROW):]: state for name, state in self.journal.stored_meters().items()
                          if name.startswith(STATE_ROW)})
            self.tables = {t: TableState.from_json(s) for t, s in saved.items()}
            self.links = dict(checkpoint.body.get("links", {}))
        for record in self.journal.records(kinds=("alarm",)):  # every alarm ever raised stays on the floor's list
            self.alarms.append(dict(record.body))
        self.journal.append([("start", 0, {"floor": self.config.id, "stream_seq": self.stream_seq,
                                           "tables": len(self.tables)})])
        self._checkpointed = self.stream_seq

    def checkpoint(self, every: bool = True) -> None:
        """Save the tables that changed and the stream position the floor goes on from after a restart.

        ``every`` False saves only the tables longest unsaved, a share of them sized so that each changed table
        is saved within ``checkpoint_s`` at a tick every ``TICK_S``: the floor's loop is held for a few
        milliseconds at a time, never for the whole floor's state at once (100-270 ms for 200 busy tables,
        which was the one-node benchmark's p99). The position is the stream record before the first one not yet
        saved (a table not saved yet, or a record held back for a resend); a saved table may be ahead of it,
        and what it already has is dropped as a resend when read again."""
        dirty = sorted(self.dirty.items(), key=lambda item: item[1])
        if not every:
            share = max(8, -(-len(self.tables) * TICK_S // self.config.checkpoint_s))
            dirty = dirty[:int(share)]
        for table, _ in dirty:
            del self.dirty[table]
        pending = [stream_seq for waiting in self.waiting.values() for _, stream_seq, _ in waiting.values()]
        pending += self.dirty.values()
        upto = min(pending) - 1 if pending else self.stream_seq
        if upto == self._checkpointed and not dirty:
            return
        began, t0 = time.time_ns(), time.perf_counter_ns()
        self.journal.append([("checkpoint", 0, {"stream_seq": upto, "links": self.links,
                                                "saved": [table for table, _ in dirty]})],
                            meters={STATE_ROW + table: self.tables[table].to_json() for table, _ in dirty})
        self._checkpointed = upto
        if self.keep_latencies:
            self.checkpoints_ns.append((began, time.perf_counter_ns() - t0))

    def alarm(self, table: str, text: str) -> None:
        body = {"table": table, "text": text, "wall_ns": time.time_ns()}
        self.journal.append([("alarm", 0, body)])  # journaled before anyone is shown it
        self.alarms.append(body)
        log(logging.ERROR, "floor alarm", table=table, text=text)
        state = self.tables.get(table)
        if state is not None:
            state.alarms.append(text)
        self.notify({"type": "alarm", **body})

    # -- records

    def apply_message(self, data: bytes, stream_seq: int) -> None:
        if stream_seq <= self.stream_seq:
            return  # a redelivery of what the floor has
        self.stream_seq = stream_seq
        self.last_arrival = time.monotonic()
        try:
            got = schema.parse_record(data)
        except schema.SchemaError as exc:
            self.alarm("?", f"stream message {stream_seq} refused: {exc}")
            return
        state = self.tables.get(got.table)
        if state is None:
            state = self.tables[got.table] = TableState(got.table, got.site, got.pit)
        if got.record.seq > state.last_seq + 1:  # ahead of a record not here yet: it waits for it (a resend)
            waiting = self.waiting.setdefault(got.table, {})
            waiting.setdefault(got.record.seq, (got, stream_seq, time.monotonic()))
            state.held_back += 1
            return
        self._apply(state, got, stream_seq)
        self._drain(state)

    def _key(self, table: str) -> Any:
        """The table's public key from the floor's keys folder (``<table>.pub`` or ``<table>.key.pub``), or None
        (the chain alone is checked). A table without one is looked up again every ``KEY_LOOK_S``: a key copied
        in while the floor runs is used from the next record on."""
        if self.config.keys is None:
            return None
        key, when = self.keys.get(table, (None, -KEY_LOOK_S))
        if key is not None or time.monotonic() - when < KEY_LOOK_S:
            return key
        for name in KEY_NAMES:
            path = self.config.keys / name.format(table=table)
            try:
                text = path.read_text(encoding="ascii")
            except FileNotFoundError:
                continue
            except (OSError, UnicodeDecodeError) as exc:
                self._key_problem(table, f"table {table}: its public key {path} cannot be read ({exc}); "
                                         "its records are checked by their chain only")
                break
            try:
                key = public_key_from_hex(text)
            except ValueError:
                self._key_problem(table, f"table {table}: {path} is not a public key (64 hex digits, the table's "
                                         "journal.sqlite.key.pub); its records are checked by their chain only")
                break
            log(logging.INFO, "table key found", table=table, key=str(path))
            break
        self.keys[table] = (key, time.monotonic())
        return key

    def _key_problem(self, table: str, text: str) -> None:
        if text not in self.key_problems:
            self.key_problems.add(text)
            self.alarm(table, text)

    def _apply(self, state: TableState, got: schema.Received, stream_seq: int) -> None:
        """Check one record against the table's chain, then its signature where the floor has the table's key.

        A signature covers the record's hash, and through ``prev`` every record before it: the first good one
        after the key arrives vouches for what the floor had checked by the chain alone. A record without the
        table's signature, or not matching its hash, turns the tile's ``signed`` off for good (``unsigned``
        counts them), each one a floor alarm."""
        chain = state.chain()
        prev_hash = state.last_hash
        key = self._key(got.table)
        try:
            verdict = chain.check(got.record)
        except schema.ChainBroken as exc:
            self.alarm(got.table, f"table {got.table}: {exc}")
            if got.record.seq <= state.last_seq:
                return
            if key is not None:
                state.signed, state.unsigned = False, state.unsigned + 1
            verdict = "broken"  # the alarm stands; the floor follows the table from here
        if verdict == "duplicate":
            state.duplicates += 1
            return
        if key is not None and verdict == "ok":
            problem = verify_record({**got.record.to_json(), "sig": got.sig}, prev_hash, key)
            if problem is not None:
                state.signed, state.unsigned = False, state.unsigned + 1
                self.alarm(got.table, f"table {got.table}: {problem}")
            elif state.unsigned == 0:
                state.signed = True
        state.apply(got.record)
        self.dirty[got.table] = min(self.dirty.get(got.table, stream_seq), stream_seq)
        if self.keep_latencies:
            self.latencies_ns.append((got.record.wall_ns, time.time_ns() - got.record.wall_ns))
        self.notify({"type": "table", "table": got.table, "seq": got.record.seq, "kind": got.record.kind})

    def _drain(self, state: TableState) -> None:
        waiting = self.waiting.get(state.table)
        while waiting and state.last_seq + 1 in waiting:
            got, stream_seq, _ = waiting.pop(state.last_seq + 1)
            self._apply(state, got, stream_seq)
        if waiting is not None and not waiting:
            del self.waiting[state.table]

    def check_gaps(self, now: float | None = None) -> None:
        """A record still missing after ``GAP_S``: a floor alarm naming the table; the floor goes on after it."""
        now = time.monotonic() if now is None else now
        for table, waiting in list(self.waiting.items()):
            first = min(waiting)
            if now - waiting[first][2] < GAP_S and len(waiting) < 100_000:
                continue
            state = self.tables[table]
            self.alarm(table, f"table {table}: records {state.last_seq + 1} to {first - 1} are missing "
                              f"(record {first} arrived after {state.last_seq})")
            got, stream_seq, _ = waiting.pop(first)
            state.last_seq, state.last_hash = got.record.seq - 1, got.record.prev  # the alarm stands; go on
            self._apply(state, got, stream_seq)
            self._drain(state)

    def notify(self, event: dict[str, Any]) -> None:
        for queue in list(self.listeners):
            if queue.qsize() < 1000:
                queue.put_nowait(event)

    # -- queries

    def answer(self, query: dict[str, Any]) -> dict[str, Any]:
        what = query.get("what", "tables")
        now = time.time_ns()
        if what == "tables":
            return {"v": schema.VERSION, "floor": self.config.id, "connected": self.connected,
                    "stream_seq": self.stream_seq, "tables": {t: s.tile(now) for t, s in sorted(self.tables.items())},
                    "links": self.links, "alarms": len(self.alarms)}
        if what == "table":
            state = self.tables.get(str(query.get("table")))
            if state is None:
                return {"v": schema.VERSION, "error": f"no table {query.get('table')!r} on this floor"}
            return {"v": schema.VERSION, **state.tile(now), "round_events": state.round_events}
        if what == "links":
            return {"v": schema.VERSION, "links": self.links}
        if what == "alarms":
            return {"v": schema.VERSION, "alarms": self.alarms[-200:]}
        return {"v": schema.VERSION, "error": f"unknown query {what!r} (tables, table, links, alarms)"}

    # -- running

    async def run(self, stop: asyncio.Event) -> None:
        tasks: list[asyncio.Task[Any]] = []
        if self.config.http is not None:
            from controller.floor.web import serve

            tasks.append(asyncio.create_task(serve(self, *self.config.http)))
        try:
            nc = await connect_forever(self.config.servers, f"floor {self.config.id}", self.config.security,
                                       self._on_change)
        except BusRefused:  # a configuration the broker does not accept: the floor stops (exit 2), says why
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.journal.close()
            raise
        js = nc.jetstream(timeout=3, domain=self.config.domain)
        await retrying("make the streams", lambda: self._streams(js))

        async def on_query(msg: Any) -> None:
            try:
                query = json.loads(msg.data or b"{}")
                reply = self.answer(query if isinstance(query, dict) else {})
            except ValueError as exc:
                reply = {"v": schema.VERSION, "error": f"a query is one JSON object: {exc}"}
            await msg.respond(schema.dumps(reply))

        await nc.subscribe(schema.query_subject(self.config.id), cb=on_query)
        await nc.subscribe("link.*.meter", cb=self._on_link_meter)
        tasks.append(asyncio.create_task(self._consume(js)))
        tasks.append(asyncio.create_task(self._checkpoints()))
        try:
            await stop.wait()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.checkpoint()
            await within(nc.close(), 2.0)
            self.journal.close()

    def _on_change(self, up: bool) -> None:
        self.connected = up
        self.notify({"type": "bus", "connected": up})

    async def _streams(self, js: Any) -> None:
        await ensure_stream(js, schema.JOURNAL_STREAM, [schema.JOURNAL_SUBJECTS], self.config.replicas)
        for name in self.config.links:
            await ensure_stream(js, schema.link_stream(name), [f"link.{name}.in.*"], self.config.replicas)
            await ensure_stream(js, schema.link_out_stream(name), [f"link.{name}.out.*"], self.config.replicas)

    async def _on_link_meter(self, msg: Any) -> None:
        try:
            data = schema.loads(msg.data, "meter")
        except schema.SchemaError:
            return
        old = self.links.get(data["link"])
        self.links[data["link"]] = {"value": data["value"], "link_seq": data["link_seq"], "hits": data["hits"],
                                    "heard_ns": time.time_ns()}
        if old is None or old["value"] != data["value"] or old["hits"] != data["hits"]:
            self.notify({"type": "link", "link": data["link"], "value": data["value"], "hits": data["hits"]})

    async def _consume(self, js: Any) -> None:
        """An ordered consumer from just after the last record applied; started again after a stall."""
        while True:
            sub = None
            try:
                async def on_msg(msg: Any) -> None:
                    self.apply_message(msg.data, msg.metadata.sequence.stream)

                config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                        opt_start_seq=self.stream_seq + 1)
                sub = await js.subscribe(schema.JOURNAL_SUBJECTS, cb=on_msg, stream=schema.JOURNAL_STREAM,
                                         ordered_consumer=True, idle_heartbeat=1.0, config=config)
                self.last_arrival = time.monotonic()
                while True:
                    await asyncio.sleep(1.0)
                    if time.monotonic() - self.last_arrival > STALL_S:
                        info = await js.stream_info(schema.JOURNAL_STREAM)
                        if info.state.last_seq > self.stream_seq:
                            log(logging.WARNING, "floor consumer stalled; starting it again",
                                have=self.stream_seq, stream=info.state.last_seq)
                            break
                        self.last_arrival = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log(logging.DEBUG, "floor consumer waits", error=repr(exc))
                await asyncio.sleep(0.5)
            finally:
                if sub is not None:
                    try:
                        await sub.unsubscribe()
                    except Exception:
                        pass

    async def _checkpoints(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            self.check_gaps()
            self.checkpoint(every=False)
