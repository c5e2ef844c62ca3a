"""The die-face model: a second, independent read of a die's top face from its pixels.

A tiny convolutional network (trained by ``tools/vision_model/train_faces.py``,
shipped as ``drivers/vision/models/dice_face.onnx``, run through OpenCV's own
``cv2.dnn``) looks at the same rectified die patch the pip counter reads and
says 1..6, "not a readable top face" (class 0) or "a cocked die" (class 7, learned from synthetic
cocked dice only), with a probability.  The
reader counts a die as read only where the pip count and the model agree
(docs/devices/vision.md, "The face model").

The preprocessing here is the one function both the dataset builder and the
runtime use, so that training and reading see the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

SIDE = 32  # the model's input: SIDE x SIDE grey pixels
CLASSES = 8  # 0: not a readable top face; 1..6: the face value; 7: a cocked die (COCKED_CLASS)
COCKED_CLASS = 7
DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "dice_face.onnx"


def face_pixels(patch: np.ndarray) -> np.ndarray:
    """A rectified die patch (BGR or grey, any square size) as SIDE x SIDE grey uint8: what the dataset stores."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    return cv2.resize(grey, (SIDE, SIDE), interpolation=cv2.INTER_AREA)


def to_input(pixels: np.ndarray) -> np.ndarray:
    """N x SIDE x SIDE uint8 grey faces -> the network's N x 1 x SIDE x SIDE float32 input.

    Each face is scaled to zero mean and unit spread, so that the body colour and the light level
    (white die, red die, dim webcam) do not matter, only the marks on it.
    """
    x = pixels.astype(np.float32).reshape(-1, 1, SIDE, SIDE)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return (x - mean) / np.maximum(std, 8.0)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class FaceGuess:
    """The model's answer for one patch: value 1..6, 0 for "not a readable top face", 7 for a cocked die."""

    value: int
    probability: float
    probabilities: tuple[float, ...]


class FaceModelError(Exception):
    """The model file is missing or cannot be read by cv2.dnn."""


class FaceModel:
    """The ONNX face classifier loaded once through cv2.dnn; classify patches in one batch."""

    def __init__(self, path: Path = DEFAULT_MODEL) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FaceModelError(f"{self.path}: dice face model file not found")
        try:
            if hasattr(cv2.dnn, "ENGINE_CLASSIC"):
                # OpenCV 5's new graph engine runs this small net about twice as slow as the classic one.
                self._net = cv2.dnn.readNetFromONNX(str(self.path), engine=cv2.dnn.ENGINE_CLASSIC)
            else:
                self._net = cv2.dnn.readNetFromONNX(str(self.path))
            probe = self._forward(np.zeros((1, SIDE, SIDE), np.uint8))
        except cv2.error as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "unreadable"
            raise FaceModelError(f"{self.path}: cv2.dnn cannot load the dice face model ({first})") from None
        if probe.shape != (1, CLASSES):
            raise FaceModelError(f"{self.path}: the dice face model gives {probe.shape[1:]} outputs, "
                                 f"expected {CLASSES}")

    def _forward(self, pixels: np.ndarray) -> np.ndarray:
        self._net.setInput(to_input(pixels))
        return np.asarray(self._net.forward(), dtype=np.float32).reshape(len(pixels), -1)

    def probabilities(self, pixels: np.ndarray) -> np.ndarray:
        """N x CLASSES probabilities for N x SIDE x SIDE grey faces (face_pixels output)."""
        if len(pixels) == 0:
            return np.zeros((0, CLASSES), np.float32)
        return softmax(self._forward(pixels))

    def classify(self, patches: Sequence[np.ndarray], judge_tilt: bool = True) -> list[FaceGuess]:
        """The value and its probability for each rectified die patch, in one forward pass.

        ``judge_tilt=False`` (an uncalibrated photo, where flatness is not judged: a die seen
        obliquely shows its sides like a cocked one) drops the cocked class and shares its
        probability out over the others."""
        if not patches:
            return []
        probs = self.probabilities(np.stack([face_pixels(p) for p in patches]))
        if not judge_tilt:
            probs = probs.copy()
            probs[:, COCKED_CLASS] = 0.0
            probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
        return [FaceGuess(int(p.argmax()), float(p.max()), tuple(float(v) for v in p)) for p in probs]


def load(path: Path = DEFAULT_MODEL) -> tuple[FaceModel | None, str]:
    """(the model, "") or (None, one line saying why it is not used); never raises on a bad file."""
    try:
        return FaceModel(path), ""
    except FaceModelError as exc:
        return None, str(exc)
