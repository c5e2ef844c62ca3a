"""The journal checks itself: Ed25519-signed records, the chain checked at start, the sealed state beside it.

Every record's hash (controller/runtime/journal.py: SHA-256 over its
canonical bytes and the hash before it) is signed with the table's Ed25519
key; the signature is the record's ``sig``. Anyone with the table's public
key (the floor, an auditor) checks a record with ``verify_record``; nobody
without the private key can edit, insert, reorder or re-hash a record
unseen, and the sealed state file (statefile.py) says where the journal
ended, so a cut tail or a missing, empty or truncated journal is refused too.

Key files: ``journal.sqlite.key`` (the private key, PKCS#8 PEM, mode 0600,
made at installation or at the table's very first start, readable only by the
service user) and ``journal.sqlite.key.pub`` (the public key, 64 hex digits,
for the floor and the auditors).

``open_journal`` is what ``tablectl run`` does before it plays: it checks the
key, the state file and the chain from the last verified point to the end
(every record's hash, link and signature; every round opened since replayed
through the game code), and returns the journal to write to, or the first
problem (the table then latches ``integrity`` and takes no input).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.runtime.journal import GENESIS, Journal, JournalError, canonical, hashed_text
from controller.runtime.statefile import SealedState, StateError

RECORD_DOMAIN = b"tablectl journal record v1\n"
STATE_DOMAIN = b"tablectl table state v1\n"


class IntegrityError(RuntimeError):
    """The journal, its key or its state file failed a check; the message names the first bad thing."""


# -- the public API (the floor link uses these)


def canonical_bytes(record: Mapping[str, Any]) -> bytes:
    """The bytes a record's hash is taken over, from its JSON form (``Record.to_json()``, a floor message)."""
    body = record["body"]
    text = body if isinstance(body, str) else canonical(body)
    return hashed_text(int(record["seq"]), int(record["mono_ns"]), int(record["wall_ns"]), str(record["kind"]),
                       int(record["round"]), text, str(record["prev"]))


def public_key_from_hex(text: str) -> Ed25519PublicKey:
    """The table's public key from its 64 hex digits (``journal.sqlite.key.pub``); ``ValueError`` if it is none."""
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text.strip()))


def verify_record(record: Mapping[str, Any], prev_hash: str, public_key: Ed25519PublicKey | None) -> str | None:
    """None if ``record`` follows ``prev_hash``, hashes to its ``hash`` and carries the table's signature;
    else what is wrong, in one line naming the record. ``public_key`` None checks the chain only."""
    try:
        seq = int(record["seq"])
        if record["prev"] != prev_hash:
            return f"record {seq}: does not carry the hash of the record before it (deleted, inserted or reordered)"
        if hashlib.sha256(canonical_bytes(record)).hexdigest() != record["hash"]:
            return f"record {seq}: its hash does not match its contents (edited)"
        if public_key is None:
            return None
        sig = record.get("sig")
        if not sig:
            return f"record {seq}: not signed"
        try:
            public_key.verify(bytes.fromhex(sig), RECORD_DOMAIN + str(record["hash"]).encode("ascii"))
        except (InvalidSignature, ValueError):
            return f"record {seq}: its signature is not the table's (forged or re-hashed)"
    except (KeyError, TypeError, ValueError) as exc:
        return f"record {record.get('seq', '?') if isinstance(record, Mapping) else '?'}: malformed ({exc})"
    return None


def fault_name(problem: str) -> str:
    """``integrity.record_17`` for a problem that names record 17, ``integrity.round_4`` for round 4, else
    ``integrity.journal`` (a missing, empty or damaged file, its key or its state file)."""
    match = re.match(r"(record|round) (\d+)\b", problem)
    return f"integrity.{match.group(1)}_{match.group(2)}" if match else "integrity.journal"


# -- the table's key


