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
# Photo mode's own model (tools/vision_model/train_photo_faces.py): colour, trained on the real photos'
# train half only; the calibrated table keeps DEFAULT_MODEL and its tuned thresholds.
PHOTO_MODEL = Path(__file__).resolve().parent / "models" / "dice_face_photo.onnx"
PHOTO_SIDE = 32
CHUNK = 16  # faces a forward pass at most (bounds the memory cv2.dnn keeps)
# Quarter turns of each patch whose probabilities photo mode averages (a value has no direction): 4 gave
# 190 dice right against 184 for 1 on the train half's left-out photos (fold 4), at 3.5 times the model's
# cost (docs/performance.md, "Photo accuracy").
PHOTO_TURNS = 4


def face_pixels(patch: np.ndarray, side: int = SIDE, colour: bool = False) -> np.ndarray:
    """A rectified die patch (BGR or grey, any square size) as side x side uint8, grey or BGR: what the
    datasets store."""
    if not colour and patch.ndim == 3:
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    return cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA)


def to_input(pixels: np.ndarray) -> np.ndarray:
    """N x S x S uint8 grey faces (or N x S x S x 3 BGR) -> the network's N x C x S x S float32 input.

    Each face is scaled to zero mean (per colour channel) and unit spread, so that the body colour and
    the light level (white die, red die, dim webcam) do not matter, only the marks on it.
    """
    n, side = len(pixels), pixels.shape[1]
    if pixels.ndim == 4:
        x = np.ascontiguousarray(pixels.astype(np.float32).transpose(0, 3, 1, 2))
        mean = x.mean(axis=(2, 3), keepdims=True)
    else:
        x = pixels.astype(np.float32).reshape(n, 1, side, side)
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

    def __init__(self, path: Path = DEFAULT_MODEL, side: int = SIDE, colour: bool = False, turns: int = 1) -> None:
        """``side``/``colour``: the input the network was trained on; ``turns``: 1 to 4 quarter turns of
        each patch whose probabilities are averaged (test-time averaging)."""
        self.path = Path(path)
        self.side, self.colour, self.turns = side, colour, max(1, min(4, turns))
        if not self.path.is_file():
            raise FaceModelError(f"{self.path}: dice face model file not found")
        try:
            if hasattr(cv2.dnn, "ENGINE_CLASSIC"):
                # OpenCV 5's new graph engine runs this small net about twice as slow as the classic one.
                self._net = cv2.dnn.readNetFromONNX(str(self.path), engine=cv2.dnn.ENGINE_CLASSIC)
            else:
                self._net = cv2.dnn.readNetFromONNX(str(self.path))
            probe = self._forward(np.zeros((1, side, side, 3) if colour else (1, side, side), np.uint8))
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
        """N x CLASSES probabilities for N faces (face_pixels output at the model's side and colour),
        the mean over the model's quarter turns."""
        if len(pixels) == 0:
            return np.zeros((0, CLASSES), np.float32)
        if self.turns == 1:
            return self._chunked(pixels)
        turned = np.concatenate([np.rot90(pixels, k, axes=(1, 2)) for k in range(self.turns)])
        return self._chunked(turned).reshape(self.turns, len(pixels), -1).mean(axis=0)

    def _chunked(self, pixels: np.ndarray) -> np.ndarray:
        """Softmax outputs in forward passes of at most CHUNK faces: cv2.dnn keeps the buffers of the
        largest batch it has run, so a photo of 25 dice in four turns would otherwise hold about 10 MB."""
        return np.concatenate([softmax(self._forward(pixels[i:i + CHUNK])) for i in range(0, len(pixels), CHUNK)])

    def classify(self, patches: Sequence[np.ndarray], judge_tilt: bool = True) -> list[FaceGuess]:
        """The value and its probability for each rectified die patch, in one forward pass.

        ``judge_tilt=False`` (an uncalibrated photo, where flatness is not judged: a die seen
        obliquely shows its sides like a cocked one) drops the cocked class and shares its
        probability out over the others."""
        if not patches:
            return []
        return guesses(self.probabilities(np.stack([face_pixels(p, self.side, self.colour) for p in patches])),
                       judge_tilt)


def guesses(probs: np.ndarray, judge_tilt: bool = True) -> list[FaceGuess]:
    """Each row of class probabilities as a FaceGuess (``judge_tilt``: as ``FaceModel.classify``)."""
    if not judge_tilt:
        probs = probs.copy()
        probs[:, COCKED_CLASS] = 0.0
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
    return [FaceGuess(int(p.argmax()), float(p.max()), tuple(float(v) for v in p)) for p in probs]


def load(path: Path = DEFAULT_MODEL, photo: bool = False) -> tuple[FaceModel | None, str]:
    """(the model, "") or (None, one line saying why it is not used); never raises on a bad file.
    ``photo``: the file is a photo-mode model (colour, PHOTO_SIDE, averaged over PHOTO_TURNS)."""
    try:
        return (FaceModel(path, PHOTO_SIDE, True, PHOTO_TURNS) if photo else FaceModel(path)), ""
    except FaceModelError as exc:
        return None, str(exc)
