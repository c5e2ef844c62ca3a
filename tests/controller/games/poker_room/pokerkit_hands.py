"""The hand histories in PokerKit's own installed tests: real hands, not this project's generator.

PokerKit 0.7.7 ships its tests inside the package (``pokerkit.tests``):
97 hands played at the 2023 World Series of Poker (Event #43, the $50,000
Poker Players Championship, day 5, and Event #54, day 4), written as
PokerKit operations, and the hands of its papers (Dwan-Ivey 2009 and
others) as PHH text. This module runs those test cases once with
``HandHistory.from_game_state`` and ``HandHistory.loads`` watched, and
keeps the PHH text of each hand (the first one a test makes). Nothing is
downloaded; without the installed tests the list is empty and the tests
that use it say so.
"""

from __future__ import annotations

import importlib
import unittest
from functools import lru_cache
from typing import Any

from pokerkit import HandHistory

MODULES = (
    "pokerkit.tests.test_wsop.test_2023_43_5",
    "pokerkit.tests.test_wsop.test_2023_54_4",
    "pokerkit.tests.test_papers",
)


def _tests(suite: Any) -> list[unittest.TestCase]:
    out: list[unittest.TestCase] = []
    for item in suite:
        out += _tests(item) if isinstance(item, unittest.TestSuite) else [item]
    return out


@lru_cache(maxsize=1)
def pokerkit_test_hands() -> tuple[tuple[str, str], ...]:
    """``(test id, PHH text)`` of every hand in PokerKit's installed tests."""
    seen: list[str] = []
    from_state, loads = HandHistory.from_game_state.__func__, HandHistory.loads.__func__  # type: ignore[attr-defined]

    def watch_state(cls: type, game: Any, state: Any, **fields: Any) -> Any:
        history = from_state(cls, game, state, **fields)
        seen.append(history.dumps())
        return history

    def watch_loads(cls: type, text: str, **fields: Any) -> Any:
        seen.append(text)
        return loads(cls, text, **fields)

    out: list[tuple[str, str]] = []
    HandHistory.from_game_state = classmethod(watch_state)  # type: ignore[method-assign, assignment]
    HandHistory.loads = classmethod(watch_loads)  # type: ignore[method-assign, assignment]
    try:
        for name in MODULES:
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            for test in _tests(unittest.defaultTestLoader.loadTestsFromModule(module)):
                seen.clear()
                test.run(unittest.TestResult())
                if seen:
                    out.append((test.id().removeprefix("pokerkit.tests."), seen[0]))
    finally:
        HandHistory.from_game_state = classmethod(from_state)  # type: ignore[method-assign, assignment]
        HandHistory.loads = classmethod(loads)  # type: ignore[method-assign, assignment]
    return tuple(out)
