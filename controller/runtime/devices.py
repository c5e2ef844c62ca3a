"""The table's real devices, built from its configuration: drivers/shoe, drivers/wheel, drivers/gpio, drivers/displays.

``build(config, loop, simulate=...)`` returns ``Built``: the input devices the
daemon starts (``start(post)``/``stop()``/``health()``, see interfaces.py) and
the outputs it shows its desired state on. Which driver runs is the
configuration's ``devices.<name>.driver``:

- ``shoe``/``shuffler`` ``serial``: ``drivers.shoe.link.ShoeLink`` on the
  configured pyserial URL. With ``--simulate`` (or ``port = "pty"``) a
  ``ShoeEmulator`` is started in-process on a real pty, dealing a seeded shoe
  when the virtual croupier pulls a card (``EmulatedShoe``).
- ``wheel`` ``serial``: ``drivers.wheel.reader.WheelReader``; simulated on a
  ``WheelEmulator`` pty that spins when the croupier launches the ball.
- ``gpio`` ``gpio``: every device of the build's pin map
  (``drivers.gpio.devices.build_devices``) on the configured pin factory,
  ticked on the loop (``LoopTicker``); simulated on gpiozero's ``MockFactory``
  with ``drivers.gpio.sim.Hands`` for the virtual croupier's fingers.
- ``sign``/``jackpot_display`` ``max7219``: luma's MAX7219 on SPI0 with
  ``gpio=noop`` (geometry from the pin map); ``dummy``, and every display
  under ``--simulate``, a luma ``dummy`` device whose content the terminal shows
  as text; ``text``: the daemon's text line.

- ``camera`` ``opencv`` (a camera index or a video) / ``files`` (a folder of
  frames or a video): at a dice table ``controller.runtime.camera.CameraDevice``,
  the real dice reader of drivers/vision on a capture thread behind the still
  gate; at a roulette table ``roulette_camera.RouletteCamera``, every frame to
  the real roulette reader. Under ``--simulate`` (and driver ``synthetic``) an
  ``EmulatedCamera`` / ``EmulatedRouletteCamera``: the seeded throw or spin
  rendered as synthetic frames and read by the same reader. A camera on a game
  without a camera reader, or beside a roulette table's wheel reader, is refused.

Driver ``simulated`` keeps the daemon's fast in-process stand-ins
(controller/runtime/simulate.py); the runtime tests that play thousands of
rounds use them.
"""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping

from controller.config import TableConfig
from controller.runtime.device_outputs import JackpotOutput, SignOutput, TowerOutput
from controller.runtime.interfaces import InputDevice, Output
from controller.runtime.simulate import CUT_FROM_END, cut_from_end  # noqa: F401  (one rule for both shoes)


class StartProblem(RuntimeError):
    """A device cannot be built (a driver library missing, no such pin factory); one line for the operator."""


class SerialDevice:
    """A shoe, shuffler or wheel link as an ``InputDevice``; ``ok`` while the link thread runs (link state aside)."""

    def __init__(self, name: str, make: Callable[[Callable[[object], None]], Any]) -> None:
        self.name = name
        self._make = make
        self.link: Any = None
        self.resume_at: Mapping[str, Any] | None = None

    def resume(self, position: Mapping[str, Any] | None) -> None:
        """The last frame position the journal holds from this device (controller/runtime/exactly_once.py)."""
        self.resume_at = position

    def start(self, post: Callable[[object], None]) -> None:
        self.link = self._make(post)
        self.link.resume(self.resume_at)
        self.link.start()

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()

    def health(self) -> Mapping[str, Any]:
        if self.link is None:
            return {"ok": False, "error": "not started"}
        counters = asdict(self.link.counters())
        age = counters.get("last_heartbeat_age")
        counters["last_heartbeat_age"] = None if age is None else round(age, 3)
        return {"ok": self.link.running, "url": self.link.url, **counters}


