"""The table's side of the floor link: the journal is the outbox.

``FloorLink`` runs inside the table daemon. The table tells it, after each
commit and never before, that there is something new (``after_commit``); it
reads the committed records from its own read-only connection to the journal
and publishes each one to ``casino.<site>.<pit>.<table>.journal`` with the
message id ``<table>:<seq>``, in order, in batches of up to 256 sent on one
connection and then waiting for the bus's acknowledgements; it advances over
the acknowledged prefix only. The last acknowledged sequence is kept in the outbox file
(written atomically, at least twice a second); after any outage, restart or
crash the link resends from there (a table without an outbox file asks the
stream for its last record first). The bus drops what it already has (de-
duplication by message id, one day's window), so a record is stored once.

Linked progressives: a ``contribution`` or ``claim`` meter record of a linked
meter also goes to ``link.<link>.in.<table>`` (same message id, in the link's
stream); the link's answers come back on ``link.<link>.out.<table>`` and are
journaled (``answer``) before the display shows them. The link is *up* for
the table while the link controller's meter is heard (once a second) and the
table has sent everything it owes the link; otherwise the progressive bet is
refused (``Table.gates``) and the jackpot display says ``no LInK``. Both
changes are journaled (``link_down``, ``link_up``).

Nothing here can stop the table: without a bus it plays on and its records
wait in the journal.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Sequence

from controller.events import Bet
from controller.floor import schema
from controller.floor.bus import connect_forever, within
from controller.floor.security import BusRefused
from controller.floor.settings import TableLink
from controller.runtime.journal import Journal, Record
from controller.runtime.logs import log

LINK_SILENT_S = 3.0  # the link controller's meter not heard for this long: the table is cut off
REFUSED_RETRY_S = 10.0  # the broker refused the table's login or certificate: try again after this long
BATCH = 256


def still_cancelled() -> None:
    """Raise the cancellation a library call swallowed (nats-py's stalls and 3.11's ``wait_for`` can)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


