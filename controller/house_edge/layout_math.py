"""Exact house edge of the wheel and dice games: every equally likely result, every spot, settled by the game.

The caller gives the game's ``LayoutRules`` (the very object a round uses)
and the results with integer weights; each spot of the bet table is settled
against each result by ``rules.spot_result`` and the expected value of one
unit is summed as an exact fraction. Spots are grouped into bet types (all
splits together, each total of the dice on its own) for the report.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any, Callable, Iterable

from controller.games.grid import Shape
from controller.games.layout_game import LayoutRules

# What one unit returns for each settlement result besides a win (a win pays its odds).
_LOSS = {"lose": Fraction(-1), "push": Fraction(0), "surrender": Fraction(-1, 2)}


def spot_value(rules: LayoutRules, shape: Shape, results: Iterable[tuple[Any, int]]) -> tuple[Fraction, Fraction, tuple]:
    """(expected value of one unit, probability of a win, the odds paid) of ``shape`` over weighted results."""
    total = 0
    ev = Fraction(0)
    wins = 0
    odds_seen: set[tuple[int, int]] = set()
    for result, weight in results:
        total += weight
        kind, odds, _ = rules.spot_result(shape, result)
        if kind == "win":
            assert odds is not None
            ev += weight * Fraction(odds.paid, odds.per)
            wins += weight
            odds_seen.add((odds.paid, odds.per))
        else:
            ev += weight * _LOSS[kind]
    return ev / total, Fraction(wins, total), tuple(sorted(odds_seen))


# Inside bets from one number up, then the rest in the order the table lists them (a stable sort).
_ORDER = {kind: i for i, kind in enumerate(("straight", "split", "street", "trio", "corner", "first_four", "line"))}


def _percent(x: Fraction) -> float:
    return round(float(x * 100), 4)


def by_bet_type(rules: LayoutRules, results: list[tuple[Any, int]],
                group: Callable[[Shape], str]) -> dict[str, dict[str, Any]]:
    """The house edge of every bet type, in the order the table lists them."""
    groups: dict[str, list[tuple[Shape, Fraction, Fraction, tuple]]] = {}
    for shape in rules.table:
        ev, p_win, odds = spot_value(rules, shape, results)
        groups.setdefault(group(shape), []).append((shape, ev, p_win, odds))
    out: dict[str, dict[str, Any]] = {}
    for name, members in sorted(groups.items(), key=lambda item: _ORDER.get(item[1][0][0].kind, len(_ORDER))):
        edges = sorted({-ev for _, ev, _, _ in members})
        odds_all = sorted({o for *_, odds in members for o in odds})
        p_wins = sorted({p for _, _, p, _ in members})
        figures: dict[str, Any] = {
            "house_edge_percent": _percent(edges[-1]) if len(edges) == 1 else _percent(sum(edges, Fraction(0)) / len(edges)),
            "house_edge_exact": f"{edges[0].numerator}/{edges[0].denominator}" if len(edges) == 1 else None,
            "spots": len(members),
            "odds": [list(o) for o in odds_all],
            "win_probability": (f"{p_wins[0].numerator}/{p_wins[0].denominator}" if len(p_wins) == 1 else None),
        }
        if len(edges) > 1:
            figures["house_edge_percent_min"] = _percent(edges[0])
            figures["house_edge_percent_max"] = _percent(edges[-1])
        out[name] = figures
    return out


def report_for(rules: LayoutRules, results: list[tuple[Any, int]], group: Callable[[Shape], str],
               method: str, args: argparse.Namespace) -> dict[str, Any]:
    """The `tablectl math` document of a wheel or dice game."""
    if not getattr(args, "exact", False):
        raise ValueError(f"{rules.config.game} math is exact enumeration: add --exact")
    started = time.perf_counter()
    bets = by_bet_type(rules, results, group)
    return {
        "game": rules.config.game,
        "variant": rules.config.variant,
        "method": method,
        "outcomes": sum(w for _, w in results),
        "bets": bets,
        "seconds": round(time.perf_counter() - started, 3),
    }


def markdown_table(document: dict[str, Any]) -> str:
    """The house-edge table of a report as Markdown; the docs pages hold these tables verbatim (checked by a test)."""
    lines = ["| bet | pays | chance of a win | house edge | exact |", "|---|---|---|---|---|"]
    for name, figures in document["bets"].items():
        pays = " / ".join(f"{paid} to {per}" for paid, per in figures["odds"]) or "never wins"
        chance = figures["win_probability"] or "varies"
        exact = figures["house_edge_exact"] or "varies"
        lines.append(f"| `{name}` | {pays} | {chance} | {figures['house_edge_percent']:.4f} % | {exact} |")
    return "\n".join(lines)
