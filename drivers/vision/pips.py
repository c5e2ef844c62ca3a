"""Reading one die's top face: find the pips, check their layout, say how sure.

A die patch is rectified to a square first (from the die's minimum-area
rectangle), so pip geometry is judged in die units.  The pip count is trusted
only when the pips are alike in size, round, and lie in the one layout a real
die face has for that count; anything else is a refusal with a reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Sequence

import cv2
import numpy as np

from drivers.vision.fastmath import median_rows

PATCH = 64  # side of the rectified die patch, pixels
_SIDE_KERNEL = np.ones((4, 4), np.uint8)  # tilt_evidence: a side face is a strip at least this wide

# Pip layouts in grid units (-1, 0, 1): the faces of a standard die.
LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


_PAIRS = {n: np.triu_indices(n, 1) for n in range(2, 7)}  # (i, j), i < j, in the order of two nested loops


def _pair_distances(points: np.ndarray) -> list[float]:
    """The distance of every pair of points (n x 2, n <= 6), pairs (i, j) with i < j in loop order.

    One np.hypot over all pairs: elementwise it is the same C hypot as one call per pair (tested).
    """
    i, j = _PAIRS[len(points)] if len(points) in _PAIRS else np.triu_indices(len(points), 1)
    d = points[i] - points[j]
    return np.hypot(d[:, 0], d[:, 1]).tolist()


def _signature(points: np.ndarray, distances: list[float] | None = None) -> np.ndarray:
    """Sorted pairwise distances over the largest one: rotation- and scale-free.  ``distances``: the
    points' _pair_distances, when the caller has them."""
    d = list(_pair_distances(points) if distances is None else distances)
    d.sort()
    top = d[-1] if d and d[-1] > 0 else 1.0
    return np.array(d) / top


SIGNATURES = {n: _signature(np.array(p, dtype=float)) for n, p in LAYOUTS.items() if n >= 3}


@dataclass(frozen=True)
class FaceReading:
    """What the pips of one face say."""

    value: int | None
    confidence: float
    reason: str
    spread: float  # largest pip distance over the patch side (0 for one pip)
    anisotropy: float  # ratio of the pip cloud's principal spreads / of a lone pip's axes (1 = round)
    side_share: float = 0.0  # share of the patch that looks like a shaded side face of this die
    top_squeeze: float = 1.0  # short over long side of the top face (cos of the tilt)
    side_marks: int = 0  # squeezed pip marks beside the top face: pips of a side face in view
    pip_area: float = 0.0  # the largest pip's area over the patch area (merged pips are large)
    retried: bool = False  # read only after dropping marks taken for a side face's pips


