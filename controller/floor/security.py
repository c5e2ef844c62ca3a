"""How a table, the floor service and a link controller log in to the broker: credentials and TLS.

The same keys in a table's ``[floor]`` and in the floor's ``[floor]`` (docs/floor.md, Security)::

    credentials = "/etc/tablectl/table.creds"   # a NATS credentials file (JWT and NKey seed, made with nsc)
                                                # or an NKey seed file (one line starting with SU)
    user = "cs-1"                               # or a user and password (the password in a file of its own)
    password_file = "/etc/tablectl/nats-password"
    tls_ca = "/etc/tablectl/casino-ca.pem"      # the casino's CA: the broker's certificate must be signed by it
    tls_cert = "/etc/tablectl/cs-1.pem"         # optional: this client's certificate (mutual TLS) and its key
    tls_key = "/etc/tablectl/cs-1.key"

Every file is read and checked when the configuration is (one line naming the
file and the key, exit 2). What only the broker can tell (a password it does
not know, a certificate from another CA) is a ``BusRefused`` in words when
the connection is made: the floor service stops with exit 2; a table logs it
once and plays on, trying again every 10 s (docs/floor.md, Security).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

KEYS = ("credentials", "user", "password_file", "tls_ca", "tls_cert", "tls_key")
JWT_MARK = "-----BEGIN NATS USER JWT-----"


class BusRefused(Exception):
    """The broker refused this client (its credentials or its certificate); the text says it in words."""


@dataclass(frozen=True)
class Security:
    credentials: Path | None = None
    credentials_kind: str = ""  # "creds" (JWT and seed) or "nkey" (a seed file)
    user: str | None = None
    password_file: Path | None = None
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None

    @property
    def login(self) -> str:
        if self.credentials is not None:
            what = "credentials file" if self.credentials_kind == "creds" else "NKey seed"
            return f"the {what} {self.credentials}"
        if self.user is not None:
            return f"user {self.user!r} with the password in {self.password_file}"
        return "no login"

    def tls_context(self) -> ssl.SSLContext | None:
        if self.tls_ca is None and self.tls_cert is None:
            return None
        context = ssl.create_default_context(cafile=str(self.tls_ca) if self.tls_ca else None)
        if self.tls_cert is not None and self.tls_key is not None:
            context.load_cert_chain(str(self.tls_cert), str(self.tls_key))
        return context

    def connect_options(self) -> dict[str, Any]:
        """nats-py's ``connect`` options for this login (files read now: a password changed is used next time)."""
        options: dict[str, Any] = {}
        if self.credentials is not None:
            key = "user_credentials" if self.credentials_kind == "creds" else "nkeys_seed"
            options[key] = str(self.credentials)
        if self.user is not None and self.password_file is not None:
            options["user"] = self.user
            options["password"] = _first_line(self.password_file)
        context = self.tls_context()
        if context is not None:
            options["tls"] = context
        return options

    def refusal(self, exc: BaseException, servers: tuple[str, ...]) -> str | None:
        """The words for an error that means the broker refused this client, or None (the broker is just away)."""
        where = ", ".join(servers)
        if isinstance(exc, ssl.SSLCertVerificationError):
            ca = f"the CA in tls_ca ({self.tls_ca})" if self.tls_ca else "a CA this machine trusts (no tls_ca given)"
            return (f"the broker at {where} was refused: its TLS certificate is not signed by {ca} "
                    f"({exc.verify_message or exc.reason})")
        if isinstance(exc, ssl.SSLError):
            reason = exc.reason or str(exc)
            if "CERTIFICATE_REQUIRED" in reason or "BAD_CERTIFICATE" in reason or "UNKNOWN_CA" in reason:
                mine = f"tls_cert ({self.tls_cert})" if self.tls_cert else "no tls_cert given"
                return f"the broker at {where} refused this client's TLS certificate, {mine} ({reason})"
            return f"the TLS handshake with the broker at {where} failed ({reason})"
        text = str(exc).lower()
        if "authorization violation" in text or "authentication" in text or "user authentication" in text:
            return f"the broker at {where} refused {self.login}: {str(exc).removeprefix('nats: ')}"
        return None


