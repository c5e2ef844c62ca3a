"""The wiring table of a hardware build, as Markdown for docs/devices/wiring.md (generated, never hand-edited)."""

from __future__ import annotations

from drivers.gpio.config import DeviceConfig, PinRef
from drivers.gpio.header import BUS_PINS, HEADER_PIN


def _pin_cells(pin: PinRef, config: DeviceConfig) -> tuple[str, str]:
    if pin.expander is None:
        return f"GPIO{pin.number}", str(HEADER_PIN[pin.number])
    address = next(e.address for e in config.expanders if e.name == pin.expander)
    port = "A" if pin.number < 8 else "B"
    return f"{pin.expander}:{pin.number} (GP{port}{pin.number % 8})", f"MCP23017 {address:#04x}"


def wiring_rows(config: DeviceConfig) -> list[tuple[str, str, str, str]]:
    """(what, pin, where, wiring) for every pin the build uses, buses first."""
    rows: list[tuple[str, str, str, str]] = []
    users = {"spi0": ", ".join(n for n, d in (("sign", config.sign), ("jackpot", config.jackpot)) if d) or "-",
             "i2c1": ", ".join(f"expander {e.name}" for e in config.expanders) or "-", "uart0": "console"}
    for bus in config.buses:
        for bcm, signal in sorted(BUS_PINS[bus].items(), key=lambda item: HEADER_PIN[item[0]]):
            rows.append((f"{bus.upper()} {signal} ({users[bus]})", f"GPIO{bcm}", str(HEADER_PIN[bcm]), "bus"))
    if config.sign:
        rows.append((f"sign: {config.sign.cascaded} MAX7219 modules", f"SPI0 CE{config.sign.spi_device}", "-",
                     "VCC 5 V, GND, DIN=MOSI, CLK=SCLK, CS=CE"))
    if config.jackpot:
        rows.append(("jackpot display: MAX7219, 8 digits", f"SPI0 CE{config.jackpot.spi_device}", "-",
                     "VCC 5 V, GND, DIN=MOSI, CLK=SCLK, CS=CE"))
    for exp in config.expanders:
        rows.append((f"expander {exp.name}: MCP23017 at {exp.address:#04x}", "I2C1", "-",
                     "VDD 3.3 V; A2..A0 set the address; RESET to 3.3 V"))
        if exp.int_pin is not None:
            int_cell, int_where = _pin_cells(PinRef(exp.int_pin), config)
            rows.append((f"expander {exp.name} INTA (open drain)", int_cell, int_where, "pull-up, active low"))
    for place, pin in config.uses():
        if place.startswith("expanders."):
            continue
        cell, where = _pin_cells(pin, config)
        if place.startswith(("tower.", "progressive.lamps")):
            kind = "output, active high, through a driver"
        elif place.startswith("buttons."):
            kind = "input, pull-up, switch to GND"
        else:
            section = {"puck": config.puck, "presence": config.presence, "progressive": config.progressive}[
                place.split(".")[0].split("[")[0]]
            kind = ("input, pull-up, sensor pulls to GND" if section is not None and section.active_low
                    else "input, pull-down, sensor drives 3.3 V")
        rows.append((place, cell, where, kind))
    return rows


def wiring_markdown(config: DeviceConfig, source: str) -> str:
    """A section for ``config``: heading, the source file, and its table."""
    lines = [f"## {config.name}", "", f"From `{source}` (board {config.board}, buses "
             f"{', '.join(config.buses) or 'none'}, debounce {config.debounce_ms} ms).", "",
             "| use | pin | header pin / chip | wiring |", "|---|---|---|---|"]
    lines.extend(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in wiring_rows(config))
    return "\n".join(lines) + "\n"
