"""Photo mode: the learned detector's dice joined with the classical finder's (docs/devices/vision.md,
"Finding dice in photos: the detector").

``DetectorJoin`` is a mixin of ``DiceReader``: it uses the reader's detector,
its last background estimate and its record of die patches.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from drivers.vision.detector import Detection, DiceDetector
from drivers.vision.dice_result import MIN_CONFIDENCE, Die, color_name
from drivers.vision.labels import overlap
from drivers.vision.pips import FaceReading, read_face, rectify

if TYPE_CHECKING:
    from drivers.vision.dice import _Enlarged

# Chosen on the train half of the real photos.
DETECT_DIE = 0.5  # a heatmap peak at least this high is a die the reader must account for
DETECT_READ = MIN_CONFIDENCE  # a die only the detector found counts as read at this pip confidence
FOUND_BY_DETECTOR = "found by the detector"


# Branch dice4 (issue 28, the oblique side face): a die only the detector found, right against a die already
# read, is that die's side face (an oblique camera sees the top face and, beside it, a squeezed side face whose
# pips the detector can take for a die) when its box is squeezed (long over short side above SIDE_ASPECT: a top
# face seen from up to 35 degrees off overhead is at most 1.22 long, a side face seen from 35 degrees at least
# 1.74) or its centre lies nearer the die's centre than SIDE_NEAR of the die box's short side (two touching top
# faces are at least 0.71 of it apart, turned 45 degrees; a side face's centre overlapping its top face nearer).
# Set from that geometry before any figure of a left-out source was seen for them.  Candidate L1 had it on;
# L1 was not adopted (docs/devices/vision.md, the look of 06:04-06:07 on 2026-12-02), so DiceReader.side_faces
# is off unless set.
SIDE_ASPECT = 1.5
SIDE_NEAR = 0.6


# Branch dice6 (issue 28, the confident wrong dice_44: five 1s on a desk seen obliquely, and two of their side
# faces, each showing 3, found by the detector alone and counted as two more dice).  A refusal, not a guess:
# a read die found by the detector only whose box touches or overlaps another read die's box (within
# TOUCH_GAP of the larger box's long side) may be that die's side face in an oblique view, or a die of its
# own touching it; which one the photo cannot settle, so the image is unsure and the reason names both dice.
# Nothing is dropped: both keep their values (a real die touching another keeps its read).  Set from the
# geometry of a side face (it shares an edge with its top face) before any look at a left-out source for it;
# the gap is side_face_of's.
TOUCH_GAP = 0.15


def boxes_touch(a: tuple[int, int, int, int], b: tuple[int, int, int, int], gap: float = TOUCH_GAP) -> bool:
    """True when the two boxes overlap or lie within ``gap`` of the larger box's long side of each other."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    g = gap * max(aw, ah, bw, bh)
    return not (ax > bx + bw + g or bx > ax + aw + g or ay > by + bh + g or by > ay + ah + g)


def touching_detector_dice(dice: list[Die]) -> list[tuple[Die, Die]]:
    """Pairs (detector-only die, other die) of read dice whose boxes touch (boxes_touch): the first was found
    by the detector alone (reason "found by the detector"), so it may be the other's side face."""
    pairs = []
    for i, a in enumerate(dice):
        if a.value is None or a.reason != FOUND_BY_DETECTOR:
            continue
        for j, b in enumerate(dice):
            if j != i and b.value is not None and boxes_touch(a.box, b.box) \
                    and not (b.reason == FOUND_BY_DETECTOR and j < i):
                pairs.append((a, b))
    return pairs


def side_face_of(det_box: tuple[int, int, int, int], die_box: tuple[int, int, int, int]) -> bool:
    """True when ``det_box`` (a detection no classical die covers) is likely the side face of the die in
    ``die_box``: its box touches or overlaps the die's, and it is squeezed or its centre is too near."""
    x, y, w, h = det_box
    dx, dy, dw, dh = die_box
    gap = 0.15 * max(dw, dh)
    if x > dx + dw + gap or dx > x + w + gap or y > dy + dh + gap or dy > y + h + gap:
        return False
    squeezed = max(w, h) > SIDE_ASPECT * max(1, min(w, h))
    dist = math.hypot(x + w / 2 - dx - dw / 2, y + h / 2 - dy - dh / 2)
    return squeezed or dist < SIDE_NEAR * min(dw, dh)


