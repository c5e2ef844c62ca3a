"""MCP23017 16-bit I/O expander over I2C (smbus2), at the register level.

An 11-box Black Jack Burn table has more puck, presence and slot contacts than
the Pi header has free pins; one MCP23017 gives 16 more, and up to eight share
the I2C1 bus (addresses 0x20..0x27). Registers are used in the power-on bank
layout (IOCON.BANK = 0: A and B registers interleaved). Inputs are read with
one word read of GPIOA/GPIOB so both ports are a single snapshot.

The bus is anything with smbus2's ``read_byte_data``, ``write_byte_data`` and
``read_word_data``: ``smbus2.SMBus(1)`` on a Pi, ``FakeMcp23017Bus`` in tests.
"""

from __future__ import annotations

from typing import Any

IODIRA, IODIRB = 0x00, 0x01
IPOLA, IPOLB = 0x02, 0x03
GPINTENA, GPINTENB = 0x04, 0x05
DEFVALA, DEFVALB = 0x06, 0x07
INTCONA, INTCONB = 0x08, 0x09
IOCON = 0x0A
GPPUA, GPPUB = 0x0C, 0x0D
INTFA, INTFB = 0x0E, 0x0F
INTCAPA, INTCAPB = 0x10, 0x11
GPIOA, GPIOB = 0x12, 0x13
OLATA, OLATB = 0x14, 0x15

IOCON_MIRROR = 0x40
"""INTA and INTB both signal a change on either port, so one interrupt wire is enough."""
IOCON_ODR = 0x04
"""The interrupt output is open drain (the Pi's pull-up on the INT GPIO does the rest)."""


class ExpanderError(OSError):
    """The expander did not answer on the bus."""


class Mcp23017:
    """One expander chip: claim pins as inputs/outputs, then ``configure()``; ``refresh()`` reads all inputs."""

    def __init__(self, bus: Any, address: int = 0x20, name: str = "mcp") -> None:
        if not 0x20 <= address <= 0x27:
            raise ValueError(f"MCP23017 address must be 0x20..0x27, not {address:#x}")
        self.bus = bus
        self.address = address
        self.name = name
        self._inputs = 0
        self._pullups = 0
        self._outputs = 0
        self._latch = 0
        self._levels = 0xFFFF

    def claim_input(self, pin: int, pull_up: bool = True) -> None:
        bit = self._bit(pin)
        self._inputs |= bit
        if pull_up:
            self._pullups |= bit

    def claim_output(self, pin: int) -> None:
        self._outputs |= self._bit(pin)

    def configure(self) -> None:
        """Write the direction, pull-up, interrupt-on-change and output registers (outputs start off)."""
        directions = 0xFFFF & ~self._outputs  # 1 = input; unused pins stay inputs (safe)
        self._write_pair(IOCON, IOCON_MIRROR | IOCON_ODR, None)
        self._write_pair(IPOLA, 0, 0)
        self._write_pair(GPPUA, self._pullups & 0xFF, self._pullups >> 8)
        self._write_pair(OLATA, self._latch & 0xFF, self._latch >> 8)
        self._write_pair(IODIRA, directions & 0xFF, directions >> 8)
        self._write_pair(INTCONA, 0, 0)  # compare with the previous value: interrupt on any change
        self._write_pair(GPINTENA, self._inputs & 0xFF, self._inputs >> 8)
        self.refresh()

    def refresh(self) -> int:
        """Read GPIOA and GPIOB in one transfer; returns the 16 levels (bit n = pin n, GPA0 is bit 0)."""
        try:
            word = self.bus.read_word_data(self.address, GPIOA)
        except OSError as exc:
            raise ExpanderError(f"expander {self.name} at {self.address:#x} did not answer: {exc}") from exc
        self._levels = word & 0xFFFF
        return self._levels

    def level(self, pin: int) -> bool:
        """The electrical level of ``pin`` at the last ``refresh()`` (true = high)."""
        return bool(self._levels & self._bit(pin))

    def write(self, pin: int, on: bool) -> None:
        """Drive an output pin; only the port that changed is written (OLATA or OLATB)."""
        bit = self._bit(pin)
        if not self._outputs & bit:
            raise ValueError(f"{self.name}:{pin} is not claimed as an output")
        latch = (self._latch | bit) if on else (self._latch & ~bit)
        if latch == self._latch:
            return
        register, value = (OLATA, latch & 0xFF) if pin < 8 else (OLATB, latch >> 8)
        self._write(register, value)
        self._latch = latch  # only once written: a failed write is tried again next time

    @staticmethod
    def _bit(pin: int) -> int:
        if not 0 <= pin <= 15:
            raise ValueError(f"MCP23017 pin must be 0..15 (GPA0..GPB7), not {pin}")
        return 1 << pin

    def _write_pair(self, register_a: int, value_a: int, value_b: int | None) -> None:
        self._write(register_a, value_a)
        if value_b is not None:
            self._write(register_a + 1, value_b)

    def _write(self, register: int, value: int) -> None:
        try:
            self.bus.write_byte_data(self.address, register, value & 0xFF)
        except OSError as exc:
            raise ExpanderError(f"expander {self.name} at {self.address:#x} did not answer: {exc}") from exc


