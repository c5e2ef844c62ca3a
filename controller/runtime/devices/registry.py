"""The registry of device kinds: every module of this package that defines ``KIND`` is one.

As ``controller.games`` finds the games, the registry finds the kinds; adding a device kind touches no
list. ``by_name()`` is what ``tablectl config check`` checks ``[devices.<name>]`` against, ``build()``
builds a table's devices, ``handler()``/``is_noted()`` are the translator's table
(controller/runtime/translate.py), ``check_files()`` the files the devices read at start.

The scan runs once per package path (a kind added to the path is picked up; the tests do that), and
the translator's lookups reuse it.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING, Any, Mapping

from controller.runtime import devices as package
from controller.runtime.devices.base import Built, Context, DeviceKind
from controller.runtime.intents import Handler

if TYPE_CHECKING:
    from controller.config import TableConfig


class KindConflict(RuntimeError):
    """Two kinds give one event class different meanings, or share a name."""


@functools.lru_cache(maxsize=4)
def _scan(path: tuple[str, ...]) -> tuple[tuple[DeviceKind, ...], Mapping[type, Handler], frozenset[type],
                                          Mapping[type, tuple[str, ...]]]:
    kinds: dict[str, DeviceKind] = {}
    for info in pkgutil.iter_modules(list(path), package.__name__ + "."):
        module = importlib.import_module(info.name)
        kind = getattr(module, "KIND", None)
        if not isinstance(kind, DeviceKind):
            continue
        if kind.name in kinds:
            raise KindConflict(f"two device kinds are named {kind.name!r} ({info.name})")
        kinds[kind.name] = kind
    ordered = tuple(sorted(kinds.values(), key=lambda k: k.name))
    handlers: dict[type, Handler] = {}
    owners: dict[type, tuple[str, ...]] = {}
    noted: set[type] = set()
    for kind in ordered:
        for event, handler in kind.translate.items():
            if handlers.setdefault(event, handler) is not handler:
                raise KindConflict(f"{event.__name__} means two things: in {', '.join(owners[event])} "
                                   f"and in {kind.name}")
            owners[event] = owners.get(event, ()) + (kind.name,)
        for event in kind.noted:
            noted.add(event)
            owners[event] = owners.get(event, ()) + (kind.name,)
    return ordered, handlers, frozenset(noted), owners


_last: list[Any] = [None, None]  # (the package path's identity and length, its scan): the translator's hot path


def _scanned() -> tuple[tuple[DeviceKind, ...], Mapping[type, Handler], frozenset[type],
                        Mapping[type, tuple[str, ...]]]:
    path = package.__path__
    key = (id(path), len(path))
    if _last[0] != key:
        _last[1] = _scan(tuple(path))
        _last[0] = key
    scanned: tuple[tuple[DeviceKind, ...], Mapping[type, Handler], frozenset[type],
                   Mapping[type, tuple[str, ...]]] = _last[1]
    return scanned


def all_kinds() -> tuple[DeviceKind, ...]:
    """Every device kind, sorted by name."""
    return _scanned()[0]


def in_order() -> list[DeviceKind]:
    """Every device kind in the order they are built (``order``, then name)."""
    return sorted(all_kinds(), key=lambda k: (k.order, k.name))


def by_name() -> dict[str, DeviceKind]:
    """Device name (the ``[devices.<name>]`` section) -> its kind."""
    return {kind.name: kind for kind in all_kinds()}


def rows() -> tuple[Mapping[type, Handler], frozenset[type]]:
    """The translation's table in one look-up: event class -> handler, and the events only noted."""
    scanned = _scanned()
    return scanned[1], scanned[2]


def handler(event: type) -> Handler | None:
    """The row of the translation for this event class, from the kind that sends it."""
    return _scanned()[1].get(event)


def handlers() -> Mapping[type, Handler]:
    """Every row of the translation: event class -> handler."""
    return _scanned()[1]


def is_noted(event: type) -> bool:
    """An event a kind sends that changes nothing at the table."""
    return event in _scanned()[2]


def owners(event: type) -> tuple[str, ...]:
    """The kinds that send this event class (a serial link's events are every serial kind's)."""
    return _scanned()[3].get(event, ())


def build(config: "TableConfig", loop: asyncio.AbstractEventLoop, *, simulate: bool, seed: int = 1,
          shoe_no: int = 1, shoe_cards: int = 0) -> Built:
    """Build every configured device whose driver its kind builds (``simulated``/``text`` are left to the
    daemon): each kind in its ``order``, for real or as an emulator; then each kind adds its outputs."""
    context = Context(config, loop, simulate, seed, shoe_no, shoe_cards)
    kinds = in_order()
    for kind in kinds:
        device = config.devices.get(kind.name)
        if device is not None:
            kind.build(context, device)
    for kind in kinds:
        if kind.show is not None and kind.name in config.devices:
            kind.show(context)
    return context.built


