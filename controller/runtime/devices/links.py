"""Rows of the translation every device with a link shares (not a kind: no ``KIND``).

A serial link (drivers/seriallink.py: the shoe, the shuffler, the wheel reader) or a GPIO bus
(``DeviceFault``/``DeviceRecovered`` of an I/O expander) that goes down latches ``link_down.<device>``
and clears itself when every part that went down is back; a frame that may be missing is latched for a
supervisor to look at the coup, not a self-clearing outage.
"""

from __future__ import annotations

from controller.runtime.intents import Handler, Latch, Noted, TableView, Translation, fixed, one, recovered
from drivers import events as ev


def link_fault(source: str, raw: ev.LinkFault | ev.DeviceFault, view: TableView) -> Translation:
    part = raw.device if isinstance(raw, ev.DeviceFault) else source
    name = f"link_down.{source}"
    return one(view.memory.part_down(name, part), Latch("link_down", f"{part}: {raw.reason}"))


def link_back(source: str, raw: ev.LinkRestored | ev.DeviceRecovered, view: TableView) -> Translation:
    part = raw.device if isinstance(raw, ev.DeviceRecovered) else source
    return recovered(view, f"link_down.{source}", part, source)


SERIAL_ROWS: dict[type, Handler] = {
    ev.LinkFault: link_fault,
    ev.LinkRestored: link_back,
    ev.SequenceGap: fixed(lambda s, r: Latch("device_fault", r.reason)),
    ev.UnknownFrame: fixed(lambda s, r: Noted(f"{s}: a frame of type {r.type} this driver does not know")),
}
"""The rows of every device on a serial link (drivers/seriallink.py)."""

SERIAL_FAULTS = ("link_down", "device_fault", "device_silent")
"""The faults every serial device can latch (``device_silent`` by the daemon's health watch)."""
