"""The sealed state file beside the journal: the table's identity and last known position, outside the journal file.

``journal.sqlite.state`` is a small JSON document signed with the table's key
(controller/runtime/integrity.py)::

    {"table": "pb-se-01", "public_key": "HEX", "head": {"seq": 91233, "hash": "HEX"},
     "verified": {"seq": 90112, "hash": "HEX"}, "sig": "HEX"}

``head`` follows every commit (rewritten atomically after it; flushed to the
disk at every 256th commit, at each start and at a clean stop, so after a
power cut it may lag the journal, never lead it). The running table rewrites
it on a thread of its own (``HeadFollower``), so that neither the next
commit nor the sign waits for the file; ``verified`` is where the
last start's check of the chain ended, so the next start checks only what
came after. A journal that is missing, empty or shorter than ``head`` is
refused; so is a state file whose signature is not the table's.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Callable

FLUSH_EVERY = 256


class StateError(ValueError):
    """The state file cannot be read or is not sealed by this table's key; the message says which."""


def _body(data: dict[str, Any]) -> bytes:
    return json.dumps({k: v for k, v in data.items() if k != "sig"}, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


class SealedState:
    """One table's state file; ``sign`` makes a signature of bytes, ``check`` verifies one (both hex)."""

    def __init__(self, path: Path, sign: Callable[[bytes], str], check: Callable[[bytes, str], bool]) -> None:
        self.path = path
        self._sign = sign
        self._check = check
        self.data: dict[str, Any] = {}
        self._commits = 0

    @staticmethod
    def where(journal_path: Path) -> Path:
        return journal_path.with_name(journal_path.name + ".state")

    def exists(self) -> bool:
        return self.path.exists()

    def load(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise StateError(f"{self.path}: the table's state file cannot be read: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("sig"), str) or \
                not all(isinstance(data.get(k), dict) for k in ("head", "verified")):
            raise StateError(f"{self.path}: the table's state file is not one (no head, verified or seal)")
        if not self._check(_body(data), data["sig"]):
            raise StateError(f"{self.path}: the table's state file is not sealed by this table's key (edited "
                             f"or from another table)")
        for part in ("head", "verified"):
            point = data[part]
            if not (isinstance(point.get("seq"), int) and isinstance(point.get("hash"), str)):
                raise StateError(f"{self.path}: {part} is not a sequence number and a hash")
        self.data = data
        return data

    def write(self, flush: bool = True) -> None:
        data = {k: v for k, v in self.data.items() if k != "sig"}
        data["sig"] = self._sign(_body(data))
        self.data = data
        tmp = self.path.with_name(self.path.name + ".new")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, sort_keys=True) + "\n")
            if flush:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        if flush:
            fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def advance(self, seq: int, digest: str) -> None:
        """After a commit: the head moves on (Journal.on_commit)."""
        self.data["head"] = {"seq": seq, "hash": digest}
        self._commits += 1
        try:
            self.write(flush=self._commits % FLUSH_EVERY == 0)
        except OSError:
            pass  # the journal itself committed; a full disk shows there, and the next start checks the chain


class HeadFollower:
    """The state file's head follows the journal on a thread of its own: a commit only hands its head over.

    Called as the journal's ``on_commit`` (``(seq, hash)``, on the loop, just after each commit), it keeps only
    the latest head and wakes the thread, which rewrites the file (``SealedState.advance``): the state may lag
    the journal, never lead it, and a burst of commits is one write. The thread blocks until a commit comes (no
    timer), and ``close`` writes what is still handed over before it returns, so that a clean stop's last
    write (``SealedState.write``) comes after every head.
    """

    def __init__(self, state: SealedState) -> None:
        self.state = state
        self._head: tuple[int, str] | None = None
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="state file", daemon=True)
        self._thread.start()

    def __call__(self, seq: int, digest: str) -> None:
        with self._cond:
            self._head = (seq, digest)
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._head is None and not self._closed:
                    self._cond.wait()
                head, self._head = self._head, None
            if head is None:  # closed, and nothing left to write
                return
            self.state.advance(*head)  # outside the lock: a commit never waits for the file

    def close(self, timeout: float = 5.0) -> None:
        """Write the head still handed over, then stop the thread (safe to call twice): once it returns, every
        head handed over is written."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout)
