"""A die's size measured by colour: its top face and its whole footprint, and how its side shows on the felt.

The calibrated dice reader compares these with the flat die of the same
colour stored in the calibration (docs/devices/vision.md, the per-colour
size checks); ``DiceReader.measure_die_sizes`` measures a calibration frame
the same way, so calibration and reading agree.
"""

from __future__ import annotations

import cv2
import numpy as np

from drivers.vision.fastmath import masked_median, percentile_band, transform3

SIDE_SHADE = 0.6  # a side face seen from above at a grazing light: this share of the top face's brightness


def _rect_sides(mask: np.ndarray, cx: float, cy: float) -> tuple[float, float] | None:
    """(short, long) of the minimum-area rectangle of the mask's region around (cx, cy)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    inside = [c for c in contours if cv2.pointPolygonTest(c, (float(cx), float(cy)), False) >= 0]
    if not inside:
        return None
    (_, _), (bw, bh), _ = cv2.minAreaRect(max(inside, key=cv2.contourArea))
    return float(min(bw, bh)), float(max(bw, bh))


def _sq_dist(pixels: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Squared Lab distance of each pixel (last axis: L, a, b) from one colour.

    The same sums in the same order as ``np.sum((pixels - colour) ** 2, axis=-1)``, without numpy's
    slow reduction over a 3-long axis (this is most of the reader's per-die cost).
    """
    d = pixels - colour
    d *= d
    return d[..., 0] + d[..., 1] + d[..., 2]


def _closer(pixels: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """For each colour pair (a, b): the pixels (last axis L, a, b; float32) strictly nearer a than b.

    |p - a|^2 < |p - b|^2 exactly when 2 p.(a - b) + |b|^2 - |a|^2 > 0: a linear map per pair, all pairs
    in one transform (fastmath.transform3).  Where pixels and colours are whole numbers (Lab of uint8
    pixels) every term is an integer below 2**24, exact in float32, so the answer is _sq_dist's
    comparison; colours that are not whole numbers are compared through _sq_dist itself.
    """
    values = [a.tolist() + b.tolist() for a, b in pairs]  # Python floats, as float() of each element gives
    if not all(v.is_integer() and abs(v) <= 255 for row in values for v in row):
        return [_sq_dist(pixels, a) < _sq_dist(pixels, b) for a, b in pairs]
    rows = [[2 * (a0 - b0), 2 * (a1 - b1), 2 * (a2 - b2), b0 * b0 + b1 * b1 + b2 * b2 - a0 * a0 - a1 * a1 - a2 * a2]
            for a0, a1, a2, b0, b1, b2 in values]
    f = transform3(pixels.reshape(-1, 1, 3), np.array(rows)).reshape(*pixels.shape[:-1], len(pairs))
    return [f[..., i] > 0 for i in range(len(pairs))]


def body_footprint(image: np.ndarray, rect: tuple, patch: np.ndarray, felt_lab: np.ndarray | None,
                   die: float, patch_lab: np.ndarray | None = None) -> tuple[float, float, float, float, float] | None:
    """(top short, top long, die short, die long) in pixels, measured by colour, and the side contrast.

    Each pixel near the die goes to the nearest of three colours: the die's top (the median of
    the patch's lighter half, refined), its side face (the same colour darker, SIDE_SHADE) and
    the felt.  The top face is
    the region of top-colour pixels; the die is top plus side.  The foreground mask's edge moves
    with light, glare and blur, and on green felt a green die's edge nearly vanishes in it; these
    half-way edges do not.  A cocked die shows a top face shorter than a flat die's (by the
    cosine of the tilt) and, where its side face stands out from the felt, a longer footprint.  The
    side contrast is the Lab distance of the side face's colour from the felt's: a die of the
    felt's colour (green on green) hides its side face.  None when the die's colour cannot be
    told from the felt's.  ``patch_lab``: the patch already in Lab (uint8), when the caller has it.
    """
    if felt_lab is None:
        return None

    def lab_of(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The Lab of a body colour and of its shade (one conversion for both pixels).

        The colour is a median of uint8 pixels, so already within 0..255: the uint8 cast alone truncates it.
        """
        pixels = np.empty((1, 2, 3), np.uint8)
        pixels[0, 0] = bgr
        pixels[0, 1] = bgr * SIDE_SHADE
        lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).astype(np.float32)
        return lab[0, 0], lab[0, 1]

    # The top's colour: the median of the patch's lighter half (pips aside), refined twice over the
    # pixels nearer it than its own shade and the felt (a cocked die's side face can fill a third of
    # the patch and drag a plain median).
    # (Pixels are uint8 here; median_rows and percentile_band give numpy's float32 medians and bands.)
    inner_bgr = np.ascontiguousarray(patch[6:-6, 6:-6])
    inner_u8 = (cv2.cvtColor(patch, cv2.COLOR_BGR2LAB) if patch_lab is None else patch_lab)[6:-6, 6:-6]
    inner = inner_u8.astype(np.float32)
    band = percentile_band(inner_u8[..., 0], 50, 90)  # above the side face and shadow, below bright pips
    body_bgr = masked_median(inner_bgr, band if np.count_nonzero(band) >= 20 else None, np.float32)
    for _ in range(2):
        body, shade = lab_of(body_bgr)
        than_shade, than_felt = _closer(inner, [(body, shade), (body, felt_lab)])
        near = than_shade & than_felt
        if np.count_nonzero(near) < 20:
            break
        body_bgr = masked_median(inner_bgr, near, np.float32)
    body, shade = lab_of(body_bgr)
    if float(np.sum((body - felt_lab) ** 2)) < 15.0 ** 2:
        return None
    (cx, cy), (rw, rh), _ = rect
    half = 0.5 * max(rw, rh) + 0.35 * die
    h, w = image.shape[:2]
    x0, y0, x1, y1 = int(max(0, cx - half)), int(max(0, cy - half)), int(min(w, cx + half)), int(min(h, cy + half))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    top_felt, top_side, side_felt = _closer(lab, [(body, felt_lab), (body, shade), (shade, felt_lab)])
    k = max(3, int(0.1 * die) | 1)
    kernel = np.ones((k, k), np.uint8)
    # Top: nearer the top's colour than the felt's and the side's; whole die: top or side nearer than felt.
    top = cv2.morphologyEx((top_felt & top_side).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    whole = cv2.morphologyEx((top_felt | side_felt).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    t = _rect_sides(top, cx - x0, cy - y0)
    a = _rect_sides(whole, cx - x0, cy - y0)
    if t is None or a is None:
        return None
    return t[0], t[1], a[0], a[1], float(np.sqrt(np.sum((shade - felt_lab) ** 2)))