# Branch photo6: the views of the re-cut square (scale of its side; centre moved by dx, dy of its side) that
# photo mode cuts of a die its face model reads from neither its patch nor its re-cut (dice.more_cuts_opinion):
# grown and shrunk, shifted a tenth of the side left, right, up, down.  Chosen on the train half's folds 1-3
# (tools/vision_model/photo6_rule.md); tools/vision_model/photo_eval.py's GRID names them.
MORE_CUTS: tuple[tuple[float, float, float], ...] = (
    (0.8, 0.0, 0.0), (0.9, 0.0, 0.0), (1.1, 0.0, 0.0), (1.25, 0.0, 0.0),
    (1.0, -0.1, 0.0), (1.0, 0.1, 0.0), (1.0, 0.0, -0.1), (1.0, 0.0, 0.1))


def recut_square(detections: list[Detection], box: tuple[int, int, int, int]) -> tuple[tuple[float, float], float]:
    """The re-cut's upright square (centre, side): on the detector box that overlaps ``box`` most (over 0.3),
    else on ``box`` itself, its side the box's longer side."""
    over = [(overlap(t.box, box), t) for t in detections]
    best = max(((o, t) for o, t in over if o > 0.3), key=lambda p: p[0], default=None)
    x, y, w, h = best[1].box if best is not None else box
    return (x + w / 2, y + h / 2), float(max(w, h, 1))


