"""Exact, faster stand-ins for the numpy reductions the dice reader runs on every die.

Each function returns exactly (bit for bit) what the numpy call it replaces returns on the
integer-valued pixel data the reader gives it; tests/drivers/vision/test_fastmath.py checks
each against numpy on random data.  ``np.median(a, axis=0)`` on an (N, 3) array partitions
along a strided axis and ``np.percentile`` carries a lot of generic machinery; a die patch has
only a few thousand pixels, so that overhead was a large share of the reader's time per die.
"""

from __future__ import annotations

import math

import numpy as np


def median_rows(values: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    """``np.median(values.astype(dtype), axis=0)`` for an (N, C) integer array (uint8 pixels, N >= 1).

    np.median takes the middle element, or the mean of the two middle ones computed in the
    array's own float type; both are exact for small integers, so this is the same value.
    ``dtype`` is the float type of the array numpy would have reduced (float32 for a float32 array,
    float64 for an integer one).
    """
    n = len(values)
    if n == 0:
        return np.median(values.astype(dtype), axis=0)
    cols = np.ascontiguousarray(values.T)
    k = n // 2
    if n % 2:
        return np.partition(cols, k, axis=1)[:, k].astype(dtype)
    part = np.partition(cols, (k - 1, k), axis=1)
    return (part[:, k - 1].astype(dtype) + part[:, k].astype(dtype)) / dtype(2)


def _order_index(n: int, q: float) -> tuple[int, float] | None:
    """np.percentile's (linear method) lower index and weight for q percent of n values; None if degenerate."""
    virtual = (n - 1) * (q / 100)
    below = math.floor(virtual)
    gamma = virtual - below
    if gamma != 0.0 and not 1e-6 < gamma < 1 - 1e-6:
        return None  # a rounding residue next to an index: leave it to numpy
    return below, gamma


def percentile_band(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """``(values >= lo) & (values <= hi)`` with ``lo, hi = np.percentile(values, (low, high))``, for a 1-d
    integer array (a uint8 channel).

    np.percentile interpolates between neighbouring order statistics a <= b: exactly a when the
    weight is 0, strictly between them otherwise (or a when a == b).  On integers the tests only
    ask which order statistic bounds the band: at ``lo``, b when the weight is not 0; at ``hi``, a.
    """
    n = len(values)
    lo_i, hi_i = _order_index(n, low), _order_index(n, high)
    if n < 2 or lo_i is None or hi_i is None or hi_i[0] + 1 >= n:
        lo, hi = np.percentile(values.astype(np.float32), (low, high))
        return (values >= lo) & (values <= hi)
    lo_at = lo_i[0] + (1 if lo_i[1] > 0 else 0)
    part = np.partition(values, sorted({lo_at, hi_i[0]}))
    return (values >= part[lo_at]) & (values <= part[hi_i[0]])
