"""bench/vision.py --jobs: the figures do not depend on how many processes read the scenes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_vision", ROOT / "bench" / "vision.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # the worker processes find the scene functions by module name
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_dice_figures_identical_with_one_and_two_jobs(bench) -> None:
    # Seeds where the answers differ in kind: a misread half of touching dice, a cocked die, ok throws.
    assert bench.bench_dice(10, 300566, jobs=1) == bench.bench_dice(10, 300566, jobs=2)


def test_spin_figures_identical_with_one_and_two_jobs(bench) -> None:
    assert bench.bench_spins(3, 400000, jobs=1) == bench.bench_spins(3, 400000, jobs=2)
