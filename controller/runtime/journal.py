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
a latched fault), ``meter``, ``fault``, ``clear``, ``command``, ``shoe``,
``link`` (a device frame that changed nothing, journaled only for its position).

A device frame's position (``tag``) goes into the body of the first record of
the transaction that holds the frame (``"link": {"device": ..., ...}``) and
into the ``links`` table in that same transaction, so that after a crash the
journal says exactly which frames it holds (controller/runtime/exactly_once.py).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

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
    hash TEXT NOT NULL,
    sig TEXT
);
CREATE INDEX IF NOT EXISTS records_round ON records(round, kind);
CREATE TABLE IF NOT EXISTS meters (
    name TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    device TEXT PRIMARY KEY,
    position TEXT NOT NULL,
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
    sig: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"seq": self.seq, "mono_ns": self.mono_ns, "wall_ns": self.wall_ns, "kind": self.kind,
               "round": self.round, "body": self.body, "prev": self.prev, "hash": self.hash}
        if self.sig is not None:
            out["sig"] = self.sig
        return out


def canonical(body: Mapping[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hashed_text(seq: int, mono_ns: int, wall_ns: int, kind: str, round_: int, body_text: str, prev: str) -> bytes:
    """The exact bytes a record's hash is taken over (its canonical bytes)."""
    return f"{seq}|{mono_ns}|{wall_ns}|{kind}|{round_}|{prev}|{body_text}".encode("utf-8")


def record_hash(seq: int, mono_ns: int, wall_ns: int, kind: str, round_: int, body_text: str, prev: str) -> str:
    return hashlib.sha256(hashed_text(seq, mono_ns, wall_ns, kind, round_, body_text, prev)).hexdigest()


CHECKPOINT_AFTER_COMMITS = 100  # an idle checkpoint after this many commits (a card's commit: 2 to 3 WAL pages)


class Journal:
    """One table's journal file. Not thread-safe: only the event loop uses it."""

    def __init__(self, path: str | Path, *, readonly: bool = False, sign: Callable[[str], str] | None = None,
                 on_commit: Callable[[int, str], None] | None = None) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.broken: str | None = None
        self.sign = sign  # record hash -> signature (controller/runtime/integrity.py); None: unsigned
        self.on_commit = on_commit  # (seq, head hash) after each commit: the sealed state file follows the head
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
                if "sig" not in self._columns():
                    self._db.execute("ALTER TABLE records ADD COLUMN sig TEXT")  # a journal from before signatures
            self.signed = "sig" in self._columns()
            self._sig = "sig" if self.signed else "NULL"
            row = self._db.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"{self.path}: cannot open the journal: {exc}") from None
        self.last_seq: int = row[0] if row else 0
        self.last_hash: str = row[1] if row else GENESIS
        self._tag: dict[str, Any] | None = None
        self.commits_since_checkpoint = 0

    def _columns(self) -> set[str]:
        return {row[1] for row in self._db.execute("PRAGMA table_info(records)")}

    def close(self) -> None:
        try:
            self._db.close()
        except sqlite3.Error:
            pass

    # -- writing

    def tag(self, device: str, position: Mapping[str, Any]) -> None:
        """The next committed batch holds a frame from ``device`` at ``position``: journal the position with it."""
        self._tag = {"device": device, **position}

    def untag(self) -> bool:
        """Drop a tag no batch took; True if there was one (nothing was journaled since ``tag``)."""
        pending, self._tag = self._tag is not None, None
        return pending

    def append(self, entries: Sequence[tuple[str, int, Mapping[str, Any]]],
               meters: Mapping[str, Mapping[str, Any]] | None = None) -> list[Record]:
        """Write ``(kind, round, body)`` entries and the meter states in one committed transaction."""
        if self.broken:
            raise JournalError(self.broken)
        seq, prev = self.last_seq, self.last_hash
        out: list[Record] = []
        rows = []
        tag, link_seq = self._tag, 0
        if tag is not None and entries:
            kind, round_, body = entries[0]
            entries = [(kind, round_, {**body, "link": tag})] + list(entries[1:])
            link_seq = seq + 1
        for kind, round_, body in entries:
            seq += 1
            mono, wall = time.monotonic_ns(), time.time_ns()
            text = canonical(body)
            digest = record_hash(seq, mono, wall, kind, round_, text, prev)
            sig = self.sign(digest) if self.sign is not None else None
            rows.append((seq, mono, wall, kind, round_, text, prev, digest, sig))
            out.append(Record(seq, mono, wall, kind, round_, body, prev, digest, sig))
            prev = digest
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO records (seq, mono_ns, wall_ns, kind, round, body, prev, hash, sig) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            for name, state in (meters or {}).items():
                self._db.execute("INSERT OR REPLACE INTO meters VALUES (?, ?, ?)", (name, canonical(state), seq))
            if link_seq and tag is not None:
                self._db.execute("INSERT OR REPLACE INTO links VALUES (?, ?, ?)",
                                 (tag["device"], canonical(tag), link_seq))
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as exc:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self.broken = f"{self.path}: cannot commit: {exc}"
            raise JournalError(self.broken) from None
        self.last_seq, self.last_hash = seq, prev
        self.commits_since_checkpoint += 1
        if link_seq:
            self._tag = None
        if self.on_commit is not None:
            self.on_commit(seq, prev)
        return out

    def checkpoint(self) -> int | None:
        """Copy the committed WAL frames into the database file, without waiting for any reader (PASSIVE).

        Each commit is durable once its frames are in the WAL and synced (``synchronous=FULL``); a checkpoint only
        moves what is already committed. Once every frame is copied, the next commit writes the WAL from its start,
        over blocks the disk already holds, instead of making the file longer; that commit also syncs the WAL's
        new header (one more sync), hence ``checkpoint_due``. SQLite's own checkpoint at 1,000 pages, inside a
        commit, stays as the fallback. Returns the frames still to copy (0: all), or None when there is nothing to
        do it on (read-only, broken, closed or an error: the next commit reports a real fault).
        """
        if self.readonly or self.broken:
            return None
        try:
            _busy, frames, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:
            return None
        self.commits_since_checkpoint = 0
        return max(frames - copied, 0) if frames >= 0 else None

    @property
    def checkpoint_due(self) -> bool:
        """Enough commits since the last checkpoint (about 1 MB of WAL) to be worth one when the table is idle."""
        return self.commits_since_checkpoint >= CHECKPOINT_AFTER_COMMITS

    # -- reading

    def records(self, since: int = 0, kinds: Sequence[str] | None = None, round_: int | None = None,
                until: int | None = None) -> Iterator[Record]:
        sql = f"SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash, {self._sig} FROM records WHERE seq > ?"
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
            yield Record(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8])

    def raw_rows(self) -> Iterator[tuple[Any, ...]]:
        """Every record as stored (the body as its exact text), for ``verify``."""
        yield from self._db.execute("SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash FROM records ORDER BY seq")

    def signed_rows(self, since: int = 0) -> Iterator[tuple[Any, ...]]:
        """Records after ``since`` as stored, with their signature (None where unsigned), for the integrity check."""
        sig = "sig" if self.signed else "NULL"
        yield from self._db.execute(f"SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash, {sig} FROM records "
                                    "WHERE seq > ? ORDER BY seq", (since,))

    def hash_of(self, seq: int) -> str | None:
        """The stored hash of record ``seq``, or None where there is no such record."""
        row = next(self._db.execute("SELECT hash FROM records WHERE seq = ?", (seq,)), None)
        return None if row is None else str(row[0])

    def last(self, kind: str) -> Record | None:
        for record in self._query("kind = ? ORDER BY seq DESC LIMIT 1", kind):
            return record
        return None

    def _query(self, where: str, *args: Any) -> Iterator[Record]:
        sql = f"SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash, {self._sig} FROM records WHERE " + where
        for row in self._db.execute(sql, args):
            yield Record(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8])

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

    def completed_rounds(self, limit: int) -> list[Record]:
        """The last ``limit`` accepted events that completed a round, newest first (the dealer terminal's history)."""
        return list(self._query("kind = 'event' AND json_extract(body, '$.complete') = 1 ORDER BY seq DESC LIMIT ?",
                                limit))

    def console_records_since(self, wall_ns: int) -> list[Record]:
        """The ``console`` records (logins, failures, privileged commands) written after ``wall_ns``, oldest first."""
        return list(self._query("kind = 'console' AND wall_ns > ? ORDER BY seq", wall_ns))

    def count_cards_since(self, seq: int) -> int:
        """Cards that left the shoe after record ``seq`` (accepted, rejected or refused)."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM records WHERE seq > ? AND kind IN ('event', 'reject', 'refuse') "
            "AND json_extract(body, '$.event.type') = 'card'", (seq,)).fetchone()
        return int(row[0])

    def stored_meters(self) -> dict[str, dict[str, Any]]:
        return {name: json.loads(state) for name, state, _ in self._db.execute("SELECT name, state, seq FROM meters")}

    def link_positions(self) -> dict[str, tuple[dict[str, Any], int]]:
        """Device -> (its last journaled frame position, the record that holds it)."""
        try:
            rows = self._db.execute("SELECT device, position, seq FROM links").fetchall()
        except sqlite3.Error:
            return {}  # a journal written before positions were kept
        return {device: (json.loads(position), seq) for device, position, seq in rows}

    def set_query_only(self, on: bool = True) -> None:
        """Make every later write fail as on a read-only disk (the fault tests use this)."""
        self._db.execute(f"PRAGMA query_only={'ON' if on else 'OFF'}")
