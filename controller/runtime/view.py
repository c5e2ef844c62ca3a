"""The one view of the table: what every output shows, computed from committed state only.

``table_view(table)`` is the desired state of each output, in one mapping,
and every output renders its own part of it: the LED sign and the jackpot
display (controller/runtime/device_outputs.py) and their text stand-ins
(controller/runtime/outputs.py) the same state.

- ``sign``: ``content`` (a ``drivers.displays.sign.SignContent``: the game's
  name, minimum and maximum per spot, the results board) and ``lines`` (the
  same table as text lines: name and variant, limits, the last outcome, the
  latched faults);
- ``tower``: ``pattern`` (a pattern of drivers/gpio/tower.py, from the fault
  table, controller/runtime/faults.py, and the round) and the lamps it lights
  (``green``, ``amber``, ``red``: ``on``, ``flash`` or ``off``; ``buzzer``
  ``on`` or ``off``);
- ``jackpot_display``: the first meter (``meter``, ``amount``, ``state``:
  ``ok``, ``pending`` while a hit waits, ``untrusted`` when it is stopped or
  the journal cannot commit) and the text of every meter (``meters``).

Money is formatted by controller/money.py; how an outcome is marked on the
results board is the game's declaration (``GameSpec.result_mark``).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Mapping

from controller.language import ENGLISH, Language, language
from controller.money import format_amount
from controller.runtime.faults import tower_pattern
from controller.runtime.table_words import outcome_short

MAX_RESULTS = 10
"""Outcomes the results board keeps (the newest first)."""
BOARD_MARKS = 100
"""Outcomes the sign's last-results board counts (hot and cold numbers, the road's counts)."""


class ResultsBoard:
    """The last outcomes as the sign shows them, newest first, as each game marks them."""

    def __init__(self) -> None:
        self.marks: deque[tuple[str, str | None]] = deque(maxlen=MAX_RESULTS)
        self.board: deque[Mapping[str, Any]] = deque(maxlen=BOARD_MARKS)  # the game's board marks (GameSpec.board)
        self.version = 0  # counts the outcomes marked: the pages are laid out again only after a new one
        self._pages: tuple[tuple[Any, ...], list[tuple[str, list[tuple[str, str | None]]]]] | None = None

    def add(self, spec: Any, records: Iterable[Any]) -> None:
        """Mark the outcomes of committed records (``event`` records whose effects carry one)."""
        board = getattr(spec, "board", None)
        for record in records:
            if record.kind != "event":
                continue
            for effect in record.body.get("effects", ()):
                if "outcome" in effect and isinstance(effect["outcome"], Mapping):
                    mark = spec.mark(effect["outcome"])
                    if mark is not None:
                        self.marks.appendleft(mark)
                        self.version += 1
                    marked = board.mark(effect["outcome"]) if board is not None else None
                    if marked is not None:
                        self.board.append(marked)
                        self.version += 1

    def recover(self, spec: Any, journal: Any) -> None:
        """After a restart the board shows the last results again: read from the journal's last outcomes."""
        self.add(spec, journal.recent_outcomes(BOARD_MARKS))

    def pages(self, spec: Any, config: Any, lang: Language = ENGLISH) -> list[tuple[str, list[tuple[str, str | None]]]]:
        """The sign's pages of the game's last-results board (hot and cold, the coups' counts, ...); laid out once
        per new outcome (every commit asks for the view, and most commits mark none)."""
        board = getattr(spec, "board", None)
        if board is None or not self.board:
            return []
        key = (self.version, board, config, lang.code)
        if self._pages is not None:
            (version, was_board, was_config, code), pages = self._pages
            if version == self.version and was_board is board and was_config is config and code == lang.code:
                return pages
        from controller.games.boards import build
        from controller.runtime.sign_board import sign_pages

        pages = sign_pages(build(board, config, list(self.board)), lang)
        self._pages = (key, pages)
        return pages


def tower_lamps(pattern: str) -> dict[str, str]:
    """The lamps a tower pattern lights: ``on`` (steady), ``flash`` (blinking) or ``off``; the buzzer on or off."""
    from drivers.gpio.tower import PATTERNS, STEADY

    p = PATTERNS[pattern]
    lamps = {lamp: "off" if wave is None else "on" if wave == STEADY else "flash"
             for lamp, wave in (("green", p.green), ("amber", p.amber), ("red", p.red))}
    lamps["buzzer"] = "off" if p.buzzer is None else "on"
    return lamps


def sign_content(table: Any, board: ResultsBoard) -> Any:
    """The LED sign's content: the game's name, the limits with a maximum, the results board."""
    from drivers.displays.sign import ResultMark, SignContent, SpotLimit

    config = table.config
    lang = language(getattr(config, "language", "en"))
    limits = []
    for spot, pair in (config.round_config.get("limits", {}) or {}).items():
        low, high = pair
        if high is not None:
            limits.append(SpotLimit(lang.spot(spot).replace("_", " ").upper(), int(low), int(high)))
    return SignContent(title=lang.word(config.spec.name), limits=tuple(limits),
                       results=tuple(ResultMark(t, c) for t, c in board.marks),
                       results_label=lang.t("LAST") if board.marks else "", currency=config.currency,
                       minor_per_major=config.minor_unit, decimal=lang.money_format.decimal,
                       boards=tuple((label, tuple(ResultMark(t, c) for t, c in marks))
                                    for label, marks in board.pages(config.spec, config.round_config, lang)))


def sign_lines(table: Any) -> list[str]:
    """The sign as text lines: name and variant, limits, the last outcome, and that the table waits while a
    fault is latched (the players never see the fault's internal name; the console and the terminal do)."""
    config, minor = table.config, table.config.minor_unit
    lang = language(getattr(config, "language", "en"))
    lines = [f"{lang.word(config.spec.name)} {config.round_config.variant.upper()}"]
    for spot, (low, high) in (config.round_config.get("limits", {}) or {}).items():
        top = lang.money(high, minor, whole=True, grouped=False) if high is not None else "..."
        lines.append(f"{lang.spot(spot).upper()} {lang.money(low, minor, whole=True, grouped=False)}-{top} "
                     f"{config.currency}")
    if table.last_outcome:
        lines.append(lang.t("LAST") + " " + outcome_short(table.last_outcome, lang))
    if table.faults:
        lines.append(lang.t("PLEASE WAIT: the table is paused"))
    return lines


def jackpot(table: Any) -> dict[str, Any]:
    """The jackpot display: the first meter's amount and state, and every meter's text."""
    minor = table.config.minor_unit
    meters = {n: (v if isinstance(v, str) else format_amount(v, minor, whole=True))
              for n, v in table.meters.display().items()}
    states = table.meters.states
    if not states:
        return {"meter": None, "amount": 0, "state": "untrusted", "meters": meters}
    name, meter = next(iter(states.items()))
    if meter.pending:
        state = "pending"
    elif meter.stopped or table.journal.broken is not None:
        state = "untrusted"
    else:
        state = "ok"
    return {"meter": name, "amount": int(meter.value), "state": state, "meters": meters}


def table_view(table: Any, board: ResultsBoard) -> dict[str, dict[str, Any]]:
    """Every output's desired state (see the module's docstring)."""
    pattern = tower_pattern(table)
    return {
        "sign": {"content": sign_content(table, board), "lines": sign_lines(table)},
        "tower": {"pattern": pattern, **tower_lamps(pattern)},
        "jackpot_display": jackpot(table),
    }
