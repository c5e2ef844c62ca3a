"""Table configuration (TOML in ``hw/tables/``): load, validate, explain every problem in one line.

The file is read once, at start, into a frozen ``TableConfig``; nothing reads it
again. Every problem is collected as one line naming the key, the value and
what is allowed (``ConfigError.problems``), so ``tablectl config check`` shows
them all at once and the daemon refuses to start on any of them. Unknown keys
are refused. Game options go through the game's own ``GameSpec`` (each option
checked by its ``OptionSpec``, then ``spec.resolve`` for the table-wide rules
such as the Swedish legal maximum of 1/600 of the price base amount).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from controller import checks, games
from controller.games.contract import GameSpec, RoundConfig
from controller.language import check as check_language
from drivers.gpio.config import DeviceConfig as PinMap, PinMapError, load_device_config

_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")


class ConfigError(ValueError):
    """A configuration that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class DeviceConfig:
    """One device: its name (``shoe``, ``sign``, ...), its driver and the driver's settings."""

    name: str
    driver: str
    settings: Mapping[str, Any]


@dataclass(frozen=True)
class JackpotConfig:
    """A progressive meter: reset value, contribution per progressive bet, optional cap with overflow."""

    name: str
    base: int
    contribution: int
    cap: int | None = None
    overflow: bool = False
    link: str | None = None  # a linked progressive: the floor's [link.NAME] owns the meter (docs/floor.md)


@dataclass(frozen=True)
class TableConfig:
    """The whole table, validated and immutable."""

    source: str
    table_id: str
    spec: GameSpec
    round_config: RoundConfig
    options: Mapping[str, Any]  # the game options as given (JSON-ready), for the journal
    currency: str
    minor_unit: int
    devices: Mapping[str, DeviceConfig]
    jackpots: tuple[JackpotConfig, ...]
    journal_path: Path
    console: Mapping[str, Any] = field(default_factory=dict)
    output_interval_ms: int = 50
    floor: Any = None  # controller.floor.settings.TableLink: the floor link ([floor]), None when the table has none
    device_timeout_s: float = 5.0
    pin_map: PinMap | None = None  # the build's pin map (hw/<build>.toml) named by devices.gpio.pin_map
    code_digest: str | None = None  # the stored digest of the installed code, checked at power-up
    terminal: Mapping[str, Any] = field(default_factory=dict)  # the dealer terminal and pit view ([terminal])
    language: str = "en"  # [table] language: the croupier's, the players' and the pit's words (docs/languages.md)


# --------------------------------------------------------------------------- the schema

_text, _int_range, _choice, _bool, _port = checks.text, checks.int_range, checks.choice, checks.boolean, checks.port
PIN_FACTORIES, BAUDS = checks.PIN_FACTORIES, checks.BAUDS


_IN_PIN_MAP = ("buttons", "puck", "tower", "presence", "progressive")
"""Device names of the first daemon format; their pins now live in the pin map of [devices.gpio]."""
HW = Path(__file__).resolve().parent.parent / "hw"
_SECTIONS = ("table", "options", "limits", "devices", "jackpot", "journal", "console", "runtime", "floor",
             "terminal")
_TABLE_KEYS = ("id", "game", "variant", "currency", "minor_unit", "price_base_amount", "language")
_JACKPOT_KEYS = ("base", "contribution", "cap", "overflow", "link")
_RUNTIME_KEYS = {"output_interval_ms": _int_range(0, 1000), "device_timeout_s": _int_range(1, 600),
                 "code_digest": lambda v: _text(v) and "the path of the stored code digest (tablectl digest --write)"}


def _console_users(v: Any) -> str | None:
    """``[console.users.NAME]`` tables with ``role`` and ``pin`` (a scrypt hash, never the PIN)."""
    from controller.runtime.auth import ROLES, PinFormatError, check_pin_hash

    if not isinstance(v, Mapping):
        return "[console.users.NAME] tables with role and pin"
    for name, entry in v.items():
        if not _NAME.match(str(name)):
            return f"user {name!r}: a name of lower-case letters, digits, '-' or '_'"
        if not isinstance(entry, Mapping) or set(entry) != {"role", "pin"}:
            return f"user {name!r}: exactly the keys role and pin"
        if entry["role"] not in ROLES:
            return f"user {name!r}: role must be one of {', '.join(ROLES)}"
        try:
            check_pin_hash(str(entry["pin"]))
        except PinFormatError as exc:
            return f"user {name!r}: {exc}"
    return None


