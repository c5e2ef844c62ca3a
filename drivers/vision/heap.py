"""Faces in a heap of touching dice that cannot be cut apart: pip marks clustered and checked against layouts.

Used by the dice reader (drivers/vision/dice.py); an image with a heap is
``unsure`` whatever is read here, the values are the croupier's hint.
"""

from __future__ import annotations

import cv2
import numpy as np

from drivers.vision.dice_result import Die
from drivers.vision.pips import SIGNATURES, _signature


def read_heap(image: np.ndarray, box: tuple[int, int, int, int], die: float) -> list[Die]:
    """Faces in a heap of touching dice: pip marks clustered by distance, each cluster checked
    against the die layouts.  Only counts of 3 to 6 (a layout that can be checked) are kept."""
    x, y, w, h = box
    pad = int(0.2 * die)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    roi = image[y0:y + h + pad, x0:x + w + pad]
    if roi.size == 0:
        return []
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    k = max(3, int(0.35 * die) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: list[Die] = []
    for hat in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        resp = cv2.morphologyEx(grey, hat, kernel)
        _, marks = cv2.threshold(resp, 45, 255, cv2.THRESH_BINARY)
        count, _, stats, cents = cv2.connectedComponentsWithStats(marks, connectivity=8)
        pts = []
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
            if 0.008 * die * die <= area <= 0.07 * die * die and max(bw, bh) <= 2.2 * min(bw, bh) \
                    and area >= 0.5 * bw * bh:
                pts.append(cents[i])
        if len(pts) < 3:
            continue
        arr = np.array(pts, dtype=np.float64)
        group = list(range(len(arr)))  # single-linkage clusters at 0.42 die

        def find(a: int) -> int:
            while group[a] != a:
                group[a] = group[group[a]]
                a = group[a]
            return a
        for i in range(len(arr)):
            for j in range(i + 1, len(arr)):
                if np.hypot(*(arr[i] - arr[j])) < 0.42 * die:
                    group[find(i)] = find(j)
        clusters: dict[int, list[int]] = {}
        for i in range(len(arr)):
            clusters.setdefault(find(i), []).append(i)
        for members in clusters.values():
            n = len(members)
            if not 3 <= n <= 6:
                continue
            c = arr[members]
            spread = max(np.hypot(*(c[i] - c[j])) for i in range(n) for j in range(i + 1, n))
            if not 0.45 * die <= spread <= 0.95 * die:
                continue
            err = float(np.max(np.abs(_signature(c) - SIGNATURES[n])))
            if err > 0.12:
                continue
            cx, cy = c.mean(axis=0)
            half = die / 2
            dbox = (int(x0 + cx - half), int(y0 + cy - half), int(die), int(die))
            out.append(Die(n, "other", dbox, True, round(max(0.0, 1 - 3 * err) * 0.8, 3), "read in a heap"))
    return out