def _first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0].strip()


def _readable(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return f"cannot be read: {getattr(exc, 'strerror', None) or exc}"
    return None if text.strip() else "is empty"


def check_security(section: Mapping[str, Any], bad: Callable[[str, Any, str], None],
                   base_dir: Path | None) -> Security | None:
    """Check the login and TLS keys of a ``[floor]`` section; each problem goes to ``bad(key, value, allowed)``."""
    ok = True
    paths: dict[str, Path] = {}
    for key in ("credentials", "password_file", "tls_ca", "tls_cert", "tls_key"):
        value = section.get(key)
        if value is None:
            continue
        if not (isinstance(value, str) and value.strip()):
            bad(f"floor.{key}", value, "a file path")
            ok = False
            continue
        path = Path(value)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        problem = _readable(path)
        if problem is not None:
            bad(f"floor.{key}", value, f"the file {problem}")
            ok = False
            continue
        paths[key] = path
    user = section.get("user")
    if user is not None and not (isinstance(user, str) and user.strip()):
        bad("floor.user", user, "the client's NATS user name")
        ok = False
    if user is not None and section.get("password_file") is None:
        bad("floor.user", user, "a user needs password_file (the password in a file of its own)")
        ok = False
    if user is None and section.get("password_file") is not None:
        bad("floor.password_file", section["password_file"], "a password needs its user (floor.user)")
        ok = False
    if ok and user is not None and "credentials" in paths:
        bad("floor.user", user, "one login: credentials, or user and password_file, not both")
        ok = False
    kind = ""
    if "credentials" in paths:
        kind = _credentials_kind(paths["credentials"])
        if not kind:
            bad("floor.credentials", section["credentials"], "not a NATS credentials file (a user JWT and its NKey "
                                                             "seed, made with nsc) nor an NKey seed (a line SU...)")
            ok = False
    if "tls_ca" in paths:
        try:
            ssl.create_default_context(cafile=str(paths["tls_ca"]))
        except (ssl.SSLError, ValueError) as exc:
            bad("floor.tls_ca", section["tls_ca"], f"not a CA certificate in PEM ({exc})")
            ok = False
    if ("tls_cert" in paths) != ("tls_key" in paths):
        bad("floor.tls_cert" if "tls_cert" in paths else "floor.tls_key",
            section.get("tls_cert") or section.get("tls_key"), "tls_cert and tls_key go together (mutual TLS)")
        ok = False
    elif "tls_cert" in paths:
        try:
            ssl.create_default_context().load_cert_chain(str(paths["tls_cert"]), str(paths["tls_key"]))
        except (ssl.SSLError, ValueError) as exc:
            bad("floor.tls_cert", section["tls_cert"], f"not a certificate and key in PEM that belong together ({exc})")
            ok = False
    if ("tls_ca" in paths or "tls_cert" in paths) and ok:
        servers = section.get("servers")
        if isinstance(servers, list) and any(isinstance(s, str) and not s.startswith("tls://") for s in servers):
            bad("floor.servers", servers, "with tls_ca or tls_cert every address starts with tls://")
            ok = False
    if not ok:
        return None
    return Security(paths.get("credentials"), kind, user, paths.get("password_file"), paths.get("tls_ca"),
                    paths.get("tls_cert"), paths.get("tls_key"))


def _credentials_kind(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    seeds = [line for line in lines if line.startswith("SU")]
    if JWT_MARK in text and seeds:
        return "creds" if _seed_ok(seeds[0]) else ""
    if len(lines) == 1 and seeds:
        return "nkey" if _seed_ok(seeds[0]) else ""
    return ""


def _seed_ok(seed: str) -> bool:
    try:
        import nkeys
    except ImportError:  # the floor extra installs it
        return False
    try:
        nkeys.from_seed(seed.encode("ascii"))
    except Exception:  # nkeys raises its own errors and binascii's for a seed that is not one
        return False
    return True