def _socket_path(v: Any) -> str | None:
    return None if isinstance(v, str) and v.startswith("/") else "an absolute path for the console's Unix socket"


def _address(v: Any) -> str | None:
    import ipaddress

    try:
        ipaddress.ip_address(v if isinstance(v, str) else "")
    except ValueError:
        return "an IP address of the Pi to serve the terminal on (127.0.0.1 for the touchscreen only)"
    return None


_TERMINAL_KEYS = {"enabled": _bool, "address": _address, "port": _int_range(0, 65535),
                  "cert": lambda v: _text(v) and "the TLS certificate file (PEM)",
                  "key": lambda v: _text(v) and "the TLS private key file (PEM)",
                  "key_file": lambda v: _text(v) and "the file of the terminal's session key (made on first start)",
                  "session_hours": _int_range(1, 24),
                  "chip_unit": _int_range(1, 10**9)}  # the smallest chip an amount typed at the terminal is made of


def _terminal(c: "_Checker", terminal: Mapping[str, Any], base_dir: Path | None) -> dict[str, Any]:
    """``[terminal]``: a page on 127.0.0.1 by default; any other address only with a TLS certificate and key."""
    import importlib.util
    import ipaddress

    _simple(c, "terminal", terminal, _TERMINAL_KEYS)
    out = dict(terminal)
    address = terminal.get("address", "127.0.0.1")
    loopback = isinstance(address, str) and not _address(address) and ipaddress.ip_address(address).is_loopback
    for name in ("cert", "key"):
        value = terminal.get(name)
        if isinstance(value, str) and value:
            path = Path(value) if base_dir is None or Path(value).is_absolute() else base_dir / value
            if not path.is_file():
                c.bad(f"terminal.{name}", value, "an existing PEM file (the path is read from the config's folder)")
            out[name] = str(path)
    installed = all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn"))
    if terminal.get("enabled", False) is True and not installed:
        c.bad("terminal.enabled", True, "the dealer terminal needs the 'terminal' extra installed "
                                        "(pip install 'tablectl[terminal]'; sh run.sh does it)")
    if terminal.get("enabled", False) and not loopback and not (terminal.get("cert") and terminal.get("key")):
        c.bad("terminal.address", address, "127.0.0.1, or give terminal.cert and terminal.key: the pit reads the "
                                           "page over the network only with TLS")
    return out


def emulated_only(devices: Mapping[str, DeviceConfig]) -> bool:
    """Every device is an emulator (in-process, on a pty, on mock pins): a simulated table, whose virtual
    croupier and players take the decisions."""
    def emulated(d: DeviceConfig) -> bool:
        return d.driver in ("simulated", "text", "dummy", "synthetic") or \
            (d.driver == "gpio" and d.settings.get("pin_factory") == "mock") or \
            (d.driver == "serial" and d.settings.get("port") == "pty")
    return all(emulated(d) for d in devices.values())


def _decision_inputs(c: "_Checker", spec: GameSpec, round_config: RoundConfig, terminal: Mapping[str, Any],
                     pin_map: PinMap | None, devices: Mapping[str, DeviceConfig]) -> None:
    """A game whose players decide needs an input for every decision: the dealer terminal, or a button each
    (a simulated table's virtual players decide for themselves)."""
    needed = list(spec.player_decisions(round_config))
    if not needed or terminal.get("enabled", False) or emulated_only(devices):
        return
    wired = {b.action_for(spec.id) or (b.action if b.action and spec.takes_button_action(b.action) else None)
             for b in pin_map.buttons} if pin_map is not None else set()  # keypad keys
    # (decision_N) count only with the terminal, which shows what each key means
    missing = [n for n in needed if n not in wired]
    if missing:
        c.plain("terminal", f"{spec.id} needs the players' decisions ({', '.join(needed)}) but this table has no "
                            f"input for {', '.join(missing)}: set [terminal] enabled = true (the dealer terminal), "
                            f"or wire a decision button for each in the pin map of [devices.gpio]")


