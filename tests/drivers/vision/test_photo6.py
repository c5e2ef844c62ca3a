"""Photo mode's more cuts of a die its face model cannot read and its show floor for disagreements (branch
photo6): dice.more_cuts_opinion, the show floor of dice.second_opinion, DetectorJoin._more_cuts and
DiceReader._check_faces, on constructed patches and stand-in models."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from drivers.vision import facemodel, photo_join
from drivers.vision.detector import Detection
from drivers.vision.dice import (DISAGREE, MODEL_ONLY_PHOTO, MORE_AGREE, MORE_FLOOR, SHOW_FLOOR_PHOTO, DiceReader,
                                 Die, more_cuts_opinion, second_opinion)

FLOOR = MODEL_ONLY_PHOTO


def guess(value: int, probability: float, **others: float) -> facemodel.FaceGuess:
    """A guess of ``value`` at ``probability``; ``others``: more classes' probabilities (``p2=0.2``), the
    rest on class 0 ("not a readable face"), never above ``probability``."""
    probs = [0.0] * facemodel.CLASSES
    probs[value] = probability
    for name, p in others.items():
        probs[int(name[1:])] = p
    probs[0] += max(0.0, 1.0 - sum(probs))
    return facemodel.FaceGuess(value, probability, tuple(probs))


def test_more_cuts_give_a_value_only_when_enough_agree_at_their_floor_and_none_names_another() -> None:
    unsure = guess(6, 0.3)
    two = [guess(3, 0.7), guess(3, 0.65), guess(6, 0.4)]
    assert more_cuts_opinion(None, unsure, two, FLOOR, 0.6, 2) is two[0]                   # the surest of them
    assert more_cuts_opinion(None, unsure, two + [guess(5, 0.6)], FLOOR, 0.6, 2) is unsure  # another value named
    assert more_cuts_opinion(None, unsure, two + [guess(5, 0.59)], FLOOR, 0.6, 2) is two[0]  # under the floor
    assert more_cuts_opinion(None, unsure, two + [guess(0, 0.99)], FLOOR, 0.6, 2) is two[0]  # "not a face": no value
    assert more_cuts_opinion(None, unsure, [guess(3, 0.7), guess(3, 0.55)], FLOOR, 0.6, 2) is unsure  # one at 0.6
    assert more_cuts_opinion(None, unsure, two, FLOOR, 0.6, 3) is unsure                   # three must agree
    assert more_cuts_opinion(4, unsure, two, FLOOR, 0.6, 2) is unsure                      # pips read: not used
    read = guess(2, 0.55)
    assert more_cuts_opinion(None, read, two, FLOOR, 0.6, 2) is read                       # already read
    assert more_cuts_opinion(None, unsure, [], FLOOR, 0.6, 2) is unsure                    # none cut
    # The shipped rule: at least 2 cuts at 0.6, no other value there.
    assert (MORE_AGREE, MORE_FLOOR) == (2, 0.6)
    assert len(photo_join.MORE_CUTS) == 8


def test_a_disagreement_shows_the_models_value_only_where_it_is_sure_enough() -> None:
    unsure_four = guess(4, 0.45, p2=0.3)
    assert second_opinion(2, unsure_four, FLOOR) == (4, "disagree")                      # the table's rule
    assert second_opinion(2, unsure_four, FLOOR, SHOW_FLOOR_PHOTO) == (2, "disagree")    # photo mode: the pips
    assert second_opinion(2, guess(4, 0.7, p2=0.2), FLOOR, SHOW_FLOOR_PHOTO) == (4, "disagree")
    assert second_opinion(2, guess(0, 0.9, p2=0.1), FLOOR, SHOW_FLOOR_PHOTO) == (2, "disagree")
    assert second_opinion(2, guess(2, 0.6), FLOOR, SHOW_FLOOR_PHOTO) == (2, "")          # agreement: unchanged


def scene() -> np.ndarray:
    """A white die (40 px) on a dark green felt."""
    image = np.zeros((240, 240, 3), np.uint8)
    image[:] = (40, 90, 30)
    image[100:140, 100:140] = 255
    return image


def felt_left(patch: np.ndarray) -> bool:
    return patch[4:60, :3, 0].mean() < 100


def felt_right(patch: np.ndarray) -> bool:
    return patch[4:60, -3:, 0].mean() < 100


def felt_both_sides(patch: np.ndarray) -> bool:
    return felt_left(patch) and felt_right(patch) and patch[28:36, 28:36].min() > 200


class WholeDieOnly:
    """A stand-in colour face model: sure (a 6) only of a patch showing felt on both sides of the die."""

    colour = True

    def __init__(self, other: facemodel.FaceGuess | None = None) -> None:
        self.calls = 0
        self.other = other  # what it says of a patch cut off the die's centre (shifted), if anything

    def classify(self, patches: Sequence[np.ndarray], judge_tilt: bool = True) -> list[facemodel.FaceGuess]:
        self.calls += 1
        out = []
        for p in patches:
            if felt_both_sides(p):
                out.append(guess(6, 0.9))
            elif self.other is not None and felt_left(p) != felt_right(p):
                out.append(self.other)
            else:
                out.append(guess(6, 0.3))
        return out


def photo_reader(model: "WholeDieOnly | Says") -> DiceReader:
    reader = DiceReader(face_model=False, photo_face_model=True)
    reader._photo_face = model  # the stand-in, as if loaded
    reader.last_detections = [Detection((100, 100, 40, 40), 0.9)]  # tight on the die
    return reader


def test_the_more_cuts_grow_shrink_and_shift_the_re_cut_square() -> None:
    reader = photo_reader(WholeDieOnly())
    cuts = reader._more_cuts(scene(), (118, 92, 40, 40), photo_join.MORE_CUTS)
    assert len(cuts) == 8 and all(c.shape[:2] == (64, 64) for c in cuts)
    assert [felt_both_sides(c) for c in cuts] == [False, False, True, True, False, False, False, False]
    assert photo_join.MORE_CUTS[4:] == ((1.0, -0.1, 0.0), (1.0, 0.1, 0.0), (1.0, 0.0, -0.1), (1.0, 0.0, 0.1))
    assert felt_left(cuts[4]) and not felt_right(cuts[4])  # moved left: felt on the left only
    np.testing.assert_array_equal(photo_join.cut_square(scene(), ((120.0, 120.0), 40.0)),
                                  reader._recut(scene(), (118, 92, 40, 40)))


def test_an_unread_die_neither_patch_nor_re_cut_reads_is_read_from_its_more_cuts_and_stays_unsure() -> None:
    model = WholeDieOnly()
    reader = photo_reader(model)
    image, box = scene(), (100, 100, 40, 40)
    problems = ["cannot read the die at [100, 100, 40, 40]: pips not read"]
    dice = [Die(None, "white", box, True, 0.0, "pips not read")]
    reader.last_patches = [(reader._recut(image, box), box, 0)]  # all die: the model is unsure of it
    reader._check_faces(dice, problems, {0: reader._recut(image, box)},
                        lambda i: reader._more_cuts(image, box, photo_join.MORE_CUTS))
    assert dice[0].value == 6 and "cut again several ways" in dice[0].reason
    assert dice[0].confidence == 0.45  # half the model's probability, as every model-only read
    assert problems == ["cannot read the die at [100, 100, 40, 40]: pips not read"]  # the image stays unsure
    assert model.calls == 3  # patch, re-cut, then the eight more cuts in one batch
    # A shifted cut that names another value at the floor: the die stays unread.
    reader = photo_reader(WholeDieOnly(other=guess(3, 0.7)))
    dice = [Die(None, "white", box, True, 0.0, "pips not read")]
    reader.last_patches = [(reader._recut(image, box), box, 0)]
    reader._check_faces(dice, [], {0: reader._recut(image, box)},
                        lambda i: reader._more_cuts(image, box, photo_join.MORE_CUTS))
    assert dice[0].value is None


def test_the_reader_cuts_them_itself_in_photo_mode() -> None:
    """A whole read (no detector): a drawn white die without pips, which the stand-in reads only from a cut
    that shows felt on both sides of it, i.e. from the grown cuts; main's reader leaves it unread."""
    model = WholeDieOnly()
    reader = DiceReader(face_model=False, photo_face_model=True, detector_model=None)
    reader._photo_face = model
    result = reader.read(scene())
    assert result.status == "unsure" and "cannot read the die" in result.reason
    assert [(d.value, d.confidence) for d in result.dice] == [(6, 0.45)]
    assert "cut again several ways" in result.dice[0].reason
    assert model.calls == 3
    reader.read(np.full((240, 240, 3), (40, 90, 30), np.uint8))  # no die: nothing cut, nothing left over
    assert reader.last_recuts == {} and model.calls == 3


