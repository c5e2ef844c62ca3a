from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from drivers.vision.scoring import read_synthetic_throw  # noqa: E402


def read_scene(seed: int, kind: str, strength: float = 0.0) -> tuple[dict[str, Any], dict[str, Any]]:
    """(truth, answer) for one synthetic throw read with its own calibration (as bench/vision.py reads it)."""
    return read_synthetic_throw(seed, kind, strength)