_CONSOLE_KEYS = {"enabled": _bool, "port": _port, "baud": _choice(*BAUDS), "socket": _socket_path,
                 "idle_minutes": _int_range(1, 240), "users": _console_users}


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


class _Checker:
    """Collects problems as ``key = value: what is allowed`` lines."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[str] = []

    def bad(self, key: str, value: Any, allowed: str) -> None:
        shown = "missing" if value is _MISSING else f"= {_show(value)}"
        self.problems.append(_one_line(f"{self.source}: {_one_line(key)} {shown}: {allowed}"))

    def plain(self, key: str, text: str) -> None:
        self.problems.append(_one_line(f"{self.source}: {key}: {text}"))

    def keys(self, where: str, table: Mapping[str, Any], allowed: tuple[str, ...] | Mapping[str, Any]) -> None:
        for key in table:
            if key not in allowed:
                self.bad(f"{where}.{key}" if where else key, table[key],
                         f"unknown key (allowed here: {', '.join(allowed) or 'none'})")

    def table(self, data: Mapping[str, Any], key: str, required: bool = False) -> Mapping[str, Any]:
        value = data.get(key, _MISSING)
        if value is _MISSING:
            if required:
                self.bad(key, _MISSING, f"the [{key}] section is required")
            return {}
        if not isinstance(value, Mapping):
            self.bad(key, value, f"must be a [{key}] section (a TOML table)")
            return {}
        return value


_MISSING = object()


# --------------------------------------------------------------------------- loading

def _one_line(text: str) -> str:
    """A problem stays one line: characters that are not printable (a line or record separator in a key or a
    value) are shown as escapes."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def load(path: str | Path, lookup: Callable[[str], GameSpec] | None = None) -> TableConfig:
    """Read and validate the TOML file ``path``; ``ConfigError`` lists every problem."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError([f"{source}: cannot read: {reason}"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{source}: not valid TOML: {exc}"]) from None
    except RecursionError:
        raise ConfigError([f"{source}: not valid TOML: arrays or tables nested too deeply"]) from None
    try:
        return from_mapping(data, source, lookup, base_dir=Path(path).resolve().parent)
    except RecursionError:
        raise ConfigError([f"{source}: a value nested too deeply to be a table configuration"]) from None


def from_mapping(data: Mapping[str, Any], source: str, lookup: Callable[[str], GameSpec] | None = None,
                 base_dir: Path | None = None) -> TableConfig:
    """Validate an already parsed configuration (``load`` and the embedded simulated defaults use this)."""
    lookup = lookup or games.load_game
    c = _Checker(source)
    c.keys("", data, _SECTIONS)
    table = c.table(data, "table", required=True)
    c.keys("table", table, _TABLE_KEYS)
    # A missing [table] section is the one problem reported for it: its keys' problems go to a checker
    # nobody reads, and without a game the game-dependent sections are not checked either.
    quiet = c if table else _Checker(source)

    table_id = table.get("id", _MISSING)
    if not (isinstance(table_id, str) and _NAME.match(table_id)):
        quiet.bad("table.id", table_id, "a name of lower-case letters, digits, '-' or '_', up to 32 characters")
    currency = table.get("currency", _MISSING)
    if not (isinstance(currency, str) and _CURRENCY.match(currency)):
        quiet.bad("table.currency", currency, "a three-letter ISO 4217 code such as SEK or EUR")
    minor_unit = table.get("minor_unit", 100)
    if _choice(1, 10, 100, 1000)(minor_unit):
        c.bad("table.minor_unit", minor_unit, "minor units per major unit: 1, 10, 100 or 1000")
    language = table.get("language", "en")
    language_problem = check_language(language) if isinstance(language, str) else check_language("")
    if language_problem is not None:
        c.bad("table.language", language, language_problem)

    spec: GameSpec | None = None
    game_id = table.get("game", _MISSING)
    if not isinstance(game_id, str):
        quiet.bad("table.game", game_id, "a game id as 'tablectl games' lists")
    else:
        try:
            spec = lookup(game_id)
        except ValueError as exc:
            quiet.bad("table.game", game_id, str(exc).split("(", 1)[-1].rstrip(")") if "(" in str(exc) else str(exc))
    variant_id = table.get("variant", _MISSING)
    if spec is not None:
        if variant_id is _MISSING:
            variant_id = spec.variants[0].id
        known = [v.id for v in spec.variants]
        if variant_id not in known:
            c.bad("table.variant", variant_id, f"a variant of {spec.id}: {', '.join(known)}")
            spec_ok = False
        else:
            spec_ok = True
    else:
        spec_ok = False

    options = dict(c.table(data, "options"))
    limits = c.table(data, "limits")
    round_config: RoundConfig | None = None
    given: dict[str, Any] = {}
    if spec is not None and spec_ok:
        round_config, given = _game_options(c, spec, str(variant_id), options, limits, table, base_dir)

    devices = _devices(c, c.table(data, "devices"), base_dir)
    pin_map = _pin_map(c, devices, base_dir, spec)
    jackpot_section = c.table(data, "jackpot")
    given_by_game = spec.fed_contributions(round_config) if spec is not None and round_config is not None else {}
    jackpots = _jackpots(c, jackpot_section, given_by_game, spec.id if spec is not None else "")
    if spec is not None and round_config is not None:
        _fed_meters(c, spec, round_config, jackpot_section)

    journal = c.table(data, "journal", required=True)
    c.keys("journal", journal, ("path",))
    journal_path = journal.get("path", _MISSING)
    if journal and not (isinstance(journal_path, str) and journal_path.strip()):
        c.bad("journal.path", journal_path, "the path of the SQLite journal file (its folder is created)")

    console = c.table(data, "console")
    _simple(c, "console", console, _CONSOLE_KEYS)
    runtime = c.table(data, "runtime")
    _simple(c, "runtime", runtime, _RUNTIME_KEYS)
    terminal = _terminal(c, c.table(data, "terminal"), base_dir)
    if spec is not None and round_config is not None:
        _decision_inputs(c, spec, round_config, terminal, pin_map, devices)
    floor_section = c.table(data, "floor")
    floor = None
    if floor_section or any(j.link for j in jackpots):
        from controller.floor.settings import table_link  # the floor link's own checks (docs/floor.md)

        floor = table_link(floor_section, jackpots, c.bad, base_dir)

    if c.problems:
        raise ConfigError(c.problems)
    assert spec is not None and round_config is not None
    return TableConfig(
        source=source, table_id=table_id, spec=spec, round_config=round_config,
        options=MappingProxyType(given), currency=currency, minor_unit=minor_unit,
        devices=MappingProxyType(devices), jackpots=jackpots, journal_path=Path(journal_path),
        console=MappingProxyType(dict(console)),
        output_interval_ms=runtime.get("output_interval_ms", 50),
        device_timeout_s=float(runtime.get("device_timeout_s", 5)),
        pin_map=pin_map,
        code_digest=runtime.get("code_digest"),
        terminal=MappingProxyType(terminal),
        language=language,
        floor=floor,
    )


def file_kind(path: str | Path) -> str | None:
    """What a TOML file looks like: ``table`` (a table configuration, it has [table]), ``pinmap`` (a build's
    pin map, it has [build]), or None (unreadable or neither), so a command given the other kind can say so."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None
    if "table" in data:
        return "table"
    if "build" in data or ("buttons" in data and "devices" not in data):
        return "pinmap"
    return None


