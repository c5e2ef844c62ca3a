"""The link controller of one linked progressive: one meter for many tables, in the order of its own stream.

Tables publish contributions and hit claims to ``link.<link>.in.<table>``;
the stream ``LINK_<LINK>`` gives them one order. The controller applies each
message in that order, exactly once: it journals the change (its own journal,
kind ``link``, with the stream sequence it applied) and only then answers a
claim on ``link.<link>.out.<table>`` and shows the new meter on
``link.<link>.meter``. A hit freezes its amount from what the meter holds at
that moment (``contract.apply_meter``: a share rounded down, or a fixed prize
but never more than the meter holds) and the meter is reset to its base at
once, so the next claim in the stream is paid from the base and what was
contributed after the reset.

After a crash (even SIGKILL) the journal says the exact meter and the last
stream sequence applied; the controller carries on from the next one, and
sends again every answer the answer stream does not have (the bus drops
duplicates by message id ``<link>:<link seq>``). The meter is also a pure
function of the stream: ``replay`` rebuilds it from the stream's messages
alone, which is how an auditor checks it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from controller.floor import schema
from controller.floor.bus import connect_forever, ensure_stream, retrying, within
from controller.floor.security import BusRefused, Security
from controller.floor.settings import LinkConfig
from controller.games.contract import MeterChange, apply_meter
from controller.runtime.journal import Journal
from controller.runtime.logs import log


@dataclass
class LinkMeter:
    base: int
    value: int
    link_seq: int = 0
    hits: int = 0
    contributions: int = 0
    paid: int = 0
    resets: int = 0

    def apply(self, link_seq: int, message: Mapping[str, Any]) -> dict[str, Any]:
        """One input in stream order: the journal body of what it did (pure: the meter is the stream's function)."""
        self.link_seq = link_seq
        kind = message.get("type")
        out: dict[str, Any] = {"link_seq": link_seq, "table": message.get("table"), "seq": message.get("seq"),
                               "type": kind}
        if kind == "contribution":
            amount = message.get("amount")
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                return {**out, "refused": f"a contribution is a whole number of minor units, not {amount!r}"}
            self.value += amount
            self.contributions += amount
            return {**out, "amount": amount, "value": self.value}
        if kind == "claim":
            terms = message.get("terms") or {}
            share = terms.get("share")
            fixed = terms.get("fixed")
            if share is not None:
                if not (isinstance(share, list) and len(share) == 2 and all(isinstance(x, int) for x in share)
                        and 0 < share[0] <= share[1]):
                    return {**out, "refused": f"a share is [n, d] with 0 < n <= d, not {share!r}"}
                change = MeterChange("link", "hit", share=(share[0], share[1]))
            elif isinstance(fixed, int) and not isinstance(fixed, bool) and fixed > 0:
                change = MeterChange("link", "hit", fixed=fixed)
            else:
                return {**out, "refused": f"a claim needs a share or a fixed prize, not {terms!r}"}
            paid, self.value = apply_meter(self.value, change)
            self.hits += 1
            self.paid += paid
            reset = max(0, self.base - self.value)
            self.value += reset
            self.resets += reset
            return {**out, "amount": paid, "reset": reset, "value": self.value, "order": self.hits,
                    "hit": message.get("hit"), "round": message.get("round"), "meter": message.get("meter")}
        return {**out, "refused": f"unknown link message {kind!r}"}

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def replay(base: int, messages: Iterable[tuple[int, Mapping[str, Any]]]) -> LinkMeter:
    """The meter from the stream's messages alone (stream sequence, message), for an audit."""
    meter = LinkMeter(base, base)
    for seq, message in messages:
        meter.apply(seq, message)
    return meter


class LinkController:
    def __init__(self, config: LinkConfig, servers: tuple[str, ...], security: Security | None = None,
                 replicas: int = 1, domain: str | None = None) -> None:
        self.config, self.servers, self.security, self.replicas = config, servers, security, replicas
        self.domain = domain
        self.name = config.name
        self.journal = Journal(config.journal)
        last = self.journal.last("link")
        if last is not None:
            self.meter = LinkMeter(**last.body["meter"])
        else:
            self.meter = LinkMeter(config.base, config.base)
        if self.meter.base != config.base:  # a new base applies from the next reset on
            self.meter.base = config.base
        self.journal.append([("start", 0, {"link": self.name, "meter": self.meter.to_json()})])
        self.js: Any = None
        self.nc: Any = None
        self.answers_behind = True

    async def run(self, stop: asyncio.Event) -> None:
        try:
            self.nc = await connect_forever(self.servers, f"link {self.name}", self.security, self._on_change)
        except BusRefused:
            self.journal.close()
            raise
        self.js = self.nc.jetstream(timeout=3, domain=self.domain)
        await retrying("make the link streams", self._streams)
        tasks = [asyncio.create_task(self._consume()), asyncio.create_task(self._beat())]
        try:
            await stop.wait()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await within(self.nc.close(), 2.0)
            self.journal.close()

    def _on_change(self, up: bool) -> None:
        if up:
            self.answers_behind = True

    async def _streams(self) -> None:
        await ensure_stream(self.js, schema.link_stream(self.name), [f"link.{self.name}.in.*"], self.replicas)
        await ensure_stream(self.js, schema.link_out_stream(self.name), [f"link.{self.name}.out.*"], self.replicas)

    async def _consume(self) -> None:
        while True:
            try:
                async def on_msg(msg: Any) -> None:
                    await self._apply(msg.metadata.sequence.stream, msg.data)

                config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                        opt_start_seq=self.meter.link_seq + 1)
                await self.js.subscribe(f"link.{self.name}.in.*", cb=on_msg, stream=schema.link_stream(self.name),
                                        ordered_consumer=True, idle_heartbeat=1.0, config=config)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log(logging.DEBUG, "link consumer waits", link=self.name, error=repr(exc))
                await asyncio.sleep(0.5)

    async def _apply(self, link_seq: int, data: bytes) -> None:
        if link_seq <= self.meter.link_seq:
            return  # applied before (a redelivery after a restart or a consumer reset)
        if link_seq != self.meter.link_seq + 1:
            log(logging.WARNING, "link stream skipped messages", link=self.name, have=self.meter.link_seq,
                got=link_seq)  # removed from the stream by its limits: applied as the stream holds it
        try:
            message: Mapping[str, Any] = schema.loads(data, "contribution")
        except schema.SchemaError:
            try:
                message = schema.loads(data, "claim")
            except schema.SchemaError as exc:
                message = {"type": "unreadable", "error": str(exc)}
        body = self.meter.apply(link_seq, message)
        self.journal.append([("link", 0, {**body, "meter": self.meter.to_json()})])  # before anyone hears of it
        if body.get("type") == "claim" and "refused" not in body:
            await self._answer(body)
        await self._show()

    async def _answer(self, body: Mapping[str, Any]) -> None:
        payload = schema.answer_message(self.name, int(body["link_seq"]), str(body["table"]), int(body["hit"]),
                                        int(body["amount"]), int(body["value"]), int(body["order"]),
                                        int(body["seq"]), int(body["round"]))
        try:
            await self.js.publish(schema.link_out_subject(self.name, str(body["table"])), payload,
                                  headers={"Nats-Msg-Id": f"{self.name}:{body['link_seq']}"},
                                  stream=schema.link_out_stream(self.name))
        except Exception as exc:
            log(logging.WARNING, "link answer not sent yet", link=self.name, error=repr(exc))
            self.answers_behind = True

    async def _catch_up_answers(self) -> None:
        """Send again every journaled answer the answer stream does not have (after a crash or an outage)."""
        try:
            info = await self.js.stream_info(schema.link_out_stream(self.name))
            last_seq = 0
            if info.state.messages:
                last = await self.js.get_msg(schema.link_out_stream(self.name), seq=info.state.last_seq)
                last_seq = int(schema.loads(last.data, "answer")["link_seq"])
        except NotFoundError:
            return
        self.answers_behind = False
        for record in self.journal.records(kinds=("link",)):
            body = record.body
            if body.get("type") == "claim" and "refused" not in body and body["link_seq"] > last_seq:
                await self._answer(body)

    async def _show(self) -> None:
        try:
            await self.nc.publish(schema.link_meter_subject(self.name),
                                  schema.meter_message(self.name, self.meter.value, self.meter.link_seq,
                                                       self.meter.hits))
        except Exception:
            pass

    async def _beat(self) -> None:
        while True:
            if self.answers_behind and self.nc.is_connected:
                try:
                    await self._catch_up_answers()
                except Exception as exc:
                    log(logging.DEBUG, "link answers wait", link=self.name, error=repr(exc))
            await self._show()
            await asyncio.sleep(1.0)
