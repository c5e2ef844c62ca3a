"""The last-results board on the LED sign: a game's board (controller/games/boards.py) as sign pages.

The sign is one line of 8 LEDs in one colour, so the board becomes pages the sign shows after the title
and the limits: ``LAST`` and the newest results (a roulette number in its colour's shape, a throw's dice,
Punto Banco's ``P``/``B``/``T``), then

- roulette: ``HOT`` and ``COLD`` with their numbers;
- Punto Banco: ``P 28 B 26 T 6``, the coups of the board so far;
- Sic Bo: ``BIG 70% SMALL 30%`` (and the triples where there were any); Tärning: ``UNDER 7 45% OVER 7 50%``.

Built from the board's own marks, so the sign, the pit view and the journal always agree.
"""

from __future__ import annotations

from typing import Any, Mapping

RESULTS = 10  # the newest results on the LAST page


def mark_text(kind: str, mark: Mapping[str, Any]) -> tuple[str, str | None]:
    """One mark as the sign's result: its text and colour (None: no colour)."""
    if kind == "numbers":
        colour = mark.get("color")
        return str(mark["number"]), colour if colour in ("red", "black", "green") else None
    if kind == "dice":
        return " ".join(str(v) for v in mark["dice"]), None
    return {"punto": "P", "banco": "B", "tie": "T"}.get(str(mark.get("winner")), "?"), None


def sign_pages(board: Mapping[str, Any]) -> tuple[list[tuple[str, str | None]], list[tuple[str, list[tuple[str, str | None]]]]]:
    """``(results, pages)``: the newest results, newest first, and the board's further pages."""
    kind = board["kind"]
    if kind == "road":
        letters = [mark_text(kind, {"winner": {"P": "punto", "B": "banco", "T": "tie"}[b]})
                   for column in board["bead"] for b in column]
        results = list(reversed(letters))[:RESULTS]
        counts = board.get("counts", {})
        pages = [(f"P {counts.get('punto', 0)} B {counts.get('banco', 0)} T {counts.get('tie', 0)}", [])]
        return results, pages if board.get("rounds") else []
    results = [mark_text(kind, m) for m in board["last"][:RESULTS]]
    pages: list[tuple[str, list[tuple[str, str | None]]]] = []
    rounds = board.get("rounds", 0)
    if not rounds:
        return results, pages
    if kind == "numbers":
        pages.append(("HOT", [mark_text(kind, h) for h in board["hot"]]))
        pages.append(("COLD", [mark_text(kind, c) for c in board["cold"]]))
    tally = board.get("tally", {})

    def share(key: str, value: str) -> int:
        return 100 * tally.get(key, {}).get(value, 0) // rounds

    if "big" in tally:
        words = f"BIG {share('big', 'true')}% SMALL {share('small', 'true')}%"
        if tally.get("triple", {}).get("true"):
            words += f" TRIPLE {share('triple', 'true')}%"
        pages.append((words, []))
    elif "below_above" in tally:
        pages.append((f"UNDER 7 {share('below_above', 'below')}% OVER 7 {share('below_above', 'above')}%", []))
    return results, pages
