"""The roulette reader on generated spins: the number, each void and unsure reason, directions, the CLI form."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drivers.vision import synth_roulette as S
from drivers.vision.calibration import RouletteCalibration
from drivers.vision.roulette import ORDER, RouletteReader, _wrap, find_wheel, read_spins
from tests.tablectl import run_tablectl


def _spins(seed: int, kind: str, strength: float = 0.0) -> tuple[dict, list[dict]]:
    reader = RouletteReader(S.calibration())
    return S.truth(seed, kind, strength), [s.as_json() for s in read_spins(enumerate(S.frames(seed, kind, strength)),
                                                                           reader)]


def test_pocket_order_is_the_single_zero_wheel() -> None:
    assert ORDER == S.ORDER and sorted(ORDER) == list(range(37)) and ORDER[:4] == (0, 32, 15, 19)


@pytest.mark.parametrize("seed,strength", [(500, 0.0), (501, 0.3)])
def test_spin_reads_the_number_and_both_directions(seed: int, strength: float) -> None:
    truth, spins = _spins(seed, "ok", strength)
    assert len(spins) == 1, spins
    spin = spins[0]
    assert spin["status"] == "ok" and spin["number"] == truth["number"]
    assert spin["ball_direction"] == truth["ball_direction"] != spin["rotor_direction"] == truth["rotor_direction"]
    # the result comes at most 300 ms (9 frames at 30 fps) after the ball comes to rest
    assert 0 <= spin["frame"] - truth["rest_frame"] <= 9


@pytest.mark.parametrize("kind,status,needle", [
    ("same_direction", "void", "Roulett rule 2"),
    ("few_turns", "void", "too few ball turns"),
    ("left_wheel", "void", "left the wheel"),
    ("no_rest", "unsure", "no stable pocket"),
])
def test_each_void_and_unsure_reason(kind: str, status: str, needle: str) -> None:
    truth, spins = _spins(510, kind)
    assert truth["status"] == status
    assert spins and spins[0]["status"] == status and needle in spins[0]["reason"], spins
    assert spins[0]["number"] is None


def test_a_ball_lost_under_a_hand_reads_the_pocket_it_rests_in() -> None:
    # Before the gap was bridged by the ball's speeds this spin ended "ball lost: not seen for 13 frames".
    truth, spins = _spins(510, "lost")
    assert truth["status"] == "ok" and truth["number"] is not None  # the spin was good: the number is the truth
    assert [(s["status"], s["number"]) for s in spins] == [("ok", truth["number"])]


def test_moved_camera_makes_the_spin_unsure() -> None:
    cal = S.calibration()
    moved = RouletteCalibration((cal.centre[0] + 60, cal.centre[1]), cal.pocket_radius, cal.track_radius,
                                cal.inner_radius, cal.size)
    frames = list(enumerate(S.frames(500, "ok", 0.0)))
    assert cal.check(frames[0][1]) == ""
    assert "not where it was calibrated" in moved.check(frames[0][1])


def test_wheel_found_in_a_frame() -> None:
    frame = next(iter(S.frames(500, "ok", 0.3)))
    found = find_wheel(frame)
    assert found is not None
    cal = S.calibration()
    assert abs(found.centre[0] - cal.centre[0]) < 4 and abs(found.centre[1] - cal.centre[1]) < 4
    assert abs(found.pocket_radius - cal.pocket_radius) < 6 and abs(found.track_radius - cal.track_radius) < 6


def test_roulette_cli_json_on_a_generated_video(tmp_path: Path) -> None:
    done = run_tablectl("vision", "generate", "roulette", "--out", str(tmp_path), "--count", "1", "--seed", "500",
                        "--kind", "ok", "--strength", "0.1")
    assert done.returncode == 0, done.stderr
    truth = json.loads((tmp_path / "spin_000500_ok.json").read_text())
    done = run_tablectl("roulette", str(tmp_path / "spin_000500_ok.avi"), "--json",
                        "--calibration", str(tmp_path / "roulette.cal.json"))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert list(doc) == ["spins"] and len(doc["spins"]) == 1
    spin = doc["spins"][0]
    assert set(spin) == {"number", "frame", "status", "reason", "ball_direction", "rotor_direction"}
    assert spin["status"] == "ok" and spin["number"] == truth["number"]
    bad = run_tablectl("roulette", str(tmp_path / "nothing.avi"))
    assert bad.returncode == 2 and "nothing.avi" in bad.stderr


def test_one_sighting_inside_the_track_does_not_end_the_turns() -> None:
    # Used to be void ("too few ball turns (1.0 < 3)"): at strength 1.0 the ball was seen once inside the
    # track while still circling and taken for dropped; a drop now needs three sightings in a row.
    spins = read_spins(enumerate(S.frames(10192, "ok", 1.0)), RouletteReader(S.calibration()))
    assert [(s.status, s.number) for s in spins] == [("ok", S.truth(10192, "ok", 1.0)["number"])]


def test_a_jittery_sighting_of_the_resting_ball_does_not_restart_the_rest_count() -> None:
    # Seed 600570 at strength 0.7: noise moves the resting ball's sighting by 0.02 rad a frame now and then.
    # Counting frame-to-frame steps under 0.02 restarted twice and answered 400 ms after the ball came to
    # rest; the spread of the last nine sightings answers within 5 frames (167 ms at 30 fps).
    truth = S.truth(600570, "ok", 0.7)
    spins = read_spins(enumerate(S.frames(600570, "ok", 0.7)), RouletteReader(S.calibration()))
    assert spins[0].status == "ok" and spins[0].number == truth["number"]
    assert spins[0].frame - truth["rest_frame"] <= 5


# Slow answers from the held-out sets, each answered within rest_frames (8) frames of rest now:
# - 800024 at strength 0.4: one sighting 0.1 rad off the resting ball (two frames after it came to rest)
#   restarted the rest count, and the answer came 11 frames (367 ms at 30 fps) after rest;
# - 1200636 at strength 0.7: the resting ball and a fret's bright line made one blob 15 rows tall in the
#   polar view, over the 12-row limit for a ball; a fret's glint was taken for the ball for three frames
#   and the answer came 13 frames (433 ms) after rest;
# - 1300372 at strength 0.7: the ball rested across the polar view's seam (angle 0), its spot was cut in two
#   and its angle jumped by 2-4 degrees; the rest count restarted and the answer came 10 frames (333 ms) after.
@pytest.mark.parametrize(("seed", "strength"), [(800024, 0.4), (1200636, 0.7), (1300372, 0.7)])
def test_a_resting_ball_is_answered_soon_after_rest(seed: int, strength: float) -> None:
    truth = S.truth(seed, "ok", strength)
    spins = read_spins(enumerate(S.frames(seed, "ok", strength)), RouletteReader(S.calibration()))
    assert spins[0].status == "ok" and spins[0].number == truth["number"]
    assert spins[0].frame - truth["rest_frame"] <= 8


@pytest.mark.parametrize("degrees", [-2.0, -1.0, -0.5, 0.0, 0.5, 40.0, 180.0])
def test_a_ball_across_the_polar_views_seam_is_seen_whole(degrees: float) -> None:
    # The polar view's columns wrap at angle 0.  A ball lying across that seam was cut in two and the
    # reader took one part, 2-4 degrees off the ball's centre: the resting ball seemed to move against
    # the rotor and the rest count restarted (seed 1300372 answered 333 ms after rest).
    import math
    import cv2
    frame = next(iter(S.frames(500, "ok", 0.0))).copy()  # the wheel before the launch: no ball in view
    a = math.radians(degrees)
    centre = (int(round(S.CENTRE[0] + S.BALL_POCKET_R * math.cos(a))),
              int(round(S.CENTRE[1] + S.BALL_POCKET_R * math.sin(a))))
    cv2.circle(frame, centre, S.BALL_RADIUS, (245, 245, 245), -1, cv2.LINE_AA)
    reader = RouletteReader(S.calibration())
    _, ball = reader.measure(frame)
    assert ball is not None
    seen = math.atan2(centre[1] - S.CENTRE[1], centre[0] - S.CENTRE[0])  # the drawn centre, whole pixels
    assert abs(math.degrees(_wrap(ball[0] - seen))) < 0.3  # 0.6 to 1.8 degrees off before


def test_a_ball_against_a_fret_is_found_in_the_blob_they_make() -> None:
    from drivers.vision.roulette import _ball_off_fret
    blob = np.zeros((15, 9), bool)
    blob[:, 1] = True  # the fret's bright line, one column of the polar view
    blob[5:11, 2:8] = True  # the ball against it
    diff = np.where(blob, 120, 0).astype(np.int16)
    score, x, y = _ball_off_fret(blob, diff)
    assert score == 120 and abs(x - 4.0) < 0.01 and abs(y - 7.5) < 0.01  # the ball and the fret beside it
    fret = np.zeros((15, 3), bool)
    fret[:, 1] = True
    assert _ball_off_fret(fret, np.where(fret, 120, 0).astype(np.int16)) is None


def test_a_ball_creeping_through_its_pocket_is_not_at_rest() -> None:
    from drivers.vision.roulette import REST_SPREAD, _spread
    creeping = [0.01 * i for i in range(9)]  # 0.01 rad a frame: every step under the old 0.02 test
    assert _spread(creeping) > REST_SPREAD
    assert _spread([3.13, -3.13, 3.14]) < REST_SPREAD  # measured across the ±pi seam


def test_a_ball_seen_circling_again_after_a_drop_resumes_its_turns() -> None:
    # Seed 600318 at strength 0.9: a glint inside the track, seen between sightings of the ball, threw the
    # real ball's next sightings out as jumps; three glint sightings in a row were taken for the drop after
    # 1.2 turns and a good spin was voided ("too few ball turns").  The ball seen circling on the track three
    # times after such a "drop" resumes the spin.
    truth = S.truth(600318, "ok", 0.9)
    spins = read_spins(enumerate(S.frames(600318, "ok", 0.9)), RouletteReader(S.calibration()))
    assert [(s.status, s.number) for s in spins] == [("ok", truth["number"])]



def test_glints_taken_for_the_dropped_ball_no_longer_cost_a_good_spin() -> None:
    # Seed 1500456 ("ok" at strength 1.0, a held-out spin once voided): a glare spot inside the track, brighter
    # than the ball, was taken for the dropped ball six times and the spin resumed each time; the turns were
    # then only a lower bound and the spin was unsure.  The glare spot stands still in the image before the
    # launch and is taken out: the spin reads.
    truth = S.truth(1500456, "ok", 1.0)
    spins = read_spins(enumerate(S.frames(1500456, "ok", 1.0)), RouletteReader(S.calibration()))
    assert [(s.status, s.number) for s in spins] == [("ok", truth["number"])]


def test_a_ball_found_only_after_glints_reads_its_pocket() -> None:
    # Seed 800921 ("lost" at strength 1.0): glints were followed for under half a radian and the spin was
    # unsure ("not seen circling"); with the launch judged from three steps along the track and the gap under
    # the hand bridged, the good spin reads.
    truth = S.truth(800921, "lost", 1.0)
    spins = read_spins(enumerate(S.frames(800921, "lost", 1.0)), RouletteReader(S.calibration()))
    assert [(s.status, s.number) for s in spins] == [("ok", truth["number"])]


def test_a_ball_not_seen_circling_gives_no_void() -> None:
    # Only a ball that went under half a radian along the track (a launch never seen): neither the turns nor
    # rule 2 can be judged, so no void.
    reader = RouletteReader(S.calibration())
    reader.phase, reader.rotor, reader.rotor_travel, reader.track_travel = "drop", 0.0, -0.5, 0.3
    result = reader._settle(0.0)
    assert result.status == "unsure" and "not seen circling" in result.reason and result.ball_direction is None


def test_the_generator_lands_the_ball_on_the_number_asked_for() -> None:
    """``number`` picks the pocket and nothing else: the same seed's other draws stay as they were."""
    import dataclasses

    free = S.plan(700, "ok")
    for number in (0, 17, 26):
        chosen = S.plan(700, "ok", number)
        assert S.ORDER[chosen.pocket] == number
        assert dataclasses.replace(chosen, pocket=free.pocket) == free
        assert S.truth(700, "ok", number=number)["number"] == number
    assert S.truth(700, "ok") == S.truth(700, "ok", number=None)
    for bad in (37, -1):
        with pytest.raises(ValueError, match="not a number of the single-zero wheel"):
            S.plan(700, "ok", bad)


def test_channel_reductions_are_numpys_reductions_over_the_last_axis():
    import numpy as np

    from drivers.vision.roulette import _channel_max, _channel_min
    rng = np.random.default_rng(29)
    for shape, dtype in (((40, 360, 3), np.uint8), ((7, 5, 3), np.uint8), ((23, 360, 3), np.int16)):
        image = rng.integers(-300 if dtype == np.int16 else 0, 256, shape).astype(dtype)
        assert np.array_equal(_channel_min(image), image.min(axis=2))
        assert np.array_equal(_channel_max(image), image.max(axis=2))
        assert _channel_min(image).dtype == image.min(axis=2).dtype
