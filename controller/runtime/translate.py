"""What a device event means at this table: a pure function from one event and a read-only view to intents.

``translate(source, raw, view)`` takes one driver event (drivers/events.py,
``DEVICE_EVENTS``) or a game event (controller/events.py) from the input
``source`` and a ``TableView`` (what the table's configuration says of its
devices, ``Wiring``, and the few facts of its state the meaning depends on)
and returns a ``Translation``: the intents, in order, and what the translator
remembers for the next event (``Memory``: the supervisor key, unsure reads in a
row, the parts of a device still down). It reads no clock, does no I/O and
calls nothing back; ``Table.submit`` applies the intents in one write-ahead
transaction (controller/runtime/table.py). Each device kind brings its own rows
of the table (``controller/runtime/devices/<kind>.py``, ``translate`` in its
``KIND``); the registry finds them (controller/runtime/devices/registry.py), so
a new kind needs no edit here. The intents and the view are in intents.py.

The intents:

- ``Submit(event)``: a game event for the round;
- ``Hold(values, colors, reason, kind)``: a reader was unsure, hold its guess for the croupier;
- ``Latch(kind, text)``: latch the fault ``<kind>.<source>``;
- ``Clear(name, reason, by)``: clear a self-clearing fault (journaled as the ``clear_fault`` command);
- ``Run(command)``: a command (a button's ``clear_fault``, ``confirm_jackpot``, ``confirm_result``, ``new_shoe``);
- ``ShoeNote(note)``: a ``shoe`` record (``cut_card``, ``shoe_empty``, ``shuffle_done``, ``deck_check_ok``);
- ``Noted(text)``: nothing to do; the text says why.

Faults (controller/runtime/faults.py): a link or bus that is down is
``link_down.<device>`` and clears itself when the driver says it is back; the
puck circles' ``sensor_fault.puck`` clears itself when exactly one circle senses
the puck again; a jam, tamper, an unreadable card, a wheel fault latch
(``device_fault.<device>``, ``reader_failing.<device>``) until a supervisor
clears them; a camera unsure of ``fail_limit`` throws (or spins) in a row (the camera kind's ``wiring``)
latches ``reader_failing.camera``; a bad deck check latches
``deck_check.shuffler``, which refuses the next shoe.
"""

from __future__ import annotations

from typing import Any, cast

from controller.events import TYPE_NAMES, Event
from controller.games.contract import GameSpec
from controller.runtime.devices import registry
from controller.runtime.devices.gpio import DEFERRED_ACTIONS, button_actions
from controller.runtime.intents import (
    KEY_BUTTONS, Clear, Handler, Hold, Intent, Latch, Memory, Noted, Run, ShoeNote, Submit, TableView, Translation,
    Wiring, one,
)

__all__ = ["DEFERRED_ACTIONS", "KEY_BUTTONS", "Clear", "Handler", "Hold", "Intent", "Latch", "Memory", "Noted",
           "Run", "ShoeNote", "Submit", "TableView", "Translation", "Wiring", "button_actions", "progressive_spot",
           "translate", "wiring_for"]


def translate(source: str, raw: object, view: TableView) -> Translation:
    """What ``raw`` from ``source`` means at the table ``view`` shows; pure."""
    memory, kind = view.memory, type(raw)
    handlers, noted = registry.rows()
    handler = handlers.get(kind)
    if handler is not None:
        return handler(source, raw, view)
    if kind in TYPE_NAMES:
        return one(memory, Submit(cast(Event, raw)))  # a game event class (TYPE_NAMES): one of Event's
    if kind in noted:
        return one(memory, Noted(f"{source}: {type(raw).__name__} noted"))
    return one(memory, Noted(f"{source}: unknown event {type(raw).__name__}"))


def progressive_spot(spec: GameSpec, variant: str) -> str | None:
    """The game's progressive spot the variant offers, if any (``GameSpec.progressive_spots``: the locked
    slots' bets go there)."""
    offered = {s.name for s in spec.spots_for(variant)}
    return next((n for n in spec.progressive_spots if n in offered), None)


def wiring_for(config: Any) -> Wiring:
    """The table configuration's ``Wiring``: the pin map's button actions, the progressive spot, and each
    device kind's ``wiring`` keys (as its section gives them, else the kind's defaults) by device name."""
    spec, variant = config.spec, config.round_config.variant
    settings = {}
    for kind in registry.all_kinds():
        if kind.wiring:
            device = config.devices.get(kind.name)
            given = device.settings if device is not None else {}
            settings[kind.name] = {key: given.get(key, default) for key, default in kind.wiring.items()}
    return Wiring(spec.id, button_actions(config.pin_map, spec), progressive_spot(spec, variant), settings)
