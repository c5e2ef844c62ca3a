"""Named faults: the one table of what each means, what it stops, how the tower shows it and who clears it.

A fault latches: it stays until an explicit clear (button, console), and a
restart does not clear it (the runtime rebuilds the latched set from the
``fault`` and ``clear`` records). A fault name is ``<kind>`` or
``<kind>.<subject>`` (``device_silent.shoe``, ``meter_mismatch.main``).

``FAULTS`` is the table; the input that stops, the tower pattern
(``tower_pattern``), the lamps the text tower shows (``tower_lamps``), who may
clear a fault at the console (``role_to_clear``, which the console's role check
reads) and the docs derive from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterable, Mapping

STOPS = {
    "all": "all input",
    "source": "that device's input",
    "meter": "the progressive of that meter",
    "next_shoe": "the next shoe",
}
"""What a fault kind stops (``FaultKind.stops``), in the words of the docs."""

CLEAR_ROLES = {
    "supervisor": "a supervisor only: the console's 'faults clear' with a supervisor login, or the clear_fault "
                  "button with the supervisor key",
    "staff": "a technician or a supervisor: the console's 'faults clear', or the clear_fault button with the "
             "supervisor key",
    "device": "the device itself, when it is back (a journaled clear); a technician or a supervisor may clear "
              "it at the console too",
    "selftest": "the technician's self-test walk, when it ends; a technician or a supervisor may clear it at "
                "the console too (the walk stops)",
    "restart": "nobody: a restart, once the cause is mended",
}
"""Who clears a fault kind (``FaultKind.clear_role``)."""

CONSOLE_ROLE: Mapping[str, str | None] = MappingProxyType({
    "supervisor": "supervisor", "staff": "technician", "device": "technician", "selftest": "technician",
    "restart": None})
"""The console login a ``clear_role`` needs for ``faults clear`` (None: no command clears it). A supervisor
may clear whatever a technician may."""

PATTERN_RANK = ("latched_fault", "maintenance", "device_fault")
"""Tower patterns of faults, the one shown first where several faults are latched."""


@dataclass(frozen=True, slots=True)
class FaultKind:
    """One kind of fault: ``name``, ``meaning``, what it ``stops`` (a key of ``STOPS``), the tower ``pattern``
    (drivers/gpio/tower.PATTERNS), who clears it (``clear_role``, a key of ``CLEAR_ROLES``) and its ``title``, the
    few words croupiers and supervisors read beside the name, in the table's language (``fault_shown``)."""

    name: str
    meaning: str
    stops: str
    pattern: str
    clear_role: str
    title: str = ""

    @property
    def stops_text(self) -> str:
        return STOPS[self.stops]

    @property
    def clears_itself(self) -> bool:
        return self.clear_role == "device"


FAULTS: Mapping[str, FaultKind] = MappingProxyType({k.name: k for k in (
    FaultKind("journal", "the journal cannot commit (disk full, read-only, broken)", "all", "latched_fault",
              "restart", title="the journal cannot commit"),
    FaultKind("integrity", "the journal failed its check at start (a record edited, missing, forged or cut off, "
              "or the journal, its key or its sealed state missing); the fault names the first bad record", "all",
              "latched_fault", "restart", title="the journal failed its check"),
    FaultKind("code_digest", "the installed code differs from its stored digest (power-up self-check)", "all",
              "latched_fault", "supervisor", title="the installed code changed"),
    FaultKind("replay_mismatch", "the open round could not be rebuilt from the journal", "all", "latched_fault",
              "supervisor", title="the round could not be rebuilt"),
    FaultKind("meter_mismatch", "a jackpot meter disagrees with its records", "meter", "latched_fault",
              "supervisor", title="a jackpot meter disagrees"),
    FaultKind("device_silent", "a device stopped answering", "source", "latched_fault", "staff", title="a device is silent"),
    FaultKind("device_fault", "a device reported a fault (jam, tamper, wheel fault)", "source", "latched_fault",
              "staff", title="a device fault"),
    FaultKind("reader_failing", "a reader keeps failing to read (an unreadable card, a camera unsure in a row)",
              "source", "latched_fault", "staff", title="a reader keeps failing"),
    FaultKind("link_down", "a device's link or bus is down (unplugged, silent); clears itself when it is back",
              "source", "device_fault", "device", title="a link is down"),
    FaultKind("sensor_fault", "the burn-puck circles sense no puck or several; clears itself when exactly one does",
              "source", "device_fault", "device", title="the burn-puck sensor"),
    FaultKind("maintenance", "a technician is walking the devices (console 'selftest'); clears when the walk ends",
              "all", "maintenance", "selftest", title="maintenance"),
    FaultKind("deck_check", "the shuffler's deck check found missing, extra or foreign cards", "next_shoe",
              "latched_fault", "supervisor", title="the deck check failed"),
)})
"""Every fault kind, by name."""

