"""Seven-card ranking compiled with numba: many hands at once, and all 133 784 560 seven-card hands.

The same values as ``fast.high_value`` and ``batch.rank_batch`` (one scale for
the package): each card adds its key (``fast.CARD_KEY``: a suit counter and
base-5 rank digits) and the sum addresses the single-hand path's tables; a
flush looks up the flush suit's rank mask. The tables are the fast path's
(``fast.filled_tables``, cached on disk by ``controller.table_cache``); the
compiled code is kept in numba's cache, so a process compiles it only once
per machine.

``rank7`` ranks an (N, 7) array of card indices; ``all_seven_counts`` walks
every seven-card hand in nested loops, each level adding one card's key to its
prefix's sum, and counts the hands per category. Needs numba (``tablectl[math]``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable

import numpy as np

from controller.hands import fast

SUITS = "cdhs"


@cache
def _arrays() -> tuple[np.ndarray, ...]:
    built = fast.filled_tables()
    keys = np.array([fast.CARD_KEY[SUITS[c & 3]][(c >> 2) + 2] for c in range(52)], dtype=np.int64)
    return (keys,) + tuple(np.array(built[name], dtype=np.int32) for name in ("offset7", "values7", "within", "flush"))


@cache
def _kernels() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    try:
        from controller.hands import kernels
    except ModuleNotFoundError as exc:
        if exc.name != "numba":
            raise
        raise ValueError("the compiled hand ranking needs numba (pip install 'tablectl[math]')") from None
    return kernels.rank7, kernels.all_seven_keys, kernels.flush_value


def rank7(cards: np.ndarray) -> np.ndarray:
    """Values (int32) of an (N, 7) array of distinct card indices 0..51 (``Card.index``); rows are not checked."""
    cards = np.asarray(cards)
    if cards.dtype not in (np.uint8, np.int8, np.int16, np.int32, np.int64):  # small types: less memory to read
        cards = cards.astype(np.int64)
    cards = np.ascontiguousarray(cards)
    if cards.ndim != 2 or cards.shape[1] != 7:
        raise ValueError(f"expected an (N, 7) array of card indices, got shape {cards.shape}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise ValueError("card indices must be 0..51")
    values: np.ndarray = _kernels()[0](cards, *_arrays())
    return values


def all_seven_key_counts(royal: int) -> np.ndarray:
    """As ``all_seven_counts``, with the hands of value ``royal`` (a royal flush) counted apart in place 9."""
    counts: np.ndarray = _kernels()[1](*_arrays(), royal)
    return counts


def all_seven_counts() -> np.ndarray:
    """Hands per category (``values.CATEGORIES`` order) over all 133 784 560 seven-card hands."""
    return all_seven_key_counts(-1)  # no value is -1: the royal flushes stay with the straight flushes


def tables() -> tuple[np.ndarray, ...]:
    """(card keys, offset7, values7, within, flush): the arrays the kernels index, for other compiled kernels."""
    return _arrays()


def flush_kernel() -> Callable[..., Any]:
    """The compiled ``flush_value(t, cards, flush)`` (t: the key sum of the seven ``cards``), for other kernels."""
    return _kernels()[2]


def warm() -> None:
    """Load (or compile) the kernels and their tables now, so that a benchmark times only the ranking."""
    rank7(np.arange(7, dtype=np.int64)[None, :])
