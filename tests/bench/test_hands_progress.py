"""The benchmark's walk over all seven-card hands says how far it is, on a terminal, and is quiet with --quiet."""

from __future__ import annotations

import importlib.util
import io
import sys
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest

from tests.tablectl import ROOT


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _bench_hands() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_hands", ROOT / "bench" / "hands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("quiet", [False, True])
def test_the_seven_card_walk_shows_its_progress_unless_quiet(monkeypatch: pytest.MonkeyPatch, quiet: bool) -> None:
    hands = _bench_hands()
    rows = np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 7]], dtype=np.int8)

    def two_chunks(k: int) -> Iterator[np.ndarray]:  # the walk's shape, two hands a chunk, not its length
        assert k == 7
        yield rows
        yield rows

    monkeypatch.setattr(hands.batch, "all_hands", two_chunks)
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    report = hands.all_seven(quiet=quiet)
    assert report["hands"] == 4
    if quiet:
        assert stream.getvalue() == ""
    else:
        assert "\rall seven-card hands:   0 % (2 of 133,784,560 hands)" in stream.getvalue()
        assert stream.getvalue().endswith("\n")
