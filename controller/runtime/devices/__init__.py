"""The table's devices: one module per device kind, found by the registry (registry.py).

A kind (for example ``shoe``, ``wheel``, ``camera``, ``gpio``, ``sign``) is a module of this package
defining ``KIND = DeviceKind(...)`` (base.py): its config schema, how it is built for real
and as an emulator, its rows of the translation, its faults, its self-test and its docs page.
``build(config, loop, simulate=...)`` returns ``Built``: the input devices the daemon starts
(``start(post)``/``stop()``/``health()``, see interfaces.py) and the outputs it shows its desired state on.
Driver ``simulated`` keeps the daemon's fast in-process stand-ins (controller/runtime/simulate.py); the
runtime tests that play thousands of rounds use them. How to add a kind: docs/architecture.md.
"""

from __future__ import annotations

from controller.runtime.devices.base import Built, Context, DeviceKind, SerialDevice, StartProblem
from controller.runtime.devices.gpio import GpioPanel, pin_factory
from controller.runtime.devices.registry import all_kinds, build, by_name, check_files, refusal
from controller.runtime.devices.shoe import EmulatedShoe
from controller.runtime.devices.wheel import EmulatedWheel

__all__ = ["Built", "Context", "DeviceKind", "EmulatedShoe", "EmulatedWheel", "GpioPanel", "SerialDevice",
           "StartProblem", "all_kinds", "build", "by_name", "check_files", "pin_factory", "refusal"]
