"""Per-colour die sizes in the dice calibration, the tilt checks that use them, and the cases that used to be
confidently wrong (issue 9).  Seeds are from the tuning set (bench/vision.py --dice-seed 300000)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from drivers.vision import calibration as cal_mod
from drivers.vision.dice import DiceOptions, DiceReader
from drivers.vision.synth_dice import calibration, scene, scene_with_calibration_frame
from tests.drivers.vision.conftest import read_scene
from tests.tablectl import run_tablectl


def _strength(seed: int) -> float:
    return round((seed - 300000) // 9 % 11 / 10, 1)


def test_sizes_measured_per_colour_from_a_calibration_frame() -> None:
    _, _, frame = scene_with_calibration_frame(1000, "clean", 0.0)
    sizes = DiceReader(calibration()).measure_die_sizes(frame)
    assert {"red", "green", "white"} <= set(sizes)
    for colour in ("red", "green", "white"):
        assert 36 <= sizes[colour].top <= 46, (colour, sizes[colour])  # the generator's dice are 40 px
        assert sizes[colour].long >= sizes[colour].top - 1


def test_the_calibration_frame_leaves_the_throw_unchanged() -> None:
    image, truth = scene(300005, "clean", 0.7)
    image2, truth2, frame = scene_with_calibration_frame(300005, "clean", 0.7)
    assert (image == image2).all() and truth == truth2 and frame.shape == image.shape


def test_per_colour_sizes_round_trip_and_old_files_still_load(tmp_path: Path) -> None:
    cal = calibration()
    cal.die_sizes = {"green": cal_mod.DieSize(40.5, 47.25), "red": cal_mod.DieSize(41.0, 45.5)}
    cal_mod.save(tmp_path / "c.json", cal)
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["die_sizes"] == {"green": {"top": 40.5, "long": 47.25}, "red": {"top": 41.0, "long": 45.5}}
    assert cal_mod.load(tmp_path / "c.json").die_sizes == cal.die_sizes
    del doc["die_sizes"]  # a file written before per-colour sizes existed
    (tmp_path / "old.json").write_text(json.dumps(doc))
    assert cal_mod.load(tmp_path / "old.json").die_sizes == {}
    doc["die_sizes"] = {"red": {"top": "big"}}
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(cal_mod.CalibrationError, match="die_sizes 'red'"):
        cal_mod.load(tmp_path / "bad.json")


def test_calibrate_command_measures_sizes_from_a_frame(tmp_path: Path) -> None:
    empty, _, frame = scene_with_calibration_frame(1000, "clean", 0.0)
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    done = run_tablectl("vision", "calibrate", str(tmp_path / "frame.png"), "--out", str(tmp_path / "c.json"),
                        "--area", "70,60", "570,60", "570,420", "70,420", "--die-px", "40")
    assert done.returncode == 0, done.stderr
    sizes = cal_mod.load(tmp_path / "c.json").die_sizes
    assert {"red", "green", "white"} <= set(sizes) and 36 <= sizes["red"].top <= 46


def test_a_clean_throw_is_read_with_per_colour_sizes() -> None:
    truth, answer = read_scene(300000, "clean", 0.0)
    assert answer["status"] == "ok", answer
    assert sorted((d["value"], d["color"]) for d in answer["dice"]) == sorted(
        (d["value"], d["color"]) for d in truth["dice"])


@pytest.mark.parametrize("seed", [300002, 300704])
def test_a_green_die_cocked_a_little_on_green_felt_is_refused(seed: int) -> None:
    # Used to read ok: a green die cocked 7-8 degrees shows no side face on green felt and its footprint
    # passed the dice-agree check; its top face, measured by colour, is longer than a flat green die's.
    truth, answer = read_scene(seed, "cocked", _strength(seed))
    assert truth["status"] == "void"
    assert answer["status"] == "unsure" and "top face" in answer["reason"], answer


@pytest.mark.parametrize("seed", [300568, 300820])
def test_a_misread_half_of_touching_dice_is_refused(seed: int) -> None:
    # Used to read ok with a wrong value: the red half of a touching pair lost pips at the cut.
    truth, answer = read_scene(seed, "touching", _strength(seed))
    assert truth["status"] == "ok"
    assert answer["status"] == "unsure" and "wider view" in answer["reason"], answer


def test_without_per_colour_sizes_the_older_dice_agree_check_applies() -> None:
    # A calibration file without die_sizes (written before they existed): the dice's footprints must agree.
    image, truth = scene(300137, "cocked", _strength(300137))
    answer = DiceReader(calibration(), DiceOptions(count=2, colors=("green", "red"))).read(image)
    assert answer.status == "unsure" and "different sizes" in answer.reason, answer


@pytest.mark.parametrize("seed,strength", [(20880, 0.9), (21537, 0.5), (705515, 0.7), (707720, 1.0)])
def test_felt_lit_by_glare_off_the_area_does_not_void(seed: int, strength: float) -> None:
    # Used to void: a patch of felt near a corner, lit by glare where the felt estimate lags, was taken for a
    # die off the area (no face read, the felt's colour).  The occluded die makes the throw unsure anyway.
    # 705515 and 707720 (first held-out run of 2026-11-29 evening): a glare spot 28-30 units lighter than the
    # felt beside it, over the 20 units of the full colour test; its colour (a, b) within 4 of the felt's.
    truth, answer = read_scene(seed, "occluded", strength)
    assert answer["status"] == "unsure" and "looks like the felt around it" in answer["reason"], answer


def test_a_die_off_the_area_still_voids() -> None:
    voided = [read_scene(seed, "off", round((seed - 300000) // 9 % 11 / 10, 1))[1]["status"]
              for seed in range(300003, 300003 + 9 * 6, 9)]
    assert voided.count("void") >= 5, voided
