"""The floor link's settings: a table's ``[floor]`` section, and the floor service's own file.

A table (in its configuration)::

    [floor]
    servers = ["nats://127.0.0.1:4222"]   # the pit's leaf node, or the site's hub
    site = "stockholm"
    pit = "pit-1"
    credentials = "/etc/tablectl/table.creds"  # optional: the table's NATS login and TLS (security.py)
    domain = "hub"                             # optional: the hub's JetStream domain (needed behind a leaf node)
    outbox = "floor-outbox.json"               # optional: the last record the bus acknowledged

and ``link = "NAME"`` on a ``[jackpot.METER]`` makes that meter a linked
progressive owned by the floor's ``[link.NAME]``.

The floor service (``tablectl floor --config FILE``)::

    [floor]
    id = "stockholm"                      # the floor's name on the bus (floor.<id>.query)
    servers = ["nats://127.0.0.1:4222"]
    journal = "/var/lib/tablectl-floor/floor.sqlite"
    http = "127.0.0.1:8470"               # the floor view; "" for none
    replicas = 1                          # JetStream replicas of the streams it creates (3 on a cluster)
    domain = "hub"                        # optional: the hub's JetStream domain
    keys = "/etc/tablectl-floor/keys"     # optional: <table>.pub or <table>.key.pub, each table's public key
    currency = "SEK"
    minor_unit = 100

    [link.group-stud]
    base = 1000000                        # the meter's reset (seed) value in minor units
    journal = "/var/lib/tablectl-floor/link-group-stud.sqlite"
"""

from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from controller.floor.schema import TOKEN
from controller.floor.security import KEYS as SECURITY_KEYS
from controller.floor.security import Security, check_security


@dataclass(frozen=True)
class TableLink:
    servers: tuple[str, ...]
    site: str
    pit: str
    links: Mapping[str, str]  # meter -> link
    outbox: Path | None = None
    security: Security = Security()
    domain: str | None = None


@dataclass(frozen=True)
class LinkConfig:
    name: str
    base: int
    journal: Path


@dataclass(frozen=True)
class FloorConfig:
    source: str
    id: str
    servers: tuple[str, ...]
    journal: Path
    http: tuple[str, int] | None
    replicas: int = 1
    currency: str = "SEK"
    minor_unit: int = 100
    security: Security = Security()
    links: Mapping[str, LinkConfig] = field(default_factory=dict)
    checkpoint_s: float = 5.0
    domain: str | None = None
    keys: Path | None = None  # a folder of <table>.pub or <table>.key.pub files (public keys, 64 hex digits each)


class FloorConfigError(ValueError):
    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def _servers(value: Any) -> str | None:
    if not (isinstance(value, list) and value and all(isinstance(v, str) and v.startswith(("nats://", "tls://"))
                                                       for v in value)):
        return "a list of broker addresses such as [\"nats://10.20.0.5:4222\"] (nats:// or tls://)"
    return None


def table_link(section: Mapping[str, Any], jackpots: Sequence[Any], bad: Callable[[str, Any, str], None],
               base_dir: Path | None) -> TableLink | None:
    """Check a table's ``[floor]`` section; problems go to ``bad(key, value, allowed)``."""
    allowed = ("servers", "site", "pit", "outbox", "domain", *SECURITY_KEYS)
    ok = True
    for key in section:
        if key not in allowed:
            bad(f"floor.{key}", section[key], f"unknown key (allowed here: {', '.join(allowed)})")
            ok = False
    links = {j.name: j.link for j in jackpots if j.link}
    if not section:
        bad("floor", "{}", f"the linked meters ({', '.join(links)}) need a [floor] section with servers, site and pit")
        return None
    servers = section.get("servers")
    problem = _servers(servers)
    if problem:
        bad("floor.servers", servers, problem)
        ok = False
    missing = [name for name in ("nats", "nkeys") if importlib.util.find_spec(name) is None]
    if missing:
        bad("floor", "{...}", f"the floor link needs {' and '.join(missing)}, not installed here: install the "
                              "floor extra (pip install \".[pi,vision,displays,floor]\", docs/operations.md)")
        ok = False
    for key in ("site", "pit"):
        value = section.get(key)
        if not (isinstance(value, str) and TOKEN.match(value)):
            bad(f"floor.{key}", value, "a name of lower-case letters, digits, '-' or '_' (up to 32)")
            ok = False
    outbox = section.get("outbox")
    if outbox is not None and not (isinstance(outbox, str) and outbox.strip()):
        bad("floor.outbox", outbox, "a file path (relative to the journal's folder)")
        ok = False
    security = check_security(section, bad, base_dir)
    if security is None:
        ok = False
    domain = section.get("domain")
    if domain is not None and not (isinstance(domain, str) and TOKEN.match(domain)):
        bad("floor.domain", domain, "the hub's JetStream domain, a name of lower-case letters, digits, '-' or '_'")
        ok = False
    if not ok or security is None:
        return None
    assert isinstance(servers, list)
    return TableLink(tuple(servers), section["site"], section["pit"], links,
                     Path(outbox) if outbox else None, security, domain)


