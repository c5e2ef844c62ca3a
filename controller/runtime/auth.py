"""Console users, PINs as salted scrypt hashes, and the login lockout.

A PIN is never stored: the configuration holds ``scrypt$N$r$p$SALT$HASH`` (base64
salt and hash), made by ``tablectl console hash-pin``. Five failed logins for
one name lock that name for five minutes, across every console session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from dataclasses import dataclass, field

ROLES = ("technician", "supervisor", "croupier")  # a croupier logs in at the dealer terminal only
_N, _R, _P = 2**14, 8, 1  # about 16 MiB and 50 ms per check on a Pi 4: slow for a guesser, fine for a login


class PinFormatError(ValueError):
    """A stored PIN hash that is not in the ``scrypt$...`` form."""


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """A salted scrypt hash of ``pin`` for the configuration file."""
    if not pin or not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise ValueError("a PIN is 4 to 12 digits")
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${_N}${_R}${_P}${b64(salt).decode()}${b64(digest).decode()}"


def check_pin_hash(stored: str) -> None:
    """Refuse a malformed stored hash (used when the configuration loads)."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt" or not all(p.isdigit() for p in parts[1:4]):
        raise PinFormatError("a PIN must be stored as scrypt$N$r$p$salt$hash (make one with 'tablectl console hash-pin')")
    try:
        base64.b64decode(parts[4], validate=True)
        base64.b64decode(parts[5], validate=True)
    except ValueError:
        raise PinFormatError("the salt or hash of a stored PIN is not base64") from None


def verify_pin(pin: str, stored: str) -> bool:
    """True when ``pin`` matches the stored hash (constant-time comparison)."""
    check_pin_hash(stored)
    _, n, r, p, salt, digest = stored.split("$")
    expected = base64.b64decode(digest)
    got = hashlib.scrypt(pin.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                         dklen=len(expected), maxmem=256 * 1024 * 1024)
    return hmac.compare_digest(got, expected)


@dataclass(frozen=True)
class ConsoleUser:
    name: str
    role: str
    pin_hash: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"console user {self.name!r}: role must be one of {', '.join(ROLES)}, not {self.role!r}")
        check_pin_hash(self.pin_hash)


@dataclass
class Lockout:
    """Failed-login book shared by every console session of the daemon."""

    max_failures: int = 5
    lock_seconds: float = 300.0
    _failures: dict[str, int] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)

    def locked_for(self, name: str, now: float) -> float:
        """Seconds the name stays locked (0 when it may try)."""
        until = self._locked_until.get(name, 0.0)
        if until <= now:
            self._locked_until.pop(name, None)
            return 0.0
        return until - now

    def failed(self, name: str, now: float) -> bool:
        """Record a failure; True when this failure locks the name."""
        count = self._failures.get(name, 0) + 1
        if count >= self.max_failures:
            self._failures.pop(name, None)
            self._locked_until[name] = now + self.lock_seconds
            return True
        self._failures[name] = count
        return False

    def succeeded(self, name: str) -> None:
        self._failures.pop(name, None)
