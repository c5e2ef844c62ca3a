"""Console users, PINs as salted scrypt hashes, the login lockout and the role table.

A PIN is never stored: the configuration holds ``scrypt$N$r$p$SALT$HASH`` (base64
salt and hash), made by ``tablectl console hash-pin``; the work factor must lie
within ``N_RANGE`` and ``r``/``p`` within bounds (``check_pin_hash``), so that
no configuration can stall the loop or fail every login. An unknown name is
checked against a dummy hash of the same cost, so that it answers in the same
time as a wrong PIN. Five failed logins for one name lock that name for five
minutes, across every console session and across a restart (the failures are
journaled; ``Lockout.restore``). A global limit (``Lockout.admit``) takes at
most ``CHECKS_PER_SECOND`` PIN checks a second from all connections together.

Who may clear a fault is not kept here: the one fault table
(``controller.runtime.faults.FAULTS``, each kind's ``clear_role``) says it, and
``role_to_clear`` reads it.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import os
from dataclasses import dataclass, field

from controller.runtime.faults import role_to_clear as role_to_clear  # the console's role check: the fault table

ROLES = ("technician", "supervisor", "croupier")  # a croupier logs in at the dealer terminal only
_N, _R, _P = 2**14, 8, 1  # about 16 MiB and 50 ms per check on a Pi 4: slow for a guesser, fine for a login
N_RANGE = (2**12, 2**16)  # 4 MiB .. 64 MiB with r=8: below, a guesser's work; above, a stalled loop or a failed check
R_RANGE, P_RANGE = (1, 16), (1, 4)
CHECKS_PER_SECOND = 2.0  # PIN checks a second, all connections together; more are answered "wait" without a check


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
    if len(parts) != 6 or parts[0] != "scrypt" or not all(p.isdigit() and len(p) <= 8 for p in parts[1:4]):
        raise PinFormatError("a PIN must be stored as scrypt$N$r$p$salt$hash (make one with 'tablectl console hash-pin')")
    n, r, p = (int(x) for x in parts[1:4])
    if not (N_RANGE[0] <= n <= N_RANGE[1] and n & (n - 1) == 0):
        raise PinFormatError(f"the PIN's scrypt work factor N={n} must be a power of two from {N_RANGE[0]} to "
                             f"{N_RANGE[1]} (make one with 'tablectl console hash-pin')")
    if not (R_RANGE[0] <= r <= R_RANGE[1] and P_RANGE[0] <= p <= P_RANGE[1]):
        raise PinFormatError(f"the PIN's scrypt r={r} and p={p} must be {R_RANGE[0]}..{R_RANGE[1]} and "
                             f"{P_RANGE[0]}..{P_RANGE[1]}")
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


@functools.cache
def _dummy_hash() -> str:
    return hash_pin("0000", salt=b"tablectl-dummy!!")


def check_login(pin: str, user: "ConsoleUser | None") -> bool:
    """The PIN check for a name: a user's hash, or for an unknown name a dummy of the same cost (same time)."""
    if user is None:
        verify_pin(pin if pin.isdigit() else "0", _dummy_hash())
        return False
    return verify_pin(pin, user.pin_hash)


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
    checks_per_second: float = CHECKS_PER_SECOND
    _failures: dict[str, int] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)
    _budget: float = CHECKS_PER_SECOND
    _budget_at: float = 0.0

    def admit(self, now: float) -> bool:
        """May a PIN be checked now? A token bucket of ``checks_per_second`` for all connections together."""
        self._budget = min(self.checks_per_second, self._budget + (now - self._budget_at) * self.checks_per_second)
        self._budget_at = now
        if self._budget < 1.0:
            return False
        self._budget -= 1.0
        return True

    journal_per_minute: int = 5
    suppressed: int = 0
    _window: float = float("-inf")
    _journaled: int = 0
    _names: set[str] = field(default_factory=set)

    def restore(self, history: list[tuple[str, float, str]], now: float) -> None:
        """After a restart: the journaled logins of the last ``lock_seconds``, oldest first, as (name, seconds
        ago, ``failed`` | ``locked`` | ``ok``): the failure counts and the locks go on where they were."""
        for name, age, what in history:
            if what == "ok":
                self._failures.pop(name, None)
            elif what == "locked":
                self._failures.pop(name, None)
                self._locked_until[name] = max(self._locked_until.get(name, 0.0), now + self.lock_seconds - age)
            elif self.locked_for(name, now) == 0.0:
                self._failures[name] = self._failures.get(name, 0) + 1

    def journal_failure(self, name: str, now: float) -> tuple[bool, str]:
        """Whether to journal this failed or refused login on its own (at most ``journal_per_minute`` a minute),
        and the summary of the ones only counted before it; the rest of a burst is counted, not journaled."""
        summary = ""
        if now - self._window >= 60.0:
            summary = self.flush() or ""
            self._window, self._journaled = now, 0
        if self._journaled < self.journal_per_minute:
            self._journaled += 1
            return True, summary
        self.suppressed += 1
        self._names.add(name)
        return False, summary

    def flush(self) -> str | None:
        """The summary of the counted failures not yet journaled, or None."""
        if not self.suppressed:
            return None
        names = sorted(self._names)
        text = (f"{self.suppressed} more failed or refused logins not journaled one by one (names: "
                f"{', '.join(n[:20] for n in names[:5])}{', ...' if len(names) > 5 else ''})")
        self.suppressed = 0
        self._names.clear()
        return text

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
