"""Finding dice in photos with a small learned detector, run through OpenCV's dnn module.

The model (``models/dice_detector.onnx``, about 1.7 MB) is a small CenterNet:
from the photo scaled so its long side is ``INPUT`` pixels (padded grey to a
square) it gives, every 4 pixels, how likely a die's top face is centred there,
and that face's width and height.  It was trained on the train half of the real
photos only (tools/vision_model/train_detector.py; docs/devices/vision.md,
"Finding dice in photos: the detector").  It finds dice; it does not read them:
values still come from the pips (drivers/vision/pips.py).

Used in photo mode only (no calibration); the calibrated table path does not
run it.  A missing or broken model file is reported, never raised: the reader
then works with the classical finder alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_detector.onnx"
INPUT = 320   # the model's input side (tools/vision_model/train_detector.py INPUT)
STRIDE = 4    # output cell size in input pixels
PAD = 114     # grey padding, as in training
PEAK = 0.3    # lowest heatmap peak reported (the reader applies its own, measured cut-offs)


@dataclass(frozen=True)
class Detection:
    """One die the detector sees: its top-face box in image pixels (x, y, w, h) and peak score 0..1."""

    box: tuple[int, int, int, int]
    score: float

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


class DiceDetector:
    """The loaded network; build with :meth:`load`, which reports a missing or broken file instead of raising."""

    def __init__(self, net: "cv2.dnn.Net", path: Path) -> None:
        self._net = net
        self.path = path

    @classmethod
    def load(cls, path: Path | None = None) -> tuple["DiceDetector | None", str]:
        """(detector, "") or (None, why not): the file missing, unreadable, or not this model."""
        path = MODEL_PATH if path is None else Path(path)
        if not path.is_file():
            return None, f"dice detector model not found at {path}"
        try:
            net = cv2.dnn.readNetFromONNX(str(path))
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setInput(np.zeros((1, 3, INPUT, INPUT), np.float32))
            out = net.forward()
        except cv2.error as exc:
            first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "unreadable"
            return None, f"dice detector model at {path} cannot be loaded: {first}"
        if out.shape != (1, 3, INPUT // STRIDE, INPUT // STRIDE):
            return None, f"dice detector model at {path} gives {tuple(out.shape)}, not a die heatmap"
        return cls(net, path), ""

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The raw output (3 x INPUT/4 x INPUT/4: heatmap, width, height) and the image's scale to INPUT."""
        h, w = image.shape[:2]
        scale = INPUT / max(h, w)
        small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        canvas = np.full((INPUT, INPUT, 3), PAD, np.uint8)
        canvas[:small.shape[0], :small.shape[1]] = small
        self._net.setInput(cv2.dnn.blobFromImage(canvas))
        return self._net.forward()[0], scale

    def detect(self, image: np.ndarray, threshold: float = PEAK) -> list[Detection]:
        """Dice in one BGR image, best first: heatmap peaks (3x3 local maxima) over ``threshold``, then NMS."""
        out, scale = self.maps(image)
        heat = out[0]
        peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peaks)
        boxes: list[list[int]] = []
        scores: list[float] = []
        for y, x in zip(ys, xs):
            bw, bh = (max(1.0, float(out[1, y, x])) * STRIDE / scale, max(1.0, float(out[2, y, x])) * STRIDE / scale)
            cx, cy = (x + 0.5) * STRIDE / scale, (y + 0.5) * STRIDE / scale
            boxes.append([round(cx - bw / 2), round(cy - bh / 2), round(bw), round(bh)])
            scores.append(float(heat[y, x]))
        if not boxes:
            return []
        keep = cv2.dnn.NMSBoxes(boxes, scores, threshold, 0.4)
        found = [Detection(tuple(boxes[i]), round(scores[i], 4)) for i in np.array(keep).reshape(-1)]
        return sorted(found, key=lambda d: -d.score)


__all__ = ["DiceDetector", "Detection", "MODEL_PATH", "INPUT"]
