"""How long one loop tick of the GPIO and display drivers takes, per hardware build, on the mocks.

    python bench/gpio_tick.py

Prints JSON: microseconds per ``Devices.update(now)`` (every input debounced,
the expanders read from the fake bus, the tower, sign and jackpot redrawn) and
per sign/jackpot frame. On the mocks this measures our own code plus gpiozero's
mock pins, not SPI/I2C transfer time.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

from drivers.displays import examples  # noqa: E402
from drivers.displays.sign import items  # noqa: E402
from drivers.gpio.config import load_device_config  # noqa: E402
from drivers.gpio.sim import simulate  # noqa: E402

TICKS = 2000


def per_call_us(action: Callable[[int], object], calls: int) -> float:
    start = time.perf_counter()
    for i in range(calls):
        action(i)
    return round((time.perf_counter() - start) / calls * 1e6, 1)


def main() -> None:
    figures: dict[str, object] = {"ticks": TICKS}
    for path in sorted((ROOT / "hw").glob("*.toml")):
        sim = simulate(load_device_config(path), lambda event: None)
        devices = sim.devices
        if devices.tower:
            devices.tower.show("jackpot_pending", 0.0)
        if devices.sign:
            devices.sign.show(examples.ROULETTE, 0.0)
        if devices.jackpot:
            devices.jackpot.show(1234567, "ok", 0.0)
            devices.jackpot.show(1300000, "ok", 0.0)
        figures[f"{path.stem}_update_us"] = per_call_us(lambda i: devices.update(i * 0.02), TICKS)
        sim.close()
    sim = simulate(load_device_config(ROOT / "hw" / "bj-burn-7.toml"), lambda event: None)
    sign = sim.devices.sign
    figures["sign_show_us"] = per_call_us(lambda i: sign.show(
        examples.ROULETTE if i % 2 else examples.PUNTO_BANCO, i * 1.0), 200)

    def show_and_draw(i: int) -> None:  # what the daemon does with new content: show it, draw its first frame
        sign.show(examples.ROULETTE if i % 2 else examples.PUNTO_BANCO, i * 1.0)
        sign.update(i * 1.0)
    figures["sign_show_and_update_us"] = per_call_us(show_and_draw, 200)
    figures["sign_all_pages_us"] = per_call_us(lambda i: items(examples.ROULETTE if i % 2 else examples.PUNTO_BANCO), 200)
    figures["python"] = sys.version.split()[0]
    sim.close()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
