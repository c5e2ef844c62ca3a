"""The jackpot display: MAX7219 digits on SPI0 (drivers/displays; docs/devices/jackpot-display.md).

Built as the sign is (sign.py: ``max7219``, ``dummy``, ``text``, ``simulated``), from the pin map's
``[jackpot]`` (its decimals among them). It sends no events.
"""

from __future__ import annotations

from controller.runtime.devices.base import Context, DeviceKind
from controller.runtime.devices.sign import DRIVERS, builders, emulated


def show(context: Context) -> None:
    """The display's output: the panel's driver, or the luma device wrapped in ``JackpotDisplay``."""
    from controller.runtime.device_outputs import JackpotOutput
    from drivers.displays.jackpot import JackpotDisplay

    built, pin_map = context.built, context.config.pin_map
    display = built.displays.get("jackpot_display")
    if display is None or pin_map is None or pin_map.jackpot is None:
        return
    if "jackpot_display" not in built.ticked:
        display = built.displays["jackpot_display"] = JackpotDisplay(display, decimals=pin_map.jackpot.decimals)
    built.outputs["jackpot_display"] = JackpotOutput(display, context.loop, ticked="jackpot_display" in built.ticked,
                                                     retick=built.retick)


_real, _emulator = builders("jackpot")

KIND = DeviceKind(
    name="jackpot_display",
    drivers=DRIVERS,
    built_as={"max7219": "`drivers.displays.jackpot.JackpotDisplay` on luma's MAX7219 over SPI0 (the pin "
                         "map's `[jackpot]`)",
              "dummy": "the same on luma's dummy device; the terminal shows its content as text"},
    builds=frozenset({"max7219", "dummy"}),
    emulated=emulated,
    real=_real,
    emulator=_emulator,
    show=show,
    order=11,
    pin_map_part="jackpot",
    docs="jackpot-display.md",
)
