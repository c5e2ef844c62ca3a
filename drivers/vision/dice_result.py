"""What the dice reader answers: each die as read, the answer for an image, what the table expects.

Kept apart from the reader (drivers/vision/dice.py) so that the pieces that
read dice in special cases (heap.py, photo_join.py) build the same records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from drivers.vision.fastmath import median_rows

MIN_CONFIDENCE = 0.62  # below this a read die makes the image unsure (measured on real photos)


@dataclass(frozen=True)
class Die:
    """One die as read; ``value`` is None where the face could not be read."""

    value: int | None
    color: str
    box: tuple[int, int, int, int]
    flat: bool
    confidence: float
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"value": self.value, "color": self.color, "box": list(self.box), "flat": self.flat,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class DiceResult:
    """The answer for one image or one still scene."""

    status: str  # ok | void | unsure
    dice: tuple[Die, ...]
    reason: str = ""

    def as_json(self, file: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if file is not None:
            out["file"] = file
        out.update({"status": self.status, "dice": [d.as_json() for d in self.dice], "reason": self.reason})
        return out


@dataclass(frozen=True)
class DiceOptions:
    """What the table expects: how many dice (None: any), and which colours (empty: any)."""

    count: int | None = None
    colors: tuple[str, ...] = ()
    threshold: float = 38.0  # foreground distance from the felt (Lab units, chroma weighted)


def color_name(patch: np.ndarray, hsv: np.ndarray | None = None) -> str:
    """red, green, white, black or other, from the median body colour of a die patch.

    ``hsv``: the patch already in HSV (uint8), when the caller has converted it.
    """
    inner = (cv2.cvtColor(patch[10:-10, 10:-10], cv2.COLOR_BGR2HSV) if hsv is None else hsv[10:-10, 10:-10])
    h, s, v = (int(x) for x in median_rows(inner.reshape(-1, 3)))
    if s < 50:
        return "white" if v > 150 else ("black" if v < 70 else "other")
    if v < 50:
        return "black"
    if h <= 8 or h >= 165:
        return "red"
    if 40 <= h <= 90:
        return "green"
    return "other"


@dataclass
class _Blob:
    rect: tuple
    box: tuple[int, int, int, int]
    area: float
    touches_edge: bool
    outside: bool = False
