"""How a simulated table is wired: the croupier's hands, the in-process stand-ins and the virtual croupier.

``--simulate`` builds every configured device as its kind's emulator (controller/runtime/devices/); on top
of them ``wire`` adds what no device of the table does: the in-process shoe of a ``simulated`` shoe, the
croupier's hands (``CroupierHands``: a mock button where a button does the job, else a direct post), the
bet sensor that posts the virtual players' bets, and the game's other inputs (its dice camera, burn puck
or wheel reader) where no emulator stands for them. ``Simulation.croupier`` is the virtual croupier
(controller/runtime/simulate.py) that plays on them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from controller.runtime.decision_keys import press_sends
from controller.runtime.devices.base import Built
from controller.runtime.interfaces import Command, InputDevice
from controller.runtime.simulate import SimulatedPanel, SimulatedShoe, VirtualCroupier, simulated_extras

if TYPE_CHECKING:
    from controller.config import TableConfig
    from controller.runtime.table import Table


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

    def __init__(self, name: str, built: Built, loop: asyncio.AbstractEventLoop,
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
    async def _press_after(earlier: set[asyncio.Task[Any]], panel: Any, action: str) -> None:
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
class Simulation:
    """The devices of a simulated table (the built ones and the stand-ins), the shoe the croupier deals from
    and the device its results (a wheel number, a throw) go to."""

    devices: dict[str, InputDevice]
    shoe: Any = None
    results: Any = None

    def croupier(self, table: "Table", command: Callable[[Command], None], seed: int,
                 fast: bool) -> VirtualCroupier | None:
        """The virtual croupier for this table, seeded by ``seed`` and the round it starts at."""
        if self.shoe is None:
            return None
        return VirtualCroupier(table, self.shoe, self.devices["buttons"], self.devices["bets"],  # type: ignore[arg-type]
                               command, seed * 7919 + table.round_no, fast, results=self.results,
                               puck=self.devices.get("puck"))  # type: ignore[arg-type]


def wire(config: "TableConfig", built: Built, loop: asyncio.AbstractEventLoop, table: "Table", seed: int,
         fast: bool) -> Simulation:
    """The simulated table's devices: the built emulators, and stand-ins for what none of them does."""
    devices: dict[str, InputDevice] = dict(built.inputs)
    shoe = built.shoe
    shoe_device = config.devices.get("shoe")
    if shoe is None and (shoe_device is None or shoe_device.driver == "simulated"):
        decks = int(config.round_config.get("decks", 1) or 1)  # a game without the option deals one deck
        jokers = int(config.round_config.get("jokers", 0) or 0)  # Pai Gow's and the Oasis joker table's 53rd card
        shoe = SimulatedShoe(decks, seed, table.shoe_no, table.shoe_cards, 0 if fast else 0.8, jokers)
        devices["shoe"] = shoe
    devices["buttons"] = CroupierHands("buttons", built, loop,
                                       sends=lambda button, raw: press_sends(table, button, raw))
    devices["bets"] = SimulatedPanel("bets")
    for name in simulated_extras(config.spec):  # the dice camera, the burn puck, a wheel reader
        on_panel = name == "puck" and built.panel is not None and \
            getattr(built.panel.pin_map, "puck", None) is not None  # moved on the mock puck sensors
        reader = built.wheel is not None or built.camera is not None  # the roulette camera reads it
        if name not in devices and not on_panel and not (name == "wheel" and reader):
            devices[name] = SimulatedPanel(name)
    results = next((devices[n] for n in ("wheel", "camera") if isinstance(devices.get(n), SimulatedPanel)),
                   built.camera)
    return Simulation(devices, shoe, results)


__all__ = ["CroupierHands", "Simulation", "wire"]
