"""Scenario files against settlements worked out by hand: one line per round, ``seat spot result net[@odds]``.

A line lists the round's settlements in their order, separated by ``; ``; a
settlement without a net (a progressive chip paid from the meter) is written
with ``?``, and ``@paid:per`` gives its odds where the line checks them.
Each file also has its ``.expected.json``: the whole `tablectl settle`
document, kept for the auditor, which ``tests/controller/test_settle_cli.py``
holds equal to the command's output; here the files are settled in process
(``controller.scenario``, the code `tablectl settle` runs) to keep the run short.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.scenario import load_scenario, settle
from tests.tablectl import ROOT

SCENARIOS = ROOT / "tests" / "scenarios"


def line(s: dict[str, Any]) -> str:
    net = "?" if s.get("net") is None else str(s["net"])
    who = f"{s['seat']}" + (f"/{s['player']}" if "player" in s else "")
    out = f"{who} {s['spot']} {s['result']} {net}"
    if s.get("net") is None and "odds" in s:
        out += "@{}:{}".format(*s["odds"])
    return out


def settle_file(path: Path) -> dict[str, Any]:
    return settle(load_scenario(json.loads(path.read_text(encoding="utf-8"))))


def check_file(game: str, name: str, expected: list[str], rejected: list[list[int]] | None = None) -> dict[str, Any]:
    """Settle ``tests/scenarios/<game>/<name>.json`` and hold every round to its hand-worked line."""
    doc = settle_file(SCENARIOS / game / f"{name}.json")
    rounds = doc["rounds"]
    assert len(rounds) == len(expected), f"{name}: {len(rounds)} rounds"
    for number, (got, want) in enumerate(zip(rounds, expected)):
        assert got["complete"], f"{name} round {number}: waiting for {got.get('waiting_for')}"
        assert "; ".join(line(s) for s in got["settlements"]) == want, f"{name} round {number}"
        want_rejected = (rejected or [[]] * len(rounds))[number]
        assert [r["index"] for r in got["rejected"]] == want_rejected, f"{name} round {number}: {got['rejected']}"
    return doc
