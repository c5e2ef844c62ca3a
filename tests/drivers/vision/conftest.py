from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from drivers.vision import calibration as cal_mod  # noqa: E402
from drivers.vision.dice import DiceOptions, DiceReader  # noqa: E402
from drivers.vision.synth_dice import reader_options, scene  # noqa: E402


def read_scene(seed: int, kind: str, strength: float = 0.0) -> tuple[dict[str, Any], dict[str, Any]]:
    """(truth, answer) for one synthetic throw read with its own calibration."""
    image, truth = scene(seed, kind, strength)
    cd = truth["calibration"]
    cal = cal_mod.DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                                  tuple(tuple(p) for p in cd["table"]))
    return truth, DiceReader(cal, DiceOptions(**reader_options(kind))).read(image).as_json()
