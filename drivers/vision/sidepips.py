"""Side-face pips beside a die's top face: the sign of a cocked die that its colour cannot hide.

A die cocked a few degrees shows a strip of one side face.  Where the die has the felt's colour
(green on green) that strip is lost in the felt, and the top face is squeezed by only the cosine
of the tilt (1.5 % at 10 degrees), so neither the footprint nor the top face's size tells it from
a flat die.  The side face's pips still show: small, light, colourless marks just outside the top
face, squeezed across the edge.  A flat die has only felt, its shadow and the printed area line
there.  The reader (drivers/vision/dice.py) refuses a die with such marks beside it
(docs/devices/vision.md, step 6).
"""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from drivers.vision.fastmath import deeper_than, median_rows, transform3, within_radius
from drivers.vision.footprint import SIDE_SHADE

# Chosen on the dice of 4,000 synthetic cocked throws (tuning seeds 300000-303999) and of 540 Sic Bo and
# "colours" throws (seeds 310000-310299, 311000-311239); docs/performance.md, "Cocked dice and wrong
# voids".  Every die cocked under 8 degrees marked; flat dice marked: red 7 of 1,998, green 0 of 1,996,
# white 0 of 925, yellow 11 of 207, blue 0 of 188.
UNIT = 40.0  # the die side in the resampled view, pixels
RING = 0.4  # how far beyond the top face to look, in die sides
OPEN = 0.4  # bumps on the top face's outline narrower than this (die sides) are opened away
MARK_LEVEL = 55.0  # a mark's white top-hat (lightness less twice the chroma, 8-bit Lab) is over this
MARK_AREA = 3  # pixels of a mark inside the ring, at least
LIGHTER = 20.0  # a mark's whiteness is over the body's by this (white and yellow dice: no light side pips)
BLUE = (95, 135)  # OpenCV hues of a blue die, not judged here (its footprint shows its side face on green felt)
MARK_LONG = 0.35  # a mark longer than this (die sides) is a line, not a pip
MIN_MARKS = 1  # marks that make a die "may not lie flat"
SIDE_PIPS = "a die may not lie flat (pip-like marks just beside its top face: a side face in view?)"


def _aligned(image: np.ndarray, rect: tuple, die: float) -> tuple[np.ndarray, np.ndarray]:
    """The neighbourhood of a die resampled so its rectangle is axis-aligned and a die is UNIT pixels,
    and the 2x3 map from that view to the image."""
    (cx, cy), (w, h), ang = rect
    k = UNIT / die
    hw, hh = 0.5 * w * k, 0.5 * h * k
    size = int(2 * (max(hw, hh) + (RING + 0.15) * UNIT)) | 1
    a = math.radians(ang)
    ca, sa = math.cos(a) / k, math.sin(a) / k
    c = size / 2.0
    # patch (u, v) -> image: x = cx + ca*(u-c) - sa*(v-c), y = cy + sa*(u-c) + ca*(v-c)
    m = np.array([[ca, -sa, cx - ca * c + sa * c], [sa, ca, cy - sa * c - ca * c]], np.float32)
    out = cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return out, m


def whiteness(lab: np.ndarray) -> np.ndarray:
    """Lightness less twice the chroma (Lab as float, 8-bit scale): high only on light, colourless pixels (pips)."""
    chroma = np.sqrt((lab[..., 1] - 128.0) ** 2 + (lab[..., 2] - 128.0) ** 2)
    return lab[..., 0] - 2.0 * chroma


def _labs(bgr: np.ndarray) -> np.ndarray:
    """Lab (float32, one row each) of BGR colours (rows), clipped and cut to uint8 first: one conversion for all."""
    pixels = np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, -1, 3)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).astype(np.float32).reshape(-1, 3)