def no_devices(config: TableConfig) -> str | None:
    """One line when the table names no device at all (nothing would read a card or light a lamp), else None.

    Such a file is refused by ``config check`` and ``run`` unless ``--simulate`` is given: a daemon started on
    it would play a virtual table into the configured (real) journal.
    """
    if config.devices:
        return None
    return (f"{config.source}: devices: the table names no device ([devices.shoe], [devices.gpio], ...); "
            f"add the table's devices (docs/configuration.md), or give --simulate for a simulated table")


def _simple(c: _Checker, where: str, section: Mapping[str, Any], checks: Mapping[str, Callable[[Any], str | None]]) -> None:
    c.keys(where, section, tuple(checks))
    for key, value in section.items():
        if key in checks and (problem := checks[key](value)):
            c.bad(f"{where}.{key}", value, problem)


def _rules_file(c: _Checker, name: str, value: str, base_dir: Path | None) -> Any:
    """A ``rules`` option given as a file name: its TOML, the table of the option's name in it (or the whole
    file); None (and one line) when it cannot be read."""
    path = Path(value)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        c.bad(f"options.{name}", value, f"cannot read {path}: {reason}")
        return None
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        c.bad(f"options.{name}", value, f"{path} is not valid TOML: {exc}")
        return None
    return data.get(name, data)


