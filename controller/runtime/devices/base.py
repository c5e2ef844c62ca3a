"""What a device kind declares (``DeviceKind``), what its builders are given (``Context``) and fill (``Built``).

A device kind is one module of this package that defines ``KIND = DeviceKind(...)``; the registry
(registry.py) finds it, as ``controller.games`` finds a game's ``SPEC``. The kind says everything the
table needs of it:

- ``drivers``: the config schema of ``[devices.<name>]``, driver -> key -> check (controller/checks.py),
  and ``required`` keys per driver (with the line a missing one gets); ``built_as``: what each driver
  builds, in a line of the devices table of docs/configuration.md (``simulated`` and ``text`` need none:
  they are the daemon's stand-ins);
- ``real`` and ``emulator``: how the device is built on the hardware and as an emulator on a real
  pseudo-terminal or mock pins (``emulated`` says which one a configuration gets), for the drivers in
  ``builds`` (the others, ``simulated`` and ``text``, are the daemon's in-process stand-ins); ``show``
  adds its outputs once every device is built; ``order`` is when it is built;
- ``translate``: its rows of the translation, event class -> handler (controller/runtime/intents.py), and
  ``noted``, the events it sends that change nothing at the table;
- ``wiring``: the keys of its section its rows read, with their defaults (the table's ``Wiring.settings``,
  by device name: the camera's ``fail_limit``);
- ``faults``: the kinds of controller/runtime/faults.py ``FAULTS`` its events latch;
- ``selftest``: its self-test walk, where it has one; ``check_files``: the files it reads at start,
  checked by ``tablectl config check``; ``refuse``: a configuration it will not start with (one line);
  ``pin_map_part``: the section of the build's pin map its built drivers need; ``docs``: its page under
  docs/devices.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from controller.checks import Check
from controller.runtime.intents import Handler
from controller.runtime.interfaces import InputDevice, Output

if TYPE_CHECKING:
    from controller.config import DeviceConfig, TableConfig


class StartProblem(RuntimeError):
    """A device cannot be built (a driver library missing, no such pin factory); one line for the operator."""


class Hand(Protocol):
    """An emulator the virtual croupier acts through as a croupier's hand would (a button press, the puck
    moved, the ball launched): controller/runtime/simulation.py ``CroupierHands`` offers each event to them."""

    def carry(self, raw: object, sends: Callable[[str, object], bool] | None) -> bool:
        """Carry ``raw`` out (``sends``: whether a press of that button sends exactly this event now);
        False when this emulator cannot, and the event goes on to the next hand or is keyed in."""
        ...

    def let_go(self) -> None:
        """The table stops: drop what is still being carried out."""
        ...


@dataclass
class ForSimulation:
    """What the built emulators give a simulated table (controller/runtime/simulation.py ``wire``); each kind
    fills in its part, so the simulation names no device."""

    dealer: Any = None  # the emulated shoe the virtual croupier deals from (simulate.Dealer), if one was built
    hands: list[Hand] = field(default_factory=list)  # what carries a croupier's event as a hand would
    gives: set[str] = field(default_factory=set)  # the game's extra inputs (simulate.simulated_extras) built ones give
    results: Any = None  # the built reader the croupier's results go to (the camera), if there is one


@dataclass
class Built:
    """What the daemon starts and shows on: the inputs and outputs by device name, the displays' drivers by
    kind, and what the built emulators give a simulated table."""

    inputs: dict[str, InputDevice] = field(default_factory=dict)
    outputs: dict[str, Output] = field(default_factory=dict)
    displays: dict[str, Any] = field(default_factory=dict)  # the displays' luma devices, then their drivers
    ticked: set[str] = field(default_factory=set)  # the displays a built panel drives and ticks with its buttons
    retick: Callable[[], None] | None = None  # the panel's: look at the ticked displays' next change again
    simulation: ForSimulation = field(default_factory=ForSimulation)


@dataclass
class Context:
    """What a kind's builders are given: the table, the loop, whether the table is simulated, the seeds, and
    ``built``, the devices built so far (kinds are built in their ``order``)."""

    config: "TableConfig"
    loop: asyncio.AbstractEventLoop
    simulate: bool
    seed: int = 1
    shoe_no: int = 1
    shoe_cards: int = 0
    built: Built = field(default_factory=Built)


Builder = Callable[[Context, "DeviceConfig"], None]


def simulated_only(device: "DeviceConfig", simulate: bool) -> bool:
    """The device is an emulator when the table is simulated (the usual rule)."""
    return simulate


@dataclass(frozen=True)
class DeviceKind:
    """One kind of device, as its module declares it (see the module's docstring)."""

    name: str
    drivers: Mapping[str, Mapping[str, Check]]
    docs: str
    required: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    built_as: Mapping[str, str] = field(default_factory=dict)
    builds: frozenset[str] = frozenset()
    emulated: Callable[["DeviceConfig", bool], bool] = simulated_only
    real: Builder | None = None
    emulator: Builder | None = None
    show: Callable[[Context], None] | None = None
    order: int = 50
    translate: Mapping[type, Handler] = field(default_factory=dict)
    noted: tuple[type, ...] = ()
    wiring: Mapping[str, Any] = field(default_factory=dict)
    faults: tuple[str, ...] = ()
    selftest: Callable[..., Any] | None = None
    check_files: Callable[["TableConfig", "DeviceConfig"], list[str]] | None = None
    refuse: Callable[["TableConfig", "DeviceConfig", bool], str | None] | None = None
    pin_map_part: str | None = None

    def build(self, context: Context, device: "DeviceConfig") -> None:
        """Build ``device`` into ``context.built``: as an emulator or for real, as ``emulated`` says."""
        if device.driver not in self.builds:
            return
        builder = self.emulator if self.emulated(device, context.simulate) else self.real
        if builder is not None:
            builder(context, device)


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


def link_path(name: str) -> str:
    """A fresh symlink path for an emulated serial device (a folder of its own under the system's temp)."""
    import tempfile

    return os.path.join(tempfile.mkdtemp(prefix="tablectl-emu-"), f"{name}.pty")


def on_pty(device: "DeviceConfig", simulate: bool) -> bool:
    """A serial device is emulated on a pty when the table is simulated or its port is ``pty``."""
    return simulate or str(device.settings.get("port")) == "pty"
