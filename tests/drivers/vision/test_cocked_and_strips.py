"""Branch dicewrong: a side face's pips give a cocked die away; a strip of lit felt off the area does not void.

Seeds are tuning seeds (dice 300000-399999) where the reader before this branch answered with confidence
and wrongly: a cocked die read as flat (``ok``).  The figures are in docs/performance.md ("Cocked dice and
wrong voids").
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from drivers.vision import sidepips
from drivers.vision.dice import STRIP_OFF_AREA, DiceOptions, DiceReader, strip_not_die
from drivers.vision.synth_dice import AREA, DIE_PX, SynthDie, calibration, draw_die, felt
from tests.drivers.vision.conftest import read_scene


# (seed, strength, the cocked die): each was read `ok` before, with a die cocked 5 to 12 degrees.
@pytest.mark.parametrize("seed,strength", [
    (300066, 0.0),  # green, 11.8 degrees
    (300374, 0.0),  # green, 8.2
    (300859, 0.1),  # green, 5.7
    (302660, 0.0),  # green, 6.1
    (301090, 0.1),  # red, 5.5 (its side strip is under 4 pixels: the footprint looks flat)
    (302434, 0.5),  # red, 5.3
])
def test_a_cocked_die_read_as_flat_before_is_refused_for_its_side_pips(seed: int, strength: float) -> None:
    truth, answer = read_scene(seed, "cocked", strength)
    assert truth["status"] == "void" and any(not d["flat"] for d in truth["dice"])
    assert answer["status"] == "unsure", answer
    assert sidepips.SIDE_PIPS in answer["reason"], answer


def _table_with(die: SynthDie, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """An empty synthetic table (felt, area line, rail) with one die drawn, and the felt's Lab colour."""
    img = felt(np.random.default_rng(seed))
    lab = cv2.cvtColor(img[200:280, 300:340], cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    draw_die(img, die)
    return img, np.median(lab, axis=0)


def _rect(die: SynthDie) -> tuple:
    """The die's rectangle as the reader's foreground would give it (its top face and shadow, a little wide)."""
    return ((die.x + 1.5, die.y + 1.5), (DIE_PX * 1.15, DIE_PX * 1.15), die.angle)


@pytest.mark.parametrize("color", ["green", "red"])
@pytest.mark.parametrize("tilt", [5.0, 8.0, 12.0])
@pytest.mark.parametrize("angle", [0.0, 30.0, 70.0])
def test_side_pips_are_seen_beside_a_die_cocked_a_little(color: str, tilt: float, angle: float) -> None:
    cocked = SynthDie(4, color, 320.0, 240.0, angle, tilt)
    img, felt_lab = _table_with(cocked)
    assert sidepips.side_marks(img, _rect(cocked), DIE_PX, felt_lab)[0] >= 1


@pytest.mark.parametrize("color", ["green", "red", "white", "yellow", "blue"])
@pytest.mark.parametrize("value", [1, 3, 5, 6])
@pytest.mark.parametrize("angle", [0.0, 30.0, 70.0])
def test_a_flat_die_has_no_side_pips(color: str, value: int, angle: float) -> None:
    # White and yellow dice: their own corners (light) are not marks; blue dice are not judged (their edge
    # blends with green felt into a light grey).
    flat = SynthDie(value, color, 320.0, 240.0, angle)
    img, felt_lab = _table_with(flat)
    assert sidepips.side_marks(img, _rect(flat), DIE_PX, felt_lab) == (0, 0.0)


@pytest.mark.parametrize("dx,dy", [(0.0, 0.85), (0.0, 0.7), (0.75, 0.0)])
def test_the_printed_area_line_beside_a_flat_die_is_not_a_side_pip(dx: float, dy: float) -> None:
    # A flat die just inside the area's corner region: the white line runs through the ring around it.
    (x0, y0) = AREA[0]
    flat = SynthDie(5, "green", x0 + DIE_PX * (dx or 2.5), y0 + DIE_PX * (dy or 2.5), 20.0)
    img, felt_lab = _table_with(flat)
    assert sidepips.side_marks(img, _rect(flat), DIE_PX, felt_lab)[0] == 0


def test_another_dice_pips_next_to_a_die_are_left_out() -> None:
    a = SynthDie(4, "green", 320.0, 240.0, 0.0)
    b = SynthDie(6, "red", 320.0 + 1.15 * DIE_PX, 240.0, 0.0)
    img, felt_lab = _table_with(a)
    draw_die(img, b)
    assert sidepips.side_marks(img, _rect(a), DIE_PX, felt_lab)[0] >= 1  # b's pips lie in a's ring
    others = [cv2.boxPoints(_rect(b))]
    assert sidepips.side_marks(img, _rect(a), DIE_PX, felt_lab, others)[0] == 0


def test_strip_shapes() -> None:
    die = 40.0
    assert strip_not_die(((0, 0), (74.0, 14.0), 0.0), die)  # felt lit along the table's edge
    assert strip_not_die(((0, 0), (27.0, 62.0), 90.0), die)
    assert not strip_not_die(((0, 0), (44.0, 44.0), 0.0), die)  # a flat die
    assert not strip_not_die(((0, 0), (40.0, 57.0), 0.0), die)  # a die cocked 45 degrees
    assert not strip_not_die(((0, 0), (40.0, 20.0), 0.0), die)  # a die cut in half by the table's edge


def _off_area_throw(strip: tuple[int, int, int, int] | None) -> dict:
    """A clean red and green throw with, off the area near the table's top edge, a patch of felt lit by glare.

    Read without a die count, so that nothing but the strip rule stands between the patch and a void."""
    img = felt(np.random.default_rng(11))
    draw_die(img, SynthDie(3, "red", 200.0, 240.0, 10.0))
    draw_die(img, SynthDie(5, "green", 420.0, 250.0, 40.0))
    if strip is not None:
        x, y, w, h = strip
        lit = img[y:y + h, x:x + w].astype(np.float32) * 0.4 + 0.6 * np.array([150, 235, 140], np.float32)
        img[y:y + h, x:x + w] = lit.astype(np.uint8)
    cal = calibration()
    reader = DiceReader(cal, DiceOptions(), face_model=False)
    return reader.read(img).as_json()


def test_a_lit_strip_of_felt_off_the_area_makes_the_throw_unsure_not_void() -> None:
    assert _off_area_throw(None)["status"] == "ok"
    answer = _off_area_throw((250, 33, 72, 25))  # between the rail and the area line: off the area
    assert answer["status"] == "unsure", answer
    assert STRIP_OFF_AREA in answer["reason"], answer


def test_a_die_sized_lit_patch_off_the_area_still_voids() -> None:
    # The same light, die-shaped and off the area, is not a strip: the reader keeps calling it a die off the area
    # (it cannot tell it from one), so the strip rule is not a blanket pass for anything unreadable.
    answer = _off_area_throw((250, 34, 44, 24))
    assert answer["status"] == "void" and "off the throw area" in answer["reason"], answer


def test_a_smaller_green_die_with_a_short_top_face_is_still_refused() -> None:
    # "Looks smaller than the other dice" now needs a top face under 0.95 of a flat one's as well; on the tuning
    # seeds this throw (green die cocked 19 degrees, strength 1.0, no side pips seen) was the one it still catches.
    truth, answer = read_scene(303880, "cocked", 1.0)
    assert truth["status"] == "void"
    assert answer["status"] == "unsure", answer
    assert "looks smaller than the other dice" in answer["reason"], answer