class EmulatedShoe(SerialDevice):
    """The real ShoeLink against a ShoeEmulator on a pty, dealing a shoe seeded by ``(seed, shoe_no)``.

    It has the interface the virtual croupier uses (``pull``, ``new_shoe``): a
    pull makes the emulator send one ``CRD`` frame (and ``CUT`` at the cut card).
    """

    def __init__(self, name: str, decks: int, seed: int, shoe_no: int = 1, dealt: int = 0,
                 kind: str = "shoe") -> None:
        from drivers.shoe.emulator import ShoeEmulator
        from drivers.shoe.link import ShoeLink

        # the driver opens a stable symlink, as it would a udev name: a replugged pty gets a new /dev/pts/N
        self.emulator = ShoeEmulator(kind, link_path=_link_path(name), retransmit_timeout=0.1)
        self.decks, self.seed = decks, seed
        self.pulls = 0
        self._lock = threading.Lock()
        self._shuffle(shoe_no, dealt)
        super().__init__(name, lambda post: ShoeLink(self.emulator.path, post, kind=kind, read_timeout=0.005,
                                                     heartbeat_timeout=3.0))

    def _shuffle(self, shoe_no: int, dealt: int = 0) -> None:
        from drivers.shoe.emulator import seeded_shoe

        self.shoe_no = shoe_no
        self.cards = seeded_shoe(self.decks, self.seed * 1000 + shoe_no)
        self.position = min(dealt, len(self.cards))

    def start(self, post: Callable[[object], None]) -> None:
        self.emulator.start()
        super().start(post)

    def stop(self) -> None:
        super().stop()
        self.emulator.stop()

    def pull(self) -> None:
        """The croupier draws the next card (thread-safe)."""
        from drivers.shoe import events

        with self._lock:
            self.pulls += 1
            if self.position >= len(self.cards):
                self.emulator.send(events.ShoeEmpty())
                return
            card = self.cards[self.position]
            self.position += 1
            self.emulator.send(events.CardDealt(card))
            if self.position == len(self.cards) - cut_from_end(self.decks):
                self.emulator.send(events.CutCard())

    def new_shoe(self, shoe_no: int, dealt: int = 0) -> None:
        with self._lock:
            self._shuffle(shoe_no, dealt)

    def health(self) -> Mapping[str, Any]:
        return {**super().health(), "emulated": self.emulator.path, "shoe": self.shoe_no, "position": self.position}


def _link_path(name: str) -> str:
    """A fresh symlink path for an emulated serial device (a folder of its own under the system's temp)."""
    import tempfile

    return os.path.join(tempfile.mkdtemp(prefix="tablectl-emu-"), f"{name}.pty")


class EmulatedWheel(SerialDevice):
    """The real WheelReader against a WheelEmulator on a pty; ``spin()`` launches the ball."""

    def __init__(self, name: str, seed: int) -> None:
        from drivers.wheel.emulator import WheelEmulator
        from drivers.wheel.reader import WheelReader

        self.emulator = WheelEmulator(link_path=_link_path(name), seed=seed)
        super().__init__(name, lambda post: WheelReader(self.emulator.path, post, read_timeout=0.005))

    def start(self, post: Callable[[object], None]) -> None:
        self.emulator.start()
        super().start(post)

    def stop(self) -> None:
        super().stop()
        self.emulator.stop()

    def spin(self, number: int | None = None) -> int:
        return self.emulator.spin(number)


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
        self.divert: Callable[[object], None] | None = None  # the console's self-test walk takes the events
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
        from controller.runtime.translate import DEFERRED_ACTIONS

        held = button.long_press_ms / 1000 + 0.05 if action in DEFERRED_ACTIONS else hold_s
        self.hands.button(name, True)
        await asyncio.sleep(held)
        self.hands.button(name, False)
        await asyncio.sleep(self.pin_map.debounce_ms / 1000 + 0.03)
        return True


class CroupierHands:
    """The virtual croupier's hands (``--simulate``): a mock button where a button does the job, else a direct post.

    no more bets (``CloseBets``) presses the button mapped to ``close_bets``, a decision
    presses the button mapped to that action where the press sends exactly that decision
    (``sends``: a decision button decides at the first box still to decide, at the game's
    own stake), a wheel number launches the
    emulated wheel's ball; what no device of this table does (a dice throw
    entered on the console, a decision without a button) is posted as the
    game event, as the croupier would key it in.
    """

    def __init__(self, name: str, built: "Built", loop: asyncio.AbstractEventLoop,
                 sends: Callable[[str, object], bool] | None = None) -> None:
        self.name, self.built, self.loop = name, built, loop
        self.sends = sends  # whether a press of that button sends exactly this event now (decision_keys.py)
        self.posted = self.pressed = 0
        self._puck_seat: int | None = None
        self._post: Callable[[object], None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, post: Callable[[object], None]) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None
        for task in self._tasks:
            task.cancel()

    def health(self) -> Mapping[str, Any]:
        return {"ok": self._post is not None, "posted": self.posted, "pressed": self.pressed}

    @staticmethod
    async def _press_after(earlier: set[asyncio.Task[Any]], panel: "GpioPanel", action: str) -> None:
        """One finger: a press waits until the presses before it are released (else a held button sees no edge)."""
        for task in earlier:
            try:
                await task
            except Exception:
                pass
        await panel.press(action)

    def send(self, raw: object) -> None:
        kind = type(raw).__name__
        panel, wheel = self.built.panel, self.built.wheel
        action = {"CloseBets": "close_bets", "Action": getattr(raw, "action", None)}.get(kind)
        button = panel.button_for(action) if panel is not None and action is not None else None
        if panel is not None and action is not None and button is not None and panel.hands is not None \
                and (self.sends is None or self.sends(button, raw)):  # else keyed in: no button carries it
            self.pressed += 1
            task = self.loop.create_task(self._press_after(set(self._tasks), panel, action))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if kind == "Puck" and panel is not None and panel.hands is not None \
                and getattr(panel.pin_map, "puck", None) is not None:
            seat = int(getattr(raw, "seat"))  # the puck is lifted from its box and put down at the next
            if self._puck_seat is not None:
                panel.hands.puck(self._puck_seat, False)
            panel.hands.puck(seat, True)
            self._puck_seat = seat
            self.pressed += 1
            return
        if kind == "Wheel" and wheel is not None:
            self.pressed += 1
            wheel.spin(int(getattr(raw, "number")))
            return
        if self._post is not None:
            self.posted += 1
            self._post(raw)


