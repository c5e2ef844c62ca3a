"""Subjects and message formats of the floor link, version 1 (docs/floor.md is the reader's copy).

Every message body is one JSON object (UTF-8) with ``"v": 1``. A reader that
sees a higher ``v`` it does not know refuses the message and says so.

Subjects (``site``, ``pit``, ``table`` and ``link`` are names of lower-case
letters, digits, ``-`` and ``_``: one NATS token each):

- ``casino.<site>.<pit>.<table>.journal``: every committed journal record of a
  table (stream ``TABLES``), message id ``<table>:<seq>``;
- ``link.<link>.in.<table>``: a table's contributions and hit claims to a linked
  progressive (stream ``LINK_<LINK>``), message id ``<table>:<seq>`` (the seq of
  the table's journal record that made it);
- ``link.<link>.out.<table>``: the link's answer to each claim (stream
  ``LINKOUT_<LINK>``), message id ``<link>:<link seq>``;
- ``link.<link>.meter``: the link's meter, once a second and after every change
  (core NATS, not stored: the link's stream is the record);
- ``floor.<floor>.query``: request/reply, the floor's state as JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from controller.runtime.journal import GENESIS, Record, canonical, record_hash

VERSION = 1
TOKEN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
JOURNAL_STREAM = "TABLES"
JOURNAL_SUBJECTS = "casino.*.*.*.journal"


class SchemaError(ValueError):
    """A message that is not a valid floor-link message; the text says what is wrong."""


def check_token(what: str, value: object) -> str:
    if not isinstance(value, str) or not TOKEN.match(value):
        raise SchemaError(f"{what} {value!r} is not a name of lower-case letters, digits, '-' or '_' (up to 32)")
    return value


def journal_subject(site: str, pit: str, table: str) -> str:
    return f"casino.{site}.{pit}.{table}.journal"


def link_in_subject(link: str, table: str) -> str:
    return f"link.{link}.in.{table}"


def link_out_subject(link: str, table: str) -> str:
    return f"link.{link}.out.{table}"


def link_meter_subject(link: str) -> str:
    return f"link.{link}.meter"


def link_stream(link: str) -> str:
    return "LINK_" + link.upper().replace("-", "_")


def link_out_stream(link: str) -> str:
    return "LINKOUT_" + link.upper().replace("-", "_")


def query_subject(floor: str) -> str:
    return f"floor.{floor}.query"


def msg_id(table: str, seq: int) -> str:
    return f"{table}:{seq}"


def dumps(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def loads(data: bytes, kind: str) -> dict[str, Any]:
    """Parse a message body and check its version and kind; ``SchemaError`` names the problem."""
    try:
        out = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SchemaError(f"not a JSON message: {exc}") from None
    if not isinstance(out, dict):
        raise SchemaError("a message is one JSON object")
    if out.get("v") != VERSION:
        raise SchemaError(f"message version {out.get('v')!r}: this reader knows version {VERSION}")
    if out.get("type") != kind:
        raise SchemaError(f"a {out.get('type')!r} message where a {kind!r} was expected")
    return out


# ---------------------------------------------------------------------------- journal records


def record_message(site: str, pit: str, table: str, record: Record) -> bytes:
    """A committed journal record as the floor reads it: every field the hash covers, as stored."""
    return dumps({"v": VERSION, "type": "record", "site": site, "pit": pit, "table": table,
                  "seq": record.seq, "mono_ns": record.mono_ns, "wall_ns": record.wall_ns, "kind": record.kind,
                  "round": record.round, "body": record.body, "prev": record.prev, "hash": record.hash,
                  **({"sig": sig} if (sig := getattr(record, "sig", None)) else {})})


@dataclass(frozen=True, slots=True)
class Received:
    site: str
    pit: str
    table: str
    record: Record
    sig: str | None = None


def parse_record(data: bytes) -> Received:
    m = loads(data, "record")
    try:
        record = Record(int(m["seq"]), int(m["mono_ns"]), int(m["wall_ns"]), str(m["kind"]), int(m["round"]),
                        m["body"], str(m["prev"]), str(m["hash"]))
        return Received(check_token("site", m["site"]), check_token("pit", m["pit"]),
                        check_token("table", m["table"]), record, m.get("sig"))
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(f"a record message without a valid {exc}") from None


def recomputed_hash(record: Record) -> str:
    return record_hash(record.seq, record.mono_ns, record.wall_ns, record.kind, record.round,
                       canonical(record.body), record.prev)


class Chain:
    """One table's hash chain as records arrive: ``check`` says ``ok``, ``duplicate`` or raises ``ChainBroken``."""

    def __init__(self, last_seq: int = 0, last_hash: str = GENESIS) -> None:
        self.last_seq, self.last_hash = last_seq, last_hash
        self.hashes: dict[int, str] = {}  # the last few, to tell a duplicate from a forgery

    def check(self, record: Record) -> str:
        if record.seq <= self.last_seq:
            known = self.hashes.get(record.seq)
            if known is not None and known != record.hash:
                raise ChainBroken(f"record {record.seq} arrived again with a different hash")
            return "duplicate"
        if record.seq != self.last_seq + 1:
            raise ChainBroken(f"records {self.last_seq + 1} to {record.seq - 1} are missing "
                              f"(record {record.seq} arrived after {self.last_seq})")
        if record.prev != self.last_hash:
            raise ChainBroken(f"record {record.seq} does not follow record {self.last_seq} (its prev hash differs)")
        if recomputed_hash(record) != record.hash:
            raise ChainBroken(f"record {record.seq} does not match its own hash (edited)")
        self.last_seq, self.last_hash = record.seq, record.hash
        self.hashes[record.seq] = record.hash
        if len(self.hashes) > 4096:
            for seq in sorted(self.hashes)[:2048]:
                del self.hashes[seq]
        return "ok"

    def accept(self, record: Record) -> None:
        """After an alarm: carry on from this record (the floor alarm stays on record)."""
        self.last_seq, self.last_hash = record.seq, record.hash
        self.hashes[record.seq] = record.hash


class ChainBroken(Exception):
    """A gap or a break in a table's chain; the message names the records."""


# ---------------------------------------------------------------------------- linked progressives


def contribution_message(table: str, seq: int, meter: str, amount: int, round_: int) -> bytes:
    return dumps({"v": VERSION, "type": "contribution", "table": table, "seq": seq, "meter": meter,
                  "amount": amount, "round": round_})


def claim_message(table: str, seq: int, meter: str, hit: int, terms: Mapping[str, Any], seat: Any,
                  hand: Any, round_: int) -> bytes:
    return dumps({"v": VERSION, "type": "claim", "table": table, "seq": seq, "meter": meter, "hit": hit,
                  "terms": dict(terms), "seat": seat, "hand": hand, "round": round_})


def answer_message(link: str, link_seq: int, table: str, hit: int, amount: int, value: int, order: int,
                   claim_seq: int, round_: int) -> bytes:
    return dumps({"v": VERSION, "type": "answer", "link": link, "link_seq": link_seq, "table": table, "hit": hit,
                  "amount": amount, "value": value, "order": order, "claim_seq": claim_seq, "round": round_})


def meter_message(link: str, value: int, link_seq: int, hits: int) -> bytes:
    return dumps({"v": VERSION, "type": "meter", "link": link, "value": value, "link_seq": link_seq, "hits": hits})
