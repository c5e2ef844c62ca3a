"""Photo mode's oblique side face (photo_join.side_face_of): a detector-only die against a read die."""

from __future__ import annotations

import math

from drivers.vision.photo_join import SIDE_ASPECT, SIDE_NEAR, side_face_of

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
