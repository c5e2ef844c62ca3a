"""The displays on luma's real max7219 device class, with the SPI traffic recorded instead of sent."""

from __future__ import annotations

import pytest
from luma.led_matrix.device import max7219

from drivers.displays import examples
from drivers.displays.jackpot import JackpotDisplay, segments
from drivers.displays.sign import Sign

# luma.led_matrix 1.9's max7219.display() calls Image.getdata(), deprecated in Pillow 13 (its warning, not ours)
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class RecordingSerial:
    """Stands where luma's ``spi(port=0, device=N, gpio=noop())`` would: keeps every data() transfer."""

    def __init__(self) -> None:
        self.transfers: list[list[int]] = []

    def data(self, payload) -> None:
        self.transfers.append(list(payload))

    def command(self, *args) -> None:
        self.transfers.append(list(args))

    def cleanup(self) -> None:
        pass


def digit_registers(transfers: list[list[int]]) -> dict[int, int]:
    """The last value written to each digit register (1..8) of a single MAX7219."""
    out: dict[int, int] = {}
    for transfer in transfers:
        for register, value in zip(transfer[::2], transfer[1::2]):
            if 1 <= register <= 8:
                out[register] = value
    return out


def test_jackpot_digits_reach_the_right_registers():
    serial = RecordingSerial()
    device = max7219(serial, cascaded=1)
    assert [0x0B, 7] in serial.transfers and [0x09, 0] in serial.transfers  # scan all 8 digits, no BCD decode
    display = JackpotDisplay(device)
    serial.transfers.clear()
    display.show(1234567, "ok", 0.0)
    display.update(0.0)
    registers = digit_registers(serial.transfers)
    expected = segments("12345.67")  # leftmost digit first
    # DIG0 (register 1) is the rightmost digit of the usual 8-digit modules
    assert [registers[r] for r in range(8, 0, -1)] == list(expected)
    assert registers[3] == 0x5B | 0x80  # "5." : the point lit on the third digit from the right


def test_sign_on_a_chain_of_eight_fc16_modules():
    serial = RecordingSerial()
    device = max7219(serial, cascaded=8, block_orientation=-90)
    sign = Sign(device)
    serial.transfers.clear()
    sign.show(examples.ROULETTE, 0.0)
    sign.update(0.0)
    # one frame: 8 row transfers, each addressing all 8 chips in the chain (register, value pairs)
    assert len(serial.transfers) == 8
    assert all(len(t) == 16 for t in serial.transfers)
    assert any(value for t in serial.transfers for value in t[1::2])
    serial.transfers.clear()
    sign.update(0.5)  # same picture: nothing sent
    assert serial.transfers == []


def test_hardware_displays_use_luma_spi_without_gpio(monkeypatch, tmp_path):
    """On the Pi: luma's spi(port=0, device=CE, gpio=noop()) and max7219 with the pin map's settings."""
    import luma.core.interface.serial as serial_module

    from drivers.gpio.config import load_device_config
    from drivers.gpio.devices import hardware_displays

    opened = []

    class FakeSpi(RecordingSerial):
        def __init__(self, **kwargs):
            super().__init__()
            opened.append(kwargs)

    monkeypatch.setattr(serial_module, "spi", FakeSpi)
    pinmap = tmp_path / "build.toml"
    pinmap.write_text('[build]\nbuses = ["spi0"]\n[sign]\ncascaded = 4\nblock_orientation = -90\n'
                      'reverse_order = true\n[jackpot]\nspi_device = 1\n', encoding="utf-8")
    sign, jackpot = hardware_displays(load_device_config(pinmap))
    assert [(o["port"], o["device"], type(o["gpio"]).__name__) for o in opened] == [(0, 0, "noop"), (0, 1, "noop")]
    assert (sign.width, sign.height, sign.blocks_arranged_in_reverse_order) == (32, 8, True)
    assert (jackpot.width, jackpot.height) == (8, 8)
