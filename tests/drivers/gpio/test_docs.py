"""The device docs stay true: wiring tables generated from hw/, the tower legend, every picture present."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from drivers.gpio.tower import PATTERNS

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "devices"


def test_wiring_md_matches_the_pin_maps():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import device_docs
    finally:
        sys.path.pop(0)
    assert (DOCS / "wiring.md").read_text(encoding="utf-8") == device_docs.wiring_text(), \
        "docs/devices/wiring.md is out of date: run tools/device_docs.py"


def test_tower_legend_in_the_docs_matches_the_patterns():
    text = (DOCS / "tower-light.md").read_text(encoding="utf-8")
    for pattern in PATTERNS.values():
        cells = [w.words if w else "-" for w in (pattern.green, pattern.amber, pattern.red, pattern.buzzer)]
        row = f"| `{pattern.name}` | " + " | ".join(cells) + f" | {pattern.meaning} |"
        assert row in text, f"tower-light.md: legend row for {pattern.name} differs from drivers/gpio/tower.py"


def test_every_picture_the_docs_show_exists_and_is_small():
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            path = DOCS / target
            assert path.exists(), f"{page.name}: {target} is missing"
            assert path.stat().st_size < 60_000, f"{target} is too big for the repository"
