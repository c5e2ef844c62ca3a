"""What the house-edge simulations share: numpy rows of shuffled decks, the loop over chunks of rounds, a mean's
95 % interval."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import numpy as np


def deal(rng: np.random.Generator, rounds: int, cards: int, dealt: int) -> np.ndarray:
    """``rounds`` rows of the first ``dealt`` cards of a shuffled deck of card indices ``0 .. cards - 1``: each
    row a uniformly random ordered draw without replacement (the ``dealt`` smallest of uniform keys, in order)."""
    keys = rng.random((rounds, cards))
    top = np.argpartition(keys, dealt, axis=1)[:, :dealt] if dealt < cards else np.tile(np.arange(cards), (rounds, 1))
    order = np.argsort(np.take_along_axis(keys, top, axis=1), axis=1)
    return np.take_along_axis(top, order, axis=1).astype(np.int16)


def interval(total: float, squares: float, rounds: int, unit: float = 1.0) -> dict[str, Any]:
    """The house edge of a bet whose ``rounds`` nets (in ``unit`` per round staked) sum to ``total`` and their
    squares to ``squares``, with its 95 % interval (the player's mean, negated, in percent)."""
    mean = total / rounds / unit
    var = max(0.0, squares / rounds / unit ** 2 - mean * mean)
    half = 1.96 * math.sqrt(var / rounds)
    return {"house_edge_percent": -100 * mean, "ci95_percent": [-100 * (mean + half), -100 * (mean - half)]}


def run_chunks(rounds: int, chunk: int, settle: Callable[[int, int], Mapping[str, np.ndarray]],
               progress: Callable[[int], Any] | None = None) -> dict[str, tuple[float, float]]:
    """The simulations' one loop: ``settle(n, done)`` for chunks of at most ``chunk`` rounds until ``rounds`` are
    done (``done`` the rounds before the chunk), each returning arrays by name (a net per round, a count); per
    name the sum of its values and the sum of their squares, for ``interval``."""
    sums: dict[str, list[float]] = {}
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        for name, values in settle(n, done).items():
            total = sums.setdefault(name, [0.0, 0.0])
            total[0] += float(values.sum())
            total[1] += float((values * values).sum())
        done += n
        if progress is not None:
            progress(done)
    return {name: (total, squares) for name, (total, squares) in sums.items()}
