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

LOW_SHIFT, HIGH_SHIFT = 16, 33
LOW_MASK = (1 << (HIGH_SHIFT - LOW_SHIFT)) - 1
SUITS = "cdhs"


@cache
def _arrays() -> tuple[np.ndarray, ...]:
    built = fast.filled_tables()
    keys = np.array([fast.CARD_KEY[SUITS[c & 3]][(c >> 2) + 2] for c in range(52)], dtype=np.int64)
    return (keys,) + tuple(np.array(built[name], dtype=np.int32) for name in ("offset7", "values7", "within", "flush"))


@cache
def _kernels() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    try:
        import numba
    except ModuleNotFoundError:
        raise ValueError("the compiled hand ranking needs numba (pip install 'tablectl[math]')") from None

    @numba.njit(cache=True, nogil=True)
    def flush_value(t: int, cards: np.ndarray, fl: np.ndarray) -> int:
        """The flush suit's rank mask looked up (called for the 3 % of hands with five cards of a suit)."""
        bits = t & 0x8888
        suit = 3 if bits & 0x8000 else 2 if bits & 0x800 else 1 if bits & 0x80 else 0
        mask = 0
        for i in range(7):
            if cards[i] & 3 == suit:
                mask |= 1 << ((cards[i] >> 2) + 2)
        return int(fl[mask])

    @numba.njit(cache=True, nogil=True)
    def rank7(cards: np.ndarray, keys: np.ndarray, o7: np.ndarray, v7: np.ndarray, w: np.ndarray,
              fl: np.ndarray) -> np.ndarray:
        out = np.empty(cards.shape[0], dtype=np.int32)
        for i in range(cards.shape[0]):
            t = (0x3333 + keys[cards[i, 0]] + keys[cards[i, 1]] + keys[cards[i, 2]] + keys[cards[i, 3]]
                 + keys[cards[i, 4]] + keys[cards[i, 5]] + keys[cards[i, 6]])
            if t & 0x8888 == 0:
                out[i] = v7[o7[(t >> 16) & 0x1FFFF] + w[t >> 33]]
            else:
                out[i] = flush_value(t, cards[i], fl)
        return out

    @numba.njit(cache=True, nogil=True)
    def all_seven(keys: np.ndarray, o7: np.ndarray, v7: np.ndarray, w: np.ndarray, fl: np.ndarray) -> np.ndarray:
        counts = np.zeros(10, dtype=np.int64)
        cards = np.zeros(7, dtype=np.int64)
        for a in range(46):
            ka = 0x3333 + keys[a]
            for b in range(a + 1, 47):
                kb = ka + keys[b]
                for c in range(b + 1, 48):
                    kc = kb + keys[c]
                    for d in range(c + 1, 49):
                        kd = kc + keys[d]
                        for e in range(d + 1, 50):
                            ke = kd + keys[e]
                            for f in range(e + 1, 51):
                                kf = ke + keys[f]
                                for g in range(f + 1, 52):
                                    t = kf + keys[g]
                                    if t & 0x8888 == 0:
                                        counts[v7[o7[(t >> 16) & 0x1FFFF] + w[t >> 33]] >> 20] += 1
                                    else:
                                        cards[0], cards[1], cards[2], cards[3] = a, b, c, d
                                        cards[4], cards[5], cards[6] = e, f, g
                                        counts[flush_value(t, cards, fl) >> 20] += 1
        return counts

    return rank7, all_seven, flush_value


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


def all_seven_counts() -> np.ndarray:
    """Hands per category (``values.CATEGORIES`` order) over all 133 784 560 seven-card hands."""
    counts: np.ndarray = _kernels()[1](*_arrays())
    return counts


def tables() -> tuple[np.ndarray, ...]:
    """(card keys, offset7, values7, within, flush): the arrays the kernels index, for other compiled kernels."""
    return _arrays()


def flush_kernel() -> Callable[..., Any]:
    """The compiled ``flush_value(t, cards, flush)`` (t: the key sum of the seven ``cards``), for other kernels."""
    return _kernels()[2]


def warm() -> None:
    """Load (or compile) the kernels and their tables now, so that a benchmark times only the ranking."""
    rank7(np.arange(7, dtype=np.int64)[None, :])
