"""Helpers for comparing our rankings with the reference libraries (test-only)."""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from controller.cards import Card, deck


def random_hands(n: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    """``n`` hands of ``size`` distinct cards from a seeded generator."""
    rng = random.Random(seed)
    cards = deck()
    return [tuple(rng.sample(cards, size)) for _ in range(n)]


def assert_same_order(ours: Sequence[int], theirs: Sequence[Any],
                      better: Callable[[Any, Any], bool],
                      label: Callable[[int], str]) -> None:
    """Sorted by our value, every neighbouring pair compares the same way in theirs.

    ``better(x, y)`` says theirs ranks x above y. Checking neighbours of the
    sorted order is enough for two total preorders to agree, ties included.
    """
    order = sorted(range(len(ours)), key=lambda i: ours[i])
    for i, j in zip(order, order[1:]):
        if ours[i] == ours[j]:
            assert not better(theirs[i], theirs[j]) and not better(theirs[j], theirs[i]), \
                f"we tie, they do not: {label(i)} / {label(j)}"
        else:
            assert better(theirs[j], theirs[i]), f"we rank {label(j)} above {label(i)}, they do not"
