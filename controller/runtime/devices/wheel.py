"""The roulette wheel reader: drivers/wheel on a serial line (docs/devices/wheel-reader.md).

Driver ``serial``: ``drivers.wheel.reader.WheelReader`` on the configured port; simulated (or ``port =
"pty"``) on a ``WheelEmulator`` pty that spins when the virtual croupier launches the ball. Driver
``simulated``: the daemon's in-process stand-in.

Its events: a number is the game's ``Wheel``, the reader's no-more-bets closes the bets (once), a void
spin voids the coup, a wheel fault latches ``device_fault.wheel``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from controller import checks
from controller.events import CloseBets, Void, Wheel
from controller.runtime.devices.base import Context, DeviceKind, SerialDevice, link_path, on_pty
from controller.runtime.devices.links import SERIAL_FAULTS, SERIAL_ROWS
from controller.runtime.intents import Handler, Latch, Noted, Submit, TableView, Translation, fixed, one
from drivers import events as ev

if TYPE_CHECKING:
    from controller.config import DeviceConfig


class EmulatedWheel(SerialDevice):
    """The real WheelReader against a WheelEmulator on a pty; ``spin()`` launches the ball."""

    def __init__(self, name: str, seed: int) -> None:
        from drivers.wheel.emulator import WheelEmulator
        from drivers.wheel.reader import WheelReader

        self.emulator = WheelEmulator(link_path=link_path(name), seed=seed)
        super().__init__(name, lambda post: WheelReader(self.emulator.path, post, read_timeout=0.005))

    def start(self, post: Callable[[object], None]) -> None:
        self.emulator.start()
        super().start(post)

    def stop(self) -> None:
        super().stop()
        self.emulator.stop()

    def spin(self, number: int | None = None) -> int:
        return self.emulator.spin(number)


def real(context: Context, device: "DeviceConfig") -> None:
    from drivers.wheel.reader import WheelReader

    port = str(device.settings["port"])
    baud, silence = int(device.settings.get("baud", 9600)), float(device.settings.get("timeout_s", 5))
    context.built.inputs[device.name] = SerialDevice(device.name, lambda post: WheelReader(
        port, post, baudrate=baud, silence_timeout=silence))


class WheelHand:
    """The croupier's hand at an emulated wheel: a ``Wheel`` number launches the ball (simulation.py)."""

    def __init__(self, wheel: EmulatedWheel) -> None:
        self.wheel = wheel

    def carry(self, raw: object, sends: Callable[[str, object], bool] | None) -> bool:
        if not isinstance(raw, Wheel):
            return False
        self.wheel.spin(int(raw.number))
        return True

    def let_go(self) -> None:
        pass


def emulator(context: Context, device: "DeviceConfig") -> None:
    wheel = EmulatedWheel(device.name, context.seed)
    context.built.inputs[device.name] = wheel
    context.built.simulation.hands.append(WheelHand(wheel))
    context.built.simulation.gives.add("wheel")  # no stand-in wheel reader: this one gives the numbers


def no_more_bets(source: str, raw: ev.WheelNoMoreBets, view: TableView) -> Translation:
    if not view.betting_open:
        return one(view.memory, Noted("wheel: no more bets (bets already closed)"))
    return one(view.memory, Submit(CloseBets()))


ROWS: dict[type, Handler] = {
    **SERIAL_ROWS,
    ev.WheelNumber: fixed(lambda s, r: Submit(Wheel(int(r.number)))),
    ev.WheelNoMoreBets: no_more_bets,
    ev.WheelVoid: fixed(lambda s, r: Submit(Void(f"the wheel voided spin {r.spin}: {r.reason}", s))),
    ev.WheelFault: fixed(lambda s, r: Latch("device_fault", f"wheel: {r.reason}")),
}

KIND = DeviceKind(
    name="wheel",
    drivers={"serial": checks.SERIAL, "simulated": {}},
    required={"serial": {"port": "a serial device needs its port"}},
    built_as={"serial": "`drivers.wheel.reader.WheelReader` on `port` (`timeout_s`: the reader's silence "
                        "timeout); `port = \"pty\"`: against the wheel emulator on a pseudo-terminal"},
    builds=frozenset({"serial"}),
    emulated=on_pty,
    real=real,
    emulator=emulator,
    order=22,
    translate=ROWS,
    noted=(ev.WheelState,),
    faults=SERIAL_FAULTS,
    docs="wheel-reader.md",
)
