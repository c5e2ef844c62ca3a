"""The dice reader's speed frames and readers, shared by bench/vision.py, vision_speed_ab.py and
vision_instructions.py so the three time the same thing.

Twenty synthetic 640x480 clean throws (seeds 300000-300019, strength 0.3), and a calibration with
per-colour die sizes measured from the calibration frame of seed 300000, as a table calibrated by
`vision calibrate` reads.  drivers.vision is imported when called, so the A/B scripts' child
processes get it from the checkout they put first on sys.path.
"""

from __future__ import annotations

from typing import Any

SPEED_SEED = 300_000
SPEED_FRAMES = 20


def speed_images() -> list[Any]:
    """The speed frames (BGR images)."""
    from drivers.vision.synth_dice import scene
    return [scene(SPEED_SEED + i, "clean", 0.3)[0] for i in range(SPEED_FRAMES)]


def table_options() -> Any:
    """A Tärning table's expectation: two dice, a green and a red."""
    from drivers.vision.dice import DiceOptions
    return DiceOptions(count=2, colors=("green", "red"))


def sized_calibration() -> Any:
    """The synthetic table's calibration with per-colour die sizes measured from its calibration frame."""
    from drivers.vision.dice import DiceReader
    from drivers.vision.synth_dice import calibration, scene_with_calibration_frame
    cal = calibration()
    cal.die_sizes = DiceReader(cal, face_model=False).measure_die_sizes(
        scene_with_calibration_frame(SPEED_SEED, "clean", 0.0)[2])
    return cal