def load_floor(path: str | Path) -> FloorConfig:
    """Read and check the floor service's file; ``FloorConfigError`` lists every problem, one line each."""
    source = str(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise FloorConfigError([f"{source}: cannot read: {exc.strerror or exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise FloorConfigError([f"{source}: not valid TOML: {exc}"]) from None
    base = Path(path).resolve().parent
    return floor_from_mapping(data, source, base)


def floor_from_mapping(data: Mapping[str, Any], source: str, base: Path) -> FloorConfig:
    problems: list[str] = []

    def bad(key: str, value: Any, allowed: str) -> None:
        problems.append(f"{source}: {key} = {value!r}: {allowed}")

    for key in data:
        if key not in ("floor", "link"):
            bad(key, data[key], "unknown section (allowed: [floor], [link.NAME])")
    floor = data.get("floor")
    if not isinstance(floor, Mapping):
        raise FloorConfigError([f"{source}: floor missing: the [floor] section is required"])
    allowed = ("id", "servers", "journal", "http", "replicas", "currency", "minor_unit", "checkpoint_s", "domain",
               "keys", *SECURITY_KEYS)
    for key in floor:
        if key not in allowed:
            bad(f"floor.{key}", floor[key], f"unknown key (allowed here: {', '.join(allowed)})")
    floor_id = floor.get("id")
    if not (isinstance(floor_id, str) and TOKEN.match(floor_id)):
        bad("floor.id", floor_id, "a name of lower-case letters, digits, '-' or '_' (up to 32)")
    servers = floor.get("servers")
    problem = _servers(servers)
    if problem:
        bad("floor.servers", servers, problem)
    journal = floor.get("journal")
    if not (isinstance(journal, str) and journal.strip()):
        bad("floor.journal", journal, "the path of the floor's own SQLite journal")
    http = floor.get("http", "127.0.0.1:8470")
    address: tuple[str, int] | None = None
    if http:
        host, _, port = str(http).rpartition(":")
        if not host or not port.isdigit() or not 0 <= int(port) < 65536:
            bad("floor.http", http, "HOST:PORT of the floor view, or \"\" for none")
        else:
            address = (host, int(port))
    replicas = floor.get("replicas", 1)
    if not (isinstance(replicas, int) and replicas in (1, 3, 5)):
        bad("floor.replicas", replicas, "1, 3 or 5 (JetStream replicas of the floor's streams)")
    minor_unit = floor.get("minor_unit", 100)
    if minor_unit not in (1, 10, 100, 1000):
        bad("floor.minor_unit", minor_unit, "1, 10, 100 or 1000")
    checkpoint_s = floor.get("checkpoint_s", 5.0)
    if not (isinstance(checkpoint_s, (int, float)) and 0.1 <= checkpoint_s <= 3600):
        bad("floor.checkpoint_s", checkpoint_s, "seconds between the floor's checkpoints, 0.1 to 3600")
    domain = floor.get("domain")
    if domain is not None and not (isinstance(domain, str) and TOKEN.match(domain)):
        bad("floor.domain", domain, "the hub's JetStream domain, a name of lower-case letters, digits, '-' or '_'")
    keys = floor.get("keys")
    if keys is not None and not (isinstance(keys, str) and keys.strip()):
        bad("floor.keys", keys, "the folder of the tables' public keys (<table>.pub or <table>.key.pub)")
    elif keys is not None and not (base / keys).is_dir():
        bad("floor.keys", keys, "no such folder: the folder of the tables' public keys (<table>.pub or "
                                "<table>.key.pub)")
    security = check_security(floor, bad, base)
    links: dict[str, LinkConfig] = {}
    section = data.get("link", {})
    if not isinstance(section, Mapping):
        bad("link", section, "[link.NAME] sections")
        section = {}
    for name, link in section.items():
        key = f"link.{name}"
        if not TOKEN.match(str(name)):
            bad(key, "{...}", "a link name of lower-case letters, digits, '-' or '_'")
            continue
        if not isinstance(link, Mapping):
            bad(key, link, "a [link.NAME] section with base and journal")
            continue
        for sub in link:
            if sub not in ("base", "journal"):
                bad(f"{key}.{sub}", link[sub], "unknown key (allowed here: base, journal)")
        lbase, ljournal = link.get("base"), link.get("journal")
        if isinstance(lbase, bool) or not isinstance(lbase, int) or lbase < 0:
            bad(f"{key}.base", lbase, "the meter's reset value, a whole number of minor units, 0 or more")
            continue
        if not (isinstance(ljournal, str) and ljournal.strip()):
            bad(f"{key}.journal", ljournal, "the path of the link controller's own SQLite journal")
            continue
        links[name] = LinkConfig(name, lbase, base / ljournal)
    if problems or security is None:
        raise FloorConfigError(problems)
    assert isinstance(floor_id, str) and isinstance(journal, str) and isinstance(servers, list)
    return FloorConfig(source, floor_id, tuple(servers), base / journal, address, replicas,
                       str(floor.get("currency", "SEK")), int(minor_unit), security, links,
                       float(checkpoint_s), domain, base / keys if isinstance(keys, str) else None)
