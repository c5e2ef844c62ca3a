"""`tablectl selftest PINMAP`: walk a technician through every device of a hardware build.

Run it with the daemon stopped. Each tower lamp is lit alone in turn, the sign
and the jackpot display show test patterns, and the technician is asked to
press each button, put the puck in each circle, cover each presence sensor and
fill each progressive slot; the report says what was seen and what was not.
``--simulate`` runs the same walk on mock pins, a fake I2C bus and dummy
displays with a simulated technician (no hardware, no questions).
Exit status: 0 all passed, 1 a check failed or the hardware cannot be opened,
2 a bad pin map.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from controller.commands.common import UsageError, print_json
from drivers.gpio.config import PinMapError, load_device_config


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("selftest", help="walk the technician through every configured device",
                                   description="Walk the technician through every device of a hardware build "
                                               "(hw/<build>.toml) and report what was seen and what was not.")
    parser.add_argument("pinmap", help="the build's pin map, for example hw/bj-burn-7.toml")
    parser.add_argument("--simulate", action="store_true",
                        help="mock pins, fake I2C bus, dummy displays and a simulated technician")
    parser.add_argument("--simulate-miss", action="append", default=[], metavar="DEVICE:TARGET",
                        help="with --simulate: a step the simulated technician leaves undone (e.g. buttons:stand)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each action (default 20)")
    parser.add_argument("--json", action="store_true", help="the report as JSON on stdout (the walk goes to stderr)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from drivers.gpio.clock import FakeClock, MonotonicClock
    from drivers.selftest import ConsoleTechnician, EventLog, SimulatedTechnician, action_targets, run_selftest

    try:
        config = load_device_config(args.pinmap)
    except PinMapError as exc:
        from controller.config import file_kind

        if file_kind(args.pinmap) == "table":
            raise UsageError(f"{args.pinmap}: this is a table configuration (it has [table]), not a pin map: give "
                             f"selftest the build's pin map that it names in [devices.gpio] pin_map") from None
        raise UsageError(str(exc)) from None
    if args.timeout <= 0:
        raise UsageError("--timeout: must be more than 0 seconds")
    misses = set()
    for miss in args.simulate_miss:
        device, sep, target = miss.partition(":")
        if not sep or not args.simulate:
            raise UsageError(f"--simulate-miss {miss!r}: expected DEVICE:TARGET, together with --simulate")
        if (device, target) not in action_targets(config):
            known = ", ".join(f"{d}:{t}" for d, t in action_targets(config))
            raise UsageError(f"--simulate-miss {miss!r}: {config.name} has no such step (steps: {known})")
        misses.add((device, target))
    out = sys.stderr if args.json else sys.stdout

    def write(text: str) -> None:
        print(text, file=out, flush=True)

    watcher = EventLog()
    if args.simulate:
        from drivers.gpio.sim import simulate

        clock: Any = FakeClock()
        sim = simulate(config, watcher)
        devices, closer = sim.devices, sim.close
        technician: Any = SimulatedTechnician(devices, sim.hands, clock, frozenset(misses), write=write)
    else:
        devices = _open_hardware(config, watcher)
        closer = devices.close
        clock = MonotonicClock()
        technician = ConsoleTechnician(read=lambda prompt: input(prompt), write=write)
    try:
        report = run_selftest(devices, watcher, technician, clock, timeout=args.timeout)
    except OSError as exc:  # a bus failed while a test picture or lamp was being written
        print(f"tablectl: selftest: a device stopped answering: {exc}", file=sys.stderr)
        return 1
    finally:
        closer()
    if args.json:
        print_json(report.as_json())
    else:
        write(report.lines()[-1])
    return 0 if report.ok else 1


def _pin_factory() -> Any:
    """gpiozero's factory for the Pi's own GPIO, made here and passed on (gpiozero's global default is never set)."""
    for module, name in (("gpiozero.pins.lgpio", "LGPIOFactory"), ("gpiozero.pins.rpigpio", "RPiGPIOFactory")):
        try:
            return getattr(importlib.import_module(module), name)()
        except ImportError:
            continue
    raise OSError("no GPIO library: install tablectl's pi extra (lgpio)")


def _open_hardware(config: Any, sink: Any) -> Any:
    """The build's devices on the Pi's own GPIO, I2C1 and SPI0; exit 1 with one line when they cannot be opened."""
    from drivers.gpio.devices import build_devices, hardware_displays

    try:
        factory = _pin_factory()
        bus = None
        if config.expanders:
            from smbus2 import SMBus

            bus = SMBus(1)
        sign, jackpot = hardware_displays(config)
        return build_devices(config, sink, factory, bus, sign, jackpot)
    except Exception as exc:  # noqa: BLE001 - any failure to open hardware is one line, exit 1
        print(f"tablectl: selftest: cannot open the hardware of {config.name}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
