"""The MCP23017 driver against a fake I2C bus, register by register."""

from __future__ import annotations

import pytest

from drivers.gpio import mcp23017 as reg
from drivers.gpio.lines import ExpanderInput, ExpanderOutput
from drivers.gpio.mcp23017 import ExpanderError, FakeMcp23017Bus, Mcp23017


def test_configure_writes_direction_pullups_interrupts_and_latch():
    bus = FakeMcp23017Bus((0x21,))
    chip = Mcp23017(bus, 0x21, "a")
    ExpanderInput(chip, 0)
    ExpanderInput(chip, 9)
    ExpanderInput(chip, 3, active_low=False)
    ExpanderOutput(chip, 12)
    chip.configure()
    assert bus.writes == [
        (0x21, reg.IOCON, 0x44),
        (0x21, reg.IPOLA, 0x00), (0x21, reg.IPOLB, 0x00),
        (0x21, reg.GPPUA, 0x01), (0x21, reg.GPPUB, 0x02),
        (0x21, reg.OLATA, 0x00), (0x21, reg.OLATB, 0x00),
        (0x21, reg.IODIRA, 0xFF), (0x21, reg.IODIRB, 0xEF),
        (0x21, reg.INTCONA, 0x00), (0x21, reg.INTCONB, 0x00),
        (0x21, reg.GPINTENA, 0x09), (0x21, reg.GPINTENB, 0x02),
    ]
    assert bus.pulled_up(0x21, 0) and bus.pulled_up(0x21, 9) and not bus.pulled_up(0x21, 3)
    assert bus.output(0x21, 12) is False and bus.output(0x21, 0) is None


def test_inputs_are_one_word_snapshot_and_polarity_is_per_line():
    bus = FakeMcp23017Bus()
    chip = Mcp23017(bus, 0x20, "a")
    closed_to_ground = ExpanderInput(chip, 10)
    active_high = ExpanderInput(chip, 2, active_low=False)
    chip.configure()
    assert not closed_to_ground.active() and active_high.active()  # idle: all pulled high
    bus.drive(0x20, 10, False)
    bus.drive(0x20, 2, False)
    assert not closed_to_ground.active()  # not yet read
    assert chip.refresh() == 0xFFFF & ~(1 << 10) & ~(1 << 2)
    assert closed_to_ground.active() and not active_high.active()


def test_outputs_write_only_the_changed_port_latch():
    bus = FakeMcp23017Bus()
    chip = Mcp23017(bus, 0x20, "a")
    lamp_a, lamp_b = ExpanderOutput(chip, 1), ExpanderOutput(chip, 14)
    chip.configure()
    bus.writes.clear()
    lamp_b.set(True)
    lamp_b.set(True)
    lamp_a.set(True)
    lamp_b.set(False)
    assert bus.writes == [(0x20, reg.OLATB, 0x40), (0x20, reg.OLATA, 0x02), (0x20, reg.OLATB, 0x00)]
    assert bus.output(0x20, 1) is True and bus.output(0x20, 14) is False
    # reading GPIO gives the latch on output pins
    assert bus.read_byte_data(0x20, reg.GPIOA) & 0x02


def test_a_silent_chip_is_an_expander_error():
    bus = FakeMcp23017Bus((0x20,))
    chip = Mcp23017(bus, 0x22, "b")
    with pytest.raises(ExpanderError, match="expander b at 0x22 did not answer"):
        chip.configure()


def test_bad_pin_and_address_are_refused():
    with pytest.raises(ValueError, match="0x20..0x27"):
        Mcp23017(FakeMcp23017Bus(), 0x30)
    chip = Mcp23017(FakeMcp23017Bus())
    with pytest.raises(ValueError, match="0..15"):
        chip.claim_input(16)
    with pytest.raises(ValueError, match="not claimed as an output"):
        chip.write(3, True)
