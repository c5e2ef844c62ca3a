"""The dice reader: every die in the throw area, its colour, top value and whether it lies flat.

Answer per image (DESIGN.md section 8): ``ok`` with the dice, ``void`` when the
rules void the throw (a die off the throw area or not lying flat: seed 000,
Tärning rule 4), or ``unsure`` with a reason when the reader will not guess.

Without calibration (any photo) the whole image is the throw area, the die
size is estimated from the image, and flatness is not judged (it needs the
calibrated overhead view); see docs/devices/vision.md.
"""

from __future__ import annotations

import logging
import math
from dataclasses import field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from drivers.vision import facemodel
from drivers.vision.calibration import DiceCalibration, DieSize
from drivers.vision.detector import MODEL_PATH, Detection, DiceDetector
from drivers.vision.dice_result import MIN_CONFIDENCE, DiceOptions, DiceResult, Die, _Blob, color_name
from drivers.vision.fastmath import enlarged_crop, masked_median, median_rows, transform3
from drivers.vision.footprint import body_footprint
from drivers.vision.heap import read_heap
from drivers.vision.photo_join import DETECT_DIE, DETECT_READ, MORE_CUTS, DetectorJoin
from drivers.vision.pips import PATCH, read_face, rectify
from drivers.vision.sidepips import side_face_reason

# Calibrated view only; thresholds chosen on synthetic seeds 300000-300899 (bench/vision.py --dice-seed),
# checked on other seeds (docs/performance.md, "Vision").
MAX_ASPECT = 1.2  # a top face longer than this over its width is not square: tilted, or two dice merged
MIN_AREA_RATIO = 0.9  # without per-colour sizes: dice in one throw differ less than this in footprint
# With per-colour sizes in the calibration (DieSize, measured by body_footprint):
SIDE_CONTRAST = 30.0  # Lab distance of a die's side-face colour from the felt's below which the side is hidden
DIE_LONG_MAX = 1.1  # side face visible: a footprint longer than this (of a flat die's) shows a side face
TOP_SHORT_MIN = 0.9  # side face hidden: a top face shorter than this (of a flat die's) is squeezed by a tilt
TOP_LONG_MAX = 1.05  # side face hidden: a top face longer than this takes in part of a side face
FELT_LIKE = 20.0  # an unreadable object off the area this close (Lab) to the felt around it is not void-worthy
FELT_CHROMA = 6.0  # ... nor one this close to it in colour alone (a, b): glare lightens felt without colouring it
HIDDEN_AREA_RATIO = 0.92  # side face hidden: a foreground footprint below this share of another die's ...
HIDDEN_TOP_SHORT = 0.95  # ... together with a top face shorter than this (of a flat one's): branch dicewrong
STRIP_LONG = 1.45  # an unreadable object off the area at least this long (die sides) ...
STRIP_SHORT = 0.8  # ... and narrower than this is a strip, not a die (tuning: dice off the area that long: 0.9+ wide)
STRIP_OFF_AREA = "an object off the throw area shaped like a strip, not a die (felt lit along the table's edge?)"
# The calibrated table's felt estimate: a median on a grid 1/FELT_GRID of the foreground's half scale (photo mode:
# 1/4, as before branch speed3; 8 was checked, not tuned, on 3,000 tuning throws: docs/performance.md).
FELT_GRID = 8
VOID_FOOTPRINT = 1.35  # a die footprint longer than this (die sizes) shows a side face: corroborates a tilt
# The face model (drivers/vision/facemodel.py): thresholds chosen on the tuning seeds 300000-300899 and the
# photos' train half (tools/vision_model/agreement.py), measured on seeds 500000+ and the photos' test half
# (docs/devices/vision.md and docs/performance.md, "The face model").
MODEL_AGREE = 0.5  # the model's probability for the pip count's value must reach this for the die to count as read
MODEL_ONLY = 0.99  # where the pips cannot be read, a model this sure gives the die a value (the image stays unsure)
# The same in photo mode (no cocked or half-hidden synthetic dice there to fear), for photo mode's own colour
# model (facemodel.PHOTO_MODEL): chosen on the photos' train half, on photos left out of its training
# (tools/vision_model/photo_eval.py score train --fold K --only F; docs/performance.md, "Photo accuracy").
MODEL_ONLY_PHOTO = 0.5
# ... and where photo mode reads with the table's grey model instead (its own not loaded): chosen on the
# train half (python tools/vision_model/unread.py train: 102 of 107 right at 0.8, 54 of 56 at 0.99).
MODEL_ONLY_PHOTO_GREY = 0.8
# Branch photo6 (photo mode; chosen on the train half's folds 1-3, tools/vision_model/photo6_rule.md): more
# cuts of a die read from neither its patch nor its re-cut (photo_join.MORE_CUTS) give it a value only if
# MORE_AGREE of them read it at MORE_FLOOR and none reads another there (more_cuts_opinion); where the pips and
# the model disagree, the die shows the model's value only if the model is at least SHOW_FLOOR_PHOTO sure of
# it, else the pip count (the image is unsure either way).
MORE_AGREE = 2
MORE_FLOOR = 0.6
SHOW_FLOOR_PHOTO = 0.5
DISAGREE = "the pip count and the face model disagree on a die"
COCKED_BY_MODEL = "the face model sees a die that may not lie flat"
log = logging.getLogger(__name__)
_FOREGROUND_WEIGHTS = np.array([[1.0, 2.0, 2.0]])  # L, a, b: chroma counts double against the felt


def blob_mask_of(mask: np.ndarray, blob: _Blob) -> np.ndarray:
    """The foreground mask (whole frame) restricted to nothing: splitting reads the ROI itself."""
    return mask


