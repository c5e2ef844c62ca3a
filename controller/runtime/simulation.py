"""How a simulated table is wired: the croupier's hands, the in-process stand-ins and the virtual croupier.

``--simulate`` builds every configured device as its kind's emulator (controller/runtime/devices/); on top
of them ``wire`` adds what no device of the table does: the in-process shoe of a ``simulated`` shoe, the
croupier's hands (``CroupierHands``: a mock button where a button does the job, else a direct post), the
bet sensor that posts the virtual players' bets, and the game's other inputs (its dice camera, burn puck
or wheel reader) where no emulator stands for them. Where the emulated panel has burn-puck sensors, the
puck is laid in a burn circle before the devices start (``lay_puck``), played or ``--idle``. ``Simulation.croupier`` is the virtual croupier
(controller/runtime/simulate.py) that plays on them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from controller.events import Puck
from controller.runtime.decision_keys import press_sends
from controller.runtime.devices.base import Built
from controller.runtime.interfaces import Command, InputDevice
from controller.runtime.simulate import (
    READERS, Dealer, Sender, SimulatedPanel, SimulatedShoe, VirtualCroupier, simulated_extras,
)

if TYPE_CHECKING:
    from controller.config import TableConfig
    from controller.runtime.table import Table


class CroupierHands:
    """The virtual croupier's hands (``--simulate``): an emulator's hand where one carries the event, else a
    direct post.

    Each event is offered to the hands the built emulators give (``Built.simulation.hands``, each kind's own:
    the GPIO panel presses the button mapped to no more bets or to that decision, where the press sends
    exactly that decision (``sends``: a decision button decides at the first box still to decide, at the
    game's own stake), and moves the burn puck on its sensors; the emulated wheel launches its ball). What no
    device of this table does (a dice throw entered on the console, a decision without a button) is posted
    as the game event, as the croupier would key it in.
    """

    def __init__(self, name: str, built: Built, loop: asyncio.AbstractEventLoop,
                 sends: Callable[[str, object], bool] | None = None) -> None:
        self.name, self.built, self.loop = name, built, loop
        self.sends = sends  # whether a press of that button sends exactly this event now (decision_keys.py)
        self.posted = self.pressed = 0
        self._post: Callable[[object], None] | None = None

    def start(self, post: Callable[[object], None]) -> None:
        self._post = post

    def stop(self) -> None:
        self._post = None
        for hand in self.built.simulation.hands:
            hand.let_go()

    def health(self) -> Mapping[str, Any]:
        return {"ok": self._post is not None, "posted": self.posted, "pressed": self.pressed}

    def lay(self, raw: object) -> bool:
        """Carry ``raw`` out by hand only (never posted): what the croupier sets up before the table opens."""
        return any(hand.carry(raw, self.sends) for hand in self.built.simulation.hands)

    def send(self, raw: object) -> None:
        for hand in self.built.simulation.hands:
            if hand.carry(raw, self.sends):
                self.pressed += 1
                return
        if self._post is not None:
            self.posted += 1
            self._post(raw)


@dataclass
class Simulation:
    """The devices of a simulated table (the built ones and the stand-ins), the shoe the croupier deals from,
    its hands, the bet sensor, and the devices its results (a wheel number, a throw) and the puck go to."""

    devices: dict[str, InputDevice]
    hands: CroupierHands
    bets: SimulatedPanel
    shoe: Dealer | None = None
    results: Sender | None = None
    puck: Sender | None = None

    def croupier(self, table: "Table", command: Callable[[Command], None], seed: int,
                 fast: bool) -> VirtualCroupier | None:
        """The virtual croupier for this table, seeded by ``seed`` and the round it starts at."""
        if self.shoe is None:
            return None
        return VirtualCroupier(table, self.shoe, self.hands, self.bets, command, seed * 7919 + table.round_no, fast,
                               results=self.results, puck=self.puck)


def wire(config: "TableConfig", built: Built, loop: asyncio.AbstractEventLoop, table: "Table", seed: int,
         fast: bool) -> Simulation:
    """The simulated table's devices: the built emulators, and stand-ins for what none of them does."""
    devices: dict[str, InputDevice] = dict(built.inputs)
    shoe: Dealer | None = built.simulation.dealer
    if shoe is None:  # no emulated shoe (a serial shoe is one under --simulate): the in-process one
        decks = int(config.round_config.get("decks", 1) or 1)  # a game without the option deals one deck
        jokers = int(config.round_config.get("jokers", 0) or 0)  # Pai Gow's and the Oasis joker table's 53rd card
        simulated = SimulatedShoe(decks, seed, table.shoe_no, table.shoe_cards, 0 if fast else 0.8, jokers)
        devices["shoe"] = simulated
        shoe = simulated
    hands = CroupierHands("buttons", built, loop, sends=lambda button, raw: press_sends(table, button, raw))
    bets = SimulatedPanel("bets")
    devices["buttons"], devices["bets"] = hands, bets
    stand_ins: dict[str, SimulatedPanel] = {}
    for name in simulated_extras(config.spec):  # the dice camera, the burn puck, a wheel reader
        if name not in devices and name not in built.simulation.gives:
            devices[name] = stand_ins[name] = SimulatedPanel(name)
    results = next((stand_ins[n] for n in READERS if n in stand_ins), built.simulation.results)
    if "puck" in built.simulation.gives:  # the puck lies in a burn circle before the table opens (lay_puck)
        lay_puck(hands, table)
    return Simulation(devices, hands, bets, shoe, results, stand_ins.get("puck"))


def lay_puck(hands: CroupierHands, table: "Table") -> bool:
    """Put the burn puck on its sensors as a croupier sets up the table: in the circle of the box the round
    expects it at (where it lay in the last round, or the configured ``previous_puck_box``), else box 1.

    Between rounds the puck always lies in a burn circle; without this a simulated table, played or
    ``--idle``, had no box sensing it until the first round's bets and latched the driver's "no box has
    sensed the puck" fault after ``fault_after_ms``. Done before the devices start, so the panel's first
    reading finds it; False when no emulated sensors carry it."""
    seat = getattr(table.round, "puck_seen", None) or 1
    return hands.lay(Puck(int(seat)))


__all__ = ["CroupierHands", "Simulation", "lay_puck", "wire"]