def _game_options(c: _Checker, spec: GameSpec, variant_id: str, options: dict[str, Any],
                  limits: Mapping[str, Any], table: Mapping[str, Any],
                  base_dir: Path | None = None) -> tuple[RoundConfig | None, dict[str, Any]]:
    """Check each game option on its own (so every problem is reported), then the table-wide rules."""
    variant = spec.variant(variant_id)
    allowed = [o.name for o in spec.options if variant.options is None or o.name in variant.options]
    given: dict[str, Any] = {}
    files: dict[str, str] = {}  # rules options read from a file (a Pai Gow house way): the file's name
    for name in [n for n in options if n in allowed and spec.option(n).kind == "rules"]:
        if isinstance(options[name], str):
            files[name] = options[name]
            data = _rules_file(c, name, files[name], base_dir)
            if data is None:
                options.pop(name)
                continue
            options[name] = data
    for reserved, where in (("limits", "[limits]"), ("price_base_amount", "table.price_base_amount")):
        if reserved in options:
            c.bad(f"options.{reserved}", options.pop(reserved), f"give it as {where}")
    if "price_base_amount" in table:
        if "price_base_amount" in allowed:
            options["price_base_amount"] = table["price_base_amount"]
        else:
            c.bad("table.price_base_amount", table["price_base_amount"],
                  f"{spec.id} {variant_id} has no limit tied to a price base amount; remove the key")
    if limits:
        if "limits" in allowed:
            spots = [s.name for s in spec.spots_for(variant_id)]
            kinds = {s.split(":", 1)[0] for s in spots}  # a layout spot such as straight:N is limited as straight
            for spot, pair in limits.items():
                if spot not in spots and spot not in kinds:
                    c.bad(f"limits.{spot}", pair, f"a bet spot of {spec.id} {variant_id}: {', '.join(spots)}")
            options["limits"] = {k: v for k, v in limits.items() if k in spots or k in kinds}
        else:
            c.bad("limits", dict(limits), f"{spec.id} {variant_id} takes no table limits")
    bad = False
    for name, value in options.items():
        key = "limits" if name == "limits" else "table.price_base_amount" if name == "price_base_amount" else f"options.{name}"
        if name not in allowed:
            c.bad(key, value, f"an option of {spec.id} {variant_id}: {', '.join(allowed) or 'none'}")
            bad = True
            continue
        try:
            spec.option(name).check(value)
        except ValueError as exc:
            if name == "limits":
                c.plain("limits", _after_option(str(exc)))
            elif name in files:  # a rules file whose table is not one: the option and the file
                c.plain(key, f"{files[name]}: {_after_option(str(exc))}")
            else:
                c.bad(key, value, _after_option(str(exc)))
            bad = True
            continue
        given[name] = value
    if bad:
        return None, given
    try:
        config = spec.resolve(variant_id, options, games.paytable_of(spec))
    except ValueError as exc:
        in_file = next((n for n in files if str(exc).startswith(f"option '{n}': ")), None)
        if in_file is not None:  # a problem in the rules file: the option, the file, the place in it
            c.plain(f"options.{in_file}", f"{files[in_file]}: {str(exc).split(': ', 1)[1]}")
            return None, given
        c.plain(_place_of(str(exc)), str(exc).split(": ", 1)[-1] if str(exc).startswith("limits") else str(exc))
        return None, given
    chip = config.get("chip_unit", 1)
    for spot, pair in (config.get("limits", {}) or {}).items():
        low, high = pair
        if isinstance(low, int) and low < 1:
            c.bad(f"limits.{spot}", list(pair), "a minimum stake of at least 1 (minor units); 0 would let "
                                                "a bet of nothing play")
        elif isinstance(low, int) and isinstance(chip, int) and chip > 1 and low % chip:
            c.bad(f"limits.{spot}", list(pair), f"a minimum that is a multiple of chip_unit {chip} (the smallest "
                                                f"stake the table takes)")
        if isinstance(high, int) and isinstance(chip, int) and chip > 1 and high % chip:
            c.bad(f"limits.{spot}", list(pair), f"a maximum that is a multiple of chip_unit {chip}")
    return config, given