def second_opinion(value: int | None, guess: facemodel.FaceGuess, floor: float,
                   show: float = 0.0) -> tuple[int | None, str]:
    """The value a die shows after the face model, and the verdict: "" (the model backs the pip count, or
    neither reads it), "disagree" (the model gives the pip count under MODEL_AGREE: the image is unsure;
    the die shows the model's value where it names one at least ``show`` sure, else the pip count) or
    "model only" (pips unread, the model at least ``floor`` sure of a value)."""
    if value is not None:
        if guess.probabilities[value] < MODEL_AGREE:
            return (guess.value if 1 <= guess.value <= 6 and guess.probability >= show else value), "disagree"
        return value, ""
    if 1 <= guess.value <= 6 and guess.probability >= floor:
        return guess.value, "model only"
    return None, ""


def recut_opinion(value: int | None, guess: facemodel.FaceGuess, again: facemodel.FaceGuess | None,
                  floor: float) -> facemodel.FaceGuess:
    """Photo mode: the face model's guess to use for a die, given its guess on the re-cut patch
    (``again``, DetectorJoin._recut; None if none was cut).  The re-cut counts only for a die whose pips
    were not read and whose first patch the model reads no value from at ``floor``, and only if it reads a
    value at ``floor`` itself: then the die is read by the model only, and the image stays unsure (its
    unread pips are among the problems already), so a re-cut can never make an image ok."""
    if value is None and again is not None and not second_opinion(None, guess, floor)[1] \
            and second_opinion(None, again, floor)[1]:
        return again
    return guess


def more_cuts_opinion(value: int | None, guess: facemodel.FaceGuess, more: Sequence[facemodel.FaceGuess],
                      floor: float, more_floor: float, agree: int) -> facemodel.FaceGuess:
    """Photo mode: the face model's guess to use for a die, given its guesses on more cuts of it (``more``,
    DetectorJoin._more_cuts; branch photo6).  They count only for a die whose pips were not read and whose
    guess so far (its patch, then its re-cut: recut_opinion) names no value at ``floor``; then the die takes
    a value only if at least ``agree`` of the cuts read that value at ``more_floor`` and no cut reads another
    value at ``more_floor`` (returned: the surest of them).  The die is then read by the model only and the
    image stays unsure (its unread pips are among its problems), so more cuts can never make an image ok."""
    if value is not None or agree < 1 or second_opinion(None, guess, floor)[1]:
        return guess
    named = [g for g in more if second_opinion(None, g, max(floor, more_floor))[1]]
    if len(named) >= agree and len({g.value for g in named}) == 1:
        return max(named, key=lambda g: g.probability)
    return guess


def strip_not_die(rect: tuple, die: float) -> bool:
    """A footprint at least STRIP_LONG dice long and under STRIP_SHORT wide: no die, whole, cocked or cut by the
    table's edge, looks like that (a cocked die is at most 1.41 long and a die wide)."""
    short, long_ = sorted(rect[1])
    return long_ >= STRIP_LONG * die and short < STRIP_SHORT * die


class _Enlarged:
    """A small image's INTER_LINEAR enlargement to ``size`` (w, h), computed only where it is cut (_cut)."""

    def __init__(self, small: np.ndarray, size: tuple[int, int]) -> None:
        self.small = small
        self.size = size


