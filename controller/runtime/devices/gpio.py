"""The GPIO devices of the build's pin map: buttons, the burn puck, bet sensors, progressive slots, the tower
light and the I/O expanders (drivers/gpio; docs/devices/buttons.md, puck.md, bet-sensors.md, tower-light.md).

Driver ``gpio``: every device of the pin map (``drivers.gpio.devices.build_devices``) on the configured pin
factory, ticked on the loop (``LoopTicker``); simulated on gpiozero's ``MockFactory`` with
``drivers.gpio.sim.Hands`` for the virtual croupier's fingers (also when the configuration names the
``mock`` factory). The MAX7219 sign and jackpot display (sign.py, jackpot_display.py) hang on the same
panel when there is one. Driver ``simulated``: the daemon's in-process buttons.

Its events: a button means the action the pin map gives it in this game (``button_actions``; the
deferred ones, ``DEFERRED_ACTIONS``, on a long press), the supervisor's key switch is held while turned,
the puck's circles move the puck (``sensor_fault.puck`` when none or two sense it, cleared when one does
again), a chip on a bet sensor is a bet, the locked progressive slots are one progressive bet per box
with a chip, an I/O expander that drops off the bus latches ``link_down.gpio`` until it is back. Its
self-test walk is drivers/selftest.py (docs/devices/selftest.md).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Generator, Mapping

from controller import checks, games
from controller.events import Action, Bet, CloseBets, Puck, Void
from controller.games.contract import GameSpec
from controller.runtime.decision_keys import pressed as decision_meaning
from controller.runtime.devices.base import Context, DeviceKind, StartProblem
from controller.runtime.devices.links import link_back, link_fault
from controller.runtime.intents import (
    Clear, Handler, Latch, Noted, Run, Submit, TableView, Translation, one, recovered,
)
from controller.runtime.interfaces import Command
from drivers import events as ev

if TYPE_CHECKING:
    from controller.config import DeviceConfig

DEFERRED_ACTIONS = ("confirm", "void", "clear_fault", "jackpot_confirm", "new_shoe")
"""Actions taken on a long press (a slip of the finger must not void a round); every other action on the press."""


class GpioPanel:
    """Every GPIO device of the pin map, ticked on the loop; driver events go to ``post`` as they come.

    ``hands`` (simulation only) presses the mock buttons; ``press(action)`` is
    what the virtual croupier calls.
    """

    def __init__(self, pin_map: Any, loop: asyncio.AbstractEventLoop, factory: Any, displays: tuple[Any, Any],
                 i2c_bus: Any = None, hands: Any = None, actions: Mapping[str, str] | None = None) -> None:
        from drivers.gpio.ticker import LoopTicker

        self.pin_map, self.loop, self.factory, self.hands = pin_map, loop, factory, hands
        self.displays, self.i2c_bus = displays, i2c_bus
        self.actions = dict(actions or {})
        self.ticker = LoopTicker(loop, period=0.02)
        self.devices: Any = None
        self.events = 0
        self._post: Callable[[object], None] | None = None
        self.divert: Callable[[Any], None] | None = None  # the console's self-test walk takes the events
        self._build()

    def _build(self) -> None:
        from drivers.gpio.devices import build_devices

        sign, jackpot = self.displays
        self.devices = build_devices(self.pin_map, self._sink, self.factory, self.i2c_bus, sign, jackpot,
                                     wake=self.ticker.wake)

    def _sink(self, event: object) -> None:
        self.events += 1
        if self.divert is not None:
            self.divert(event)
        elif self._post is not None:
            self._post(event)

    def start(self, post: Callable[[object], None]) -> None:
        self._post = post
        self.ticker.start(self.devices)

    def stop(self) -> None:
        self.ticker.stop()
        self._post = None
        self.devices.close()
        if self.hands is not None:
            self.factory.close()

    def health(self) -> Mapping[str, Any]:
        return {"ok": self.devices is not None, "events": self.events, "faulted": sorted(self.devices._faulted),
                "build": self.pin_map.name}

    def button_for(self, action: str) -> str | None:
        return next((name for name, a in self.actions.items() if a == action), None)

    async def press(self, action: str, hold_s: float = 0.06) -> bool:
        """Simulation: press the button mapped to ``action`` (held ``hold_s``, longer for a long press)."""
        name = self.button_for(action)
        if name is None or self.hands is None:
            return False
        button = next(b for b in self.pin_map.buttons if b.name == name)
        held = button.long_press_ms / 1000 + 0.05 if action in DEFERRED_ACTIONS else hold_s
        self.hands.button(name, True)
        await asyncio.sleep(held)
        self.hands.button(name, False)
        await asyncio.sleep(self.pin_map.debounce_ms / 1000 + 0.03)
        return True


def pin_factory(name: str) -> Any:
    """The gpiozero pin factory the configuration names, made explicitly (never gpiozero's global default)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory
            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory
            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory
            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory
            return NativeFactory()
    except Exception as exc:  # ImportError, or the library cannot open the chip: one line for the operator
        raise StartProblem(f"pin factory {name!r} cannot start here: {exc}") from None
    raise StartProblem(f"unknown pin factory {name!r}")


def button_actions(pin_map: Any, game: str | GameSpec) -> dict[str, str]:
    """Button name -> action in ``game``, from the pin map (drivers/gpio/config.DeviceConfig): the button's
    action for that game where the pin map names one, else its default ``action`` where the game takes it
    (``GameSpec.takes_button_action``)."""
    if pin_map is None:
        return {}
    spec = games.load_game(game) if isinstance(game, str) else game
    out: dict[str, str] = {}
    for button in pin_map.buttons:
        action = button.action_for(spec.id)
        if action is None and button.action is not None and spec.takes_button_action(button.action):
            action = button.action
        if action is not None:
            out[button.name] = action
    return out



def puck_sensed(source: str, raw: ev.PuckSensed, view: TableView) -> Translation:
    back = recovered(view, f"sensor_fault.{source}", source, source)
    clears = tuple(i for i in back.intents if isinstance(i, Clear))
    return Translation(clears + (Submit(Puck(int(raw.seat))),), back.memory)


def puck_fault(source: str, raw: ev.PuckFault, view: TableView) -> Translation:
    memory = view.memory.part_down(f"sensor_fault.{source}", source)
    return one(memory, Latch("sensor_fault", str(raw.reason)))


def presence(source: str, raw: ev.PresenceChanged, view: TableView) -> Translation:
    if raw.present:
        return one(view.memory, Submit(Bet(int(raw.seat), str(raw.spot))))
    return one(view.memory, Noted(f"box {raw.seat} {raw.spot}: the chip was taken away "
                                   f"(the bet stays; void it if it was withdrawn before no more bets)"))


def slots_locked(source: str, raw: ev.SlotLocked, view: TableView) -> Translation:
    """The locked progressive slots: one progressive bet per box that holds a chip."""
    spot = view.wiring.progressive_spot
    if spot is None:
        return one(view.memory, Noted(f"{source}: the slots locked, but {view.wiring.game or 'this game'} has "
                                       f"no progressive spot"))
    return one(view.memory, *(Submit(Bet(int(seat), spot)) for seat in raw.seats))


def pressed(source: str, raw: ev.ButtonPressed | ev.ButtonLongPress, view: TableView) -> Translation:
    long = isinstance(raw, ev.ButtonLongPress)
    name, memory, wiring = raw.name, view.memory, view.wiring
    action = wiring.action(name)
    if wiring.is_key(name):
        return one(memory if long else replace(memory, key_held=True), Noted("supervisor key turned"))
    if action is None:
        return one(memory, Noted(f"button {name!r} has no action in {wiring.game}"))
    if (action in DEFERRED_ACTIONS) != long:
        return one(memory, Noted("" if long else f"hold {name} to {action}"))
    by = f"{source} button {name}" + (" with key" if memory.key_held else "")
    if action == "close_bets":
        return one(memory, Submit(CloseBets()))
    if action == "void":
        return one(memory, Submit(Void("the croupier's void button", by)))
    if action == "confirm" and view.result_pending and not (memory.key_held and view.jackpot_pending):
        # the camera's guess, as shown at the terminal; the table refuses it when a face was not read
        return one(memory, Run(Command("confirm_result", {}, by)))
    if action in ("jackpot_confirm", "confirm") and view.jackpot_pending:
        if not memory.key_held:
            return one(memory, Noted("a jackpot confirmation needs the supervisor key"))
        return one(memory, Run(Command("confirm_jackpot", {}, by)))
    if action == "clear_fault":
        if not memory.key_held:
            return one(memory, Noted("clearing a fault needs the supervisor key"))
        return one(memory, Run(Command("clear_fault", {}, by)))
    if action == "new_shoe":
        return one(memory, Run(Command("new_shoe", {}, by)))
    if action == "confirm":
        return one(memory, Noted("nothing waits for a confirmation"))
    if view.decisions is not None:  # only what the round accepts now, at the box in turn (decision_keys.py)
        meaning = decision_meaning(view.decisions, action)
        return one(memory, Submit(meaning) if isinstance(meaning, Action) else Noted(meaning))
    seat = view.prompt_seat
    if seat is None and action == "burn":
        seat = view.puck
    if seat is None:
        return one(memory, Noted(f"{action}: no box is waiting for a decision"))
    return one(memory, Submit(Action(int(seat), action)))


class PanelHand:
    """The croupier's hands at an emulated panel (simulation.py): no more bets and a decision press the button
    mapped to that action, where the press sends exactly that event (``sends``); the burn puck is lifted from
    its box and put down at the next on the mock puck sensors. One finger: a press waits until the presses
    before it are released (else a held button sees no edge)."""

    def __init__(self, panel: "GpioPanel", loop: asyncio.AbstractEventLoop) -> None:
        self.panel, self.loop = panel, loop
        self._puck_seat: int | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @staticmethod
    async def _press_after(earlier: set[asyncio.Task[Any]], panel: Any, action: str) -> None:
        for task in earlier:
            try:
                await task
            except Exception:
                pass
        await panel.press(action)

    def carry(self, raw: object, sends: Callable[[str, object], bool] | None) -> bool:
        panel = self.panel
        if panel.hands is None:
            return False
        action = "close_bets" if isinstance(raw, CloseBets) else raw.action if isinstance(raw, Action) else None
        button = panel.button_for(action) if action is not None else None
        if action is not None and button is not None and (sends is None or sends(button, raw)):
            task = self.loop.create_task(self._press_after(set(self._tasks), panel, action))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return True
        if isinstance(raw, Puck) and panel.pin_map.puck is not None:
            if not 1 <= int(raw.seat) <= len(panel.pin_map.puck.sensors):
                return False  # no burn circle at that box: keyed in, and the table says what it makes of it
            if self._puck_seat is not None:
                panel.hands.puck(self._puck_seat, False)
            panel.hands.puck(int(raw.seat), True)
            self._puck_seat = int(raw.seat)
            return True
        return False  # else keyed in: no button carries it

    def let_go(self) -> None:
        for task in self._tasks:
            task.cancel()


def _panel(context: Context, device: "DeviceConfig", factory_name: str, emulated: bool) -> None:
    config, built = context.config, context.built
    pin_map = config.pin_map
    if pin_map is None:
        return
    hands: Any = None
    bus: Any = None
    factory = pin_factory(factory_name)
    if emulated:
        from drivers.gpio.mcp23017 import FakeMcp23017Bus
        from drivers.gpio.sim import Hands
        bus = FakeMcp23017Bus(tuple(e.address for e in pin_map.expanders))
        hands = Hands(pin_map, factory, bus)
    elif pin_map.expanders:
        try:
            from smbus2 import SMBus
            bus = SMBus(int(device.settings.get("i2c_bus", 1)))
        except Exception as exc:
            raise StartProblem(f"{config.source}: I2C bus for the expanders cannot open: {exc}") from None
    displays = (built.displays.get("sign"), built.displays.get("jackpot_display"))
    panel = GpioPanel(pin_map, context.loop, factory, displays, bus, hands, button_actions(pin_map, config.spec))
    built.inputs[device.name] = panel
    for name, shown in (("sign", panel.devices.sign), ("jackpot_display", panel.devices.jackpot)):
        if name in built.displays:
            built.displays[name] = shown  # the panel drives them, ticked with the buttons
            built.ticked.add(name)
    built.retick = panel.ticker.retick
    if hands is not None:
        built.simulation.hands.append(PanelHand(panel, context.loop))
    if pin_map.puck is not None:
        built.simulation.gives.add("puck")  # the croupier moves the puck on its sensors: no stand-in puck


def real(context: Context, device: "DeviceConfig") -> None:
    _panel(context, device, str(device.settings["pin_factory"]), False)


def emulator(context: Context, device: "DeviceConfig") -> None:
    _panel(context, device, "mock", True)


def show(context: Context) -> None:
    """The tower light, driven by the panel."""
    from controller.runtime.device_outputs import TowerOutput

    panel = context.built.inputs.get(KIND.name)
    tower = panel.devices.tower if isinstance(panel, GpioPanel) else None
    if tower is not None:
        context.built.outputs["tower"] = TowerOutput(tower, context.loop, retick=context.built.retick)


def selftest(panel: GpioPanel, watcher: Any, clock: Callable[[], float], timeout: float) -> Generator[Any, Any, Any]:
    """The walk over the panel's lamps, buttons, puck and sensors (drivers/selftest.py), step by step."""
    from drivers.selftest import walk

    return walk(panel.devices, watcher, clock, timeout, update=False)


def released(source: str, raw: ev.ButtonReleased, view: TableView) -> Translation:
    """A button came up: the key switch turns back."""
    memory = replace(view.memory, key_held=False) if view.wiring.is_key(raw.name) else view.memory
    return one(memory, Noted(f"{source}: ButtonReleased noted"))


ROWS: dict[type, Handler] = {
    ev.ButtonPressed: pressed,
    ev.ButtonLongPress: pressed,
    ev.ButtonReleased: released,
    ev.PuckSensed: puck_sensed,
    ev.PuckFault: puck_fault,
    ev.PresenceChanged: presence,
    ev.SlotLocked: slots_locked,
    ev.DeviceFault: link_fault,
    ev.DeviceRecovered: link_back,
}

_GPIO = {"pin_map": checks.text, "pin_factory": checks.choice(*checks.PIN_FACTORIES), "i2c_bus": checks.int_range(0, 22)}

KIND = DeviceKind(
    name="gpio",
    drivers={"gpio": _GPIO, "simulated": {}},  # buttons, puck, sensors, slots, tower: all in the pin map
    required={"gpio": {"pin_map": "the GPIO devices need the build's pin map (hw/<build>.toml) and a pin factory",
                       "pin_factory": "the GPIO devices need an explicit pin factory: "
                                      + ", ".join(checks.PIN_FACTORIES)}},
    built_as={"gpio": "every device of the pin map (`drivers.gpio.devices.build_devices`), ticked on the loop: "
                      "buttons, puck, presence sensors, progressive slots, tower light; `pin_factory = "
                      "\"mock\"`: on gpiozero's mock pins"},
    builds=frozenset({"gpio"}),
    emulated=lambda device, simulate: simulate or device.settings.get("pin_factory") == "mock",
    real=real,
    emulator=emulator,
    show=show,
    order=40,
    translate=ROWS,
    noted=(ev.SlotChanged, ev.SlotsUnlocked),
    faults=("link_down", "sensor_fault", "device_silent"),
    selftest=selftest,
    docs="buttons.md",
)
