"""What the runtime expects of devices, and the commands it takes.

Drivers (drivers/shoe, drivers/gpio, ...) know nothing of games. An input
device is started with a ``post`` callable and calls it, from any thread, with
one frozen event record at a time (the classes of drivers/events.py); the
runtime hands it to the event loop with ``loop.call_soon_threadsafe`` and
controller/runtime/translate.py says what it means. An output gets a desired
state (a plain mapping) and shows it; it must not block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:
    from controller.config import TableConfig
    from controller.runtime.table import Table



@runtime_checkable
class InputDevice(Protocol):
    """A device that produces events: a shoe, a wheel reader, buttons, a camera reader."""

    def start(self, post: Callable[[object], None]) -> None: ...

    def stop(self) -> None: ...

    def health(self) -> Mapping[str, Any]:
        """At least ``{"ok": bool}``; counters and the last error where the device has them."""
        ...


@runtime_checkable
class Output(Protocol):
    """A device that shows a desired state: the sign, the tower light, the jackpot display."""

    def show(self, state: Mapping[str, Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class Command:
    """A command from the console, a button or the virtual croupier, handled on the loop."""

    name: str  # clear_fault | confirm_jackpot | correct_meter | day_end | new_shoe | stop
    args: Mapping[str, Any]
    by: str


class TableHandle(Protocol):
    """What the console and the self-test may use of a running table (controller/runtime/daemon.py,
    ``Running``): its configuration, the table itself (every change goes through ``Table.command``), the
    devices' health, the GPIO panel the self-test walks, and a redraw of the outputs."""

    @property
    def config(self) -> "TableConfig": ...

    @property
    def table(self) -> "Table": ...

    @property
    def simulate(self) -> bool: ...

    @property
    def devices(self) -> Mapping[str, InputDevice]: ...

    @property
    def panel(self) -> Any:
        """The device the self-test walks (the GPIO panel, controller/runtime/devices/gpio.py), or None."""
        ...

    @property
    def walk(self) -> Any:
        """Its kind's self-test walk (``DeviceKind.selftest``), or None."""
        ...

    def health(self) -> Mapping[str, Any]: ...

    def redraw(self) -> None:
        """Show the table's state on every output again (after the self-test's lamp test)."""
        ...

