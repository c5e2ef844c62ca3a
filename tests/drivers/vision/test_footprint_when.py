"""The colour footprint is measured only where its answer is used: by the per-colour size checks of a
calibration with die sizes, and while measuring those sizes (the reader's speed depends on it)."""

from __future__ import annotations

from drivers.vision.dice import DiceOptions, DiceReader
from drivers.vision.synth_dice import calibration, scene, scene_with_calibration_frame


def test_footprint_only_with_per_colour_sizes_or_while_measuring_them() -> None:
    image, _, frame = scene_with_calibration_frame(300000, "clean", 0.0)
    plain = DiceReader(calibration(), DiceOptions(count=2, colors=("green", "red")), face_model=False)
    answer = plain.read(image)
    assert plain.last_features and all(f["body"] is None for f in plain.last_features)
    cal = calibration()
    cal.die_sizes = DiceReader(cal, face_model=False).measure_die_sizes(frame)
    assert {"red", "green"} <= set(cal.die_sizes)
    sized = DiceReader(cal, DiceOptions(count=2, colors=("green", "red")), face_model=False)
    sized_answer = sized.read(image)
    assert all(f["body"] is not None for f in sized.last_features)
    assert answer.status == sized_answer.status == "ok"
    assert sized._measuring is False  # measure_die_sizes leaves the reader as it found it


def test_the_same_reader_reads_the_same_frame_the_same_way() -> None:
    """Nothing cached per calibration (felt, table box, polygon) changes a later answer."""
    reader = DiceReader(calibration(), DiceOptions(count=2, colors=("green", "red")), face_model=False)
    frames = [scene(300000 + i, "clean", 0.3)[0] for i in range(3)]
    first = [reader.read(f).as_json() for f in frames]
    assert [reader.read(f).as_json() for f in reversed(frames)] == first[::-1]
    options = DiceOptions(count=2, colors=("green", "red"))
    fresh = [DiceReader(calibration(), options, face_model=False).read(f).as_json() for f in frames]
    assert fresh == first
