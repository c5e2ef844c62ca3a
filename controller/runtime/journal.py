"""The journal: an append-only, hash-chained record of everything the table did (SQLite, WAL, FULL sync).

Each record has a sequence number, the monotonic and the wall time, a kind,
the round it belongs to, a JSON body, the hash of the record before it and
its own hash. ``append`` writes a batch of records, and the stored meter
values, in one transaction and returns only once it is committed: that is the
write-ahead point after which effects may be shown. A commit that fails (disk
full, read-only) raises ``JournalError`` and leaves nothing half-written; the
journal then refuses every later write until the daemon restarts.

Kinds: ``start``, ``round_open``, ``event`` (an accepted input and its
effects), ``reject`` (the game refused it), ``refuse`` (the runtime refused it:
a latched fault), ``meter``, ``fault``, ``clear``, ``command``, ``shoe``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

GENESIS = "0" * 64
SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    mono_ns INTEGER NOT NULL,
    wall_ns INTEGER NOT NULL,
    kind TEXT NOT NULL,
    round INTEGER NOT NULL,
    body TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_round ON records(round, kind);
CREATE TABLE IF NOT EXISTS meters (
    name TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    seq INTEGER NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or cannot commit (disk full, read-only, corrupt)."""


@dataclass(frozen=True, slots=True)
class Record:
    seq: int
    mono_ns: int
    wall_ns: int
    kind: str
    round: int
    body: Mapping[str, Any]
    prev: str
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "mono_ns": self.mono_ns, "wall_ns": self.wall_ns, "kind": self.kind,
                "round": self.round, "body": self.body, "prev": self.prev, "hash": self.hash}


def canonical(body: Mapping[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_hash(seq: int, mono_ns: int, wall_ns: int, kind: str, round_: int, body_text: str, prev: str) -> str:
    text = f"{seq}|{mono_ns}|{wall_ns}|{kind}|{round_}|{prev}|{body_text}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Journal:
    """One table's journal file. Not thread-safe: only the event loop uses it."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.broken: str | None = None
        try:
            if readonly:
                if not self.path.is_file():
                    raise JournalError(f"{self.path}: no journal here")
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(str(self.path), isolation_level=None)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"{self.path}: cannot open the journal: {exc}") from None
        self.last_seq, self.last_hash = (row[0], row[1]) if row else (0, GENESIS)

    def close(self) -> None:
        try:
            self._db.close()
        except sqlite3.Error:
            pass

    # -- writing

    def append(self, entries: Sequence[tuple[str, int, Mapping[str, Any]]],
               meters: Mapping[str, Mapping[str, Any]] | None = None) -> list[Record]:
        """Write ``(kind, round, body)`` entries and the meter states in one committed transaction."""
        if self.broken:
            raise JournalError(self.broken)
        seq, prev = self.last_seq, self.last_hash
        out: list[Record] = []
        rows = []
        for kind, round_, body in entries:
            seq += 1
            mono, wall = time.monotonic_ns(), time.time_ns()
            text = canonical(body)
            digest = record_hash(seq, mono, wall, kind, round_, text, prev)
            rows.append((seq, mono, wall, kind, round_, text, prev, digest))
            out.append(Record(seq, mono, wall, kind, round_, body, prev, digest))
            prev = digest
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            for name, state in (meters or {}).items():
                self._db.execute("INSERT OR REPLACE INTO meters VALUES (?, ?, ?)", (name, canonical(state), seq))
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as exc:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self.broken = f"{self.path}: cannot commit: {exc}"
            raise JournalError(self.broken) from None
        self.last_seq, self.last_hash = seq, prev
        return out

    # -- reading

    def records(self, since: int = 0, kinds: Sequence[str] | None = None, round_: int | None = None,
                until: int | None = None) -> Iterator[Record]:
        sql = "SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash FROM records WHERE seq > ?"
        args: list[Any] = [since]
        if until is not None:
            sql += " AND seq <= ?"
            args.append(until)
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        if round_ is not None:
            sql += " AND round = ?"
            args.append(round_)
        for row in self._db.execute(sql + " ORDER BY seq", args):
            yield Record(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7])

    def raw_rows(self) -> Iterator[tuple[Any, ...]]:
        """Every record as stored (the body as its exact text), for ``verify``."""
        yield from self._db.execute("SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash FROM records ORDER BY seq")

    def last(self, kind: str) -> Record | None:
        for record in self._query("kind = ? ORDER BY seq DESC LIMIT 1", kind):
            return record
        return None

    def _query(self, where: str, *args: Any) -> Iterator[Record]:
        sql = "SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash FROM records WHERE " + where
        for row in self._db.execute(sql, args):
            yield Record(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7])

    def last_new_shoe(self) -> Record | None:
        """The last ``shoe`` record that started a new shoe (``note`` ``new_shoe``), if any."""
        for record in self._query("kind = 'shoe' AND json_extract(body, '$.note') = 'new_shoe' "
                                  "ORDER BY seq DESC LIMIT 1"):
            return record
        return None

    def recent_outcomes(self, limit: int) -> list[Record]:
        """The last ``limit`` accepted events that carry an outcome, oldest first (the sign's last results)."""
        recent = list(self._query("kind = 'event' AND body LIKE ? ORDER BY seq DESC LIMIT ?", '%"outcome"%', limit))
        return list(reversed(recent))

    def count_cards_since(self, seq: int) -> int:
        """Cards that left the shoe after record ``seq`` (accepted, rejected or refused)."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM records WHERE seq > ? AND kind IN ('event', 'reject', 'refuse') "
            "AND json_extract(body, '$.event.type') = 'card'", (seq,)).fetchone()
        return int(row[0])

    def stored_meters(self) -> dict[str, dict[str, Any]]:
        return {name: json.loads(state) for name, state, _ in self._db.execute("SELECT name, state, seq FROM meters")}

    def set_query_only(self, on: bool = True) -> None:
        """Make every later write fail as on a read-only disk (the fault tests use this)."""
        self._db.execute(f"PRAGMA query_only={'ON' if on else 'OFF'}")