class TableKey:
    """The table's Ed25519 key pair (the private key file is the service user's alone)."""

    def __init__(self, private: Ed25519PrivateKey, path: Path) -> None:
        self.private = private
        self.public = private.public_key()
        self.path = path

    @staticmethod
    def where(journal_path: Path) -> Path:
        return journal_path.with_name(journal_path.name + ".key")

    @property
    def public_hex(self) -> str:
        return self.public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    @classmethod
    def create(cls, path: Path) -> "TableKey":
        """A new key: the private key written 0600 (never readable by anyone else), the public key beside it."""
        private = Ed25519PrivateKey.generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
            handle.flush()
            os.fsync(handle.fileno())
        key = cls(private, path)
        Path(str(path) + ".pub").write_text(key.public_hex + "\n", encoding="ascii")
        return key

    @classmethod
    def load(cls, path: Path) -> "TableKey":
        try:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as exc:
            raise IntegrityError(f"{path}: the table's signing key cannot be read: {exc}") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise IntegrityError(f"{path}: not an Ed25519 key")
        return cls(private, path)

    def sign_record(self, digest: str) -> str:
        return self.private.sign(RECORD_DOMAIN + digest.encode("ascii")).hex()

    def sign_state(self, data: bytes) -> str:
        return self.private.sign(STATE_DOMAIN + data).hex()

    def check_state(self, data: bytes, sig: str) -> bool:
        try:
            self.public.verify(bytes.fromhex(sig), STATE_DOMAIN + data)
        except (InvalidSignature, ValueError):
            return False
        return True


