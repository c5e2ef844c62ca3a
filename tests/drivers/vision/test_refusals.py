"""The refusals added so that the readers do not guess (issue 9): each case was a confident wrong answer.

The seeds are from the tuning set (bench/vision.py --dice-seed 300000, --spin-seed 400000) where the
reader used to answer wrong with confidence; the figures on other seeds are in docs/performance.md.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from drivers.vision import synth_roulette as S
from drivers.vision.dice import DiceReader
from drivers.vision.roulette import RouletteReader, read_spins
from drivers.vision.synth_dice import SynthDie, draw_die
from tests.drivers.vision.conftest import read_scene


@pytest.mark.parametrize("seed", [300011, 300101, 300137, 300209])
def test_a_cocked_die_read_as_flat_is_now_refused(seed: int) -> None:
    # A green die cocked on green felt shows no side face; its footprint is smaller than the red die's, or its
    # top face (measured by colour against the calibrated flat green die) is squeezed.
    truth, answer = read_scene(seed, "cocked", round((seed - 300000) // 9 % 11 / 10, 1))
    assert truth["status"] == "void"
    assert answer["status"] == "unsure", answer
    assert any(s in answer["reason"] for s in ("smaller than the other dice", "top face", "not square")), answer


@pytest.mark.parametrize("seed,kind", [(300064, "touching"), (300423, "clean")])
def test_side_face_marks_without_a_wide_footprint_are_unsure_not_void(seed: int, kind: str) -> None:
    truth, answer = read_scene(seed, kind, round((seed - 300000) // 9 % 11 / 10, 1))
    assert truth["status"] == "ok"
    assert answer["status"] == "unsure", answer
    assert "may not lie flat" in answer["reason"]


def test_more_dice_than_the_game_throws_blocks_a_void() -> None:
    # Sic Bo, three dice: a shadow taken for a fourth "die" off the area used to void the throw.
    truth, answer = read_scene(300080, "sicbo", 0.8)
    assert truth["status"] == "ok"
    assert answer["status"] == "unsure" and "expected 3" in answer["reason"], answer


def test_a_value_read_only_after_dropping_marks_is_unsure() -> None:
    truth, answer = read_scene(300564, "colours", 0.7)  # a 6 read as a 2 after four marks were dropped
    assert answer["status"] == "unsure" and "dropping marks" in answer["reason"], answer


def test_cocked_dice_still_void_when_two_signs_agree() -> None:
    # The stricter void (side-face marks AND a wide footprint) must not lose the clear cases.
    # (Not every cocked die is caught: a green die cocked a little on green felt can still read ok;
    # docs/devices/vision.md says so.)
    voided = sum(read_scene(seed, "cocked")[1]["status"] == "void" for seed in range(1000, 1012))
    assert voided >= 2  # seeds 1003 and 1009: red dice cocked 39 and 31 degrees


def _photo(blank: bool) -> np.ndarray:
    img = np.full((480, 640, 3), 120, np.uint8)
    draw_die(img, SynthDie(3, "white", 200, 240, 10), side=60)
    draw_die(img, SynthDie(5, "white", 420, 220, -20), side=60)
    if blank:
        cv2.circle(img, (320, 380), 30, (235, 235, 235), -1, cv2.LINE_AA)  # die-sized, no pips
    return img


def test_photo_mode_refuses_when_a_die_sized_blank_object_is_in_view() -> None:
    plain = DiceReader().read(_photo(False))
    assert plain.status == "ok" and sorted(d.value for d in plain.dice) == [3, 5], plain
    with_blank = DiceReader().read(_photo(True))
    assert with_blank.status == "unsure" and "without pips" in with_blank.reason, with_blank


@pytest.mark.parametrize("seed,strength", [(400033, 0.5), (400039, 0.6), (400105, 0.6)])
def test_a_spin_with_the_ball_hidden_by_a_hand_is_unsure_or_its_true_number(seed: int, strength: float) -> None:
    # Glints bridged the gap while a hand hid the ball: these used to read a wrong number or a void.  Now
    # unsure, or (the launch judged before the hand, the rest seen clearly after it) the number it rests in.
    spins = read_spins(enumerate(S.frames(seed, "lost", strength)), RouletteReader(S.calibration()))
    assert spins, spins
    if spins[0].status == "ok":
        assert spins[0].number == S.truth(seed, "lost", strength)["number"], spins
    else:
        assert spins[0].status == "unsure" and ("mid-spin" in spins[0].reason or "lost" in spins[0].reason), spins


def test_occlusion_detector_sees_a_hand_not_the_ball() -> None:
    reader = RouletteReader(S.calibration())
    frame = next(iter(S.frames(500, "ok", 0.0)))
    reader.measure(frame)
    assert reader.occluded_arc() < reader.opt.occluded_degrees
    covered = frame.copy()
    cv2.ellipse(covered, (440, 440), (120, 160), -30, 0, 360, (120, 160, 215), -1)
    reader.measure(covered)
    assert reader.occluded_arc() >= reader.opt.occluded_degrees


def test_a_split_part_of_touching_dice_on_the_line_does_not_void() -> None:
    truth, answer = read_scene(300334, "touching", 0.4)  # used to void: a split half called on the line
    assert truth["status"] == "ok"
    assert answer["status"] == "unsure" and "touching dice at the edge" in answer["reason"], answer