def _after_option(message: str) -> str:
    """``option 'decks' must be one of 6, 8, not 7`` -> ``must be one of 6, 8, not 7``."""
    return re.sub(r"^option '[^']*'(: )?\s*", "", message)


def _place_of(message: str) -> str:
    head = message.split(":", 1)[0]
    return head if re.match(r"^[a-z_]+(\.[a-z_]+)?$", head) else "options"


def _devices(c: _Checker, section: Mapping[str, Any], base_dir: Path | None) -> dict[str, DeviceConfig]:
    from controller.runtime.devices import registry  # the device kinds, each one module (docs/architecture.md)

    kinds = registry.by_name()
    out: dict[str, DeviceConfig] = {}
    for name, settings in section.items():
        key = f"devices.{name}"
        if name in _IN_PIN_MAP:
            c.bad(key, "{...}", "the buttons, puck, sensors, slots and tower light come from the build's pin map: "
                               "give it as [devices.gpio] pin_map (docs/configuration.md)")
            continue
        kind = kinds.get(name)
        if kind is None:
            c.bad(key, settings if not isinstance(settings, Mapping) else "{...}",
                  f"unknown device (allowed: {', '.join(kinds)})")
            continue
        if not isinstance(settings, Mapping):
            c.bad(key, settings, f"must be a [{key}] section")
            continue
        driver = settings.get("driver", _MISSING)
        if driver not in kind.drivers:
            c.bad(f"{key}.driver", driver, f"one of {', '.join(kind.drivers)}")
            continue
        checks = kind.drivers[driver]
        for sub, value in settings.items():
            if sub == "driver":
                continue
            if sub not in checks:
                c.bad(f"{key}.{sub}", value, f"unknown key for the {driver} {name} "
                                             f"(allowed: driver{', ' if checks else ''}{', '.join(checks)})")
            elif problem := checks[sub](value):
                c.bad(f"{key}.{sub}", value, problem)
        for needed, why in kind.required.get(driver, {}).items():
            if needed not in settings:
                c.bad(f"{key}.{needed}", _MISSING, why)
        out[name] = DeviceConfig(name, driver, MappingProxyType({k: v for k, v in settings.items() if k != "driver"}))
    return out


RUNTIME_ACTIONS = ("close_bets", "confirm", "void", "clear_fault", "jackpot_confirm", "supervisor_key", "new_shoe") + \
    tuple(f"decision_{n}" for n in range(1, 10))
"""Button actions the runtime itself understands; a game's declared actions come on top (docs/configuration.md)."""


