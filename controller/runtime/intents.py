"""What the translator returns and what it reads: the intents, the table's ``Wiring`` and ``TableView``.

A device kind's rows of the translation (``controller/runtime/devices/<kind>.py``, ``TRANSLATE``) are
functions ``(source, raw, view) -> Translation`` built from these; ``controller/runtime/translate.py``
dispatches to them and ``Table.apply`` carries the intents out (controller/runtime/table.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping

from controller.events import Event
from controller.games.decisions import Legal
from controller.runtime.interfaces import Command

KEY_BUTTONS = ("supervisor", "supervisor_key")
"""A button of this name, or mapped to the action ``supervisor_key``, is the supervisor's key switch: held = turned."""


# ---------------------------------------------------------------------- intents


@dataclass(frozen=True, slots=True)
class Submit:
    """Submit this game event to the round."""

    event: Event


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold a reader's unsure result for the croupier's confirmation (``kind`` ``dice`` or ``wheel``)."""

    values: tuple[int | None, ...]
    colors: tuple[str, ...]
    reason: str
    kind: str = "dice"


@dataclass(frozen=True, slots=True)
class Latch:
    """Latch the fault ``<kind>.<source>``."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Clear:
    """Clear the latched fault ``name`` (a device that is back), as the ``clear_fault`` command by ``by``."""

    name: str
    reason: str
    by: str


@dataclass(frozen=True, slots=True)
class Run:
    """Run this command."""

    command: Command


@dataclass(frozen=True, slots=True)
class ShoeNote:
    """Journal a ``shoe`` record with this note."""

    note: str


@dataclass(frozen=True, slots=True)
class Noted:
    """Nothing to do; ``text`` says why (for the log and the tests)."""

    text: str


Intent = Submit | Hold | Latch | Clear | Run | ShoeNote | Noted


# ---------------------------------------------------------------------- what the translator reads


def frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Wiring:
    """What the table's configuration says about its devices: which action each button means in this game,
    the spot the progressive slots bet on, and, per device, the keys of its section its kind's rows read
    (``DeviceKind.wiring``: the camera's ``fail_limit``, how many unsure reads in a row latch its fault)."""

    game: str = ""
    actions: Mapping[str, str] = field(default_factory=lambda: frozen({}))
    progressive_spot: str | None = None
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: frozen({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "actions", frozen(self.actions))
        object.__setattr__(self, "settings", frozen({k: frozen(v) for k, v in self.settings.items()}))

    def setting(self, device: str, key: str, default: Any) -> Any:
        """The device's ``key`` as its section gives it (or its kind's default), else ``default``."""
        return self.settings.get(device, {}).get(key, default)

    def action(self, button: str) -> str | None:
        return self.actions.get(button)

    def is_key(self, button: str) -> bool:
        return button in KEY_BUTTONS or self.actions.get(button) == "supervisor_key"


@dataclass(frozen=True)
class Memory:
    """What the translator remembers between events (in memory only; a restart forgets it): whether the
    supervisor key is turned, the unsure reads in a row per reader, and the parts of a self-clearing fault
    still down (``link_down.gpio`` -> the expanders not back yet)."""

    key_held: bool = False
    unsure: Mapping[str, int] = field(default_factory=lambda: frozen({}))
    down: Mapping[str, frozenset[str]] = field(default_factory=lambda: frozen({}))

    def counted(self, source: str, count: int) -> "Memory":
        return replace(self, unsure=frozen({**self.unsure, source: count}))

    def part_down(self, name: str, part: str) -> "Memory":
        return replace(self, down=frozen({**self.down, name: self.down.get(name, frozenset()) | {part}}))


@dataclass(frozen=True)
class TableView:
    """The read-only facts of the table a device event's meaning depends on."""

    wiring: Wiring = field(default_factory=Wiring)
    memory: Memory = field(default_factory=Memory)
    betting_open: bool = True
    faults: frozenset[str] = frozenset()
    result_pending: bool = False  # a reader's unsure result waits for the croupier
    jackpot_pending: bool = False  # a jackpot hit waits for the supervisor
    prompt_seat: int | None = None  # the box the last prompt waits for
    puck: int | None = None  # the box the burn puck is at, in a game that has one
    decisions: Legal | None = None  # the round's legal decisions, given with a button press (decision_keys.py)


@dataclass(frozen=True)
class Translation:
    """The intents of one device event, in the order the table applies them, and the translator's new memory."""

    intents: tuple[Intent, ...]
    memory: Memory


Handler = Callable[[str, Any, TableView], Translation]
"""One row of the translation: what an event of one class from ``source`` means at the table ``view`` shows."""


def one(memory: Memory, *intents: Intent) -> Translation:
    """These intents, in order, with ``memory`` remembered."""
    return Translation(tuple(intents), memory)


def fixed(make: Callable[[str, Any], Intent]) -> Handler:
    """A row whose meaning depends only on the event and its source."""
    return lambda source, raw, view: one(view.memory, make(source, raw))


def recovered(view: TableView, name: str, part: str, source: str) -> Translation:
    """A part of a self-clearing fault is back: the fault clears once every part it latched for is."""
    memory = view.memory
    parts = memory.down.get(name)
    if parts is not None:
        parts = parts - {part}
        memory = replace(memory, down=frozen({**memory.down, name: parts}))
    if name in view.faults and not parts:
        memory = replace(memory, down=frozen({k: v for k, v in memory.down.items() if k != name}))
        return one(memory, Clear(name, f"{part} is back", f"{source} (device)"), Noted(f"{part} is back; {name} cleared"))
    return one(memory, Noted(f"{part} is back"))
