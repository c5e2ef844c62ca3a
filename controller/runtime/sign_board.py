"""The last-results board on the LED sign: a game's board (controller/games/boards.py) as sign pages.

The sign is one line of 8 LEDs in one colour, so the board becomes pages the sign shows after the title,
the limits and ``LAST`` with the newest results (each game's ``GameSpec.result_mark``):

- roulette: ``HOT`` and ``COLD`` with their numbers;
- Punto Banco: ``P 28 B 26 T 6``, the coups of the board so far;
- Sic Bo: ``BIG 70% SMALL 30%`` (and the triples where there were any); Tärning: ``UNDER 7 45% OVER 7 50%``.

Built from the board's own marks, so the sign, the pit view and the journal always agree. The words are
the table's language (``HETA``/``KALLA``, ``ÖVER 7`` on a Swedish table; docs/languages.md); Sic Bo's
``BIG``/``SMALL`` are the spots' own names, which the seeds keep in English.
"""

from __future__ import annotations

from typing import Any, Mapping

from controller.language import ENGLISH, Language

def mark_text(kind: str, mark: Mapping[str, Any]) -> tuple[str, str | None]:
    """A number of the board as the sign draws it: its text and colour (None: no colour)."""
    colour = mark.get("color")
    return str(mark["number"]), colour if colour in ("red", "black", "green") else None


def sign_pages(board: Mapping[str, Any], lang: Language = ENGLISH) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """The board's pages after the last results: a label and its marks (none for a page of words)."""
    t = lang.t
    kind = board["kind"]
    rounds = board.get("rounds", 0)
    if not rounds:
        return []
    if kind == "road":
        counts = board.get("counts", {})
        return [(f"P {counts.get('punto', 0)} B {counts.get('banco', 0)} T {counts.get('tie', 0)}", [])]
    pages: list[tuple[str, list[tuple[str, str | None]]]] = []
    if kind == "numbers":
        pages.append((t("HOT"), [mark_text(kind, h) for h in board["hot"]]))
        pages.append((t("COLD"), [mark_text(kind, c) for c in board["cold"]]))
    tally = board.get("tally", {})

    def share(key: str, value: str) -> int:
        return 100 * tally.get(key, {}).get(value, 0) // rounds

    if "big" in tally:
        words = t("BIG {big}% SMALL {small}%", big=share("big", "true"), small=share("small", "true"))
        if tally.get("triple", {}).get("true"):
            words += " " + t("TRIPLE {share}%", share=share("triple", "true"))
        pages.append((words, []))
    elif "below_above" in tally:
        pages.append((t("UNDER 7 {below}% OVER 7 {above}%", below=share("below_above", "below"),
                        above=share("below_above", "above")), []))
    return pages
