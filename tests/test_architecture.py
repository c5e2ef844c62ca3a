"""docs/architecture.md is kept true: its picture is the code's imports, its checklists hold for the code."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from controller.events import Bet
from controller.games import all_games
from controller.runtime.players import STRATEGIES
from controller.runtime.devices import registry
from controller.runtime.faults import FAULTS
from drivers.events import DEVICE_EVENTS
from tests.tablectl import ROOT

PAGE = ROOT / "docs" / "architecture.md"


def test_the_picture_is_drawn_from_the_imports() -> None:
    graph = importlib.import_module("tools.import_graph")
    text = PAGE.read_text(encoding="utf-8")
    assert graph.page_with(text, graph.mermaid()) == text, "run: python tools/import_graph.py --write"


def test_the_rules_import_no_hardware_and_the_drivers_no_rules() -> None:
    edges = importlib.import_module("tools.import_graph").edges()
    pure = {"controller.games", "controller.hands", "controller.cards", "controller.events", "controller.money"}
    assert not [(a, b) for a, b in edges if a in pure and (b.startswith("drivers") or b == "controller.runtime")]
    assert not [(a, b) for a, b in edges if a.startswith("drivers") and b.startswith("controller")
                and b != "controller.money"]


def _private_uses(names: set[str]) -> list[str]:
    """Where a module outside the games and the journal uses one of these private names of another object."""
    found = []
    outside = [p for p in sorted((ROOT / "controller").rglob("*.py")) + sorted((ROOT / "drivers").rglob("*.py"))
               if "games" not in p.relative_to(ROOT).parts and p.name != "journal.py"]  # the owners may
    for path in outside:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in names and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} getattr {node.args[1].value}")
    return found


def test_nothing_outside_the_journal_runs_sql_and_no_one_reaches_into_a_round() -> None:
    """The journal answers in public (Journal.last, recent_outcomes, completed_rounds, ...); the table applies
    events to ``Round.copy()``; a tool reads a round's public view. Nothing calls their private parts."""
    assert _private_uses({"_query", "_db", "_snapshot", "_restore", "_prompt", "_minimum", "_maximum"}) == []


def test_no_event_is_told_by_the_name_of_its_class() -> None:
    """An event is matched by its class (isinstance, a registry keyed by class), never by comparing
    ``type(x).__name__`` with a string: a class of the same name from anywhere would pass."""
    found = []
    for path in sorted((ROOT / "controller").rglob("*.py")) + sorted((ROOT / "drivers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                named = any(isinstance(x, ast.Attribute) and x.attr == "__name__" and not (
                    isinstance(x.value, ast.Name) and x.value.id == "__name__") for x in sides)
                if named and any(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in sides) \
                        and not any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_shipped_pin_maps_name_no_game() -> None:
    """A button's meaning comes from the runtime and the game (``GameSpec.takes_button_action``), not from a
    per-game line in the pin map: the shipped pin maps have none (a casino's own may still add one)."""
    import tomllib

    per_game = [f"{path.name} buttons.{name}" for path in sorted((ROOT / "hw").glob("*.toml"))
                for name, button in tomllib.loads(path.read_text(encoding="utf-8")).get("buttons", {}).items()
                if "actions" in button]
    assert per_game == []


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.id)
def test_how_to_add_a_game_holds_for_every_game(spec) -> None:
    # 2. what the runtime needs is declared
    assert spec.reader is not None and spec.reader.kind in ("shoe", "wheel", "dice")
    assert spec.strategy is None or spec.strategy in STRATEGIES
    names = {s.name for s in spec.spots}
    assert set(spec.progressive_spots) <= names
    # 3. the paytable
    if spec.paytable_file:
        assert (ROOT / "controller" / "paytables" / spec.paytable_file).is_file()
    # 4. the docs page names everything the spec declares (a spot pattern such as straight:N by its kind)
    text = (ROOT / "docs" / "games" / spec.page).read_text(encoding="utf-8")
    wanted = [spec.id] + [v.id for v in spec.variants] + [a.name for a in spec.actions] + [o.name for o in spec.options]
    missing = [n for n in wanted if f"`{n}`" not in text]
    missing += [s for s in names if (f"`{s.split(':')[0]}:" if ":" in s else f"`{s}`") not in text]
    assert not missing, f"docs/games/{spec.page} does not name {missing}"