SELF_CLEARING = tuple(k.name for k in FAULTS.values() if k.clears_itself)
"""Fault kinds the device itself clears (journaled ``clear`` by the device); all others latch until cleared."""


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

    @property
    def spec(self) -> FaultKind:
        return FAULTS[self.kind]

    def stops_all(self) -> bool:
        return self.spec.stops == "all"

    def stops_source(self, source: str) -> bool:
        return self.stops_all() or (self.spec.stops == "source" and self.subject == source)

    def stops_meter(self, meter: str) -> bool:
        return self.spec.stops == "meter" and self.subject == meter

    def stops_next_shoe(self) -> bool:
        return self.spec.stops == "next_shoe"


def fault_shown(name: str, lang: Any = None) -> str:
    """A fault as croupiers and supervisors read it: the name the technician and the journal use, then its kind's
    title in the table's language (``device_fault.shoe (a device fault)``; Swedish ``device_fault.shoe (ett
    enhetsfel)``). Players never see it: the sign shows only that the table waits."""
    kind = FAULTS.get(name.split(".", 1)[0])
    if kind is None or not kind.title:
        return name
    return f"{name} ({lang.t(kind.title) if lang is not None else kind.title})"


def check_name(name: str) -> str:
    """``ValueError`` unless ``name`` is a known fault kind with an optional subject."""
    if name.split(".", 1)[0] not in FAULTS:
        raise ValueError(f"unknown fault {name!r} (kinds: {', '.join(FAULTS)})")
    return name


def role_to_clear(name: str) -> str | None:
    """The console login needed to clear the fault ``name`` (``kind`` or ``kind.subject``): ``supervisor``,
    ``technician``, or None where no one may (it clears by a restart). A name of no known kind needs a
    technician: no such fault can be latched, and the table answers so."""
    kind = FAULTS.get(name.split(".", 1)[0])
    return "technician" if kind is None else CONSOLE_ROLE[kind.clear_role]


def restart_only(name: str) -> bool:
    """True for a fault that no command clears (``clear_role`` restart): the table refuses to clear it."""
    kind = FAULTS.get(name.split(".", 1)[0])
    return kind is not None and kind.clear_role == "restart"


def fault_pattern(faults: Iterable[Fault]) -> str | None:
    """The tower pattern of the latched faults (the first of ``PATTERN_RANK`` any of them shows), or None."""
    shown = {f.spec.pattern for f in faults}
    return next((p for p in PATTERN_RANK if p in shown), None)


def tower_pattern(table: Any) -> str:
    """The tower pattern for the table's committed state (legend: docs/devices/tower-light.md)."""
    pattern = fault_pattern(table.faults.values())
    if pattern is not None:
        return pattern
    if table.meters.pending():
        return "jackpot_pending"
    if getattr(table, "pending_result", None) is not None:
        return "result_pending"
    if table.round_events == 0:
        return "idle"
    if table.betting_open():
        return "betting_open"
    prompt = table.last_prompt
    expects = tuple(getattr(prompt, "expects", ()) or ())
    if "confirm" in expects:
        return "result_pending"
    if prompt is not None and prompt.seat is not None and any(e != "card" for e in expects):
        return "waiting_decision"
    return "dealing"


def markdown_table() -> str:
    """The fault table as the docs show it (docs/runtime.md, "Faults"; a test keeps the page in step)."""
    rows = ["| kind | meaning | what stops | tower | cleared by |", "|---|---|---|---|---|"]
    for k in FAULTS.values():
        rows.append(f"| `{k.name}` | {k.meaning} | {k.stops_text} | `{k.pattern}` | {CLEAR_ROLES[k.clear_role]} |")
    return "\n".join(rows) + "\n"


def clear_markdown() -> str:
    """Who may clear each fault kind at the console, as docs/console.md shows it (a test keeps it in step)."""
    words = {"supervisor": "supervisor", "technician": "technician or supervisor", None: "nobody"}
    rows = ["| fault | console login that may clear it | cleared by |", "|---|---|---|"]
    for k in FAULTS.values():
        rows.append(f"| `{k.name}` | {words[CONSOLE_ROLE[k.clear_role]]} | {CLEAR_ROLES[k.clear_role]} |")
    return "\n".join(rows) + "\n"
