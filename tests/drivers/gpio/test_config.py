"""Pin maps: the shipped builds load, and every conflict is refused with one line naming the pin and both uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.gpio.config import DeviceConfig, PinMapError, PinRef, load_device_config

ROOT = Path(__file__).resolve().parents[3]
BUILDS = sorted((ROOT / "hw").glob("*.toml"))

BASE = """
[build]
board = "pi4"
buses = ["spi0", "i2c1", "uart0"]
[expanders.a]
address = 0x20
[buttons.stand]
pin = 17
"""


def load(tmp_path: Path, extra: str, base: str = BASE) -> DeviceConfig:
    path = tmp_path / "build.toml"
    path.write_text(base + extra, encoding="utf-8")
    return load_device_config(path)


@pytest.mark.parametrize("path", BUILDS, ids=[p.stem for p in BUILDS])
def test_shipped_builds_load(path):
    config = load_device_config(path)
    assert config.name == path.stem
    assert config.tower is not None and config.buttons


def test_build_fields(tmp_path):
    config = load(tmp_path, '[puck]\nsensors = [4, "a:B2"]\n[buttons.double]\npin = 22\nactions = {blackjack = "double"}\n')
    assert config.puck.sensors == (PinRef(4), PinRef(10, "a"))
    assert config.buttons[1].action_for("blackjack") == "double"
    assert config.buttons[1].action_for("roulette") is None
    assert config.debounce_ms == 20


CONFLICTS = [
    ("[tower]\ngreen = 17\namber = 5\nred = 6\n",
     "GPIO17 (header pin 11) is used twice: buttons.stand and tower.green"),
    ("[tower]\ngreen = 10\namber = 5\nred = 6\n",
     "GPIO10 (header pin 19) is used twice: SPI0 MOSI (the bus is enabled in build.buses) and tower.green"),
    ("[tower]\ngreen = 7\namber = 5\nred = 6\n",
     "GPIO7 (header pin 26) is used twice: SPI0 CE1 (the bus is enabled in build.buses) and tower.green"),
    ("[puck]\nsensors = [4, 3]\n",
     "GPIO3 (header pin 5) is used twice: I2C1 SCL (the bus is enabled in build.buses) and puck.sensors[box 2]"),
    ("[puck]\nsensors = [14]\n",
     "GPIO14 (header pin 8) is used twice: UART0 TXD (the bus is enabled in build.buses) and puck.sensors[box 1]"),
    ("[puck]\nsensors = [4, 28]\n", "puck.sensors[box 2]: GPIO28 is not on the 40-pin header of a Pi 4/5"),
    ("[puck]\nsensors = [0]\n", "puck.sensors[box 1]: GPIO0 (header pin 27) is reserved for ID_SD"),
    ("[puck]\nsensors = [\"a:1\", \"a:A1\"]\n", "expander pin a:1 is used twice: puck.sensors[box 1] and puck.sensors[box 2]"),
    ("[puck]\nsensors = [\"b:1\"]\n", "puck.sensors[box 1]: 'b:1' names expander 'b', which is not in [expanders]"),
    ("[puck]\nsensors = [\"a:16\"]\n", "'a:16': an MCP23017 has pins 0..15"),
    ("[expanders.b]\naddress = 0x20\n", "I2C address 0x20 is used twice: expanders.a and expanders.b"),
    ("[expanders.b]\naddress = 0x21\nint_pin = 17\n",
     "GPIO17 (header pin 11) is used twice: expanders.b.int_pin and buttons.stand"),
    ("[sign]\nspi_device = 1\n[jackpot]\nspi_device = 1\n", "SPI0 CE1 is used twice: sign and jackpot"),
    ("[progressive]\nsensors = [\"a:0\"]\nlamps = [\"a:8\"]\nlock_button = \"lock\"\n",
     "progressive.lock_button: no button called 'lock' (buttons: stand)"),
    ("[progressive]\nsensors = [\"a:0\", \"a:1\"]\nlamps = [\"a:8\"]\n", "2 sensors but 1 lamps"),
    ("[tower]\ngreen = 5\namber = 6\n", "tower.red: missing"),
    ("[towr]\ngreen = 5\n", "the file: unknown key 'towr'"),
    ("[buttons.double]\npin = 22\nlong_pres_ms = 9\n", "buttons.double: unknown key 'long_pres_ms'"),
    ("[buttons.double]\npin = 22\nlong_press_ms = 5\n", "buttons.double.long_press_ms: expected a whole number 100..60000"),
    ("[buttons.double]\npin = \"GPIO22\"\n", "buttons.double.pin: expected a BCM GPIO number or \"expander:pin\""),
    ("[presence]\nsensors = [{seat = 1, spot = \"ante\", pin = 5}, {seat = 1, spot = \"ante\", pin = 6}]\n",
     "presence.sensors[2]: box 1 spot ante has two sensors"),
    ("[sign]\nblock_orientation = 45\n", "sign.block_orientation: expected 0, 90, -90 or 180"),
]


@pytest.mark.parametrize("extra,message", CONFLICTS, ids=[m[:40] for _, m in CONFLICTS])
def test_conflict_is_refused_with_one_clear_line(tmp_path, extra, message):
    with pytest.raises(PinMapError) as info:
        load(tmp_path, extra)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(str(tmp_path / "build.toml") + ": ")
    assert message in text


@pytest.mark.parametrize("base,message", [
    ('[build]\nbuses = []\n[expanders.a]\naddress = 0x20\n', 'expanders.a needs the I2C1 bus: add "i2c1" to build.buses'),
    ('[build]\nbuses = ["i2c1"]\n[sign]\n', 'sign needs the SPI0 bus: add "spi0" to build.buses'),
    ('[build]\nboard = "pi3"\n', "build.board: 'pi3' is not a supported board (pi4, pi5)"),
    ('[build]\nbuses = ["spi1"]\n', "build.buses: expected a list of spi0, i2c1, uart0"),
    ('[build\n', "not valid TOML"),
])
def test_build_level_errors(tmp_path, base, message):
    with pytest.raises(PinMapError, match=".*") as info:
        load(tmp_path, "", base=base)
    assert message in str(info.value)


def test_bus_pins_are_free_when_the_bus_is_disabled(tmp_path):
    config = load(tmp_path, "", base='[build]\nbuses = []\n[buttons.stand]\npin = 10\n[puck]\nsensors = [2, 3, 14, 15]\n')
    assert [str(p) for _, p in config.uses()] == ["GPIO10", "GPIO2", "GPIO3", "GPIO14", "GPIO15"]


def test_missing_file(tmp_path):
    with pytest.raises(PinMapError, match="nope.toml: cannot read"):
        load_device_config(tmp_path / "nope.toml")
