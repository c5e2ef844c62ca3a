"""Last-results boards, as real tables show them: built from the marks of the rounds' outcomes.

A game declares its board in its ``GameSpec`` (``BoardSpec``: the kind and how one outcome is marked);
the pit view and the LED sign draw what ``build`` returns. Pure: the same marks give the same board.

- ``numbers`` (roulette): the last numbers with their colours, newest first; the hot numbers (most often
  in the window) and the cold ones (least often, every number of the wheel counted, unseen ones first);
- ``dice`` (Tärning, Sic Bo): the last throws, newest first, with each throw's total;
- ``road`` (Punto Banco): the bead plate (six rows, filled down then across, ties as their own bead) and the
  big road (a new column at each change of winner, ties marked on the bead before them, a column longer
  than six turning right along the bottom).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from controller.games.contract import BoardSpec, RoundConfig

ROWS = 6
HOT = 5


def build(board: BoardSpec, config: RoundConfig, marks: Sequence[Mapping[str, Any]], last: int = 30,
          window: int = 100) -> dict[str, Any]:
    """The board of ``marks`` (oldest first): the last ``last`` for the strip, hot and cold over ``window``."""
    recent = list(marks)[-window:]
    if board.kind == "numbers":
        counts = Counter(int(m["number"]) for m in recent)
        every = board.numbers(config) if board.numbers is not None else tuple(sorted(counts))
        order = {n: i for i, n in enumerate(every)}
        last_seen = {int(m["number"]): i for i, m in enumerate(recent)}
        hot = sorted((n for n in counts), key=lambda n: (-counts[n], -last_seen[n]))[:HOT]
        cold = sorted(every, key=lambda n: (counts.get(n, 0), last_seen.get(n, -1), order[n]))[:HOT]
        def entry(n: int) -> dict[str, Any]:
            out: dict[str, Any] = {"number": n, "count": counts.get(n, 0)}
            if board.color is not None:
                out["color"] = board.color(config, n)
            return out
        return {"kind": "numbers", "last": [dict(m) for m in reversed(recent[-last:])],
                "hot": [entry(n) for n in hot], "cold": [entry(n) for n in cold], "rounds": len(recent),
                "tally": tally(recent)}
    if board.kind == "dice":
        return {"kind": "dice", "last": [dict(m) for m in reversed(recent[-last:])], "rounds": len(recent),
                "tally": tally(recent)}
    if board.kind == "road":
        return {"kind": "road", "bead": bead_plate(recent), "big_road": big_road(recent),
                "counts": dict(Counter(str(m["winner"]) for m in recent)), "rounds": len(recent)}
    raise ValueError(f"unknown board kind {board.kind!r}")


def tally(marks: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """How often each value of each word or flag of the marks came (``color``: red 41, black 37, green 2;
    ``big``: true 15); numbers and lists are not tallied."""
    out: dict[str, Counter[str]] = {}
    for mark in marks:
        for key, value in mark.items():
            if isinstance(value, bool):
                out.setdefault(key, Counter())[str(value).lower()] += 1 if value else 0
            elif isinstance(value, str) or (key == "dozen" and isinstance(value, int)):
                out.setdefault(key, Counter())[str(value)] += 1
    return {k: dict(v) for k, v in out.items()}


def bead_plate(marks: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """Columns of up to six beads (``P``, ``B``, ``T``), filled down then across."""
    letters = [_letter(m) for m in marks]
    return [letters[i:i + ROWS] for i in range(0, len(letters), ROWS)]


def big_road(marks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The big road's cells: ``{"col", "row", "winner": "P"|"B", "ties": N}``; ties before the first win are
    kept on a cell of their own (``winner`` ``T``)."""
    cells: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    column_start = -1
    current: str | None = None
    col = row = 0
    for mark in marks:
        letter = _letter(mark)
        if letter == "T":
            if cells:
                cells[-1]["ties"] += 1
            else:
                cells.append({"col": 0, "row": 0, "winner": "T", "ties": 1})
                taken.add((0, 0))
            continue
        if cells and cells[-1]["winner"] == "T":  # ties came first: the first win takes their cell
            cells[-1]["winner"], current, column_start, col, row = letter, letter, 0, 0, 0
            continue
        if letter != current:
            column_start += 1
            while (column_start, 0) in taken:
                column_start += 1
            col, row = column_start, 0
            current = letter
        else:
            below = (col, row + 1)
            if row + 1 < ROWS and below not in taken and col == column_start:
                row += 1
            else:  # the dragon's tail: along the bottom to the right
                col += 1
        taken.add((col, row))
        cells.append({"col": col, "row": row, "winner": letter, "ties": 0})
    return cells


def _letter(mark: Mapping[str, Any]) -> str:
    winner = str(mark.get("winner", ""))
    return {"punto": "P", "banco": "B", "tie": "T"}.get(winner, winner[:1].upper() or "?")