def _cut(image: np.ndarray | _Enlarged, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """``image[y0:y1, x0:x1]`` (x0, y0 >= 0; numpy's clipping at the far sides), also of an _Enlarged."""
    if isinstance(image, np.ndarray):
        return image[y0:y1, x0:x1]
    w, h = image.size
    x1, y1 = min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((max(0, y1 - y0), max(0, x1 - x0), 3), np.uint8)
    return enlarged_crop(image.small, image.size, (x0, y0, x1, y1))


class DiceReader(DetectorJoin):
    """Reads dice from one frame; calibration (throw area, die size, felt) is optional."""

    def __init__(self, calibration: DiceCalibration | None = None, options: DiceOptions | None = None,
                 face_model: facemodel.FaceModel | Path | bool = True,
                 detector_model: Path | None = MODEL_PATH,
                 photo_face_model: facemodel.FaceModel | Path | bool | None = None) -> None:
        """``face_model``: True loads the shipped model, a path loads that file, False reads by pip count
        only; a model file that cannot be loaded is logged in one line and the reader reads without it.
        ``photo_face_model``: photo mode's own model (colour, facemodel.PHOTO_MODEL), loaded at the first
        photo-mode read, never for a calibrated table: True or a path loads it, an instance is used as
        it is, False keeps ``face_model`` in photo mode too; None (the default) means True where
        ``face_model`` is True, else ``face_model`` serves both.  If it cannot be loaded, photo mode
        falls back to ``face_model`` (one log line).
        ``detector_model``: the photo-mode dice detector (None: classical finder only); loaded at the
        first photo-mode read, never for a calibrated table."""
        self.calibration = calibration
        self.options = options or DiceOptions()
        self.face_model: facemodel.FaceModel | None = None
        self.face_model_problem = "" if face_model is not False else "face model switched off"
        if isinstance(face_model, facemodel.FaceModel):
            self.face_model = face_model
        elif face_model is not False:
            path = facemodel.DEFAULT_MODEL if face_model is True else Path(face_model)
            self.face_model, self.face_model_problem = facemodel.load(path)
            if self.face_model is None:
                log.warning("%s; the dice reader reads by pip count only", self.face_model_problem)
        self._photo_face_spec = photo_face_model if photo_face_model is not None else (
            True if face_model is True else False)
        self._photo_face: facemodel.FaceModel | None = None
        self.photo_face_note = ""  # why photo mode reads with face_model instead, once it tried to load its own
        self._detector_model = detector_model
        self._detector: DiceDetector | None = None
        self.detector_note = ""  # why the detector is not in use, once a photo-mode read tried to load it
        self.split_merged = True  # photo mode: a die box holding two or more detections is read as those dice
        # Photo mode: candidate L1's side-face rule (photo_join.side_face_of); not adopted (L1's look), so off.
        self.side_faces = False
        self._last_background: np.ndarray | _Enlarged | None = None
        self._felt_half: np.ndarray | None = None
        self._felt_lab: np.ndarray | None = None
        self._scale = 1
        self._table_half: np.ndarray | None = None
        self._table_small: np.ndarray | None = None
        self._off_table_index: np.ndarray | None = None  # flat indices of the small image's pixels off the table
        self._mask_box: tuple[int, int, int, int] | None = None  # the last full-size mask's set pixels lie in it
        self._table_box = (0, 0, 0, 0)  # the table mask's box at half scale (x0, y0, x1, y1)
        self._measuring = False  # measure_die_sizes is reading: measure every die's colour footprint
        # What the last read measured per die and which blobs it set aside: a record for tuning the
        # refusal thresholds on synthetic truth (docs/performance.md, "Vision"), not part of the answer.
        # Its "body" (the colour footprint) is measured only where the calibration has per-colour die
        # sizes to compare it with, or while measure_die_sizes measures them; None elsewhere.
        self.last_features: list[dict[str, Any]] = []
        self.last_rejected: list[tuple[str, float, bool]] = []
        # The rectified patch and box of every die candidate of the last read, with the index of the die it
        # became (None: set aside); tools/vision_model/extract_faces.py builds the face model's data from it.
        self.last_patches: list[tuple[np.ndarray, tuple[int, int, int, int], int | None]] = []
        self.last_detections: list[Detection] = []  # photo mode: the detector's dice in the last read
        self.last_recuts: dict[int, np.ndarray] = {}  # photo mode: die index -> re-cut patch (_recut)

    # -- foreground ---------------------------------------------------------------------------
    # The foreground is found at half resolution (a die is still 15+ pixels there); faces are
    # read from the full frame.
    def _background(self, half: np.ndarray, die: float) -> tuple[np.ndarray | _Enlarged, _Enlarged | None]:
        """The felt (half scale) as it would look without dice, BGR, and its Lab where computed here.

        The calibrated empty frame when there is one (Lab: None, the caller converts and keeps it);
        else a wide median of the frame on a coarse grid (1/FELT_GRID of half scale; 1/4 in photo
        mode), enlarged.  On a calibrated table the median is also converted to Lab on that grid and
        the Lab enlarged, instead of converting the enlarged felt (a quarter of the reader's Lab
        work, and the felt estimate is a smooth guess either way): docs/performance.md, "Dice
        reader speed, second pass".  There both enlargements are _Enlarged, computed only where they
        are cut (the Lab in the table's box, the BGR at each die's box): "Dice reader speed, fourth pass".
        """
        cal = self.calibration
        h, w = half.shape[:2]
        if cal is not None and cal.felt is not None and cal.felt.shape[0] // h == cal.felt.shape[1] // w >= 1:
            if self._felt_half is None or self._felt_half.shape != half.shape:
                self._felt_half = cv2.resize(cal.felt, (w, h), interpolation=cv2.INTER_AREA)
            return self._felt_half, None
        step = FELT_GRID if cal is not None else 4
        small = cv2.resize(half, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
        if cal is not None and cal.table is not None:
            # Outside the table (rail, floor) would bleed into the felt's median: paint it felt.
            if self._table_small is None or self._table_small.shape != small.shape[:2]:
                self._table_small = cv2.resize(cal.mask(), (small.shape[1], small.shape[0]),
                                               interpolation=cv2.INTER_NEAREST) > 0
                self._off_table_index = np.flatnonzero(~self._table_small)
            small.reshape(-1, 3)[self._off_table_index] = masked_median(small, self._table_small).astype(np.uint8)
        k = max(5, int(die * 3 / step) | 1)  # die is in half-scale pixels: a median 3/4 of a die wide
        k = min(k, (min(small.shape[:2]) // 2) * 2 - 1)
        bg = cv2.medianBlur(small, max(3, k))
        if cal is None:
            return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR), None
        return _Enlarged(bg, (w, h)), _Enlarged(cv2.cvtColor(bg, cv2.COLOR_BGR2LAB), (w, h))

    def _background_lab(self, half: np.ndarray, die: float,
                        roi: tuple[int, int, int, int]) -> tuple[np.ndarray | _Enlarged, np.ndarray]:
        """(felt BGR at half scale, felt Lab inside ``roi`` (x0, y0, x1, y1)); the calibrated felt's Lab is kept."""
        bg, lab = self._background(half, die)
        x0, y0, x1, y1 = roi
        if lab is not None:
            return bg, _cut(lab, x0, y0, x1, y1)
        assert isinstance(bg, np.ndarray)
        if bg is self._felt_half:
            if self._felt_lab is None:
                self._felt_lab = cv2.cvtColor(bg, cv2.COLOR_BGR2LAB)
            return bg, self._felt_lab[y0:y1, x0:x1]
        return bg, cv2.cvtColor(bg[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)

    def _foreground(self, half: np.ndarray, die: float,
                    roi: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray | _Enlarged]:
        """Chroma-weighted Lab distance of each half-scale pixel from the felt (0..255), and the felt.

        The distance is |dL| + 2|da| + 2|db| capped at 255, computed only inside ``roi`` (x0, y0, x1, y1:
        the table's box, outside which nothing is looked at) and 0 outside it.  uint8 absdiff and a
        saturating weighted sum (fastmath.transform3: exact in OpenCV's fixed point) give exactly the
        capped int16 sum.
        """
        h, w = half.shape[:2]
        x0, y0, x1, y1 = roi or (0, 0, w, h)
        background, blab = self._background_lab(half, die, (x0, y0, x1, y1))
        lab = cv2.cvtColor(half[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)
        dist = np.zeros((h, w), np.uint8)
        dist[y0:y1, x0:x1] = transform3(cv2.absdiff(lab, blab), _FOREGROUND_WEIGHTS)
        return dist, background

    def _blobs(self, image: np.ndarray, die: float) -> tuple[list[_Blob], np.ndarray]:
        """Die-sized and larger foreground blobs (full-frame coordinates) and the full-size mask."""
        h, w = image.shape[:2]
        sc = 2 if die >= 32 else 1  # small dice (a far camera) keep the full resolution
        self._scale = sc
        half = cv2.resize(image, (w // sc, h // sc), interpolation=cv2.INTER_AREA) if sc > 1 else image
        cal = self.calibration
        table_half: np.ndarray | None = None  # the table's mask at half scale, where the calibration fits the frame
        if cal is not None and cal.size == (w, h):
            if self._table_half is None or self._table_half.shape != half.shape[:2]:
                self._table_half = cv2.resize(cal.mask(), (w // sc, h // sc), interpolation=cv2.INTER_NEAREST)
                bx, by, bw, bh = cv2.boundingRect(self._table_half)
                self._table_box = (bx, by, bx + bw, by + bh)
            table_half = self._table_half
        table = table_half is not None
        dist, self._last_background = self._foreground(half, die / sc, self._table_box if table else None)
        _, mask = cv2.threshold(dist, self.options.threshold, 255, cv2.THRESH_BINARY)  # 255 where dist > threshold
        if table_half is not None:
            mask &= table_half
        # Opening removes what is thinner than k: specks and (calibrated table) printed lines.
        k = max(3, int(die / (4 * sc if cal is not None and sc > 1 else 6 * sc)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)  # drops printed lines and specks
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        hh, hw = mask.shape
        blobs = []
        for i, c in enumerate(contours):
            if hierarchy[0][i][3] != -1:
                continue  # a hole (pips inside a die, the felt inside a tray rim)
            area = cv2.contourArea(c) * sc * sc
            if area < 0.2 * die * die:
                continue
            x, y, bw, bh = cv2.boundingRect(c)
            edge = x <= 0 or y <= 0 or x + bw >= hw or y + bh >= hh
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
            if sc > 1:
                rect = ((sc * cx + 0.5, sc * cy + 0.5), (sc * rw + sc, sc * rh + sc), ang)
            else:
                rect = ((cx, cy), (rw, rh), ang)
            blobs.append(_Blob(rect, (sc * x, sc * y, sc * bw, sc * bh), area, edge))
        full: np.ndarray
        if sc > 1 and (w, h) == (2 * hw, 2 * hh):
            # Only the box of what is set is enlarged (nearest, by exactly 2: the same pixels as the whole).
            x0, y0, bw, bh = cv2.boundingRect(mask)
            self._mask_box = (2 * x0, 2 * y0, 2 * bw, 2 * bh)
            full = np.zeros((h, w), np.uint8)
            if bw and bh:
                full[2 * y0:2 * (y0 + bh), 2 * x0:2 * (x0 + bw)] = cv2.resize(
                    mask[y0:y0 + bh, x0:x0 + bw], (2 * bw, 2 * bh), interpolation=cv2.INTER_NEAREST)
        else:
            full = cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST) if sc > 1 else mask
            self._mask_box = None
        return blobs, full

    def _die_size(self, image: np.ndarray) -> float:
        """Expected die side in pixels: calibrated, else estimated from square blobs."""
        if self.calibration is not None:
            return self.calibration.die_px
        h, w = image.shape[:2]
        guess = min(h, w) / 14.0
        blobs, _ = self._blobs(image, guess)
        sides = []
        for b in blobs:
            (bw, bh) = b.rect[1]
            if min(bw, bh) > 0 and max(bw, bh) / min(bw, bh) < 1.4 and not b.touches_edge:
                if b.area / (bw * bh) > 0.7 and min(h, w) / 40 < math.sqrt(b.area) < min(h, w) / 4:
                    sides.append(math.sqrt(b.area))
        return float(np.median(sides)) if sides else guess

    # -- reading ------------------------------------------------------------------------------
    def read(self, image: np.ndarray) -> DiceResult:
        """Read one frame.  Never raises on a bad frame: it answers unsure."""
        if image is None or image.ndim != 3 or image.shape[0] < 32 or image.shape[1] < 32:
            return DiceResult("unsure", (), "no usable image")
        die = self._die_size(image)
        self.last_features = []
        self.last_rejected = []
        self.last_patches = []
        self.last_detections = []
        self.last_recuts = {}
        blobs, mask = self._blobs(image, die)
        background = self._last_background
        cal = self.calibration
        dice: list[Die] = []
        problems: list[str] = []
        voids: list[str] = []
        photo = cal is None
        candidates: list[_Blob] = []
        heap_dice: list[Die] = []
        split_parts: set[int] = set()  # candidates cut out of a blob of touching dice
        measured: list[tuple[_Blob, str, tuple | None]] = []  # (blob, colour, body_footprint) per candidate
        for b in blobs:
            side = math.sqrt(b.area)
            (bw, bh) = b.rect[1]
            if side < 0.55 * die:
                self.last_rejected.append(("small", side / die, b.touches_edge))
                if photo and side >= 0.5 * die and not b.touches_edge:
                    # Photo mode guesses the die size from the dice it sees: an object just under the
                    # cut may be a smaller die, so the die count is not confirmed.
                    problems.append("an object nearly the size of a die, not read (a smaller die?)")
                continue  # a speck, crumb or shadow: too small to be a die
            if photo and b.touches_edge and side > 1.6 * die:
                self.last_rejected.append(("edge", side / die, b.touches_edge))
                continue  # clutter cut by the photo's edge
            if side > 3.5 * die or (not photo and max(bw, bh) > 2.6 * die):
                if not photo:
                    problems.append("a large object in the throw area (hand, cup?)")
                self.last_rejected.append(("large", side / die, b.touches_edge))
                continue
            if side > 1.45 * die or max(bw, bh) > 1.9 * die:
                parts = self._split(blob_mask_of(mask, b), b, die)
                if parts:
                    candidates.extend(parts)
                    split_parts.update(id(p) for p in parts)
                elif not photo or side < 2.5 * die:
                    problems.append("dice touching or an object the size of several dice")
                    # Read what faces can be told apart in the heap; the image stays unsure.
                    heap_dice.extend(read_heap(image, b.box, die))
                continue
            candidates.append(b)
        for b in candidates:
            (cx, cy), (bw, bh), _ = b.rect
            inside = cal.inside(cx, cy) if cal is not None else True
            fully = cal.box_inside(b.box) if cal is not None else True
            patch = rectify(image, b.rect, grow=1.0)
            # The patch in Lab and HSV once, for the pip reader, the tilt evidence, the colour and the footprint.
            patch_lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
            patch_hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
            self.last_patches.append((patch, b.box, None))
            felt_lab = None
            if background is not None:
                x, y, w, h = (v // self._scale for v in b.box)
                ring = _cut(background, max(0, x), max(0, y), x + w, y + h).reshape(-1, 1, 3)
                if ring.size:
                    felt_lab = cv2.cvtColor(median_rows(ring.reshape(-1, 3)).astype(np.uint8).reshape(1, 1, 3),
                                            cv2.COLOR_BGR2LAB).astype(np.float32).reshape(3)
            (rw, rh) = b.rect[1]
            side = max(rw, rh, 1.0)
            face = read_face(patch, felt_lab, (rw / side, rh / side), patch_lab, patch_hsv)
            # The colour footprint is used only by the per-colour size checks: not measured without sizes.
            body = None if cal is None or id(b) in split_parts or not (cal.die_sizes or self._measuring) \
                else body_footprint(image, b.rect, patch, felt_lab, die, patch_lab)
            if photo and face.value is None and face.reason == "no pips found":
                x, y, w, h = b.box
                if b.area < 0.86 * max(1.0, b.rect[1][0] * b.rect[1][1]) or b.touches_edge:
                    self.last_rejected.append(("blank", math.sqrt(b.area) / die, b.touches_edge))
                    if not b.touches_edge and 0.6 * die <= math.sqrt(b.area) <= 1.6 * die:
                        # Die-sized, in full view, and blank: a knob or a coin, or a die whose pips the
                        # reader missed.  The die count cannot be confirmed, so the image is not ok.
                        problems.append("a die-sized object without pips (a die not read?)")
                    continue  # round or cut-off and blank: a coin, a knob, not a die
            flat, tilt_reason = self._flatness(b, die, face)
            if not photo and face.retried and face.value is not None:
                # The count agreed with a layout only after some marks were dropped as a side face's:
                # either the die is cocked or the dropped marks were top pips (a 6 read as a 2).
                tilt_reason = tilt_reason or "a die read only after dropping marks (side face or missed pips?)"
            if not photo and max(rw, rh) > MAX_ASPECT * max(1.0, min(rw, rh)):
                tilt_reason = tilt_reason or "a die's top face is not square (tilted?)"
            if not photo and flat and not tilt_reason and id(b) not in split_parts and face.value is not None:
                # A side face's pips beside the top face: the one sign a die of the felt's colour cannot hide.
                others = [cv2.boxPoints(o.rect) for o in candidates if o is not b]
                tilt_reason = side_face_reason(image, b.rect, die, felt_lab, others)
            self.last_features.append({"aspect": max(rw, rh) / max(1.0, min(rw, rh)), "long": max(rw, rh) / die,
                                       "short": min(rw, rh) / die, "side_share": face.side_share,
                                       "side_marks": face.side_marks, "conf": face.confidence,
                                       "pip_area": face.pip_area, "aniso": face.anisotropy, "retried": face.retried,
                                       "value": face.value, "footprint": math.sqrt(rw * rh),
                                       "centre": (cx, cy), "split": id(b) in split_parts, "body": body})
            die_read = Die(face.value, color_name(patch, patch_hsv), b.box, flat, face.confidence,
                           face.reason or tilt_reason)
            self.last_features[-1]["color"] = die_read.color
            measured.append((b, die_read.color, body))
            if not photo and id(b) in split_parts and face.value is not None:
                # A die cut out of a touching pair: its square is a guess.  Read again in a wider square;
                # a pip lost at the cut, or one of the neighbour's, changes the count there.
                wider = read_face(rectify(image, b.rect, grow=1.2), felt_lab, (rw / side / 1.2, rh / side / 1.2))
                if wider.value != face.value:
                    problems.append("touching dice: a face reads differently in a wider view")
            if (not inside or not fully) and id(b) in split_parts:
                # Where touching dice were cut apart is a guess; a guessed part on the line must not void.
                problems.append("touching dice at the edge of the throw area (cannot tell which side)")
            elif (not inside or not fully) and face.value is None and self._felt_like(image, b, patch, die):
                # Off the area, no face read, and the colour of the felt just around it (felt lit by glare
                # where the felt estimate lags, a shadow): not known to be a die, so it must not void.
                problems.append("an object off the throw area that looks like the felt around it (lit felt, or a "
                                "die whose pips cannot be read)")
            elif (not inside or not fully) and face.value is None and strip_not_die(b.rect, die):
                # Off the area, no face read, and longer and narrower than a die (whole, cocked or cut by the
                # table's edge) can look: felt lit by glare along the table's edge, not known to be a die.
                problems.append(STRIP_OFF_AREA)
            elif not inside or not fully:
                voids.append("a die off the throw area" if not inside else "a die on the edge of the throw area")
            if not flat:
                voids.append("a die not lying flat")
            elif tilt_reason:
                problems.append(tilt_reason)
            if face.value is None or face.confidence < MIN_CONFIDENCE:
                problems.append(f"cannot read the die at {list(b.box)}: {face.reason or 'low confidence'}")
            self.last_patches[-1] = (patch, b.box, len(dice))
            dice.append(die_read)
        dice.extend(heap_dice)
        if photo and self._detector_model is not None:
            self._join_detections(image, dice, problems)
        # Photo mode: a second patch of each die whose pips were not read, for the face model if it cannot
        # read the first (recut_opinion); the calibrated table cuts none.
        self.last_recuts = {i: self._recut(image, dice[i].box) for _, _, i in self.last_patches
                            if photo and i is not None and dice[i].value is None}
        # ... and more cuts of it, made only if neither patch is read (most dice never need them).
        more = (lambda i: self._more_cuts(image, dice[i].box, MORE_CUTS)) if photo and MORE_CUTS else None
        self._check_faces(dice, problems, self.last_recuts, more)
        if not photo:
            problems.extend(self._size_checks(measured, split_parts))
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
        if self._stray_pips(mask, die, [b.box for b in blobs], self._mask_box):
            problems.append("marks like pips outside every die found (a die not seen?)")
        if any("large object" in p for p in problems):
            return DiceResult("unsure", tuple(dice), "; ".join(dict.fromkeys(problems)))
        if voids and self.options.count is not None and len(dice) > self.options.count:
            # More dice than the game throws: some "die" is not one (a shadow, a split heap), and it may
            # be the one that voids, so neither void nor ok is safe.
            problems.append(f"found {len(dice)} dice, expected {self.options.count}")
            return DiceResult("unsure", tuple(dice), "; ".join(dict.fromkeys(problems + sorted(set(voids)))))
        if voids:
            return DiceResult("void", tuple(dice), "; ".join(sorted(set(voids))))
        problems.extend(self._expectations(dice))
        if problems:
            return DiceResult("unsure", tuple(dice), "; ".join(dict.fromkeys(problems)))
        return DiceResult("ok", tuple(dice), "")

    def _check_faces(self, dice: list[Die], problems: list[str],
                     recuts: dict[int, np.ndarray] | None = None,
                     more: Callable[[int], list[np.ndarray]] | None = None) -> None:
        """The face model's second opinion on every die read from a patch (heap reads have none).

        A die counts as read only where the model gives the pip count's value at least MODEL_AGREE;
        otherwise the image is unsure (the model's cocked class counts only in the calibrated view,
        where flatness is judged; a void found by the flatness checks still takes precedence).
        Where the pips could not be read and the model is at least MODEL_ONLY (photo mode:
        MODEL_ONLY_PHOTO with its own model, MODEL_ONLY_PHOTO_GREY with the table's) sure, the die gets the
        model's value, but the image stays unsure (the failed pip count is already among the problems).
        """
        model = self.face_model if self.calibration is not None else self._photo_model()
        if model is None:
            return
        items = [(i, patch) for patch, _, i in self.last_patches if i is not None]
        if not items:
            return
        floor = MODEL_ONLY if self.calibration is not None else (
            MODEL_ONLY_PHOTO if getattr(model, "colour", False) else MODEL_ONLY_PHOTO_GREY)
        guesses = model.classify([patch for _, patch in items], judge_tilt=self.calibration is not None)
        recut = recuts or {}
        again = [k for k, ((i, _), g) in enumerate(zip(items, guesses))
                 if recut and i in recut and dice[i].value is None and not second_opinion(None, g, floor)[1]]
        recut_read: set[int] = set()
        for k, g in zip(again, model.classify([recut[items[k][0]] for k in again], judge_tilt=False)
                        if again else []):
            chosen = recut_opinion(dice[items[k][0]].value, guesses[k], g, floor)
            if chosen is g:
                guesses[k] = g
                recut_read.add(items[k][0])
        own = self.calibration is None and getattr(model, "colour", False)  # photo mode with its own model
        more_read = self._read_more_cuts(model, items, guesses, dice, floor, set(recuts or ()), more) \
            if more is not None and own else set()
        show = SHOW_FLOOR_PHOTO if own else 0.0
        for (i, _), guess in zip(items, guesses):
            d = dice[i]
            shown, verdict = second_opinion(d.value, guess, floor, show)
            if verdict == "disagree":
                said = {0: "not a readable face", facemodel.COCKED_CLASS: "a cocked die"}.get(
                    guess.value, f"a {guess.value}")
                dice[i] = replace(d, value=shown, reason=d.reason or f"pip count {d.value}, face model {said}")
                problems.append(COCKED_BY_MODEL if guess.value == facemodel.COCKED_CLASS else DISAGREE)
            elif verdict == "model only":
                dice[i] = replace(d, value=shown, confidence=round(guess.probability * 0.5, 3),
                                  reason=f"read by the face model only{', patch re-cut' if i in recut_read else ''}"
                                         f"{', cut again several ways' if i in more_read else ''} "
                                         f"({d.reason or 'pips not read'})")

    @staticmethod
    def _read_more_cuts(model: facemodel.FaceModel, items: list[tuple[int, np.ndarray]],
                        guesses: list[facemodel.FaceGuess], dice: list[Die], floor: float,
                        recut: set[int], more: Callable[[int], list[np.ndarray]]) -> set[int]:
        """Photo mode (branch photo6): the dice still unread after their re-cut (``recut``: the dice that had
        one) are cut again (``more``: die index -> its more cuts) and read from those cuts (more_cuts_opinion),
        all in one batch; ``guesses`` updated in place.  Returns the dice read so."""
        left = [k for k, ((i, _), g) in enumerate(zip(items, guesses))
                if i in recut and dice[i].value is None and not second_opinion(None, g, floor)[1]]
        cuts_of = {items[k][0]: more(items[k][0]) for k in left}
        left = [k for k in left if cuts_of[items[k][0]]]
        if not left:
            return set()
        flat = model.classify([p for k in left for p in cuts_of[items[k][0]]], judge_tilt=False)
        read: set[int] = set()
        at = 0
        for k in left:
            cuts = flat[at:at + len(cuts_of[items[k][0]])]
            at += len(cuts)
            chosen = more_cuts_opinion(None, guesses[k], cuts, floor, MORE_FLOOR, MORE_AGREE)
            if chosen is not guesses[k]:
                guesses[k] = chosen
                read.add(items[k][0])
        return read

    def _photo_model(self) -> facemodel.FaceModel | None:
        """Photo mode's face model: its own (loaded once, at the first photo read), else ``face_model``."""
        spec = self._photo_face_spec
        if isinstance(spec, facemodel.FaceModel):
            return spec
        if spec is False or self.photo_face_note:
            return self.face_model
        if self._photo_face is None:
            path = facemodel.PHOTO_MODEL if spec is True else Path(spec)
            self._photo_face, problem = facemodel.load(path, photo=True)
            if self._photo_face is None:
                self.photo_face_note = problem
                log.warning("%s; photo mode reads with the table's face model", problem)
                return self.face_model
        return self._photo_face

    @staticmethod
    def _felt_like(image: np.ndarray, blob: _Blob, patch: np.ndarray, die: float) -> bool:
        """The blob's body colour lies within FELT_LIKE Lab units of the felt in a ring just around it, or
        within FELT_CHROMA of its colour whatever the lightness (a glare spot on the felt near the table's
        edge, tens of units lighter than the felt beside it: held-out seeds 705515 and 707720 were voided
        for it).  A die of the felt's own colour whose pips cannot be read is then `unsure`, not `void`."""
        x, y, w, h = blob.box
        pad = int(0.3 * die)
        H, W = image.shape[:2]
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
        ring = np.ones((y1 - y0, x1 - x0), bool)
        ring[max(0, y - y0):y + h - y0, max(0, x - x0):x + w - x0] = False
        if ring.sum() < 20:
            return False
        lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
        around = np.median(lab[ring], axis=0)
        body = np.median(cv2.cvtColor(patch[16:-16, 16:-16], cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32),
                         axis=0)
        d = body - around
        return float(np.sqrt(np.sum(d ** 2))) < FELT_LIKE or float(np.hypot(d[1], d[2])) < FELT_CHROMA

    @staticmethod
    def _stray_pips(mask: np.ndarray, die: float, boxes: list[tuple[int, int, int, int]],
                    box: tuple[int, int, int, int] | None = None) -> bool:
        """Pip-sized round marks outside every blob: the pips of a die the felt hides (white on white).

        ``box`` (x, y, w, h): where every set pixel of the mask lies, when known; the contours are then
        traced in it alone (findContours pads its input with a zero border: the same contours, offset).
        """
        if box is not None:
            x, y, w, h = box
            if not w or not h:
                return False
            contours, _ = cv2.findContours(mask[y:y + h, x:x + w], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                           offset=(x, y))
        else:
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        marks = []
        pad = 0.3 * die
        for c in contours:
            area = cv2.contourArea(c)
            if not 0.015 * die * die <= area <= 0.2 * die * die:
                continue
            (mx, my), radius = cv2.minEnclosingCircle(c)
            if area < 0.5 * math.pi * radius * radius:
                continue
            if any(bx - pad <= mx <= bx + bw + pad and by - pad <= my <= by + bh + pad for bx, by, bw, bh in boxes):
                continue
            marks.append((mx, my, area))
        for i, (mx, my, area) in enumerate(marks):
            if area >= 0.05 * die * die:
                return True
            if any(math.hypot(mx - x2, my - y2) < 0.9 * die for j, (x2, y2, _) in enumerate(marks) if j != i):
                return True
        return False

    @staticmethod
    def _split(mask: np.ndarray, blob: _Blob, die: float) -> list[_Blob]:
        """Touching dice: the cores of the distance transform grown back to squares."""
        (cx, cy), (rw, rh), ang = blob.rect
        short, long_ = min(rw, rh), max(rw, rh)
        if 0.8 * die < short < 1.25 * die and 1.7 * die < long_ < 2.5 * die:
            # Two dice side by side along one edge: halve the rectangle along its long axis.
            a = math.radians(ang if rw >= rh else ang + 90)
            dx, dy = math.cos(a) * long_ / 4, math.sin(a) * long_ / 4
            halves = []
            for sgn in (-1, 1):
                rect = ((cx + sgn * dx, cy + sgn * dy), (long_ / 2, short) if rw >= rh else (short, long_ / 2), ang)
                bx, by, bw, bh = cv2.boundingRect(cv2.boxPoints(rect).astype(np.int32))
                halves.append(_Blob(rect, (bx, by, bw, bh), long_ / 2 * short, blob.touches_edge))
            return halves
        x0, y0, w, h = blob.box
        roi = mask[y0:y0 + h, x0:x0 + w]
        dist = cv2.distanceTransform(roi, cv2.DIST_L2, 5)
        r = 0.33 * die
        core = (dist > r).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
        parts = []
        for i in range(1, count):
            ys, xs = np.nonzero(labels == i)
            if len(xs) < 4:
                continue
            pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
            (cx, cy), (cw, ch), ang = cv2.minAreaRect(pts)
            rect = ((cx, cy), (cw + 2 * r, ch + 2 * r), ang)
            side = math.sqrt(rect[1][0] * rect[1][1])
            if not 0.7 * die < side < 1.45 * die:
                return []
            bx, by, bw, bh = cv2.boundingRect(cv2.boxPoints(rect).astype(np.int32))
            parts.append(_Blob(rect, (bx, by, bw, bh), rect[1][0] * rect[1][1], blob.touches_edge))
        return parts if len(parts) >= 2 else []

    def _flatness(self, blob: _Blob, die: float, face) -> tuple[bool, str]:
        """Flat or not, from the footprint against the calibrated die size and the pip shape.

        A die tilted by t shows a footprint s*(cos t + sin t) long and its top
        pips squeezed by cos t.  Without calibration there is no reference size
        and only a strongly squeezed face is called into doubt.
        """
        if self.calibration is None:
            return True, ""
        side_share = face.side_share
        footprint = max(blob.rect[1]) / die
        # Void only when two independent signs agree: side-face evidence in the patch (a shaded strip or
        # two squeezed side pips) and a footprint longer than a die (the side face widens it).
        if (side_share > 0.2 or face.side_marks >= 2) and footprint > VOID_FOOTPRINT:
            return False, ""
        if side_share > 0.2 or face.side_marks >= 2:
            return True, "a die may not lie flat (side-face marks, but a die-sized footprint)"
        if side_share > 0.06 or face.side_marks == 1:
            return True, "a die may not lie flat"
        return True, ""

    def _size_checks(self, measured: list[tuple[_Blob, str, tuple | None]], split_parts: set[int]) -> list[str]:
        """Tilt signs from each die's size against the calibrated flat die of its colour.

        A die whose side face stands out from the felt (red on green) is judged by its whole
        footprint: longer than a flat one's means a side face in view.  A die the felt's colour
        (green on green) hides its side face: its top face must be the flat one's size, and its
        footprint no smaller than the other dice's (a cocked green die's top face is shorter; the
        foreground misses its darker side).  Without per-colour sizes (older calibration files),
        or when a die cannot be measured by colour, the dice's footprints must agree within
        MIN_AREA_RATIO, the older and costlier check.
        """
        cal = self.calibration
        assert cal is not None
        whole = [(b, c, m) for b, c, m in measured if id(b) not in split_parts]
        sizes = cal.die_sizes
        if not sizes or any(c not in sizes or m is None for _, c, m in whole):
            areas = [b.rect[1][0] * b.rect[1][1] for b, _, _ in measured]
            if len(areas) >= 2 and min(areas) < MIN_AREA_RATIO * max(areas):
                return ["dice of different sizes in view (a die may be tilted)"]
            return []
        out = []
        for b, colour, m in ((b, c, m) for b, c, m in whole if m is not None):  # each one is, by the test above
            ref = sizes[colour]
            top_short, top_long, _, die_long, contrast = m
            if contrast >= SIDE_CONTRAST:
                if die_long > DIE_LONG_MAX * ref.long:
                    out.append(f"a {colour} die's footprint is longer than a flat one's (a side face in view: tilted?)")
                continue
            hidden = "(tilted? its side face would not show on this felt)"
            if top_short < TOP_SHORT_MIN * ref.top or top_long > TOP_LONG_MAX * ref.top:
                out.append(f"a {colour} die's top face is not the size of a flat one's {hidden}")
            others = [o.rect[1][0] * o.rect[1][1] for o, _, _ in whole if o is not b]
            # The side pips (drivers/vision/sidepips.py) now catch most such dice; a smaller footprint alone is
            # common on flat green dice too (the foreground misses their edge), so it counts only with a top
            # face a little short as well.
            if others and b.rect[1][0] * b.rect[1][1] < HIDDEN_AREA_RATIO * max(others) \
                    and top_short < HIDDEN_TOP_SHORT * ref.top:
                out.append(f"a {colour} die looks smaller than the other dice {hidden}")
        return out

    def measure_die_sizes(self, image: np.ndarray) -> dict[str, DieSize]:
        """Per colour, the size of the dice in a calibration frame (flat dice, apart, inside the area).

        Measured as the size checks measure (body_footprint), so calibration and reading agree.
        """
        self._measuring = True  # the footprints are measured even though the calibration has no sizes yet
        try:
            self.read(image)
        finally:
            self._measuring = False
        found: dict[str, list[tuple]] = {}
        for f in self.last_features:
            if f["body"] is not None and not f["split"]:
                found.setdefault(f["color"], []).append(f["body"])
        return {c: DieSize(float(np.median([(m[0] + m[1]) / 2 for m in ms])), float(np.median([m[3] for m in ms])))
                for c, ms in sorted(found.items())}

    def _expectations(self, dice: list[Die]) -> list[str]:
        opts = self.options
        out = []
        if opts.count is not None and len(dice) != opts.count:
            out.append(f"found {len(dice)} dice, expected {opts.count}")
        if opts.colors:
            have = sorted(d.color for d in dice)
            if have != sorted(opts.colors):
                out.append(f"die colours {', '.join(have) or 'none'}, expected {', '.join(sorted(opts.colors))}")
        if opts.count is None and not dice:
            out.append("no dice found")
        return out


__all__ = ["DiceReader", "DiceResult", "Die", "DiceOptions", "color_name", "PATCH", "MIN_CONFIDENCE",
           "DETECT_DIE", "DETECT_READ", "field"]