@dataclass
class Built:
    """What the daemon starts and shows on."""

    inputs: dict[str, InputDevice] = field(default_factory=dict)
    outputs: dict[str, Output] = field(default_factory=dict)
    panel: GpioPanel | None = None
    shoe: EmulatedShoe | None = None
    wheel: EmulatedWheel | None = None
    camera: Any = None  # the camera device (camera.py, roulette_camera.py), emulated under --simulate


def _camera_kind(spec: Any) -> str | None:
    """What the camera reads at the game's table (its declared ``reader``): ``dice``, ``roulette``, or None."""
    return spec.reader.camera if spec.reader is not None else None


def _camera_games() -> str:
    """The games a camera reads, by what it reads (from the games' declarations), for a refusal's one line."""
    from controller import games

    by_kind: dict[str, list[str]] = {}
    for spec in games.all_games():
        kind = _camera_kind(spec)
        if kind is not None:
            by_kind.setdefault(kind, []).append(spec.id)
    return " and ".join(f"the {'dice' if kind == 'dice' else 'wheel'} of {', '.join(ids)}"
                        for kind, ids in sorted(by_kind.items()))


def _camera(config: TableConfig, camera: Any, simulate: bool, seed: int, wheel_reader: bool) -> Any:
    """The camera's input device: the dice or the roulette reader, emulated under --simulate (and ``synthetic``)."""
    game, where, kind = config.spec.id, f"{config.source}: devices.camera", _camera_kind(config.spec)
    if kind is None:
        raise StartProblem(f"{where}: {game} has no camera reader (the camera reads {_camera_games()}); "
                           f"remove the section")
    if kind == "roulette" and wheel_reader:
        raise StartProblem(f"{where}: the wheel reader ([devices.wheel]) already gives this table its numbers; "
                           f"keep one of the two")
    emulated = camera.driver == "synthetic" or simulate
    if emulated and kind == "roulette":
        from controller.runtime.roulette_camera import EmulatedRouletteCamera
        return EmulatedRouletteCamera("camera", seed)
    if emulated:
        from controller.runtime.camera import EmulatedCamera
        return EmulatedCamera("camera", config.spec, seed)
    if "source" not in camera.settings:
        raise StartProblem(f"{where} needs a source (a camera index, a folder or a video)")
    try:
        if kind == "roulette":
            from controller.runtime.roulette_camera import build_roulette_camera
            return build_roulette_camera("camera", camera.driver, camera.settings)
        from controller.runtime.camera import build_camera
        return build_camera("camera", camera.driver, camera.settings, config.spec)
    except Exception as exc:  # a calibration file that cannot be read, or not for this reader
        raise StartProblem(f"{where} cannot start: {exc}") from None


def check_files(config: TableConfig) -> list[str]:
    """Problems of the files the devices read when they start, one line each (``tablectl config check``).

    The pin map is read and checked with the configuration itself; the camera's calibration file is read
    here with the loader its device uses (a dice one at a dice table, a roulette one at a roulette table).
    """
    camera = config.devices.get("camera")
    calibration = camera.settings.get("calibration") if camera is not None else None
    if not calibration:
        return []
    kind = _camera_kind(config.spec)
    if kind is None:
        return []  # the camera itself is refused at start, and says so
    try:
        from controller.runtime.camera import load_calibration

        load_calibration(str(calibration), kind)
    except ImportError as exc:
        return [f"{config.source}: devices.camera.calibration: cannot be checked: {exc} "
                f"(the camera needs the vision extra: pip install 'tablectl[vision]')"]
    except ValueError as exc:
        return [f"{config.source}: devices.camera.calibration: {exc}"]
    return []


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