def _pin_map(c: _Checker, devices: Mapping[str, DeviceConfig], base_dir: Path | None,
             spec: GameSpec | None) -> PinMap | None:
    """Load the pin map named by devices.gpio (one line on any problem) and check it against the other devices."""
    gpio = devices.get("gpio")
    pin_map: PinMap | None = None
    if gpio is not None and gpio.driver == "gpio" and isinstance(gpio.settings.get("pin_map"), str):
        value = gpio.settings["pin_map"]
        path = Path(value) if base_dir is None else base_dir / value
        try:
            pin_map = load_device_config(path)
        except PinMapError as exc:
            c.bad("devices.gpio.pin_map", value, str(exc).replace(str(path), "the pin map", 1))
            return None
    elif gpio is not None and gpio.driver == "gpio":
        return None  # the pin map's own problem is the one reported
    from controller.runtime.devices import registry  # a kind's built drivers may need a part of the pin map

    for kind in registry.in_order():
        name, part, device = kind.name, kind.pin_map_part, devices.get(kind.name)
        if part is not None and device is not None and device.driver in kind.builds and (
                pin_map is None or getattr(pin_map, part) is None):
            c.bad(f"devices.{name}.driver", device.driver, f"a {device.driver} {name.replace('_', ' ')} needs a "
                                                           f"[{part}] section in the pin map of [devices.gpio]; "
                                                           f"or 'text'")
    if pin_map is not None and spec is not None:
        game = spec.id
        known = set(RUNTIME_ACTIONS) | {a.name for a in spec.actions}
        for button in pin_map.buttons:
            action = button.action_for(game)
            if action is not None and action not in known:
                c.bad(f"devices.gpio.pin_map buttons.{button.name}.actions.{game}", action,
                      f"an action of {game} or of the table: {', '.join(sorted(known))}")
    return pin_map


def _fed_meters(c: _Checker, spec: GameSpec, round_config: RoundConfig, section: Mapping[str, Any]) -> None:
    """Each meter the game feeds (an option naming it, such as Oasis Stud's ``meter``) must be a [jackpot.NAME] of
    the table: else every round with a progressive bet would be refused when the bets close. A meter whose own
    section is malformed has its own line already."""
    for option, meter in spec.fed_meters(round_config).items():
        if meter not in section:
            c.bad(f"options.{option}", meter, f"the meter {spec.id} feeds needs a [jackpot.{meter}] section "
                                              f"(its base) in this file (meters here: "
                                              f"{', '.join(section) or 'none'})")


def _jackpots(c: _Checker, section: Mapping[str, Any], given_by_game: Mapping[str, int | None],
              game: str) -> tuple[JackpotConfig, ...]:
    """The [jackpot.NAME] meters. On a meter the game feeds, the game gives every contribution's amount (its
    ``progressive_contribution`` option per chip, or the rake and drop it computes): ``contribution`` may then be
    left out and is refused where it says anything else, since it would change nothing (one source of truth)."""
    out: list[JackpotConfig] = []
    for name, meter in section.items():
        key = f"jackpot.{name}"
        if not _NAME.match(name):
            c.bad(key, "{...}", "a meter name of lower-case letters, digits, '-' or '_'")
            continue
        if not isinstance(meter, Mapping):
            c.bad(key, meter, f"must be a [{key}] section with base and contribution")
            continue
        c.keys(key, meter, _JACKPOT_KEYS)
        amount = _int_range(0, 10**12)
        base, contribution = meter.get("base", _MISSING), meter.get("contribution", _MISSING)
        cap, overflow = meter.get("cap"), meter.get("overflow", False)
        ok = True
        checked: tuple[tuple[str, Any], ...] = (("base", base), ("contribution", contribution))
        if name in given_by_game:
            checked = (("base", base),)
            ok = _game_contribution(c, key, contribution, given_by_game[name], game)
            if ok:
                contribution = given_by_game[name] or 0
        for sub, value in checked:
            if value is _MISSING and sub == "contribution" and any(m not in section for m in given_by_game):
                ok = False  # a fed meter the file lacks has its line (options.meter ...): the likely fix is there
                continue
            if value is _MISSING or amount(value):
                c.bad(f"{key}.{sub}", value, "an amount in minor units, 0 or more")
                ok = False
        if cap is not None and (amount(cap) or (ok and cap <= base)):
            c.bad(f"{key}.cap", cap, f"an amount in minor units above the base ({base if ok else '?'})")
            ok = False
        if _bool(overflow):
            c.bad(f"{key}.overflow", overflow, "true or false")
            ok = False
        elif overflow and cap is None:
            c.bad(f"{key}.overflow", overflow, "an overflow meter needs a cap")
            ok = False
        link = meter.get("link")
        if link is not None and not (isinstance(link, str) and _NAME.match(link)):
            c.bad(f"{key}.link", link, "the name of the floor's [link.NAME] that owns this meter")
            ok = False
        elif link is not None and (cap is not None or overflow):
            c.bad(f"{key}.cap", cap, "a linked meter's cap and overflow are the link's ([link.NAME] on the floor)")
            ok = False
        if ok:
            out.append(JackpotConfig(name, base, contribution, cap, overflow, link))
    return tuple(out)