def top_face(patch: np.ndarray, lab: np.ndarray, felt_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The die's top face in an aligned patch (0/1: pixels nearer the body colour than its side face's shade
    and the felt, the region at the centre, pips filled) and the body colour (Lab).
    None when the body is the felt's colour."""
    size = patch.shape[0]
    c = size // 2
    r = int(0.2 * UNIT)
    body_bgr = median_rows(patch[c - r:c + r, c - r:c + r].reshape(-1, 3), np.float32)  # np.median's, faster
    body, shade = _labs(np.stack([body_bgr, body_bgr * SIDE_SHADE]))
    if float(np.sum((body - felt_lab) ** 2)) < 8.0 ** 2:
        return None
    # Nearer the body than colour q  <=>  lab . (q - body) < (|q|^2 - |body|^2) / 2: one linear map for both
    # (whole numbers throughout, so fastmath.transform3's faster kernel gives the same projections).
    towards = np.stack([felt_lab - body, shade - body]).astype(np.float32)
    limits = [(float(q @ q) - float(body @ body)) / 2 for q in (felt_lab, shade)]
    proj = transform3(lab, towards)
    near: np.ndarray = ((proj[..., 0] < limits[0]) & (proj[..., 1] < limits[1])).astype(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(near, connectivity=4)
    # The component covering most of the centre (a centre pip is not body-coloured), its holes (pips) filled.
    hits = np.bincount(labels[c - r:c + r, c - r:c + r].reshape(-1), minlength=count)
    hits[0] = 0
    if count < 2 or hits.max() == 0:
        return None
    contours, _ = cv2.findContours((labels == int(hits.argmax())).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    face = np.zeros((size, size), np.uint8)
    cv2.drawContours(face, contours, -1, 1, -1)
    # A side pip's light rim is nearer the body colour than the felt: the bump it adds is opened away
    # (an opening by a disc OPEN die sides across).
    # (By the distance transform, fast for large discs; run in the masks' boxes alone: fastmath.)
    r_open = OPEN * UNIT / 2
    core = deeper_than(face, r_open)
    return within_radius(core.view(np.uint8), r_open).view(np.uint8), body


def side_marks(image: np.ndarray, rect: tuple, die: float, felt_lab: np.ndarray | None,
               others: Sequence[np.ndarray] = ()) -> tuple[int, float]:
    """(count, strongest) of pip-like light marks in a ring just outside a die's top face.

    ``others``: the corners (image pixels, 4 x 2) of the other dice's rectangles: their pips are left out.
    A mark is a component of the white top-hat (kernel a third of a die) over MARK_LEVEL, no longer than
    MARK_LONG (the printed area line is longer), and at least MARK_AREA pixels; strongest is its peak.
    """
    if felt_lab is None:
        return 0, 0.0
    patch, to_image = _aligned(image, rect, die)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    found = top_face(patch, lab, felt_lab.astype(np.float32))
    if found is None:
        return 0, 0.0
    face, body = found
    hue = int(cv2.cvtColor(cv2.cvtColor(np.clip(body, 0, 255).astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_LAB2BGR),
                           cv2.COLOR_BGR2HSV)[0, 0, 0])
    if BLUE[0] <= hue <= BLUE[1]:
        return 0, 0.0  # a blue die's edge blends with green felt into a light grey as bright as a faint pip
    w = whiteness(lab)
    # A side pip is lighter than the body: a white or yellow die's own corner, shaved off by the opening, is not.
    free = (face == 0) & (w > float(whiteness(body.reshape(1, 1, 3))[0, 0]) + LIGHTER)
    if np.count_nonzero(free) < MARK_AREA:
        return 0, 0.0  # no mark can have MARK_AREA pixels (nor any in the ring): skip the ring and the top-hat
    ring = within_radius(face, RING * UNIT) & (face == 0)
    if np.count_nonzero(free & ring) < MARK_AREA:
        return 0, 0.0  # no mark can have MARK_AREA pixels in the ring (the usual flat die): skip the top-hat
    k = int(UNIT / 3) | 1
    hat = cv2.morphologyEx(w, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if len(others):
        back = cv2.invertAffineTransform(to_image)
        taken = np.zeros_like(face)
        for corners in others:
            pts = cv2.transform(np.asarray(corners, np.float32).reshape(-1, 1, 2), back)
            cv2.fillConvexPoly(taken, pts.reshape(-1, 2).round().astype(np.int32), 1)
        free &= taken == 0
    # Marks are found in the whole view, not only the ring, so that the printed area line stays one long
    # mark (cut by the ring it would leave short pieces); a mark reaching the view's border is no pip.
    marks = ((hat > MARK_LEVEL) & free).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    size = patch.shape[0]
    n, peak = 0, 0.0
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if max(bw, bh) > MARK_LONG * UNIT or x == 0 or y == 0 or x + bw >= size or y + bh >= size:
            continue
        mine = labels[y:y + bh, x:x + bw] == i
        if int(np.count_nonzero(mine & ring[y:y + bh, x:x + bw])) < MARK_AREA:
            continue
        n += 1
        peak = max(peak, float(hat[y:y + bh, x:x + bw][mine].max()))
    return n, peak


def side_face_reason(image: np.ndarray, rect: tuple, die: float, felt_lab: np.ndarray | None,
                     others: Sequence[np.ndarray] = ()) -> str:
    """SIDE_PIPS when marks like a side face's pips lie just outside the die's top face, else ''."""
    count, _ = side_marks(image, rect, die, felt_lab, others)
    return SIDE_PIPS if count >= MIN_MARKS else ""
