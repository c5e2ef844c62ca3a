"""Photo mode's re-cut of a die the face model cannot read (branch photocrop): DiceReader._recut and
dice.recut_opinion, on constructed patches and a stand-in model."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from drivers.vision import facemodel
from drivers.vision.detector import Detection
from drivers.vision.dice import MODEL_ONLY_PHOTO, DiceReader, Die, recut_opinion

FLOOR = MODEL_ONLY_PHOTO


def guess(value: int, probability: float) -> facemodel.FaceGuess:
    probs = [0.0] * 8
    probs[value] = probability
    probs[0 if value else 1] += 1.0 - probability
    return facemodel.FaceGuess(value, probability, tuple(probs))


def test_the_re_cut_counts_only_for_an_unread_die_the_model_cannot_read_and_only_at_the_floor() -> None:
    unsure, sure = guess(4, 0.3), guess(5, 0.9)
    assert recut_opinion(None, unsure, sure, FLOOR) is sure
    assert recut_opinion(None, unsure, guess(5, 0.4), FLOOR).value == 4     # the re-cut is unsure too
    assert recut_opinion(None, unsure, guess(0, 0.9), FLOOR) is unsure      # "not a face" is no value
    assert recut_opinion(None, guess(2, 0.6), sure, FLOOR).value == 2       # the first patch was read
    assert recut_opinion(3, unsure, sure, FLOOR) is unsure                  # the pips were read: no re-cut
    assert recut_opinion(None, unsure, None, FLOOR) is unsure               # none cut


def scene() -> np.ndarray:
    """A white die (40 px) on a dark green felt."""
    image = np.zeros((240, 240, 3), np.uint8)
    image[:] = (40, 90, 30)
    image[100:140, 100:140] = 255
    return image


def test_the_re_cut_sits_on_the_detector_box_that_overlaps_the_die() -> None:
    reader = DiceReader(face_model=False)
    off = (118, 92, 40, 40)  # the reader's box, off the die by 18 px and 8 px
    reader.last_detections = [Detection((100, 100, 40, 40), 0.9), Detection((20, 20, 40, 40), 0.9)]
    patch = reader._recut(scene(), off)
    assert patch.shape[:2] == (64, 64)
    assert patch[4:60, 4:60].min() > 200  # all die
    reader.last_detections = []  # no detection: centred on the die's own box, so it shows felt
    assert (reader._recut(scene(), off)[:, :, 0] < 100).mean() > 0.3


class CentredOnly:
    """A stand-in colour face model: sure (a 6) only of a patch that is all die, else unsure."""

    colour = True

    def __init__(self) -> None:
        self.calls = 0

    def classify(self, patches: Sequence[np.ndarray], judge_tilt: bool = True) -> list[facemodel.FaceGuess]:
        self.calls += 1
        return [guess(6, 0.9) if p[4:60, 4:60].min() > 200 else guess(6, 0.3) for p in patches]


def test_an_unsure_unread_die_is_read_from_its_re_cut_and_the_image_keeps_its_problems() -> None:
    model = CentredOnly()
    reader = DiceReader(face_model=False, photo_face_model=True)
    reader._photo_face = model  # the stand-in, as if loaded
    image = scene()
    off = (118, 92, 40, 40)
    first = reader._recut(image, off)  # no detections yet: centred on the reader's box, half felt
    reader.last_detections = [Detection((100, 100, 40, 40), 0.9)]
    dice = [Die(None, "white", off, True, 0.0, "pips not read")]
    reader.last_patches = [(first, off, 0)]
    problems = ["cannot read the die at [118, 92, 40, 40]: pips not read"]
    reader._check_faces(dice, problems, {0: reader._recut(image, off)})
    assert dice[0].value == 6 and "re-cut" in dice[0].reason
    assert problems == ["cannot read the die at [118, 92, 40, 40]: pips not read"]  # the image stays unsure
    assert model.calls == 2  # the re-cut is classified only because the first patch was not read
    # Without a re-cut the die stays unread.
    dice = [Die(None, "white", off, True, 0.0, "pips not read")]
    reader.last_patches = [(first, off, 0)]
    reader._check_faces(dice, [], {})
    assert dice[0].value is None
