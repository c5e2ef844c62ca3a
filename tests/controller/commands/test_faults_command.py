"""`tablectl faults list` and the docs come from the one fault table; no page gives a fault another pattern."""

from __future__ import annotations

import json
import re

from controller.runtime.faults import FAULTS, markdown_table
from drivers.gpio.tower import PATTERNS
from tests.tablectl import ROOT, run_tablectl

PAGES = ["docs/runtime.md", "docs/operations.md", "docs/devices/tower-light.md", "docs/console.md"]


def test_faults_list_prints_the_table_and_the_docs_hold_it() -> None:
    done = run_tablectl("faults", "list", "--markdown")
    assert done.returncode == 0 and done.stdout == markdown_table()
    for page in ("docs/runtime.md", "docs/operations.md"):
        assert done.stdout in (ROOT / page).read_text(encoding="utf-8"), page
    listed = json.loads(run_tablectl("faults", "list", "--json").stdout)
    assert [(f["name"], f["tower"]) for f in listed] == [(k.name, k.pattern) for k in FAULTS.values()]
    text = run_tablectl("faults", "list").stdout
    assert all(f"{kind.name} ({kind.title}): {kind.meaning}" in text for kind in FAULTS.values())


def test_the_operations_page_says_what_to_do_for_every_fault() -> None:
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    todo = page[page.index("What the technician does"):]
    missing = [name for name in FAULTS if not re.search(rf"^\| `{name}(\.[A-Za-z]+)?` \|", todo, re.M)]
    assert not missing, missing


def test_no_page_gives_a_fault_another_tower_pattern() -> None:
    wrong = []
    for page in PAGES:
        for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
            named = {m for m in re.findall(r"`([a-z_]+)(?:\.[A-Za-z<>]+)?`", line) if m in FAULTS}
            patterns = {m for m in re.findall(r"`([a-z_]+)`", line) if m in PATTERNS and m not in FAULTS}
            if len(named) == 1 and patterns:
                (name,) = named
                if patterns != {FAULTS[name].pattern}:
                    wrong.append(f"{page}:{number}: {name} shown as {sorted(patterns)}, "
                                 f"the table says {FAULTS[name].pattern}")
    assert not wrong, "\n".join(wrong)