def test_the_more_cuts_are_made_only_for_a_die_neither_patch_reads() -> None:
    image, box = scene(), (100, 100, 40, 40)
    made: list[int] = []

    def more(i: int) -> list[np.ndarray]:
        made.append(i)
        return photo_reader(WholeDieOnly())._more_cuts(image, box, photo_join.MORE_CUTS)

    reader = photo_reader(Says(guess(5, 0.9), True))  # the patch itself is read: no cut is made
    dice = [Die(None, "white", box, True, 0.0, "pips not read")]
    reader.last_patches = [(reader._recut(image, box), box, 0)]
    reader._check_faces(dice, [], {0: reader._recut(image, box)}, more)
    assert dice[0].value == 5 and "cut again" not in dice[0].reason and made == []
    reader = photo_reader(Says(guess(5, 0.3), True))  # nothing reads it: cut once, and still unread
    dice = [Die(None, "white", box, True, 0.0, "pips not read")]
    reader.last_patches = [(reader._recut(image, box), box, 0)]
    reader._check_faces(dice, [], {0: reader._recut(image, box)}, more)
    assert dice[0].value is None and made == [0]


class Says:
    """A stand-in face model that says the same of every patch."""

    def __init__(self, said: facemodel.FaceGuess, colour: bool) -> None:
        self.said, self.colour = said, colour

    def classify(self, patches: Sequence[np.ndarray], judge_tilt: bool = True) -> list[facemodel.FaceGuess]:
        return [self.said for _ in patches]


def test_the_show_floor_holds_in_photo_mode_with_its_own_model_only() -> None:
    patch = np.full((64, 64, 3), 255, np.uint8)
    box = (100, 100, 40, 40)
    for colour, calibrated, shown in ((True, False, 2), (False, False, 4), (True, True, 4)):
        reader = DiceReader(face_model=False, photo_face_model=True)
        said = Says(guess(4, 0.45, p2=0.3), colour)
        reader._photo_face = said
        if calibrated:
            reader.calibration = object()  # only "is not None" matters to _check_faces: the table's model
            reader.face_model = said
        dice = [Die(2, "white", box, True, 0.9, "")]
        reader.last_patches = [(patch, box, 0)]
        problems: list[str] = []
        reader._check_faces(dice, problems, {}, None)
        assert dice[0].value == shown, (colour, calibrated)
        assert problems == [DISAGREE]  # unsure either way