def rectify(image: np.ndarray, rect: tuple, grow: float = 1.0) -> np.ndarray:
    """The die's minimum-area rectangle warped to a PATCH x PATCH square."""
    (cx, cy), (w, h), angle = rect
    side = max(w, h) * grow
    box = cv2.boxPoints(((cx, cy), (side, side), angle)).astype(np.float32)
    dst = np.array([[0, PATCH - 1], [0, 0], [PATCH - 1, 0], [PATCH - 1, PATCH - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(box, dst)
    return cv2.warpPerspective(image, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def find_pips(patch: np.ndarray, region: tuple[float, float] = (1.0, 1.0),
              felt_lab: np.ndarray | None = None, lab: np.ndarray | None = None,
              contrast: bool = True) -> tuple[list[tuple[float, float, float, float]], float]:
    """Pip candidates in a rectified patch: (x, y, area, axis ratio) each, and the contrast.

    Pips differ from the die body in lightness or colour; the body is the
    median of the patch centre ring.  Components touching the patch border are
    the die's edge or the felt, never a pip.  ``lab``: the patch already in Lab (uint8), to
    convert it once per die; ``contrast=False`` skips the contrast (0.0), which the reader
    does not use.
    """
    lab_u8 = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB) if lab is None else lab
    body = median_rows(lab_u8[8:-8, 8:-8].reshape(-1, 3), np.float32)
    # Per channel (contiguous), the same float32 operations as on the whole Lab array.
    d_l, d_a, d_b = (c.astype(np.float32) - body[i] for i, c in enumerate(cv2.split(lab_u8)))
    dist = np.sqrt(d_l ** 2 + 1.5 * (d_a ** 2 + d_b ** 2))
    dist8 = np.minimum(dist, 255).astype(np.uint8)  # (a square root is never below 0)
    # The die's own pixels: its rectangle within the square patch (felt outside it would set the level).
    rw, rh = int(PATCH * region[0] / 2) - 6, int(PATCH * region[1] / 2) - 6
    c0 = PATCH // 2
    own = dist8[max(0, c0 - rh):c0 + rh, max(0, c0 - rw):c0 + rw]
    sample = own.reshape(-1) if own.size > 100 else dist8[6:-6, 6:-6].reshape(-1)
    otsu, _ = cv2.threshold(sample.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(float(otsu), 28.0)
    mask = (dist8 > level).astype(np.uint8)
    mask[:4, :] = 0
    mask[-4:, :] = 0
    mask[:, :4] = 0
    mask[:, -4:] = 0
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    kept = []
    rows = stats.tolist()  # Python ints: the same tests, without numpy scalars
    for i in range(1, count):
        x, y, w, h, area = rows[i]
        if area < 6 or area > PATCH * PATCH * 0.12:
            continue
        if x <= 4 or y <= 4 or x + w >= PATCH - 4 or y + h >= PATCH - 4:
            continue
        if area / float(w * h) < 0.45:
            continue  # not filled enough for a pip (checked before the costlier axis ratio)
        kept.append(i)
    boxes = [rows[i] for i in kept]
    ratios = _axis_ratios([np.nonzero(labels[y:y + h, x:x + w] == i) for i, (x, y, w, h, _) in zip(kept, boxes)])
    centres = cents.tolist()
    pips = [(centres[i][0], centres[i][1], float(rows[i][4]), r) for i, r in zip(kept, ratios)]
    if not contrast:
        return pips, 0.0
    return pips, float(np.median(dist[mask > 0])) - level if mask.any() else 0.0


def _axis_ratios(components: Sequence[tuple[np.ndarray, ...]]) -> list[float]:
    """Short over long principal spread of each component's pixels ((ys, xs); 1.0 below 3 pixels).

    The covariance is np.cov's own arithmetic (the mean as np.mean computes it, the sum over the count;
    centre, dot, scale), without its generic checks, and the eigenvalues of all components come from
    one np.linalg.eigvalsh call (the same LAPACK routine per matrix as one call each): the same
    numbers as np.cov and eigvalsh per pip.
    """
    covs = []
    for ys, xs in components:
        if len(xs) >= 3:
            m = np.array([xs, ys], dtype=np.float64)
            m -= (m.sum(axis=1) / len(xs))[:, None]
            c = np.dot(m, m.T.conj())
            c *= np.true_divide(1, len(xs) - 1)
            covs.append(c)
    evs: Iterator[np.ndarray] = iter(np.linalg.eigvalsh(np.stack(covs)) if covs else ())
    out = []
    for ys, xs in components:
        if len(xs) < 3:
            out.append(1.0)
        else:
            ev = next(evs)
            out.append(math.sqrt(max(ev[0], 1e-6) / max(ev[1], 1e-6)))
    return out


def tilt_evidence(patch: np.ndarray, felt_lab: np.ndarray | None = None, lab: np.ndarray | None = None,
                  hsv: np.ndarray | None = None) -> tuple[float, float]:
    """(share of shaded-side pixels, top face squeeze) of a rectified die patch.

    A cocked die shows a strip of one side face: the body's hue, darker.  Its
    top face is squeezed by the cosine of the tilt.  ``lab``/``hsv``: the patch already
    converted (uint8), to convert it once per die.
    """
    hsv_u8 = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV) if hsv is None else hsv
    centre = hsv_u8[PATCH // 2 - 8:PATCH // 2 + 8, PATCH // 2 - 8:PATCH // 2 + 8].reshape(-1, 3)
    bh, bs, bv = (float(x) for x in median_rows(centre))
    # The uint8 channels against Python floats compute in float64, as the int32 ones did.
    h, s, v = cv2.split(hsv_u8)
    if bs >= 60:
        dh = np.abs(h - bh)
        dh = np.minimum(dh, 180 - dh)
        same = (dh < 12) & (s > 0.5 * bs)
    else:
        same = s < 60
    side = same & (v > 0.35 * bv) & (v < 0.72 * bv)
    if felt_lab is not None:
        # Per channel (cv2.split: contiguous), the float32 Lab less the felt and squared, as numpy computes the
        # whole array's difference; the three squares summed in numpy's order for a 3-long axis.
        felt = np.asarray(felt_lab)
        d0, d1, d2 = (c.astype(np.float32) - felt[i] for i, c in
                      enumerate(cv2.split(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB) if lab is None else lab)))
        d0 *= d0
        d1 *= d1
        d2 *= d2
        side &= np.sqrt(d0 + d1 + d2) > 22
    # A side face is a strip several pixels wide; blur leaves a ring one or two pixels wide.
    side = cv2.morphologyEx(side.astype(np.uint8), cv2.MORPH_OPEN, _SIDE_KERNEL) > 0
    squeeze = 1.0  # (the top face's squeeze proved too noisy to use; kept in the record as 1)
    return np.count_nonzero(side) / side.size, float(squeeze)  # side.mean(): the count over the size


def read_face(patch: np.ndarray, felt_lab: np.ndarray | None = None,
              region: tuple[float, float] = (1.0, 1.0), lab: np.ndarray | None = None,
              hsv: np.ndarray | None = None) -> FaceReading:
    """The value shown by a rectified die patch, with the tilt evidence, or a refusal with a reason.

    ``region`` is the die rectangle's share of the patch side (width, height); ``felt_lab`` the
    felt colour around the die, so that felt in the patch corners does not set the pip level.
    ``lab``/``hsv``: the patch already in Lab/HSV (uint8), when the caller has converted it.
    """
    base = _read_face(patch, region, felt_lab, lab)
    side_share, squeeze = tilt_evidence(patch, felt_lab, lab, hsv)
    return FaceReading(base.value, base.confidence, base.reason, base.spread, base.anisotropy, side_share, squeeze,
                       base.side_marks, base.pip_area, base.retried)


def _read_face(patch: np.ndarray, region: tuple[float, float] = (1.0, 1.0),
               felt_lab: np.ndarray | None = None, lab: np.ndarray | None = None) -> FaceReading:
    pips, _ = find_pips(patch, region, felt_lab, lab, contrast=False)
    if not pips:
        return FaceReading(None, 0.0, "no pips found", 0.0, 1.0)
    # Drop specks far smaller than the typical pip (texture, glare edge).
    typical = _median_of([p[2] for p in pips])
    pips = [p for p in pips if p[2] >= 0.3 * typical]
    first = _judge(pips)
    if first.value is not None or len(pips) < 3:
        return first
    # Side faces show as squeezed, smaller pips: retry with the round, full-sized ones only.
    biggest = max(p[2] for p in pips)
    top = [p for p in pips if p[3] >= 0.6 and p[2] >= 0.45 * biggest]
    if 0 < len(top) < len(pips):
        second = _judge(top)
        if second.value is not None:
            # Side-face pips lie beyond the top face's pips, not among them (merged blurred pips do).
            tx = sum(p[0] for p in top) / len(top)
            ty = sum(p[1] for p in top) / len(top)
            squeezed = sum(1 for p in pips if p not in top and p[3] < 0.6
                           and math.hypot(p[0] - tx, p[1] - ty) > 0.33 * PATCH)
            return FaceReading(second.value, round(second.confidence * 0.9, 3), "", second.spread,
                               second.anisotropy, side_marks=squeezed, pip_area=second.pip_area, retried=True)
    return first


def _median_of(values: list[float]) -> float:
    """np.median of a short list of floats: the middle one, or the two middle ones' sum halved."""
    v = sorted(values)
    k = len(v) // 2
    return v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2


def _judge(pips: list[tuple[float, float, float, float]]) -> FaceReading:
    """The value of a set of pip marks, or a refusal: count, sizes, spread and layout must agree."""
    n = len(pips)
    if n > 6:
        return FaceReading(None, 0.0, f"{n} pip-like marks: more than a die face has", 0.0, 1.0)
    areas = np.array([p[2] for p in pips])
    pts = np.array([[p[0], p[1]] for p in pips])
    roundness = min(p[3] for p in pips)
    if n == 1:
        x, y, area, ratio = pips[0]
        off = math.hypot(x - PATCH / 2, y - PATCH / 2) / PATCH
        if off > 0.22:
            return FaceReading(None, 0.2, "a single mark away from the face centre", 0.0, ratio)
        if area < 0.015 * PATCH * PATCH:
            return FaceReading(None, 0.2, "a single small mark, not a clear one", 0.0, ratio)
        conf = 0.9 if ratio > 0.7 else 0.6
        return FaceReading(1, conf, "", 0.0, ratio, pip_area=area / (PATCH * PATCH))
    if areas.max() > 3.0 * areas.min():
        return FaceReading(None, 0.2, "pips of very different sizes", 0.0, roundness)
    d = _pair_distances(pts)
    spread = max(d) / PATCH
    if spread < 0.3 or spread > 0.95:
        return FaceReading(None, 0.2, f"{n} marks spread unlike a die face", spread, roundness)
    centre = pts.mean(axis=0)
    if math.hypot(*(centre - PATCH / 2)) / PATCH > 0.2:
        return FaceReading(None, 0.2, f"{n} marks off the face centre", spread, roundness)
    # Principal spread of the pip cloud: a flat face's layouts are square or a diagonal.
    if n == 2:
        err = 0.0
    else:
        err = float(np.max(np.abs(_signature(pts, d) - SIGNATURES[n])))
    if err > 0.16:
        return FaceReading(None, 0.2, f"{n} marks not in a die's layout", spread, roundness)
    conf = max(0.0, 1.0 - err * 3.0) * (0.95 if roundness > 0.6 else 0.7)
    if n == 2:
        conf = 0.85 if roundness > 0.6 else 0.6
    return FaceReading(n, round(conf, 3), "", spread, roundness, pip_area=float(areas.max()) / (PATCH * PATCH))
