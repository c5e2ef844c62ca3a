"""Photo mode's oblique side face: a detector-only die against a read die (photo_join.side_face_of, not in use;
photo_join.touching_detector_dice, the refusal in use)."""

from __future__ import annotations

import math

from drivers.vision.dice_result import Die
from drivers.vision.photo_join import (FOUND_BY_DETECTOR, SIDE_ASPECT, SIDE_NEAR, boxes_touch, side_face_of,
                                       touching_detector_dice)

DIE = (100, 100, 50, 44)  # a top face seen 30 degrees off overhead: 50 wide, 44 high


def test_a_squeezed_box_below_the_top_face_is_its_side_face() -> None:
    # The side face of a die seen from 30 degrees: as wide as the die, half a side high, just below it.
    assert side_face_of((102, 146, 48, 22), DIE)


def test_a_near_square_box_overlapping_the_top_face_is_its_side_face() -> None:
    # A side face whose detector box came out square but whose centre is well inside the die's reach.
    assert side_face_of((104, 122, 40, 40), DIE)


def test_the_top_face_of_a_touching_die_is_not_a_side_face() -> None:
    # Touching dice side by side and one behind the other (foreshortened to cos 30 degrees).
    assert not side_face_of((152, 100, 50, 44), DIE)
    assert not side_face_of((100, 146, 50, 44), DIE)


def test_a_touching_die_turned_45_degrees_is_not_a_side_face() -> None:
    # Upright boxes of two dice turned 45 degrees, face to face: boxes sqrt(2) sides, centres one side apart.
    side = 40.0
    box = round(side * math.sqrt(2))
    a = (100, 100, box, box)
    b = (100 + round(side / math.sqrt(2)), 100 + round(side / math.sqrt(2)), box, box)
    assert math.hypot(b[0] - a[0], b[1] - a[1]) >= SIDE_NEAR * box
    assert not side_face_of(b, a)


def test_a_squeezed_box_far_from_every_die_is_left_alone() -> None:
    assert not side_face_of((300, 300, 48, 20), DIE)
    assert 48 / 20 > SIDE_ASPECT


# Branch dice6: the refusal (photo_join.touching_detector_dice): a read die found by the detector alone whose
# box touches another read die's makes the image unsure; both keep their values.

def _die(value: int | None, box: tuple[int, int, int, int], reason: str = "") -> Die:
    return Die(value, "white", box, True, 0.9, reason)


def test_boxes_touch_within_the_gap() -> None:
    assert boxes_touch(DIE, (150, 100, 50, 44))  # side by side, edge to edge
    assert boxes_touch(DIE, (157, 100, 50, 44))  # 7 pixels apart: within 0.15 of 50
    assert not boxes_touch(DIE, (159, 100, 50, 44))
    assert boxes_touch(DIE, (102, 138, 34, 34))  # a side face's box overlapping the top face's


def test_a_detector_die_touching_a_read_die_is_named_with_it() -> None:
    top = _die(1, DIE)
    side = _die(3, (108, 140, 34, 34), FOUND_BY_DETECTOR)
    far = _die(1, (300, 300, 50, 44), FOUND_BY_DETECTOR)
    assert touching_detector_dice([top, side, far]) == [(side, top)]


def test_two_touching_classical_dice_or_an_unread_one_are_not_this_refusal() -> None:
    assert touching_detector_dice([_die(1, DIE), _die(2, (150, 100, 50, 44))]) == []
    assert touching_detector_dice([_die(1, DIE), _die(None, (150, 100, 50, 44), FOUND_BY_DETECTOR)]) == []


def test_two_touching_detector_dice_are_one_pair() -> None:
    a = _die(1, DIE, FOUND_BY_DETECTOR)
    b = _die(3, (110, 140, 34, 34), FOUND_BY_DETECTOR)
    assert touching_detector_dice([a, b]) == [(a, b)]