def build(config: TableConfig, loop: asyncio.AbstractEventLoop, *, simulate: bool, seed: int = 1,
          shoe_no: int = 1, shoe_cards: int = 0) -> Built:
    """Build every configured device whose driver is a real one (``simulated``/``text`` are left to the daemon)."""
    from controller.runtime.translate import button_actions

    built = Built()
    devices = config.devices
    for name in ("shoe", "shuffler"):
        device = devices.get(name)
        if device is None or device.driver != "serial":
            continue
        port = str(device.settings["port"])
        if simulate or port == "pty":
            decks = int(config.round_config.get("decks", 1) or 1)  # a game without the option deals one deck
            emulated = EmulatedShoe(name, decks, seed, shoe_no, shoe_cards, kind=name)
            built.inputs[name] = emulated
            if name == "shoe":
                built.shoe = emulated
        else:
            from drivers.shoe.link import ShoeLink
            baud = int(device.settings.get("baud", 115200))
            def shoe_link(post: Callable[[object], None], p: str = port, b: int = baud, k: str = name) -> Any:
                return ShoeLink(p, post, kind=k, baudrate=b)
            built.inputs[name] = SerialDevice(name, shoe_link)
    wheel = devices.get("wheel")
    if wheel is not None and wheel.driver == "serial":
        port = str(wheel.settings["port"])
        if simulate or port == "pty":
            built.wheel = EmulatedWheel("wheel", seed)
            built.inputs["wheel"] = built.wheel
        else:
            from drivers.wheel.reader import WheelReader
            baud, silence = int(wheel.settings.get("baud", 9600)), float(wheel.settings.get("timeout_s", 5))
            built.inputs["wheel"] = SerialDevice("wheel", lambda post: WheelReader(port, post, baudrate=baud,
                                                                                   silence_timeout=silence))
    camera = devices.get("camera")
    if camera is not None and camera.driver in ("synthetic", "opencv", "files"):
        built.camera = _camera(config, camera, simulate, seed, wheel is not None and wheel.driver == "serial")
        built.inputs["camera"] = built.camera
    gpio = devices.get("gpio")
    pin_map = config.pin_map
    displays: tuple[Any, Any] = (None, None)
    wanted = {n: devices[n].driver for n in ("sign", "jackpot_display") if n in devices}
    if pin_map is not None:
        real = not simulate and any(d == "max7219" for d in wanted.values())
        try:
            if real:
                from drivers.gpio.devices import hardware_displays
                displays = hardware_displays(pin_map)
            else:
                from drivers.gpio.devices import simulated_displays
                displays = simulated_displays(pin_map)
        except Exception as exc:  # spidev missing, no SPI device node
            raise StartProblem(f"{config.source}: the MAX7219 displays cannot start: {exc}") from None
        sign_dev = displays[0] if wanted.get("sign") in ("max7219", "dummy") else None
        jackpot_dev = displays[1] if wanted.get("jackpot_display") in ("max7219", "dummy") else None
        displays = (sign_dev, jackpot_dev)
    if gpio is not None and gpio.driver == "gpio" and pin_map is not None:
        actions = button_actions(pin_map, config.spec)
        factory_name = "mock" if simulate else str(gpio.settings["pin_factory"])
        hands: Any = None
        bus: Any = None
        factory = pin_factory(factory_name)
        if factory_name == "mock":
            from drivers.gpio.mcp23017 import FakeMcp23017Bus
            from drivers.gpio.sim import Hands
            bus = FakeMcp23017Bus(tuple(e.address for e in pin_map.expanders))
            hands = Hands(pin_map, factory, bus)
        elif pin_map.expanders:
            try:
                from smbus2 import SMBus
                bus = SMBus(int(gpio.settings.get("i2c_bus", 1)))
            except Exception as exc:
                raise StartProblem(f"{config.source}: I2C bus for the expanders cannot open: {exc}") from None
        panel = GpioPanel(pin_map, loop, factory, displays, bus, hands, actions)
        built.panel = panel
        built.inputs["gpio"] = panel
        displays = (panel.devices.sign, panel.devices.jackpot)
    elif any(displays):
        # displays without GPIO devices: drive the luma devices directly, ticked by their outputs
        from drivers.displays.jackpot import JackpotDisplay
        from drivers.displays.sign import Sign
        assert pin_map is not None
        displays = (Sign(displays[0]) if displays[0] is not None else None,
                    JackpotDisplay(displays[1], decimals=pin_map.jackpot.decimals)
                    if displays[1] is not None and pin_map.jackpot is not None else None)
    tower = built.panel.devices.tower if built.panel is not None else None
    if tower is not None:
        built.outputs["tower"] = TowerOutput(tower, loop)
    if displays[0] is not None:
        built.outputs["sign"] = SignOutput(displays[0], loop, ticked=built.panel is not None)
    if displays[1] is not None:
        built.outputs["jackpot_display"] = JackpotOutput(displays[1], loop, ticked=built.panel is not None)
    return built
