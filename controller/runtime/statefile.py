"""The sealed state file beside the journal: the table's identity and last known position, outside the journal file.

``journal.sqlite.state`` is a small JSON document signed with the table's key
(controller/runtime/integrity.py)::

    {"table": "pb-se-01", "public_key": "HEX", "head": {"seq": 91233, "hash": "HEX"},
     "verified": {"seq": 90112, "hash": "HEX"}, "sig": "HEX"}

``head`` follows every commit (rewritten atomically after it; flushed to the
disk at every 256th commit, at each start and at a clean stop, so after a
power cut it may lag the journal, never lead it); ``verified`` is where the
last start's check of the chain ended, so the next start checks only what
came after. A journal that is missing, empty or shorter than ``head`` is
refused; so is a state file whose signature is not the table's.
"""

from __future__ import annotations

import json
import os
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