def refusal(config: "TableConfig", simulate: bool) -> str | None:
    """The first configured device its kind will not start with (``simulate``: the table is simulated)."""
    for kind in all_kinds():
        device = config.devices.get(kind.name)
        problem = kind.refuse(config, device, simulate) if device is not None and kind.refuse else None
        if problem is not None:
            return problem
    return None


def check_files(config: "TableConfig") -> list[str]:
    """Problems of the files the devices read when they start, one line each (``tablectl config check``).

    The pin map is read and checked with the configuration itself; each kind checks its own files (the
    camera's calibration, with the loader its device uses)."""
    problems: list[str] = []
    for kind in all_kinds():
        device = config.devices.get(kind.name)
        if device is not None and kind.check_files is not None:
            problems += kind.check_files(config, device)
    return problems


class _Unset:
    """A value no check accepts: a check's answer to it is what the key allows."""


def allowed(check: object) -> str:
    """What a key's check allows, in its own words (the line a bad value gets)."""
    answer = check(_Unset()) if callable(check) else None
    return str(answer) if answer else "any value"


def markdown(kind: DeviceKind) -> str:
    """The kind's section of its docs page: its drivers and their keys, from its schema (``tools/device_kinds.py``
    writes it; tests/test_architecture.py fails when the page and the kind disagree)."""
    lines = [f"`[devices.{kind.name}]`: the drivers and their keys (from the kind's schema).", "",
             "| driver | key | allowed |", "|---|---|---|"]
    for driver, keys in kind.drivers.items():
        if not keys:
            where = "built by this kind" if driver in kind.builds else "the daemon's stand-in"
            lines.append(f"| `{driver}` | (none) | {where} |")
        for key, check in keys.items():
            need = " (required)" if key in kind.required.get(driver, {}) else ""
            lines.append(f"| `{driver}` | `{key}`{need} | {allowed(check)} |")
    faults = ", ".join(f"`{f}`" for f in kind.faults) or "none"
    lines += ["", f"Faults its events latch: {faults}."]
    return "\n".join(lines) + "\n"


STAND_INS = {"simulated": "the daemon's fast in-process stand-in (controller/runtime/simulate.py)",
             "text": "the daemon's text line on the terminal"}
"""What the drivers no kind builds are (``DeviceKind.built_as`` need not say)."""


def built_as(kind: DeviceKind, driver: str) -> str:
    """What ``driver`` of the kind builds, in a line; a driver the kind builds must say."""
    line = kind.built_as.get(driver) or (None if driver in kind.builds else STAND_INS.get(driver))
    if line is None:
        raise KindConflict(f"the device kind {kind.name} does not say what its driver {driver!r} builds (built_as)")
    return line


def devices_table() -> str:
    """The devices table of docs/configuration.md: one row per kind and driver, from the registry
    (``tools/device_kinds.py --write`` writes it; tests/test_architecture.py fails when they disagree)."""
    lines = ["| section | `driver` | keys (what each allows: the kind's page) | built |", "|---|---|---|---|"]
    for kind in all_kinds():
        for driver, keys in kind.drivers.items():
            names = ", ".join(f"`{key}`" + (" (required)" if key in kind.required.get(driver, {}) else "")
                              for key in keys) or "none"
            lines.append(f"| [`[devices.{kind.name}]`](devices/{kind.docs}) | `{driver}` | {names} | "
                         f"{built_as(kind, driver)} |")
    return "\n".join(lines) + "\n"


TABLE_BEGIN, TABLE_END = "<!-- device-kinds table: begin -->", "<!-- device-kinds table: end -->"


def configuration_page_with(text: str) -> str:
    """docs/configuration.md's ``text`` with the devices table between its markers."""
    head, rest = text.split(TABLE_BEGIN, 1)
    return head + TABLE_BEGIN + "\n" + devices_table() + TABLE_END + rest.split(TABLE_END, 1)[1]


def page_with(text: str, kind: DeviceKind) -> str:
    """The page ``text`` with the kind's section between its markers (added at the end if missing)."""
    begin, end = f"<!-- device-kind {kind.name}: begin -->", f"<!-- device-kind {kind.name}: end -->"
    block = f"{begin}\n{markdown(kind)}{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + block + rest.split(end, 1)[1]
    return text.rstrip("\n") + f"\n\n## Configuration: `{kind.name}`\n\n{block}\n"