def _event_classes(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)
            and any(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "dataclass" for d in node.decorator_list)}


def test_how_to_add_a_device_kind_holds_for_every_driver_event() -> None:
    # the driver: every frozen event class of a driver family (drivers/<family>/events.py, and the serial
    # links' drivers/seriallink.py) ...
    declared = set()
    for path in sorted((ROOT / "drivers").glob("*/events.py")):
        declared |= _event_classes(path)
    declared |= _event_classes(ROOT / "drivers" / "seriallink.py") - {"Delivery"}  # the hand-over, not an event
    listed = [k.__name__ for k in DEVICE_EVENTS]
    assert sorted(listed) == sorted(set(listed)) and set(listed) <= declared
    # ... has a meaning at the table, given by the kind that sends it: a row of its own, or one it only notes
    meant = {k.__name__ for k in registry.handlers()} | {k.__name__ for kind in registry.all_kinds() for k in kind.noted}
    assert sorted(declared - meant) == []


@pytest.mark.parametrize("kind", registry.all_kinds(), ids=lambda k: k.name)
def test_how_to_add_a_device_kind_holds_for_every_kind(kind) -> None:
    # 2. the kind module declares its schema, how it is built, its rows, its faults
    assert kind.name == kind.name.lower() and kind.drivers and kind.builds <= set(kind.drivers)
    assert kind.builds == set() or kind.real is not None and kind.emulator is not None
    assert set(kind.required) <= set(kind.drivers)
    assert all(set(keys) <= set(kind.drivers[d]) for d, keys in kind.required.items())
    assert set(kind.faults) <= set(FAULTS), f"{kind.name} latches a fault FAULTS does not know"
    for event in list(kind.translate) + list(kind.noted):
        assert kind.name in registry.owners(event)
    # 3. its page under docs/devices shows its drivers, keys and faults as the kind declares them
    text = (ROOT / "docs" / "devices" / kind.docs).read_text(encoding="utf-8")
    assert registry.page_with(text, kind) == text, "run: python tools/device_kinds.py --write"
    # ... and so does its rows of the devices table in docs/configuration.md: each driver says what it builds
    assert all(registry.built_as(kind, driver) for driver in kind.drivers)
    assert set(kind.wiring) <= {key for keys in kind.drivers.values() for key in keys}


def test_the_configuration_pages_devices_table_is_the_registrys() -> None:
    """docs/configuration.md's devices table is written from the kinds: a kind, a driver or a key that is
    not in it (or one that is gone) fails here."""
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert text.count(registry.TABLE_BEGIN) == 1 and text.count(registry.TABLE_END) == 1
    assert registry.configuration_page_with(text) == text, "run: python tools/device_kinds.py --write"
    table = registry.devices_table()
    for kind in registry.all_kinds():
        for driver, keys in kind.drivers.items():
            row = next(line for line in table.splitlines() if line.startswith(f"| [`[devices.{kind.name}]`]")
                       and f"| `{driver}` |" in line)
            assert all(f"`{key}`" in row for key in keys)


def test_a_kind_that_does_not_say_what_a_driver_builds_is_refused() -> None:
    from dataclasses import replace

    kind = replace(registry.by_name()["wheel"], built_as={})
    with pytest.raises(registry.KindConflict, match="built_as"):
        registry.built_as(kind, "serial")
    assert registry.built_as(kind, "simulated") == registry.STAND_INS["simulated"]


