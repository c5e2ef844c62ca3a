"""The device configuration of one hardware build: a pin map in TOML (``hw/<build>.toml``), validated on load.

``load_device_config(path)`` returns a frozen ``DeviceConfig`` or raises
``PinMapError`` with one line naming the file, the place and the problem:
a pin used twice (both uses named), a pin an enabled bus needs (SPI0, I2C1,
UART0), a GPIO that is not on the 40-pin header of a Pi 4/5, an unknown key.
Pins are BCM GPIO numbers, or ``"a:3"`` for pin 3 (GPA3; 8..15 are GPB0..GPB7)
of the MCP23017 expander configured as ``[expanders.a]``. The format is
documented in docs/devices/wiring.md.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.gpio.header import BOARDS, BUS_PINS, HEADER_PIN, RESERVED, describe


class PinMapError(ValueError):
    """A pin map that cannot be used; the message is one line naming the file and the place."""


@dataclass(frozen=True, slots=True)
class PinRef:
    """A BCM GPIO (``expander is None``) or pin 0..15 of a named MCP23017."""

    number: int
    expander: str | None = None

    def __str__(self) -> str:
        return f"GPIO{self.number}" if self.expander is None else f"{self.expander}:{self.number}"


@dataclass(frozen=True, slots=True)
class ExpanderConfig:
    name: str
    address: int
    int_pin: int | None = None


@dataclass(frozen=True, slots=True)
class ButtonConfig:
    """A dealer button; ``actions`` maps a game id to the action the button means in that game, ``action`` is
    what it means in every other game that takes that action (the controller knows which games do)."""

    name: str
    pin: PinRef
    long_press_ms: int = 1500
    actions: tuple[tuple[str, str], ...] = ()
    action: str | None = None

    def action_for(self, game: str) -> str | None:
        return dict(self.actions).get(game)


@dataclass(frozen=True, slots=True)
class TowerConfig:
    green: PinRef
    amber: PinRef
    red: PinRef
    buzzer: PinRef | None = None

    def lamps(self) -> dict[str, PinRef]:
        out = {"green": self.green, "amber": self.amber, "red": self.red}
        if self.buzzer is not None:
            out["buzzer"] = self.buzzer
        return out


@dataclass(frozen=True, slots=True)
class PuckConfig:
    """Burn-circle sensors, box 1 first."""

    sensors: tuple[PinRef, ...]
    fault_after_ms: int = 5000
    active_low: bool = True


@dataclass(frozen=True, slots=True)
class PresenceSensorConfig:
    seat: int
    spot: str
    pin: PinRef


@dataclass(frozen=True, slots=True)
class PresenceConfig:
    sensors: tuple[PresenceSensorConfig, ...]
    active_low: bool = True


@dataclass(frozen=True, slots=True)
class ProgressiveConfig:
    """Slot sensors and lamps, box 1 first; ``lock_button`` names the button that locks them."""

    sensors: tuple[PinRef, ...]
    lamps: tuple[PinRef, ...]
    lock_button: str
    active_low: bool = True


@dataclass(frozen=True, slots=True)
class SignConfig:
    """MAX7219 8x8 modules in a chain on SPI0; ``block_orientation`` as luma.led_matrix takes it."""

    spi_device: int = 0
    cascaded: int = 8
    block_orientation: int = 0
    reverse_order: bool = False
    """Modules chained right to left (luma's ``blocks_arranged_in_reverse_order``)."""
    contrast: int = 0x40


@dataclass(frozen=True, slots=True)
class JackpotConfig:
    """One MAX7219 with eight seven-segment digits on SPI0."""

    spi_device: int = 1
    decimals: int = 2
    contrast: int = 0x40


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """Everything wired to one table's Pi. Absent devices are ``None`` or empty."""

    name: str
    board: str
    buses: tuple[str, ...]
    debounce_ms: int = 20
    expanders: tuple[ExpanderConfig, ...] = ()
    buttons: tuple[ButtonConfig, ...] = ()
    tower: TowerConfig | None = None
    puck: PuckConfig | None = None
    presence: PresenceConfig | None = None
    progressive: ProgressiveConfig | None = None
    sign: SignConfig | None = None
    jackpot: JackpotConfig | None = None

    def uses(self) -> list[tuple[str, PinRef]]:
        """Every pin this build uses, with the place in the file that uses it."""
        out: list[tuple[str, PinRef]] = []
        for exp in self.expanders:
            if exp.int_pin is not None:
                out.append((f"expanders.{exp.name}.int_pin", PinRef(exp.int_pin)))
        for button in self.buttons:
            out.append((f"buttons.{button.name}", button.pin))
        if self.tower:
            out.extend((f"tower.{lamp}", pin) for lamp, pin in self.tower.lamps().items())
        if self.puck:
            out.extend((f"puck.sensors[box {i}]", pin) for i, pin in enumerate(self.puck.sensors, 1))
        if self.presence:
            out.extend((f"presence.sensors[box {s.seat} {s.spot}]", s.pin) for s in self.presence.sensors)
        if self.progressive:
            out.extend((f"progressive.sensors[box {i}]", p) for i, p in enumerate(self.progressive.sensors, 1))
            out.extend((f"progressive.lamps[box {i}]", p) for i, p in enumerate(self.progressive.lamps, 1))
        return out


_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_GAME_ID = re.compile(r"^[a-z][a-z0-9-]*$")
_EXPANDER_PIN = re.compile(r"^([a-z][a-z0-9_]*):(?:([0-9]+)|([AaBb])([0-7]))$")


def load_device_config(path: str | Path) -> DeviceConfig:
    """Read and validate ``path``; ``PinMapError`` (one line, file named) when it cannot be used."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PinMapError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PinMapError(f"{path}: not valid TOML: {exc}") from None
    try:
        return parse_device_config(data, default_name=path.stem)
    except PinMapError as exc:
        raise PinMapError(f"{path}: {exc}") from None


def parse_device_config(data: dict[str, Any], default_name: str = "build") -> DeviceConfig:
    """Build and validate a ``DeviceConfig`` from a parsed TOML document."""
    _keys(data, "the file", {"build", "expanders", "buttons", "tower", "puck", "presence", "progressive",
                             "sign", "jackpot"})
    build = _table(data, "build", "the file")
    _keys(build, "build", {"name", "board", "buses", "debounce_ms"})
    board = build.get("board", "pi4")
    if board not in BOARDS:
        raise PinMapError(f"build.board: {board!r} is not a supported board ({', '.join(BOARDS)})")
    buses = build.get("buses", [])
    if not isinstance(buses, list) or any(b not in BUS_PINS for b in buses):
        raise PinMapError(f"build.buses: expected a list of {', '.join(BUS_PINS)}, got {buses!r}")
    expanders = tuple(_expander(name, t) for name, t in _table(data, "expanders", "the file").items())
    known_expanders = {e.name for e in expanders}
    buttons = tuple(_button(name, t, known_expanders) for name, t in _table(data, "buttons", "the file").items())
    config = DeviceConfig(
        name=_str(build, "name", "build", default_name),
        board=board,
        buses=tuple(buses),
        debounce_ms=_int(build, "debounce_ms", "build", 20, 0, 1000),
        expanders=expanders,
        buttons=buttons,
        tower=_tower(data["tower"], known_expanders) if "tower" in data else None,
        puck=_puck(data["puck"], known_expanders) if "puck" in data else None,
        presence=_presence(data["presence"], known_expanders) if "presence" in data else None,
        progressive=_progressive(data["progressive"], known_expanders) if "progressive" in data else None,
        sign=_sign(data["sign"]) if "sign" in data else None,
        jackpot=_jackpot(data["jackpot"]) if "jackpot" in data else None,
    )
    validate(config)
    return config


def validate(config: DeviceConfig) -> None:
    """Refuse pins used twice, pins of enabled buses, pins off the header, and devices without their bus."""
    gpio_owner: dict[int, str] = {}
    expander_owner: dict[tuple[str, int], str] = {}
    bus_of: dict[int, str] = {}
    for bus in config.buses:
        for bcm, signal in BUS_PINS[bus].items():
            bus_of[bcm] = f"{bus.upper()} {signal}"
    for place, pin in config.uses():
        if pin.expander is not None:
            key = (pin.expander, pin.number)
            if key in expander_owner:
                raise PinMapError(f"expander pin {pin} is used twice: {expander_owner[key]} and {place}")
            expander_owner[key] = place
            continue
        bcm = pin.number
        if bcm not in HEADER_PIN:
            raise PinMapError(f"{place}: GPIO{bcm} is not on the 40-pin header of a Pi 4/5 (GPIO2..GPIO27)")
        if bcm in RESERVED:
            raise PinMapError(f"{place}: {describe(bcm)} is reserved for {RESERVED[bcm]}")
        if bcm in bus_of:
            raise PinMapError(f"{describe(bcm)} is used twice: {bus_of[bcm]} (the bus is enabled in build.buses) "
                              f"and {place}")
        if bcm in gpio_owner:
            raise PinMapError(f"{describe(bcm)} is used twice: {gpio_owner[bcm]} and {place}")
        gpio_owner[bcm] = place
    if config.expanders and "i2c1" not in config.buses:
        raise PinMapError(f"expanders.{config.expanders[0].name} needs the I2C1 bus: add \"i2c1\" to build.buses")
    addresses: dict[int, str] = {}
    for exp in config.expanders:
        if exp.address in addresses:
            raise PinMapError(f"I2C address {exp.address:#04x} is used twice: expanders.{addresses[exp.address]} "
                              f"and expanders.{exp.name}")
        addresses[exp.address] = exp.name
    chip_select: dict[int, str] = {}
    for place, display in (("sign", config.sign), ("jackpot", config.jackpot)):
        if display is None:
            continue
        if "spi0" not in config.buses:
            raise PinMapError(f"{place} needs the SPI0 bus: add \"spi0\" to build.buses")
        if display.spi_device in chip_select:
            raise PinMapError(f"SPI0 CE{display.spi_device} is used twice: {chip_select[display.spi_device]} "
                              f"and {place}")
        chip_select[display.spi_device] = place
    names = {b.name for b in config.buttons}
    if config.progressive and config.progressive.lock_button not in names:
        raise PinMapError(f"progressive.lock_button: no button called {config.progressive.lock_button!r} "
                          f"(buttons: {', '.join(sorted(names)) or 'none'})")


# -- reading the TOML tables ---------------------------------------------------------------------------------


def _keys(table: dict[str, Any], place: str, allowed: set[str]) -> None:
    for key in table:
        if key not in allowed:
            raise PinMapError(f"{place}: unknown key {key!r} (known: {', '.join(sorted(allowed))})")


def _table(data: dict[str, Any], key: str, place: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PinMapError(f"{key}: expected a table in {place}")
    return value


def _int(table: dict[str, Any], key: str, place: str, default: int | None, low: int, high: int) -> int:
    value = table.get(key, default)
    if value is None:
        raise PinMapError(f"{place}.{key}: missing")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PinMapError(f"{place}.{key}: expected a whole number {low}..{high}, got {value!r}")
    return value


def _str(table: dict[str, Any], key: str, place: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value:
        raise PinMapError(f"{place}.{key}: expected text, got {value!r}")
    return value


def _bool(table: dict[str, Any], key: str, place: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise PinMapError(f"{place}.{key}: expected true or false, got {value!r}")
    return value


def _pin(value: Any, place: str, expanders: set[str]) -> PinRef:
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise PinMapError(f"{place}: GPIO{value} is not a GPIO number")
        return PinRef(value)
    if isinstance(value, str):
        match = _EXPANDER_PIN.match(value)
        if match:
            name, number, port, bit = match.groups()
            pin = int(number) if number is not None else (0 if port.upper() == "A" else 8) + int(bit)
            if name not in expanders:
                raise PinMapError(f"{place}: {value!r} names expander {name!r}, which is not in [expanders]")
            if not 0 <= pin <= 15:
                raise PinMapError(f"{place}: {value!r}: an MCP23017 has pins 0..15 (A0..A7, B0..B7)")
            return PinRef(pin, name)
    raise PinMapError(f"{place}: expected a BCM GPIO number or \"expander:pin\", got {value!r}")


def _pins(table: dict[str, Any], key: str, place: str, expanders: set[str]) -> tuple[PinRef, ...]:
    value = table.get(key)
    if not isinstance(value, list) or not value:
        raise PinMapError(f"{place}.{key}: expected a list of pins, box 1 first")
    return tuple(_pin(v, f"{place}.{key}[box {i}]", expanders) for i, v in enumerate(value, 1))


def _expander(name: str, table: Any) -> ExpanderConfig:
    place = f"expanders.{name}"
    if not _NAME.match(name) or not isinstance(table, dict):
        raise PinMapError(f"{place}: expected a table named with lower-case letters, digits and _")
    _keys(table, place, {"address", "int_pin"})
    int_pin = table.get("int_pin")
    if int_pin is not None:
        int_pin = _int(table, "int_pin", place, None, 0, 1000)
    return ExpanderConfig(name, _int(table, "address", place, None, 0x20, 0x27), int_pin)


def _button(name: str, table: Any, expanders: set[str]) -> ButtonConfig:
    place = f"buttons.{name}"
    if not _NAME.match(name) or not isinstance(table, dict):
        raise PinMapError(f"{place}: expected a table named with lower-case letters, digits and _")
    _keys(table, place, {"pin", "long_press_ms", "actions", "action"})
    if "pin" not in table:
        raise PinMapError(f"{place}.pin: missing")
    actions = table.get("actions", {})
    if not isinstance(actions, dict):
        raise PinMapError(f"{place}.actions: expected a table of game id = action")
    for game, action in actions.items():
        if not _GAME_ID.match(game) or not isinstance(action, str) or not _NAME.match(action):
            raise PinMapError(f"{place}.actions.{game}: expected a game id = an action name, got {action!r}")
    default = table.get("action")
    if default is not None and (not isinstance(default, str) or not _NAME.match(default)):
        raise PinMapError(f"{place}.action: expected an action name, got {default!r}")
    return ButtonConfig(name, _pin(table["pin"], f"{place}.pin", expanders),
                        _int(table, "long_press_ms", place, 1500, 100, 60000), tuple(sorted(actions.items())),
                        default)


def _tower(table: Any, expanders: set[str]) -> TowerConfig:
    if not isinstance(table, dict):
        raise PinMapError("tower: expected a table")
    _keys(table, "tower", {"green", "amber", "red", "buzzer"})
    for lamp in ("green", "amber", "red"):
        if lamp not in table:
            raise PinMapError(f"tower.{lamp}: missing")
    green, amber, red = (_pin(table[lamp], f"tower.{lamp}", expanders) for lamp in ("green", "amber", "red"))
    return TowerConfig(green, amber, red,
                       buzzer=_pin(table["buzzer"], "tower.buzzer", expanders) if "buzzer" in table else None)


def _puck(table: Any, expanders: set[str]) -> PuckConfig:
    if not isinstance(table, dict):
        raise PinMapError("puck: expected a table")
    _keys(table, "puck", {"sensors", "fault_after_ms", "active_low"})
    return PuckConfig(_pins(table, "sensors", "puck", expanders), _int(table, "fault_after_ms", "puck", 5000, 100,
                                                                       600000),
                      _bool(table, "active_low", "puck", True))


def _presence(table: Any, expanders: set[str]) -> PresenceConfig:
    if not isinstance(table, dict):
        raise PinMapError("presence: expected a table")
    _keys(table, "presence", {"sensors", "active_low"})
    entries = table.get("sensors")
    if not isinstance(entries, list) or not entries:
        raise PinMapError("presence.sensors: expected a list of {seat, spot, pin}")
    sensors = []
    seen: set[tuple[int, str]] = set()
    for i, entry in enumerate(entries, 1):
        place = f"presence.sensors[{i}]"
        if not isinstance(entry, dict):
            raise PinMapError(f"{place}: expected {{seat = N, spot = \"name\", pin = P}}")
        _keys(entry, place, {"seat", "spot", "pin"})
        seat = _int(entry, "seat", place, None, 1, 99)
        spot = _str(entry, "spot", place, "")
        if not _NAME.match(spot):
            raise PinMapError(f"{place}.spot: {spot!r} is not a spot name (lower-case words joined by _)")
        if (seat, spot) in seen:
            raise PinMapError(f"{place}: box {seat} spot {spot} has two sensors")
        seen.add((seat, spot))
        sensors.append(PresenceSensorConfig(seat, spot, _pin(entry.get("pin"), f"{place}.pin", expanders)))
    return PresenceConfig(tuple(sensors), _bool(table, "active_low", "presence", True))


def _progressive(table: Any, expanders: set[str]) -> ProgressiveConfig:
    if not isinstance(table, dict):
        raise PinMapError("progressive: expected a table")
    _keys(table, "progressive", {"sensors", "lamps", "lock_button", "active_low"})
    sensors = _pins(table, "sensors", "progressive", expanders)
    lamps = _pins(table, "lamps", "progressive", expanders)
    if len(sensors) != len(lamps):
        raise PinMapError(f"progressive: {len(sensors)} sensors but {len(lamps)} lamps; each box needs one of each")
    return ProgressiveConfig(sensors, lamps, _str(table, "lock_button", "progressive", "lock"),
                             _bool(table, "active_low", "progressive", True))


def _sign(table: Any) -> SignConfig:
    if not isinstance(table, dict):
        raise PinMapError("sign: expected a table")
    _keys(table, "sign", {"spi_device", "cascaded", "block_orientation", "reverse_order", "contrast"})
    orientation = table.get("block_orientation", 0)
    if orientation not in (0, 90, -90, 180):
        raise PinMapError(f"sign.block_orientation: expected 0, 90, -90 or 180, got {orientation!r}")
    return SignConfig(_int(table, "spi_device", "sign", 0, 0, 1), _int(table, "cascaded", "sign", 8, 1, 32),
                      orientation, _bool(table, "reverse_order", "sign", False),
                      _int(table, "contrast", "sign", 0x40, 0, 255))


def _jackpot(table: Any) -> JackpotConfig:
    if not isinstance(table, dict):
        raise PinMapError("jackpot: expected a table")
    _keys(table, "jackpot", {"spi_device", "decimals", "contrast"})
    return JackpotConfig(_int(table, "spi_device", "jackpot", 1, 0, 1), _int(table, "decimals", "jackpot", 2, 0, 3),
                         _int(table, "contrast", "jackpot", 0x40, 0, 255))
