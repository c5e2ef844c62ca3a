"""Exact, faster stand-ins for the numpy reductions the dice reader runs on every die.

Each function returns exactly (bit for bit) what the numpy call it replaces returns on the
integer-valued pixel data the reader gives it; tests/drivers/vision/test_fastmath.py checks
each against numpy on random data.  ``np.median(a, axis=0)`` on an (N, 3) array partitions
along a strided axis and ``np.percentile`` carries a lot of generic machinery; a die patch has
only a few thousand pixels, so that overhead was a large share of the reader's time per die.
Medians of uint8 pixels come from a partition of contiguous channels or from histograms.
``transform3`` routes a colour transform through OpenCV's faster three-channel kernel.
``within_radius``, ``deeper_than`` and ``enlarged_crop`` run a distance transform or an enlargement
only in the box where its result is read (docs/performance.md, "Dice reader speed, fourth pass").
"""

from __future__ import annotations

import math

import cv2
import numpy as np

HISTOGRAM_ROWS = 1024  # median_rows: from this many uint8 pixels on, medians by histogram rather than partition


def median_rows(values: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    """``np.median(values.astype(dtype), axis=0)`` for an (N, C) integer array (uint8 pixels, N >= 1).

    np.median takes the middle element, or the mean of the two middle ones computed in the
    array's own float type; both are exact for small integers, so this is the same value.
    ``dtype`` is the float type of the array numpy would have reduced (float32 for a float32 array,
    float64 for an integer one).  The middle elements come from a partition of each channel, or for
    HISTOGRAM_ROWS or more uint8 pixels of three channels from the channels' histograms (masked_median),
    which is faster there (a die patch's 2,000-pixel centre; docs/performance.md, "Dice reader speed,
    fourth pass").
    """
    n = len(values)
    if n == 0:
        return np.median(values.astype(dtype), axis=0)
    if n >= HISTOGRAM_ROWS and values.dtype == np.uint8 and values.shape[1] == 3:
        return masked_median(values.reshape(n, 1, 3), None, dtype)  # the same order statistics, counted
    cols = np.ascontiguousarray(values.T)
    k = n // 2
    if n % 2:
        return np.partition(cols, k, axis=1)[:, k].astype(dtype)
    part = np.partition(cols, (k - 1, k), axis=1)
    return (part[:, k - 1].astype(dtype) + part[:, k].astype(dtype)) / dtype(2)


def _kth(cumulative: np.ndarray, k: int) -> np.ndarray:
    """The k-th smallest value (0-based) per row, from each row's cumulative histogram over 0..255."""
    return (cumulative <= k).sum(axis=-1)


def masked_median(image: np.ndarray, mask: np.ndarray | None, dtype: type = np.float64) -> np.ndarray:
    """``np.median(image[mask].astype(dtype), axis=0)`` (all pixels when mask is None) for an (h, w, 3) uint8
    image and an (h, w) bool mask.

    From the channels' histograms (cv2.calcHist under the mask): no copy of the selected pixels, no sort.
    """
    m = None if mask is None else np.ascontiguousarray(mask).view(np.uint8)
    cum = np.concatenate([cv2.calcHist([image], [c], m, [256], [0, 256]).ravel() for c in range(3)]).reshape(
        3, 256).cumsum(axis=1)
    n = int(cum[0, -1])
    if n == 0:  # nothing selected: numpy's own answer (nan, with its warning)
        return np.median(image.reshape(-1, 3)[np.zeros(image.shape[0] * image.shape[1], bool)].astype(dtype), axis=0)
    k = n // 2
    if n % 2:
        return _kth(cum, k).astype(dtype)
    return (_kth(cum, k - 1).astype(dtype) + _kth(cum, k).astype(dtype)) / dtype(2)


def _order_index(n: int, q: float) -> tuple[int, float] | None:
    """np.percentile's (linear method) lower index and weight for q percent of n values; None if degenerate."""
    virtual = (n - 1) * (q / 100)
    below = math.floor(virtual)
    gamma = virtual - below
    if gamma != 0.0 and not 1e-6 < gamma < 1 - 1e-6:
        return None  # a rounding residue next to an index: leave it to numpy
    return below, gamma


def percentile_band(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """``(values >= lo) & (values <= hi)`` with ``lo, hi = np.percentile(values, (low, high))``, for a uint8
    array of any shape (one channel).

    np.percentile interpolates between neighbouring order statistics a <= b: exactly a when the
    weight is 0, strictly between them otherwise (or a when a == b).  On integers the comparisons
    only ask which order statistic bounds the band: at ``lo``, b when the weight is not 0; at ``hi``, a.
    The order statistics come from the histogram.
    """
    n = values.size
    lo_i, hi_i = _order_index(n, low), _order_index(n, high)
    if n < 2 or lo_i is None or hi_i is None or hi_i[0] + 1 >= n:
        lo, hi = np.percentile(values.astype(np.float32), (low, high))
        return (values >= lo) & (values <= hi)
    cum = np.cumsum(np.bincount(values.ravel(), minlength=256))
    lo_v = int(_kth(cum, lo_i[0] + (1 if lo_i[1] > 0 else 0)))
    hi_v = int(_kth(cum, hi_i[0]))
    return (values >= lo_v) & (values <= hi_v)


def transform3(src: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``cv2.transform(src, m)`` for a 3-channel ``src`` and a matrix of 1 to 3 rows (3 or 4 columns).

    OpenCV has a fast kernel for three channels in and three out, and a general one, several times
    slower, for any other output count (one or two, as the reader's colour tests have).  The matrix is
    padded with zero rows to three and the extra channels are dropped (a view).  Both kernels give
    the same numbers wherever the results are exact: uint8 pixels with small whole coefficients
    (OpenCV's fixed point holds them exactly), or float32 pixels and coefficients that are whole
    numbers whose products and sums stay below 2**24 in magnitude (Lab of uint8 pixels and
    differences of such colours).  The callers are of these kinds; elsewhere use cv2.transform.
    """
    rows = m.shape[0]
    if rows == 3:
        return cv2.transform(src, m)
    padded = np.zeros((3, m.shape[1]), m.dtype)
    padded[:rows] = m
    out = cv2.transform(src, padded)
    return out[..., 0] if rows == 1 else out[..., :rows]


def _grown_box(mask: np.ndarray, margin: int) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of a uint8 mask's set pixels grown by ``margin`` and clipped to the mask; None
    when nothing is set."""
    x, y, w, h = cv2.boundingRect(mask)
    if not w or not h:
        return None
    rows, cols = mask.shape[:2]
    return max(0, x - margin), max(0, y - margin), min(cols, x + w + margin), min(rows, y + h + margin)


def within_radius(mask: np.ndarray, radius: float) -> np.ndarray:
    """``cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, 5) <= radius`` for a uint8 mask:
    the pixels within ``radius`` of a set pixel, with the distance transform run only in the box of the
    set pixels grown by int(radius) + 1.

    The transform's distances are chamfer sums of the steps 1, 1.4 and 2.1969, which cover at least one
    pixel across or down per unit, so nothing outside that box is within the radius; inside it the
    nearest set pixel and the shortest steps to it lie in the box too.  Computed in float, a distance in
    the box can differ from the whole image's in its last bit (equal sums added in another order), which
    would change the comparison only at a distance equal to the radius: for a whole-number radius that is
    not a multiple of 7 only a straight run of unit steps reaches it, and that sum is exact (the reader's
    radii are 8 and 16; tested against the whole image's transform).
    """
    out = np.zeros(mask.shape[:2], bool)
    box = _grown_box(mask, int(radius) + 1)
    if box is not None:
        x0, y0, x1, y1 = box
        out[y0:y1, x0:x1] = cv2.distanceTransform((mask[y0:y1, x0:x1] == 0).astype(np.uint8), cv2.DIST_L2, 5) \
            <= radius
    return out


def deeper_than(mask: np.ndarray, radius: float) -> np.ndarray:
    """``cv2.distanceTransform(mask, cv2.DIST_L2, 5) > radius`` for a uint8 mask: its set pixels farther than
    ``radius`` from every unset pixel, with the distance transform run only in the box of the set pixels
    grown by one pixel (unset, or the image's border).

    Outside that box every pixel is unset (distance 0).  An unset pixel beyond the box is never nearer
    than the box's edge pixel between them (the chamfer distance grows with each coordinate's
    difference), so the distances in the box are the same sums; what within_radius says of the last bit
    holds here too (tested against the whole image's transform).
    """
    out = np.zeros(mask.shape[:2], bool)
    box = _grown_box(mask, 1)
    if box is not None:
        x0, y0, x1, y1 = box
        out[y0:y1, x0:x1] = cv2.distanceTransform(np.ascontiguousarray(mask[y0:y1, x0:x1]), cv2.DIST_L2, 5) > radius
    return out


def _source_span(lo: int, hi: int, factor: int, n: int) -> tuple[int, int]:
    """The source indices [s0, s1) an INTER_LINEAR enlargement by ``factor`` reads for outputs [lo, hi)."""
    return max(0, math.floor((lo + 0.5) / factor - 0.5)), min(n, math.floor((hi - 1 + 0.5) / factor - 0.5) + 2)


def enlarged_crop(small: np.ndarray, size: tuple[int, int], box: tuple[int, int, int, int]) -> np.ndarray:
    """``cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]`` for ``box`` (x0, y0, x1, y1)
    within ``size`` (w, h), computing only the box where the enlargement is by whole factors.

    Enlarged by a whole factor f, output pixel x reads the source at (x + 0.5) / f - 0.5, with the same
    weights for x and x + f; so a crop of the source that holds every pixel the box reads (the border
    clamps included, where the box reaches the border), enlarged by f, gives the box's pixels, offset
    (OpenCV's fixed-point result of a pixel depends only on its weights and its source pixels; tested).
    """
    w, h = size
    x0, y0, x1, y1 = box
    sh, sw = small.shape[:2]
    if x1 <= x0 or y1 <= y0 or w % sw or h % sh:
        return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    fx, fy = w // sw, h // sh
    s0, s1 = _source_span(x0, x1, fx, sw)
    r0, r1 = _source_span(y0, y1, fy, sh)
    part = cv2.resize(np.ascontiguousarray(small[r0:r1, s0:s1]), ((s1 - s0) * fx, (r1 - r0) * fy),
                      interpolation=cv2.INTER_LINEAR)
    return part[y0 - r0 * fy:y1 - r0 * fy, x0 - s0 * fx:x1 - s0 * fx]