class FakeMcp23017Bus:
    """An I2C bus with MCP23017 chips on it, simulated register by register (BANK = 0 layout).

    ``drive(address, pin, high)`` sets what the outside world puts on an input
    pin. Reading GPIOx gives the outside level on input pins (through IPOL) and
    the latch on output pins, as the datasheet says. Every transfer is logged in
    ``writes`` so tests can check the exact register traffic.
    """

    def __init__(self, addresses: tuple[int, ...] = (0x20,)) -> None:
        self.registers: dict[int, list[int]] = {}
        self.outside: dict[int, int] = {}
        self.writes: list[tuple[int, int, int]] = []
        self.fail = False
        for address in addresses:
            self.registers[address] = self._power_on()
            self.outside[address] = 0xFFFF

    @staticmethod
    def _power_on() -> list[int]:
        regs = [0] * 0x16
        regs[IODIRA] = regs[IODIRB] = 0xFF
        return regs

    def _chip(self, address: int) -> list[int]:
        if self.fail or address not in self.registers:
            raise OSError(121, "Remote I/O error")
        return self.registers[address]

    def drive(self, address: int, pin: int, high: bool) -> None:
        bit = 1 << pin
        self.outside[address] = (self.outside[address] | bit) if high else (self.outside[address] & ~bit)

    def pulled_up(self, address: int, pin: int) -> bool:
        regs = self.registers[address]
        return bool(((regs[GPPUB] << 8) | regs[GPPUA]) & (1 << pin))

    def output(self, address: int, pin: int) -> bool | None:
        """The level an output pin drives, or ``None`` when the pin is an input."""
        regs = self.registers[address]
        if ((regs[IODIRB] << 8) | regs[IODIRA]) & (1 << pin):
            return None
        return bool(((regs[OLATB] << 8) | regs[OLATA]) & (1 << pin))

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        regs = self._chip(address)
        if not 0 <= register < len(regs) or not 0 <= value <= 0xFF:
            raise OSError(22, "Invalid argument")
        self.writes.append((address, register, value))
        if register in (GPIOA, GPIOB):  # writing GPIO writes the latch
            register += OLATA - GPIOA
        if register == IOCON + 1:
            register = IOCON
        regs[register] = value

    def read_byte_data(self, address: int, register: int) -> int:
        regs = self._chip(address)
        if register in (GPIOA, GPIOB):
            port = register - GPIOA
            direction = regs[IODIRA + port]
            polarity = regs[IPOLA + port]
            outside = (self.outside[address] >> (8 * port)) & 0xFF
            return ((outside ^ polarity) & direction) | (regs[OLATA + port] & ~direction & 0xFF)
        return regs[register]

    def read_word_data(self, address: int, register: int) -> int:
        """Sequential read of ``register`` then ``register + 1``, low byte first (smbus word order)."""
        return self.read_byte_data(address, register) | (self.read_byte_data(address, register + 1) << 8)