def find_public_key(journal_path: Path) -> Ed25519PublicKey | None:
    """The public key beside a journal (``.key.pub``), or None when there is none."""
    pub = Path(str(TableKey.where(journal_path)) + ".pub")
    try:
        return public_key_from_hex(pub.read_text(encoding="ascii"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None


# -- checking a stored chain


@dataclass
class ChainCheck:
    last_seq: int
    last_hash: str
    checked: int
    problem: str | None = None


def check_rows(rows: Iterable[tuple[Any, ...]], since_seq: int, since_hash: str,
               public_key: Ed25519PublicKey | None) -> ChainCheck:
    """Check stored rows (``Journal.signed_rows``) that follow record ``since_seq`` with hash ``since_hash``."""
    prev, expected, checked = since_hash, since_seq + 1, 0
    try:
        for seq, mono, wall, kind, round_, body, prev_stored, digest, sig in rows:
            if seq != expected:
                return ChainCheck(expected - 1, prev, checked,
                                  f"record {expected}: missing (the next record is {seq}: deleted or renumbered)")
            record = {"seq": seq, "mono_ns": mono, "wall_ns": wall, "kind": kind, "round": round_, "body": body,
                      "prev": prev_stored, "hash": digest, "sig": sig}
            problem = verify_record(record, prev, public_key)
            if problem is not None:
                return ChainCheck(expected - 1, prev, checked, problem)
            try:
                parsed = json.loads(body)
            except (ValueError, RecursionError):
                parsed = None
            if not isinstance(parsed, dict):
                return ChainCheck(expected - 1, prev, checked, f"record {seq}: its body is not a JSON object")
            prev, expected, checked = digest, seq + 1, checked + 1
    except sqlite3.DatabaseError as exc:
        return ChainCheck(expected - 1, prev, checked,
                          f"record {expected}: the journal file is damaged there ({exc})")
    return ChainCheck(expected - 1, prev, checked)


def hash_at(journal: Journal, seq: int) -> str | None:
    if seq == 0:
        return GENESIS
    return journal.hash_of(seq)


# -- what `run` does before it plays


@dataclass
class Opened:
    """The journal to play on (signing, the state file following its head), or the problem that stops the table."""

    journal: Journal
    state: SealedState | None
    key: TableKey | None
    problem: str | None = None
    checked: int = 0
    created: bool = False


def _has_content(path: Path) -> bool:
    return path.exists() and path.stat().st_size > 0


def _refuse(path: Path, problem: str) -> Opened:
    """A journal nobody writes to and nothing reads from: an empty one in memory (the file is left as it is,
    for the technician and the auditor; nothing of it is trusted, so nothing of it is shown or replayed)."""
    journal = Journal(":memory:")
    journal.broken = f"integrity: {problem}"
    return Opened(journal, None, None, problem)


def open_journal(journal_path: Path, table_id: str,
                 replay: Callable[[Journal, int], list[str]] | None = None) -> Opened:
    """Check the key, the sealed state and the chain since the last verified point; open the journal to write.

    ``replay(journal, since)`` replays every round opened after record ``since`` and lists what differs.
    """
    key_path, state_path = TableKey.where(journal_path), SealedState.where(journal_path)
    created = False
    try:
        if not key_path.exists():
            if state_path.exists() or _has_content(journal_path):
                return _refuse(journal_path, f"the table's signing key {key_path} is missing")
            key = TableKey.create(key_path)  # the table's very first start: nothing here yet
            created = True
        else:
            key = TableKey.load(key_path)
    except (IntegrityError, OSError) as exc:
        return _refuse(journal_path, str(exc))
    state = SealedState(state_path, key.sign_state, key.check_state)
    data: dict[str, Any] | None = None
    if state.exists():
        try:
            data = state.load()
        except StateError as exc:
            return _refuse(journal_path, str(exc))
        if data.get("table") != table_id:
            return _refuse(journal_path, f"{state_path}: the state is table {data.get('table')!r}'s, "
                                         f"not {table_id!r}'s")
        if data.get("public_key") != key.public_hex:
            return _refuse(journal_path, f"{state_path}: sealed for another key than {key_path}")
    elif _has_content(journal_path):
        return _refuse(journal_path, f"the table's sealed state file {state_path} is missing "
                                     f"(it says where the journal ended)")
    head: dict[str, Any] = data["head"] if data else {"seq": 0, "hash": GENESIS}
    verified: dict[str, Any] = data["verified"] if data else {"seq": 0, "hash": GENESIS}
    if data is not None and head["seq"] > 0 and not _has_content(journal_path):
        return _refuse(journal_path, f"{journal_path}: the journal is {'empty' if journal_path.exists() else 'missing'}"
                                     f"; the table was at record {head['seq']}")
    checked = 0
    if journal_path.exists():
        try:
            reader = Journal(journal_path, readonly=True)
        except JournalError as exc:
            return _refuse(journal_path, str(exc))
        try:
            if head["seq"] > reader.last_seq:
                return _refuse(journal_path, f"{journal_path}: the journal ends at record {reader.last_seq}, but the "
                                             f"table's last known position is record {head['seq']} (records cut off)")
            for name, point in (("verified", verified), ("head", head)):
                if hash_at(reader, point["seq"]) != point["hash"]:
                    return _refuse(journal_path, f"record {point['seq']}: not the record the table sealed as its "
                                                 f"{name} position (edited, replaced or renumbered)")
            result = check_rows(reader.signed_rows(since=verified["seq"]), verified["seq"], verified["hash"],
                                key.public)
            checked = result.checked
            if result.problem is None and result.last_seq != reader.last_seq:
                result.problem = f"record {result.last_seq + 1}: the chain stops before the journal's end"
            if result.problem is not None:
                return _refuse(journal_path, result.problem)
            for device, (position, seq) in sorted(reader.link_positions().items()):
                held = next(iter(reader.records(since=seq - 1, until=seq)), None)
                if held is None or held.body.get("link") != position:
                    return _refuse(journal_path, f"record {seq}: the journal's last position of the {device} "
                                                 f"is not what the record holds (links table edited)")
            if replay is not None:
                problems = replay(reader, verified["seq"])
                if problems:
                    return _refuse(journal_path, problems[0])
        except sqlite3.DatabaseError as exc:
            return _refuse(journal_path, f"{journal_path}: the journal file is damaged: {exc}")
        finally:
            reader.close()
    try:
        journal = Journal(journal_path, sign=key.sign_record)
    except JournalError as exc:
        return _refuse(journal_path, str(exc))
    state.data = {"table": table_id, "public_key": key.public_hex,
                  "head": {"seq": journal.last_seq, "hash": journal.last_hash},
                  "verified": {"seq": journal.last_seq, "hash": journal.last_hash}}
    try:
        state.write(flush=True)
    except OSError as exc:
        journal.close()
        return _refuse(journal_path, f"{state_path}: the table's state file cannot be written: {exc}")
    journal.on_commit = state.advance
    return Opened(journal, state, key, None, checked, created)


def sealed_journal(journal_path: Path, table_id: str) -> Journal:
    """The journal opened to write, signing and with the state file following its head, without checking it
    (``Table.open`` for tools and tests; the daemon checks with ``open_journal`` first and passes its journal).
    The verified point is left where it was, so the next ``run`` still checks everything written here."""
    key_path, state_path = TableKey.where(journal_path), SealedState.where(journal_path)
    try:
        key = TableKey.load(key_path) if key_path.exists() else TableKey.create(key_path)
    except (IntegrityError, OSError):
        return Journal(journal_path)  # no key to be had here: unsigned, as journals were before signatures
    journal = Journal(journal_path, sign=key.sign_record)
    state = SealedState(state_path, key.sign_state, key.check_state)
    try:
        data = state.load() if state.exists() else None
    except StateError:
        data = None
    verified = data["verified"] if data and data.get("table") == table_id else {"seq": 0, "hash": GENESIS}
    state.data = {"table": table_id, "public_key": key.public_hex, "verified": verified,
                  "head": {"seq": journal.last_seq, "hash": journal.last_hash}}
    try:
        state.write(flush=True)
    except OSError:
        return journal
    journal.on_commit = state.advance
    return journal