class Outbox:
    """The last sequence the bus acknowledged, in a small file written atomically (tmp, fsync, rename)."""

    def __init__(self, path: Path, table: str) -> None:
        self.path, self.table = path, table
        self.acked = 0
        try:
            data = json.loads(path.read_text())
            if data.get("table") == table:
                self.acked = int(data["acked"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        self.saved = self.acked

    def save(self) -> None:
        if self.saved == self.acked:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w") as f:
            json.dump({"table": self.table, "acked": self.acked}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self.saved = self.acked


class FloorLink:
    def __init__(self, table: Any, settings: TableLink, progressive_spot: str | None) -> None:
        self.table = table
        self.settings = settings
        self.table_id: str = table.config.table_id
        self.subject = schema.journal_subject(settings.site, settings.pit, self.table_id)
        journal_path = Path(table.journal.path)
        self.reader = Journal(journal_path, readonly=True)  # its own connection: the loop's writer is not touched
        outbox = settings.outbox or Path("floor-outbox.json")
        self.outbox = Outbox(outbox if outbox.is_absolute() else journal_path.parent / outbox, self.table_id)
        self.links = dict(settings.links)  # meter -> link
        self.meter_of_link = {link: meter for meter, link in self.links.items()}
        self.spot = progressive_spot
        self.spot_meter = table.config.round_config.get("meter") if progressive_spot else None
        self.wake = asyncio.Event()
        self.connected = False
        self.synced = False
        self.heard: dict[str, float] = {}
        self.owed = 0  # the last committed record the link still has to get
        for record in self.reader.records(since=self.outbox.acked, kinds=("meter",)):
            if self._linked(record):  # owed from before a restart
                self.owed = record.seq
        self.nc: Any = None
        self.inbox: str | None = None
        self.acks: dict[str, asyncio.Future[bool]] = {}
        self.tokens = 0
        self.last_error = ""
        self.last_report = 0.0
        self.sent = 0
        self.resent_duplicates = 0

    # -- called by the table (on the loop)

    def after_commit(self, table: Any, records: Sequence[Record]) -> None:
        if not records:
            return
        for record in records:
            if self._linked(record):
                self.owed = max(self.owed, record.seq)
        self.wake.set()

    def gate(self, source: str, event: Any) -> str | None:
        """Refuse the progressive bet while the table is cut off from its link (the base game goes on)."""
        if not isinstance(event, Bet) or self.spot is None or event.spot != self.spot:
            return None
        meter = self.spot_meter
        if meter in self.links and not self.table.meters.link_up.get(meter, False):
            return (f"box {event.seat}: the linked progressive {meter} is cut off from its link "
                    f"({self.links[meter]}); no progressive bets until it is back, the base game goes on")
        return None

    def _linked(self, record: Record) -> str | None:
        if record.kind != "meter":
            return None
        body = record.body
        if body.get("kind") in ("contribution", "claim") and body.get("meter") in self.links:
            return self.links[body["meter"]]
        return None

    # -- the tasks

    async def run(self) -> None:
        tasks = [asyncio.create_task(self._pump()), asyncio.create_task(self._watch_link())]
        try:
            while self.nc is None:
                try:
                    self.nc = await connect_forever(self.settings.servers, f"table {self.table_id}",
                                                    self.settings.security, self._on_change, buffer=False)
                except BusRefused as exc:  # the table plays on; a technician puts the login or the CA right
                    if str(exc) != self.last_error:
                        log(logging.ERROR, "floor link refused", table=self.table_id, text=str(exc),
                            retry_s=REFUSED_RETRY_S)
                    self.last_error = str(exc)
                    await asyncio.sleep(REFUSED_RETRY_S)
            self.js = self.nc.jetstream(timeout=2, domain=self.settings.domain)
            for link in self.meter_of_link:
                await self.nc.subscribe(schema.link_meter_subject(link), cb=self._on_meter)
                tasks.append(asyncio.create_task(self._answers(link)))
            self.wake.set()
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self.connected and self.nc is not None:  # the daemon stops: send what is left, two seconds at most
                if not await within(self._flush(), 2.0):
                    log(logging.INFO, "floor link stops with records still to send", table=self.table_id,
                        acked=self.outbox.acked)
            self.outbox.save()
            if self.nc is not None:
                await within(self.nc.close(), 2.0)
            self.reader.close()

    async def _flush(self) -> None:
        while True:
            batch = list(itertools.islice(self.reader.records(since=self.outbox.acked), BATCH))
            if not batch:
                return
            await self._publish_batch(batch)

    def _on_change(self, up: bool) -> None:
        self.connected = up
        self.synced = False  # after every reconnect: ask the stream where this table is
        self.wake.set()

    async def _pump(self) -> None:
        last_save = time.monotonic()
        while True:
            still_cancelled()
            if not self.connected:
                await asyncio.sleep(0.1)
                continue
            try:
                if not self.synced:
                    await self._sync()
                self.wake.clear()
                batch = list(itertools.islice(self.reader.records(since=self.outbox.acked), BATCH))
                await self._publish_batch(batch)
                if batch and time.monotonic() - last_save > 0.5 or not batch:
                    self.outbox.save()
                    last_save = time.monotonic()
                if not batch:
                    try:
                        async with asyncio.timeout(1.0):  # not wait_for: in 3.11 it can swallow a cancellation
                            await self.wake.wait()
                    except TimeoutError:
                        pass
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # timeout, no stream yet, the hub going away: the records wait
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # nats-py turns a cancelled stall into an error
                    raise asyncio.CancelledError() from exc
                self.last_error = repr(exc)
                if time.monotonic() - self.last_report > 10:
                    self.last_report = time.monotonic()
                    log(logging.WARNING, "floor link behind", table=self.table_id, acked=self.outbox.acked,
                        journal=self.table.journal.last_seq, connected=self.connected, error=self.last_error)
                self.synced = False
                await asyncio.sleep(0.5)

    async def _sync(self) -> None:
        """A new outbox (none, or lost) asks the stream for this table's last record and goes on after it.

        An outbox that has a position keeps it: the stream's last record of the table may stand after a gap
        (records the client buffered while the link was down, sent when it came back, past one it could
        not), so the table resends from its own position and the bus drops what it already has.
        """
        from nats.js.errors import NotFoundError

        if self.outbox.acked == 0:
            try:
                last = await self.js.get_last_msg(schema.JOURNAL_STREAM, self.subject)
            except NotFoundError:
                pass
            else:
                seq = schema.parse_record(last.data).record.seq
                if seq <= self.table.journal.last_seq:
                    self.outbox.acked = seq
        self.synced = True

    async def _publish_batch(self, batch: list[Record]) -> None:
        """Send a batch pipelined (in order on one connection), then advance over the acknowledged prefix.

        Each message asks JetStream for its acknowledgement on this link's own inbox. A record whose
        acknowledgement does not come stops the advance there; it and everything after it are sent again
        (the bus drops the copies it has; the floor puts a late record back in its place).
        """
        if not batch:
            return
        if self.inbox is None:
            self.inbox = self.nc.new_inbox()
            await self.nc.subscribe(self.inbox + ".*", cb=self._on_ack)
        loop = asyncio.get_running_loop()
        futures: list[list[asyncio.Future[bool]]] = []
        try:
            for record in batch:
                if not self.nc.is_connected:
                    raise ConnectionError("the bus went away")
                mid = schema.msg_id(self.table_id, record.seq)
                sent = []
                link = self._linked(record)
                targets = [(self.subject, schema.record_message(self.settings.site, self.settings.pit,
                                                                  self.table_id, record), schema.JOURNAL_STREAM)]
                if link is not None:
                    targets.append((schema.link_in_subject(link, self.table_id), self._link_payload(record),
                                    schema.link_stream(link)))
                for n, (subject, payload, stream) in enumerate(targets):
                    token = f"{record.seq}-{n}-{self.tokens}"
                    self.tokens += 1
                    future: asyncio.Future[bool] = loop.create_future()
                    self.acks[token] = future
                    sent.append(future)
                    await self.nc.publish(subject, payload, reply=f"{self.inbox}.{token}",
                                          headers={"Nats-Msg-Id": mid, "Nats-Expected-Stream": stream})
                futures.append(sent)
            everything = [f for sent in futures for f in sent]
            await asyncio.wait(everything, timeout=5.0)
            failed: BaseException | None = None
            for record, sent in zip(batch, futures):
                for future in sent:
                    if not future.done():
                        failed = failed or TimeoutError(f"no acknowledgement for record {record.seq}")
                    elif future.exception() is not None:
                        failed = failed or future.exception()
                    elif failed is None:
                        self.resent_duplicates += bool(future.result())
                if failed is not None:
                    break
                self.outbox.acked = record.seq
                self.sent += 1
            if failed is not None:
                raise failed
        finally:
            for sent in futures:
                for future in sent:
                    if not future.done():
                        future.cancel()
                    elif not future.cancelled():
                        future.exception()  # looked at: the first failure is the one raised
            self.acks.clear()

    async def _on_ack(self, msg: Any) -> None:
        assert self.inbox is not None
        future = self.acks.pop(msg.subject[len(self.inbox) + 1:], None)
        if future is None or future.done():
            return
        if msg.headers and msg.headers.get("Status") == "503":
            future.set_exception(ConnectionError("no stream answers (503)"))
            return
        try:
            answer = json.loads(msg.data)
        except ValueError:
            future.set_exception(ValueError("not an acknowledgement"))
            return
        if "error" in answer:
            future.set_exception(RuntimeError(f"the stream refused it: {answer['error']}"))
        else:
            future.set_result(bool(answer.get("duplicate")))

    def _link_payload(self, record: Record) -> bytes:
        body = record.body
        if body["kind"] == "contribution":
            return schema.contribution_message(self.table_id, record.seq, body["meter"], int(body["amount"]),
                                               record.round)
        return schema.claim_message(self.table_id, record.seq, body["meter"], int(body["hit"]), body["terms"],
                                    body.get("seat"), body.get("hand"), int(body["round"]))

    async def _on_meter(self, msg: Any) -> None:
        try:
            data = schema.loads(msg.data, "meter")
        except schema.SchemaError as exc:
            log(logging.WARNING, "link meter message refused", error=str(exc))
            return
        link = data["link"]
        meter = self.meter_of_link.get(link)
        if meter is None:
            return
        self.heard[link] = time.monotonic()
        if self.table.meters.link_value.get(meter) != data["value"]:
            self.table.meters.link_value[meter] = int(data["value"])
            self._refresh()

    def _refresh(self) -> None:
        for listener in list(self.table.listeners):  # the displays show the link's meter (nothing to journal)
            listener(self.table, [])

    async def _answers(self, link: str) -> None:
        """The link's answers to this table's claims, from the start of its answer stream (few: hits are rare)."""
        from nats.js.api import DeliverPolicy

        meter = self.meter_of_link[link]

        async def on_answer(msg: Any) -> None:
            try:
                data = schema.loads(msg.data, "answer")
            except schema.SchemaError as exc:
                log(logging.WARNING, "link answer refused", error=str(exc))
                return
            if data["table"] != self.table_id:
                return
            self.table.record_meters(lambda m: m.answer(meter, int(data["round"]), int(data["hit"]),
                                                        int(data["amount"]), int(data["link_seq"]),
                                                        int(data["order"])))

        while True:
            try:
                await self.js.subscribe(schema.link_out_subject(link, self.table_id), cb=on_answer,
                                        stream=schema.link_out_stream(link), ordered_consumer=True,
                                        deliver_policy=DeliverPolicy.ALL, idle_heartbeat=1.0)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # no link stream yet, or the hub away
                log(logging.DEBUG, "link answers wait", link=link, error=repr(exc))
                await asyncio.sleep(1.0)

    async def _watch_link(self) -> None:
        """Four times a second: is each linked meter's link up for this table (heard, and nothing owed)?"""
        while True:
            still_cancelled()
            now = time.monotonic()
            for meter, link in self.links.items():
                heard = self.heard.get(link)
                if not self.connected:
                    up, why = False, "the table is not connected to the floor's bus"
                elif heard is None or now - heard > LINK_SILENT_S:
                    up, why = False, f"the link controller {link} is not heard"
                elif self.outbox.acked < self.owed:
                    up, why = False, f"the table still has contributions or claims to send to {link}"
                else:
                    up, why = True, f"{link} heard and every contribution and claim sent"
                if self.table.meters.link_up.get(meter) != up:
                    self.table.record_meters(lambda m, meter=meter, up=up, why=why: m.link_state(meter, up, why))
            await asyncio.sleep(0.25)
