"""docs/architecture.md is kept true: its picture is the code's imports, its checklists hold for the code."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from controller.games import all_games
from controller.runtime.players import STRATEGIES
from controller.runtime.translate import _HANDLERS, NOTED
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
    # 1. every frozen event class of a driver family is listed once in drivers/events.py
    declared = set()
    for path in sorted((ROOT / "drivers").glob("*/events.py")):
        declared |= _event_classes(path)
    # the serial families share drivers/seriallink.py's events; its Delivery is the hand-over, not an event
    declared |= _event_classes(ROOT / "drivers" / "seriallink.py") - {"Delivery"}
    listed = [k.__name__ for k in DEVICE_EVENTS]
    assert sorted(listed) == sorted(set(listed)) and set(listed) == declared
    # 2. each has a meaning: a handler of its own, or one the table only notes
    assert [k.__name__ for k in DEVICE_EVENTS if k not in _HANDLERS and k not in NOTED] == []