def cut_square(image: np.ndarray, square: tuple[tuple[float, float], float],
               scale: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    """The rectified patch of an upright square, its side times ``scale``, its centre moved by ``dx``,
    ``dy`` sides (1, 0, 0: the square itself)."""
    (cx, cy), side = square
    return rectify(image, ((cx + dx * side, cy + dy * side), (side * scale, side * scale), 0.0), grow=1.0)


class DetectorJoin:
    """The photo-mode joining rules, mixed into DiceReader."""

    if TYPE_CHECKING:
        _detector: DiceDetector | None
        _detector_model: Path | None
        detector_note: str
        last_detections: list[Detection]
        last_patches: list[tuple[np.ndarray, tuple[int, int, int, int], int | None]]
        _last_background: np.ndarray | _Enlarged | None
        _scale: int
        split_merged: bool
        side_faces: bool

    def _join_detections(self, image: np.ndarray, dice: list[Die], problems: list[str]) -> None:
        """Photo mode: join the learned detector's dice with the classical ones (docs/devices/vision.md,
        "Finding dice in photos: the detector"; each rule chosen by measurement on the train half).

        A detected die with no classical die over it is read from its own box; one that cannot be read
        keeps the image unsure.  A classical die box holding two or more detections is read as those dice
        (_split_merged; the image stays unsure).  A classical die left unread is read again in the detector's
        box (the classical refusal stays: the image remains unsure).  A classical read the detector does not
        back (no die seen there, two dice seen in it, or a different value in the detector's box)
        makes the image unsure.  Without the model the image cannot be ok: a missed die is possible.
        """
        if self._detector is None and not self.detector_note:
            self._detector, self.detector_note = DiceDetector.load(self._detector_model)
        if self._detector is None:
            problems.append(f"{self.detector_note}; dice the classical finder missed cannot be ruled out")
            return
        seen = self._detector.detect(image)
        found = [t for t in seen if t.score >= DETECT_DIE]
        self.last_detections = found
        merged: list[tuple[int, list[Detection]]] = []
        for k, d in enumerate(dice):
            x, y, w, h = d.box
            inside = [t for t in found if x <= t.centre[0] <= x + w and y <= t.centre[1] <= y + h]
            if len(inside) >= 2:
                problems.append(f"the detector sees {len(inside)} dice at {list(d.box)}, read as one")
                merged.append((k, inside))
            if d.value is not None and not any(overlap(t.box, d.box) > 0.3 for t in seen):
                problems.append(f"the detector sees no die at {list(d.box)}")
            if d.value is not None and len(inside) == 1 and self._whole_face(inside[0].box, d.box):
                again = self._read_detected(image, inside[0].box)[0]
                if again is not None and again != d.value:
                    problems.append(f"the die at {list(d.box)} reads {d.value} or {again}")
        used = self._split_merged(image, dice, merged) if self.split_merged else set()
        for det in found:
            if id(det) in used:
                continue
            over = [i for i, d in enumerate(dice) if overlap(det.box, d.box) > 0.3]
            if any(dice[i].value is not None for i in over):
                continue
            beside = next((d for d in dice if d.value is not None and side_face_of(det.box, d.box)), None) \
                if self.side_faces else None
            if not over and beside is not None:
                # Not a die of its own: the side face of the die beside it, seen obliquely (SIDE_ASPECT).
                problems.append(f"the detector's die at {list(det.box)} may be a side face of the die at "
                                f"{list(beside.box)} (an oblique view): not counted")
                continue
            value, face, patch = self._read_detected(image, det.box)
            if over:  # classical die(s) here, none read: a second try in the detector's box
                if value is not None and len(over) == 1:
                    old = dice[over[0]]
                    dice[over[0]] = Die(value, old.color, old.box, old.flat, face.confidence,
                                        "read in the detector's box")
                    self.last_patches = [(patch if i == over[0] else p, b, i) for p, b, i in self.last_patches]
                continue
            self.last_patches.append((patch, det.box, len(dice)))
            dice.append(Die(value, color_name(patch), det.box, True, face.confidence, FOUND_BY_DETECTOR))
            if value is None:
                problems.append(f"cannot read the die the detector found at {list(det.box)}: "
                                f"{face.reason or 'low confidence'}")
        for found_die, other in touching_detector_dice(dice):
            problems.append(f"the die the detector found at {list(found_die.box)} touches the die at "
                            f"{list(other.box)}: it may be that die's side face (an oblique view)")

    def _split_merged(self, image: np.ndarray, dice: list[Die], merged: list[tuple[int, list[Detection]]]) -> set[int]:
        """Photo mode: a die box holding the centres of two or more detections is two or more dice the
        classical finder took as one (touching or stacked).  Each detection not over another die (box
        overlap above 0.3: that one is its own die) is read from its own box, the first taking the merged
        die's place, the others added; the image stays unsure (the "read as one" problem is kept).
        Returns the ids of the detections used."""
        used: set[int] = set()
        for k, inside in merged:
            own = [t for t in inside if not any(overlap(t.box, o.box) > 0.3 for j, o in enumerate(dice) if j != k)]
            kept: list[Detection] = []
            for t in sorted(own, key=lambda t: -t.score):  # a side face beside a surer top face is not a die
                if not self.side_faces or not any(side_face_of(t.box, o.box) for o in kept):
                    kept.append(t)
            own = [t for t in own if t in kept]
            if len(own) < 2:
                continue
            for n, det in enumerate(own):
                value, face, patch = self._read_detected(image, det.box)
                die = Die(value, color_name(patch), det.box, True, face.confidence, "one of dice read as one")
                if n == 0:
                    dice[k] = die
                    self.last_patches = [p for p in self.last_patches if p[2] != k] + [(patch, det.box, k)]
                else:
                    self.last_patches.append((patch, det.box, len(dice)))
                    dice.append(die)
                used.add(id(det))
        return used

    @staticmethod
    def _whole_face(box: tuple[int, int, int, int], die_box: tuple[int, int, int, int]) -> bool:
        """A detector box fit for a second reading of a die: square-ish and at least a fifth of the die's
        box (an elongated or small box covers only part of the face: its pips would read short)."""
        tw, th = box[2], box[3]
        return max(tw, th) <= 1.3 * max(1, min(tw, th)) and tw * th >= 0.2 * die_box[2] * die_box[3]

    def _recut(self, image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
        """Photo mode: a second patch of a die the face model could not read from its first (branch
        photocrop): an upright square centred on the detector box that overlaps the die's box most (over
        0.3), else on the die's own box, its side the box's longer side.  The first patch can sit off the
        die (a blob grown by a shadow or cut by glare); the detector's box is an independent guess of where
        the die is."""
        return cut_square(image, recut_square(self.last_detections, box))

    def _more_cuts(self, image: np.ndarray, box: tuple[int, int, int, int],
                   views: tuple[tuple[float, float, float], ...] = MORE_CUTS) -> list[np.ndarray]:
        """Photo mode: more patches of a die the face model reads from neither its patch nor its re-cut
        (branch photo6): the re-cut's square grown or shrunk and shifted (``views``: scale, dx, dy)."""
        square = recut_square(self.last_detections, box)
        return [cut_square(image, square, *view) for view in views]

    def _read_detected(self, image: np.ndarray, box: tuple[int, int, int, int]) -> tuple:
        """(value or None, face reading, patch) in a detector box: the die's fitted rectangle, then the
        box itself, then the box grown by a fifth; the first read at DETECT_READ confidence counts."""
        x, y, w, h = box
        centre = (x + w / 2, y + h / 2)
        tries = (self._fit_rect(image, box), (centre, (float(w), float(h)), 0.0), (centre, (1.2 * w, 1.2 * h), 0.0))
        felt = self._felt_lab_at(box)
        first: tuple[FaceReading, np.ndarray] | None = None
        for rect in tries:
            patch = rectify(image, rect, grow=1.0)
            face = read_face(patch, felt)
            first = first or (face, patch)
            if face.value is not None and face.confidence >= DETECT_READ:
                return face.value, face, patch
        assert first is not None  # three tries: the first one was read
        return None, first[0], first[1]

    @staticmethod
    def _fit_rect(image: np.ndarray, box: tuple[int, int, int, int]) -> tuple:
        """The die's turned rectangle inside a detector box: the part of the box (grown by a fifth) that
        differs most from its border (Otsu), as a minimum-area rectangle; the box itself if that fails."""
        x, y, w, h = box
        fallback = ((x + w / 2, y + h / 2), (float(w), float(h)), 0.0)
        pad = int(0.2 * max(w, h)) + 1
        x0, y0 = max(0, x - pad), max(0, y - pad)
        roi = image[y0:y + h + pad, x0:x + w + pad]
        if roi.shape[0] < 8 or roi.shape[1] < 8:
            return fallback
        lab = cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).astype(np.float32)
        border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
        dist = np.linalg.norm(lab - np.median(border, axis=0), axis=2)
        dist = cv2.normalize(dist, np.zeros_like(dist), 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
        _, mask = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        count, labels_, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        cy, cx = min(roi.shape[0] - 1, y + h // 2 - y0), min(roi.shape[1] - 1, x + w // 2 - x0)
        label = labels_[cy, cx]
        if label == 0:
            return fallback
        ys, xs = np.nonzero(labels_ == label)
        (rx, ry), (rw, rh), ang = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
        side = math.sqrt(max(1.0, rw * rh))
        if not 0.75 * max(w, h) <= side <= 1.35 * max(w, h) or max(rw, rh) > 1.3 * min(rw, rh):
            return fallback
        return (rx + x0, ry + y0), (rw, rh), ang

    def _felt_lab_at(self, box: tuple[int, int, int, int]) -> np.ndarray | None:
        """The felt's Lab colour around a box, from the last read's background estimate."""
        background = self._last_background
        if not isinstance(background, np.ndarray):  # None; photo mode's felt estimate is never an _Enlarged
            return None
        x, y, w, h = (v // self._scale for v in box)
        ring = background[max(0, y):y + h, max(0, x):x + w].reshape(-1, 1, 3)
        if not ring.size:
            return None
        return cv2.cvtColor(np.median(ring, axis=0).astype(np.uint8).reshape(1, 1, 3),
                            cv2.COLOR_BGR2LAB).astype(np.float32).reshape(3)