def _game_contribution(c: _Checker, key: str, contribution: Any, fixed: int | None, game: str) -> bool:
    """Whether a fed meter's ``contribution`` agrees with what the game adds (left out always does)."""
    if contribution is _MISSING:
        return True
    if fixed is not None:
        if contribution == fixed and not isinstance(contribution, bool):
            return True
        c.bad(f"{key}.contribution", contribution,
              f"{game} adds options.progressive_contribution ({fixed}) per progressive chip to this meter: leave "
              f"contribution out (or set it to {fixed}) and change options.progressive_contribution instead")
        return False
    if contribution == 0 and not isinstance(contribution, bool):
        return True
    c.bad(f"{key}.contribution", contribution,
          f"{game} gives every amount on this meter itself (the rake, the time charge, the drop): leave "
          f"contribution out (or 0); the game's options set what the meter gets")
    return False


EXAMPLES = HW / "tables"


def simulated_defaults(game: str, variant: str | None = None, journal: str | None = None,
                       emulated: bool = False) -> dict[str, Any]:
    """The embedded configuration of ``tablectl run --simulate --game G``.

    ``emulated``: the real drivers on their emulators (a shoe or wheel on a pty,
    the dealer panel of hw/dealer-panel.toml on mock pins, luma dummy
    displays); otherwise the daemon's fast in-process stand-ins (``simulated``).
    Where the source tree has the example table ``hw/tables/<game>-<variant>.toml``
    (variant: the one given, else the game's first), its currency, options,
    limits and jackpot meters are used, so the simulated table plays the
    example's limits and feeds its progressive.
    """
    table_id = f"sim-{game}"[:32]
    table: dict[str, Any] = {"id": table_id, "game": game, "currency": "SEK", "minor_unit": 100}
    if variant:
        table["variant"] = variant
    devices: dict[str, Any] = {name: {"driver": "simulated"} for name in ("shoe", "gpio", "sign", "jackpot_display")}
    if emulated:
        try:
            needs = games.load_game(game).devices
        except ValueError:
            needs = ("shoe",)
        devices = {"gpio": {"driver": "gpio", "pin_factory": "mock", "pin_map": str(HW / "dealer-panel.toml")},
                   "sign": {"driver": "dummy"}, "jackpot_display": {"driver": "dummy"}}
        if "shoe" in needs:
            devices["shoe"] = {"driver": "serial", "port": "pty"}
        if "wheel_reader" in needs:
            devices["wheel"] = {"driver": "serial", "port": "pty"}
        elif "camera" in needs:  # the dice: synthetic scenes of the seeded throw, read by the real reader
            devices["camera"] = {"driver": "synthetic"}
    out: dict[str, Any] = {
        "table": table,
        "devices": devices,
        "journal": {"path": journal or f"var/{table_id}/journal.sqlite"},
    }
    example = _example(game, variant)
    if example is not None:
        given = example.get("table", {})
        table.update({k: given[k] for k in ("currency", "minor_unit", "price_base_amount", "variant") if k in given})
        out.update({k: example[k] for k in ("options", "limits", "jackpot") if k in example})
    return out


def _example(game: str, variant: str | None) -> dict[str, Any] | None:
    """The example table of a game and variant, parsed, or None where there is none (or it cannot be read)."""
    if variant is None:
        try:
            variant = games.load_game(game).variants[0].id
        except ValueError:
            return None
    path = EXAMPLES / f"{game}-{variant}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
