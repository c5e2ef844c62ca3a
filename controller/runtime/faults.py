"""Named faults: what each means, what input it stops, how the tower light shows it.

A fault latches: it stays until an explicit clear (button, console), and a
restart does not clear it (the runtime rebuilds the latched set from the
``fault`` and ``clear`` records). A fault name is ``<kind>`` or
``<kind>.<subject>`` (``device_silent.shoe``, ``meter_mismatch.main``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

# kind -> (what it means, what it stops, tower pattern)
KINDS: dict[str, tuple[str, str, str]] = {
    "journal": ("the journal cannot commit (disk full, read-only, broken)", "all input", "red on, buzzer"),
    "integrity": ("the journal failed its check at start (a record edited, missing, forged or cut off, or the "
                  "journal, its key or its sealed state missing); the fault names the first bad record",
                  "all input", "red on, buzzer"),
    "code_digest": ("the installed code differs from its stored digest (power-up self-check)", "all input",
                    "red on, buzzer"),
    "replay_mismatch": ("the open round could not be rebuilt from the journal", "all input", "red on, buzzer"),
    "meter_mismatch": ("a jackpot meter disagrees with its records", "the progressive of that meter", "yellow flash"),
    "device_silent": ("a device stopped answering", "that device's input", "red flash"),
    "device_fault": ("a device reported a fault (jam, link fault, shoe error)", "that device's input", "red flash"),
    "reader_failing": ("a reader keeps failing to read", "that reader's input", "yellow on, red flash"),
    # added with the real drivers (controller/runtime/translate.py); these two clear themselves (SELF_CLEARING)
    "link_down": ("a device's link or bus is down (unplugged, silent); clears itself when it is back",
                  "that device's input", "red on"),
    "sensor_fault": ("the burn-puck circles sense no puck or several; clears itself when exactly one does",
                     "that device's input", "red on"),
    "maintenance": ("a technician is walking the devices (console 'selftest'); clears when the walk ends",
                    "all input", "yellow on, red on"),
    "deck_check": ("the shuffler's deck check found missing, extra or foreign cards", "the next shoe",
                   "red flash"),
}

SELF_CLEARING = ("link_down", "sensor_fault")
"""Fault kinds the device itself clears (journaled ``clear`` by the device); all others latch until a supervisor clears them."""


@dataclass(frozen=True, slots=True)
class Fault:
    name: str
    text: str
    seq: int = 0  # journal record that latched it (0: could not be journaled)

    @property
    def kind(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def subject(self) -> str | None:
        parts = self.name.split(".", 1)
        return parts[1] if len(parts) == 2 else None

    def stops_all(self) -> bool:
        return self.kind in ("journal", "integrity", "replay_mismatch", "code_digest", "maintenance")

    def stops_source(self, source: str) -> bool:
        return self.stops_all() or (self.kind in ("device_silent", "device_fault", "reader_failing", "link_down",
                                                      "sensor_fault")
                                    and self.subject == source)

    def stops_meter(self, meter: str) -> bool:
        return self.kind == "meter_mismatch" and self.subject == meter


def check_name(name: str) -> str:
    """``ValueError`` unless ``name`` is a known fault kind with an optional subject."""
    if name.split(".", 1)[0] not in KINDS:
        raise ValueError(f"unknown fault {name!r} (kinds: {', '.join(KINDS)})")
    return name


def tower_state(faults: Iterable[Fault], jackpot_pending: bool, betting_open: bool) -> dict[str, str]:
    """The tower light's desired state: each lamp ``on``, ``off`` or ``flash``; ``buzzer`` on or off."""
    state = {"red": "off", "yellow": "off", "green": "on", "buzzer": "off"}
    for fault in faults:
        pattern = KINDS[fault.kind][2]
        state["green"] = "off"
        for part in pattern.split(", "):
            lamp, _, how = part.partition(" ")
            if lamp == "buzzer":
                state["buzzer"] = "on"
            elif how == "on" or state[lamp] != "on":
                state[lamp] = how
    if jackpot_pending:
        state["yellow"] = "on" if state["yellow"] == "off" else state["yellow"]
        state["green"] = "flash" if state["green"] != "off" else "off"
    elif betting_open and state["green"] == "on":
        state["green"] = "flash"
    return state
