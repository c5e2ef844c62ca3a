"""The still gate: read a result only once the scene has been still for N frames.

Motion is the share of pixels (on a small grey copy) that changed by more
than a level since the previous frame.  Any moving frame, a hand or a cup
passing included, resets the count.
"""

from __future__ import annotations

import cv2
import numpy as np


class StillGate:
    """Feed frames; ``update`` says True on the frame the scene has been still for ``frames`` frames."""

    def __init__(self, frames: int = 6, level: int = 18, share: float = 0.002, scale: int = 4) -> None:
        self.frames, self.level, self.share, self.scale = frames, level, share, scale
        self._previous: np.ndarray | None = None
        self.still_for = 0

    def reset(self) -> None:
        self._previous = None
        self.still_for = 0

    def update(self, frame: np.ndarray) -> bool:
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (max(1, w // self.scale), max(1, h // self.scale)), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        grey = cv2.GaussianBlur(grey, (3, 3), 0)
        moving = True
        if self._previous is not None and self._previous.shape == grey.shape:
            changed = cv2.absdiff(grey, self._previous) > self.level
            moving = float(changed.mean()) > self.share
        self._previous = grey
        self.still_for = 0 if moving else self.still_for + 1
        return self.still_for == self.frames
