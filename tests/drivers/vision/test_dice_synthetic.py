"""The dice reader on generated throws: each ok, void and unsure case, and no confident wrong answer."""

from __future__ import annotations

import pytest

from drivers.vision.scoring import judge_dice
from tests.drivers.vision.conftest import read_scene

SEEDS = range(1000, 1016)


def _verdicts(kind: str, strength: float = 0.0) -> list[str]:
    return [judge_dice(*read_scene(seed, kind, strength)) for seed in SEEDS]


def test_clean_throws_are_read_right_or_refused() -> None:
    verdicts = _verdicts("clean")
    assert "wrong" not in verdicts
    assert verdicts.count("right") >= 10


def test_a_clean_throw_gives_both_dice_with_colours() -> None:
    truth, answer = read_scene(1000, "clean")
    assert answer["status"] == "ok", answer
    got = sorted((d["value"], d["color"]) for d in answer["dice"])
    assert got == sorted((d["value"], d["color"]) for d in truth["dice"])
    assert all(d["flat"] and 0 < d["confidence"] <= 1 for d in answer["dice"])


def test_die_off_the_throw_area_voids_the_throw() -> None:
    for seed in SEEDS:
        truth, answer = read_scene(seed, "off")
        assert answer["status"] == "void", (seed, answer)
        assert "off the throw area" in answer["reason"] or "edge of the throw area" in answer["reason"]


def test_strongly_cocked_red_die_is_never_read_ok() -> None:
    """Red die cocked 20 degrees or more: void (clear evidence) or unsure (weak), never ok; mostly void.
    (A cocked green die on green felt and small tilts are known weaknesses, measured by bench/vision.py
    and stated in docs/devices/vision.md.)"""
    checked = voided = 0
    for seed in range(1000, 1060):
        truth, answer = read_scene(seed, "cocked")
        cocked = max(truth["dice"], key=lambda d: d["tilt"])
        if cocked["tilt"] >= 20 and cocked["color"] == "red":
            checked += 1
            assert answer["status"] in ("void", "unsure"), (seed, answer)
            assert "lying flat" in answer["reason"] or "lie flat" in answer["reason"]
            voided += answer["status"] == "void"
    assert checked >= 10 and voided * 2 >= checked


def test_cup_and_hand_make_the_reader_unsure() -> None:
    for kind in ("cup", "hand"):
        for seed in SEEDS:
            _, answer = read_scene(seed, kind)
            assert answer["status"] == "unsure", (kind, seed, answer)
            assert answer["reason"]


def test_occluded_die_is_never_read_wrong() -> None:
    for seed in SEEDS:
        truth, answer = read_scene(seed, "occluded")
        assert judge_dice(truth, answer) != "wrong", (seed, answer)
        if answer["status"] == "unsure":
            assert answer["reason"]


def test_touching_dice_are_split_or_refused() -> None:
    verdicts = _verdicts("touching")
    assert "wrong" not in verdicts
    assert verdicts.count("right") >= 6


def test_wrong_dice_count_is_unsure_with_reason() -> None:
    from drivers.vision.dice import DiceOptions, DiceReader
    from drivers.vision.synth_dice import scene, calibration
    image, _ = scene(1000, "clean")
    answer = DiceReader(calibration(), DiceOptions(count=3)).read(image).as_json()
    assert answer["status"] == "unsure"
    assert "expected 3" in answer["reason"]


def test_bad_frames_are_unsure_not_a_crash() -> None:
    import numpy as np
    from drivers.vision.dice import DiceReader
    assert DiceReader().read(np.zeros((10, 10, 3), np.uint8)).status == "unsure"
    assert DiceReader().read(np.zeros((100, 100, 3), np.uint8)).status == "unsure"


@pytest.mark.parametrize("strength", [0.3])
def test_distorted_throws_have_no_confident_wrong_reads_of_clean_dice(strength: float) -> None:
    verdicts = _verdicts("clean", strength)
    assert "wrong" not in verdicts


def test_scoring_counts_repeated_values() -> None:
    truth = {"status": "ok", "kind": "colours", "dice": [{"value": 2, "color": "blue"}, {"value": 2, "color": "yellow"}]}
    ok = {"status": "ok", "dice": [{"value": 2, "color": "other"}, {"value": 2, "color": "other"}]}
    bad = {"status": "ok", "dice": [{"value": 2, "color": "other"}, {"value": 3, "color": "other"}]}
    assert judge_dice(truth, ok) == "right" and judge_dice(truth, bad) == "wrong"
    assert judge_dice(truth, {"status": "unsure", "dice": []}) == "unsure"
    assert judge_dice(truth, {"status": "void", "dice": []}) == "wrong"
