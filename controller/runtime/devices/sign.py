"""The LED sign: a chain of MAX7219 8x8 modules on SPI0 (drivers/displays; docs/devices/sign.md).

Driver ``max7219``: luma's MAX7219 with ``gpio=noop`` (its geometry, chip select, orientation and contrast
from the pin map's ``[sign]``); ``dummy``, and a ``max7219`` under ``--simulate``, a luma ``dummy`` device of
the same size whose content the terminal shows as text; ``text`` and ``simulated``: the daemon's text line.
When the table has a GPIO panel the panel drives the display (ticked with the buttons); else its output
ticks it. It sends no events.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from controller.runtime.devices.base import Context, DeviceKind, StartProblem

if TYPE_CHECKING:
    from controller.config import DeviceConfig

DRIVERS: dict[str, dict[str, Any]] = {"max7219": {}, "dummy": {}, "text": {}, "simulated": {}}
"""The displays' drivers; their geometry is in the pin map: read once, there."""


def _only(pin_map: Any, part: str) -> Any:
    """The pin map with only this display (the other one is not opened for it)."""
    return replace(pin_map, **{other: None for other in ("sign", "jackpot") if other != part})


def builders(part: str) -> tuple[Callable[[Context, "DeviceConfig"], None], Callable[[Context, "DeviceConfig"], None]]:
    """The real and the emulated builder of the display ``part`` (``sign``, ``jackpot``) of the pin map."""

    def real(context: Context, device: "DeviceConfig") -> None:
        pin_map = context.config.pin_map
        if pin_map is None or getattr(pin_map, part) is None:
            return
        try:
            from drivers.gpio.devices import hardware_displays
            luma = hardware_displays(_only(pin_map, part))
        except Exception as exc:  # spidev missing, no SPI device node
            raise StartProblem(f"{context.config.source}: the MAX7219 displays cannot start: {exc}") from None
        context.built.displays[device.name] = luma[0 if part == "sign" else 1]

    def emulator(context: Context, device: "DeviceConfig") -> None:
        pin_map = context.config.pin_map
        if pin_map is None or getattr(pin_map, part) is None:
            return
        from drivers.gpio.devices import simulated_displays
        context.built.displays[device.name] = simulated_displays(_only(pin_map, part))[0 if part == "sign" else 1]

    return real, emulator


def show(context: Context) -> None:
    """The sign's output: the panel's sign driver, or the luma device wrapped in ``drivers.displays.sign.Sign``."""
    from controller.runtime.device_outputs import SignOutput
    from drivers.displays.sign import Sign

    built = context.built
    display = built.displays.get("sign")
    if display is None:
        return
    if "sign" not in built.ticked:
        display = built.displays["sign"] = Sign(display)
    built.outputs["sign"] = SignOutput(display, context.loop, ticked="sign" in built.ticked, retick=built.retick)


def emulated(device: "DeviceConfig", simulate: bool) -> bool:
    """A ``dummy`` display, and every display of a simulated table, is a luma dummy device."""
    return simulate or device.driver == "dummy"


_real, _emulator = builders("sign")

KIND = DeviceKind(
    name="sign",
    drivers=DRIVERS,
    built_as={"max7219": "`drivers.displays.sign.Sign` on luma's MAX7219 over SPI0 with `gpio=noop` "
                         "(its geometry in the pin map's `[sign]`)",
              "dummy": "the same on luma's dummy device; the terminal shows its content as text"},
    builds=frozenset({"max7219", "dummy"}),
    emulated=emulated,
    real=_real,
    emulator=_emulator,
    show=show,
    order=10,
    pin_map_part="sign",
    docs="sign.md",
)
