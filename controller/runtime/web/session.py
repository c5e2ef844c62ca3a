"""Logins of the dealer terminal and the pit view: the console's users, PINs and lockout.

A PIN is checked by ``controller.runtime.auth.verify_pin`` against the
``[console.users.NAME]`` hashes, and failures count in the same ``Lockout``
book as the console's (five wrong PINs lock the name for five minutes).
A login becomes a session cookie: ``NAME.ROLE.ISSUED.MAC`` where the MAC is an
HMAC-SHA256 under the table's terminal key (a file of 32 random bytes beside
the journal, made on the first start, mode 0600), so a session outlives a
restart of the daemon and nobody without the key can make one. A session
ends after ``hours`` or at logout, and is refused at once when its user is
removed or changes role.

Who may do what: a croupier or a supervisor enters decisions at the dealer
page; a fault is cleared by whom the one fault table says (``faults.FAULTS``,
each kind's ``clear_role``, as at the console): a supervisor, or a technician
where a technician may; anyone logged in reads the pit view.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from controller.runtime.auth import ConsoleUser, Lockout, verify_pin
from controller.runtime.faults import role_to_clear

COOKIE = "tablectl_session"
DEALER_ROLES = ("croupier", "supervisor")


@dataclass(frozen=True)
class Login:
    name: str
    role: str
    issued: int

    @property
    def may_deal(self) -> bool:
        return self.role in DEALER_ROLES

    def may_clear(self, fault: str) -> bool:
        """Whether this login may clear the fault named ``fault``: the fault table's role for it (a supervisor
        may clear whatever a technician may; a fault that clears only by a restart, nobody)."""
        needed = role_to_clear(fault)
        return needed is not None and (self.role == "supervisor" or self.role == needed)


def load_key(path: Path) -> bytes:
    """The terminal key (made on the first start, readable by the daemon's user only)."""
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = os.urandom(32)
    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    return key


class Sessions:
    """Sign and check session cookies; check PINs through the console's users and lockout."""

    def __init__(self, users: Mapping[str, ConsoleUser], key: bytes, lockout: Lockout | None = None,
                 hours: float = 12.0, clock: "time.struct_time | None" = None) -> None:
        self.users = users
        self.key = key
        self.lockout = lockout or Lockout()
        self.seconds = int(hours * 3600)

    def _mac(self, text: str) -> str:
        return hmac.new(self.key, text.encode(), hashlib.sha256).hexdigest()

    def login(self, name: str, pin: str, now: float) -> tuple[Login | None, str, int]:
        """``(login, "", 0)`` for a right PIN, else ``(None, why, minutes)``: ``why`` is ``wrong`` (a wrong name
        or PIN), ``now_locked`` (and that failure locked the name) or ``locked`` (for ``minutes`` more); the
        terminal says it in the croupier's words and language (``app.login_refusal``)."""
        locked = self.lockout.locked_for(name, now)
        if locked:
            return None, "locked", int(locked // 60) + 1
        user = self.users.get(name)
        if user is not None and verify_pin(pin, user.pin_hash):
            self.lockout.succeeded(name)
            return Login(user.name, user.role, int(now)), "", 0
        if self.lockout.failed(name, now):
            return None, "now_locked", 0
        return None, "wrong", 0

    def cookie(self, login: Login) -> str:
        text = f"{login.name}.{login.role}.{login.issued}"
        return f"{text}.{self._mac(text)}"

    def check(self, cookie: str | None, now: float) -> Login | None:
        """The login a cookie stands for, or None (forged, expired, user gone or role changed)."""
        if not cookie or cookie.count(".") != 3:
            return None
        name, role, issued, mac = cookie.split(".")
        if not hmac.compare_digest(mac, self._mac(f"{name}.{role}.{issued}")) or not issued.isdigit():
            return None
        if now - int(issued) > self.seconds:
            return None
        user = self.users.get(name)
        if user is None or user.role != role:
            return None
        return Login(name, role, int(issued))
