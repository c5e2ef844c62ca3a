"""Check poker scenario files through `tablectl settle`: compact expectations an auditor can read beside the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tablectl import ROOT, settle_json

SCENARIOS = ROOT / "tests" / "scenarios"

Line = tuple  # (seat, spot, result, net) or (seat, spot, result, net, odds)


def settle(game: str, name: str) -> dict[str, Any]:
    return settle_json(SCENARIOS / game / f"{name}.json")


def lines(round_: dict[str, Any]) -> list[tuple]:
    """The settlements of a round as (seat, spot, result, net, odds) in their order."""
    return [(s["seat"], s["spot"], s["result"], s.get("net"), tuple(s["odds"]) if "odds" in s else None)
            for s in round_["settlements"]]


def check_round(round_: dict[str, Any], expected: list[Line], rejected: tuple[int, ...] = ()) -> None:
    assert round_["complete"], round_.get("waiting_for")
    got = lines(round_)
    want = [tuple(e) if len(e) == 5 else (*e, None if e[2] != "win" else ...) for e in expected]
    assert len(got) == len(want), got
    for g, w in zip(got, want):
        assert g[:4] == w[:4], (g, w)
        if w[4] is not ...:
            assert g[4] == w[4], (g, w)
    assert tuple(r["index"] for r in round_["rejected"]) == rejected, round_["rejected"]


def all_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*/*.json"))
