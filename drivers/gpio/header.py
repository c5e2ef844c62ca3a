"""Facts about the Raspberry Pi 4/5 40-pin header: which BCM GPIO is on which pin, and what the buses take."""

from __future__ import annotations

HEADER_PIN: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22,
    26: 37, 27: 13,
}
"""BCM GPIO number -> physical pin on the 40-pin header (identical on the Pi 4 and the Pi 5)."""

RESERVED: dict[int, str] = {0: "ID_SD (the HAT ID EEPROM bus)", 1: "ID_SC (the HAT ID EEPROM bus)"}
"""Header GPIOs the firmware reads at boot for a HAT's ID EEPROM; never used for our devices."""

BUS_PINS: dict[str, dict[int, str]] = {
    "spi0": {8: "CE0", 7: "CE1", 9: "MISO", 10: "MOSI", 11: "SCLK"},
    "i2c1": {2: "SDA", 3: "SCL"},
    "uart0": {14: "TXD", 15: "RXD"},
}
"""The pins each bus takes once it is enabled (dtparam=spi=on, dtparam=i2c_arm=on, enable_uart=1)."""

BOARDS = ("pi4", "pi5")


def describe(bcm: int) -> str:
    """``GPIO17 (header pin 11)``."""
    return f"GPIO{bcm} (header pin {HEADER_PIN[bcm]})" if bcm in HEADER_PIN else f"GPIO{bcm}"