RFID = """
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from controller import checks
from controller.events import Bet
from controller.runtime.devices.base import DeviceKind, on_pty
from controller.runtime.intents import Noted, Submit, fixed, one


@dataclass(frozen=True, slots=True)
class ChipRead:
    seat: int
    spot: str


@dataclass(frozen=True, slots=True)
class ChipUnsure:
    seat: int


def unsure(source, raw, view):
    limit = view.wiring.setting(source, "misread_limit", 4)
    return one(view.memory, Noted(f"{source}: box {raw.seat} unsure, {limit} in a row latch"))


class ChipHand:
    # the croupier's hand at the emulated reader: it puts a chip on the box (a Bet) itself

    def __init__(self) -> None:
        self.placed = []

    def carry(self, raw, sends) -> bool:
        if not isinstance(raw, Bet):
            return False
        self.placed.append(raw)
        return True

    def let_go(self) -> None:
        pass


class Reader:
    def __init__(self, name: str, port: str, emulated: bool) -> None:
        self.name, self.port, self.emulated = name, port, emulated

    def start(self, post: Callable[[object], None]) -> None:
        self.post = post

    def stop(self) -> None:
        pass

    def health(self) -> Mapping[str, Any]:
        return {"ok": True}


def builder(emulated: bool):
    def build(context, device) -> None:
        context.built.inputs[device.name] = Reader(device.name, str(device.settings["port"]), emulated)
        if emulated:
            context.built.simulation.hands.append(ChipHand())
    return build


KIND = DeviceKind(
    name="chip_reader",
    drivers={"serial": {**checks.SERIAL, "misread_limit": checks.int_range(1, 9)}, "simulated": {}},
    required={"serial": {"port": "a serial device needs its port"}},
    builds=frozenset({"serial"}),
    emulated=on_pty,
    real=builder(False),
    emulator=builder(True),
    translate={ChipRead: fixed(lambda source, raw: Submit(Bet(raw.seat, raw.spot))), ChipUnsure: unsure},
    wiring={"misread_limit": 4},
    faults=("device_silent",),
    docs="chip-reader.md",
)
"""


def test_a_new_device_kind_is_one_module(tmp_path, monkeypatch) -> None:
    """A throwaway kind module, dropped into the package's path, is checked, built and translated."""
    import sys

    from controller import config as table_config
    from controller.runtime import devices
    from controller.runtime.simulation import CroupierHands
    from controller.runtime.translate import Noted, Submit, TableView, translate, wiring_for

    folder = tmp_path / "kinds"
    folder.mkdir()
    (folder / "chip_reader.py").write_text(RFID, encoding="utf-8")
    monkeypatch.setattr(devices, "__path__", list(devices.__path__) + [str(folder)])
    monkeypatch.delitem(sys.modules, "controller.runtime.devices.chip_reader", raising=False)
    assert "chip_reader" in registry.by_name()

    data = table_config.simulated_defaults("punto-banco", "fi", str(tmp_path / "journal.sqlite"))
    data["devices"]["chip_reader"] = {"driver": "serial", "port": "/dev/ttyUSB7"}
    config = table_config.from_mapping(data, "test")  # config check: the kind's schema
    assert config.devices["chip_reader"].settings["port"] == "/dev/ttyUSB7"
    data["devices"]["chip_reader"] = {"driver": "serial", "colour": "red"}
    with pytest.raises(table_config.ConfigError) as refused:
        table_config.from_mapping(data, "test")
    assert [p.split(" ")[1] for p in refused.value.problems] == ["devices.chip_reader.colour",
                                                                 "devices.chip_reader.port"]

    import asyncio
    loop = asyncio.new_event_loop()
    try:
        real = devices.build(config, loop, simulate=False).inputs["chip_reader"]  # build: for real ...
        built = devices.build(config, loop, simulate=True)  # ... and as an emulator, with its croupier's hand
        emulated = built.inputs["chip_reader"]
        hands = CroupierHands("buttons", built, loop)
        hands.send(Bet(2, "player", 500))
    finally:
        loop.close()
    assert (type(real).__name__, real.emulated, emulated.emulated) == ("Reader", False, True)
    assert hands.pressed == 1 and built.simulation.hands[-1].placed == [Bet(2, "player", 500)]

    module = sys.modules["controller.runtime.devices.chip_reader"]
    event = module.ChipRead(3, "banker")  # translate: its rows
    assert translate("chip_reader", event, TableView()).intents[0] == Submit(Bet(3, "banker"))
    wiring = wiring_for(config)  # the keys its rows read: its default, or what its section gives
    assert wiring.setting("chip_reader", "misread_limit", None) == 4
    data["devices"]["chip_reader"] = {"driver": "serial", "port": "/dev/ttyUSB7", "misread_limit": 2}
    wiring = wiring_for(table_config.from_mapping(data, "test"))
    assert translate("chip_reader", module.ChipUnsure(5), TableView(wiring)).intents == (
        Noted("chip_reader: box 5 unsure, 2 in a row latch"),)
    monkeypatch.undo()
    assert "chip_reader" not in registry.by_name()
