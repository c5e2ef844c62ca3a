"""Calibration of the camera view, stored as a JSON file and re-checked cheaply.

Dice: the throw area polygon (pixels), the expected die side in pixels,
optionally the die side measured per die colour (``die_sizes``: on green felt a
green die shows a smaller footprint than a red one, so each die is compared
with its own colour's size), and optionally the empty felt image (a PNG beside
the JSON) for a better foreground.  Roulette: the wheel centre, the pocket ring radii, the angle of
the zero pocket at calibration time and the frame size.

``check`` compares a few sampled patches of the current frame against the
stored reference: a moved camera or a covered lens shows there at the cost of
a handful of pixel reads.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np


class CalibrationError(Exception):
    """A calibration file that cannot be used; the message names the file and the problem."""


def _points(value: Any, where: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or len(value) < 3:
        raise CalibrationError(f"{where}: expected a list of at least 3 [x, y] points")
    out = []
    for p in value:
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(c, (int, float)) for c in p)):
            raise CalibrationError(f"{where}: bad point {p!r}")
        out.append((float(p[0]), float(p[1])))
    return tuple(out)


def _number(doc: dict, key: str, where: str, low: float, high: float) -> float:
    v = doc.get(key)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not low <= v <= high:
        raise CalibrationError(f"{where}: {key!r} must be a number in {low}..{high}, got {v!r}")
    return float(v)


def _die_sizes(value: Any, where: str) -> dict[str, DieSize]:
    """The optional per-colour die sizes (absent in files written before they existed: empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CalibrationError(f"{where}: 'die_sizes' must map a colour to {{\"top\": px, \"long\": px}}")
    out = {}
    for colour, sizes in value.items():
        if not isinstance(sizes, dict):
            raise CalibrationError(f"{where}: die_sizes {colour!r} must be {{\"top\": px, \"long\": px}}")
        out[str(colour)] = DieSize(_number(sizes, "top", f"{where}: die_sizes {colour!r}", 4, 2000),
                                   _number(sizes, "long", f"{where}: die_sizes {colour!r}", 4, 2000))
    return out


BLANK_MEAN = 12.0  # grey level: below it the frame is dark (camera covered, off, no light)
BLANK_SPREAD = 3.0  # grey level standard deviation: below it the frame is one colour (no table in view)


def blank_frame(frame: np.ndarray) -> str:
    """'' for a frame with a scene in it; else why it shows nothing (checked with or without a felt reference)."""
    sample = frame[::8, ::8]  # every 8th pixel each way: cheap enough to run on every check
    grey = sample.mean(axis=2) if sample.ndim == 3 else sample
    mean, spread = float(grey.mean()), float(grey.std())
    if mean < BLANK_MEAN:
        return f"the frame is dark (mean grey {mean:.1f} of 255): the camera is covered, off or has no light"
    if spread < BLANK_SPREAD:
        return f"the frame is one flat colour (grey spread {spread:.1f}): the camera does not see the table"
    return ""


@dataclass(frozen=True)
class DieSize:
    """A flat die of one colour as the reader measures it by colour (dice.body_footprint), in pixels."""

    top: float  # side of its top face
    long: float  # long side of its whole footprint (top face, and shadow or edge where they look like the die)


@dataclass
class DiceCalibration:
    """Throw area polygon and die size; ``felt`` is the empty table image when known."""

    area: tuple[tuple[float, float], ...]
    die_px: float
    size: tuple[int, int]  # width, height of the calibrated frames
    felt: np.ndarray | None = field(default=None, repr=False)
    table: tuple[tuple[float, float], ...] | None = None  # where to look at all (the felt); None: whole frame
    # Footprint side (pixels, as the reader measures it) of a flat die of each colour; empty: not measured.
    die_sizes: dict[str, DieSize] = field(default_factory=dict)
    _mask: np.ndarray | None = field(default=None, repr=False)
    _area_points: tuple[Any, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def mask(self) -> np.ndarray:
        """Where the reader looks: the table polygon (the whole frame when none is set)."""
        if self._mask is None:
            if self.table is None:
                m = np.full((self.size[1], self.size[0]), 255, np.uint8)
            else:
                m = np.zeros((self.size[1], self.size[0]), np.uint8)
                cv2.fillPoly(m, [np.array(self.table, np.int32)], 255)
            self._mask = m
        return self._mask

    def inside(self, x: float, y: float) -> bool:
        if self._area_points is None or self._area_points[0] is not self.area:
            self._area_points = (self.area, np.array(self.area, np.float32))  # converted once per area
        return cv2.pointPolygonTest(self._area_points[1], (float(x), float(y)), False) >= 0

    def box_inside(self, box: tuple[int, int, int, int]) -> bool:
        """All four corners of a box inside the area (a die on the line is not inside)."""
        x, y, w, h = box
        return all(self.inside(px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)))

    def check(self, frame: np.ndarray, tolerance: float = 40.0) -> str:
        """'' when the frame still fits this calibration, else a reason (cheap: a few patches)."""
        if frame.shape[1] != self.size[0] or frame.shape[0] != self.size[1]:
            return f"frame size {frame.shape[1]}x{frame.shape[0]} differs from calibrated {self.size[0]}x{self.size[1]}"
        blank = blank_frame(frame)
        if blank:
            return blank
        if self.felt is None:
            return ""
        pts = np.array(self.area, np.float32)
        centre = pts.mean(axis=0)
        # On the area's corners and edge midpoints (the printed line) and just inside them.
        rim = list(pts) + [(pts[i] + pts[(i + 1) % len(pts)]) / 2 for i in range(len(pts))]
        samples = rim + [centre + 0.85 * (p - centre) for p in rim]
        bad = 0
        for sx, sy in samples:
            x, y = int(sx), int(sy)
            a = frame[max(0, y - 2):y + 3, max(0, x - 2):x + 3].reshape(-1, 3).astype(np.float32)
            b = self.felt[max(0, y - 2):y + 3, max(0, x - 2):x + 3].reshape(-1, 3).astype(np.float32)
            if a.size == 0 or np.abs(a.mean(axis=0) - b.mean(axis=0)).sum() > tolerance:
                bad += 1
        if bad * 4 >= len(samples):
            return "the view no longer matches the calibration (camera moved or light changed)"
        return ""

    def to_json(self, felt_file: str | None) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": "dice", "area": [[round(c, 2) for c in p] for p in self.area],
                               "table": [[round(c, 2) for c in p] for p in self.table] if self.table else None,
                               "die_px": round(self.die_px, 2), "size": list(self.size), "felt": felt_file}
        if self.die_sizes:
            doc["die_sizes"] = {c: {"top": round(v.top, 2), "long": round(v.long, 2)}
                                for c, v in sorted(self.die_sizes.items())}
        return doc


@dataclass(frozen=True)
class RouletteCalibration:
    """Wheel geometry: centre, ball track and pocket ring radii, frame size.

    Without ``plane`` these are in the image (a camera overhead).  With ``plane`` (a camera tilted off
    overhead: nine numbers, a 3x3 homography row by row) the centre and radii are in the wheel's plane seen
    from straight above, and ``plane`` maps that plane's points to the image.
    """

    centre: tuple[float, float]
    pocket_radius: float  # radius of the pocket ring's middle
    track_radius: float  # radius of the ball track (outer)
    inner_radius: float  # rotor cone radius inside the pockets
    size: tuple[int, int]
    plane: tuple[float, ...] | None = None

    def to_image(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Points of the wheel's plane where the camera sees them (the same points without ``plane``)."""
        if self.plane is None:
            return xs, ys
        h = np.asarray(self.plane, np.float64).reshape(3, 3)
        x, y = np.asarray(xs, np.float64), np.asarray(ys, np.float64)
        d = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        return (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / d, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / d

    def check(self, frame: np.ndarray) -> str:
        """'' when the wheel is where calibrated: the rim ring must be darker/lighter than the track."""
        if frame.shape[1] != self.size[0] or frame.shape[0] != self.size[1]:
            return f"frame size {frame.shape[1]}x{frame.shape[0]} differs from calibrated {self.size[0]}x{self.size[1]}"
        blank = blank_frame(frame)
        if blank:
            return blank
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        cx, cy = self.centre
        outer: list[float] = []
        track: list[float] = []
        for k in range(16):
            a = 2 * math.pi * k / 16
            for r, bucket in ((self.track_radius * 1.12, outer), (self.track_radius * 0.97, track)):
                px, py = self.to_image(np.array([cx + r * math.cos(a)]), np.array([cy + r * math.sin(a)]))
                x, y = int(px[0]), int(py[0])
                if 0 <= x < gray.shape[1] and 0 <= y < gray.shape[0]:
                    bucket.append(float(gray[y, x]))
        if len(outer) < 12 or len(track) < 12:
            return "the wheel is not where it was calibrated"
        if abs(np.median(outer) - np.median(track)) < 15:
            return "the wheel is not where it was calibrated (camera moved?)"
        return ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "roulette", "centre": [round(c, 2) for c in self.centre],
                "pocket_radius": round(self.pocket_radius, 2), "track_radius": round(self.track_radius, 2),
                "inner_radius": round(self.inner_radius, 2), "size": list(self.size)} | (
                    {} if self.plane is None else {"plane": [round(v, 9) for v in self.plane]})


def save(path: Path, calibration: DiceCalibration | RouletteCalibration) -> None:
    """Write a calibration file (and the felt PNG beside it for dice)."""
    if isinstance(calibration, DiceCalibration):
        felt_file = None
        if calibration.felt is not None:
            felt_file = path.with_suffix(".felt.png").name
            cv2.imwrite(str(path.with_name(felt_file)), calibration.felt)
        doc = calibration.to_json(felt_file)
    else:
        doc = calibration.to_json()
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def load(path: Path) -> DiceCalibration | RouletteCalibration:
    """Read a calibration file; CalibrationError names the file and the problem."""
    where = str(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"{where}: not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise CalibrationError(f"{where}: expected a JSON object")
    size = doc.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
        raise CalibrationError(f"{where}: 'size' must be [width, height] in pixels")
    kind = doc.get("kind")
    if kind == "dice":
        area = _points(doc.get("area"), f"{where}: area")
        die = _number(doc, "die_px", where, 4, 2000)
        felt = None
        if doc.get("felt"):
            felt_path = path.parent / str(doc["felt"])
            felt = cv2.imread(str(felt_path), cv2.IMREAD_COLOR)
            if felt is None:
                raise CalibrationError(f"{where}: felt image {felt_path} cannot be read")
            if (felt.shape[1], felt.shape[0]) != tuple(size):
                raise CalibrationError(f"{where}: felt image size differs from 'size'")
        table = _points(doc["table"], f"{where}: table") if doc.get("table") is not None else None
        return DiceCalibration(area, die, (size[0], size[1]), felt, table, _die_sizes(doc.get("die_sizes"), where))
    if kind == "roulette":
        centre = doc.get("centre")
        if not (isinstance(centre, list) and len(centre) == 2 and all(isinstance(c, (int, float)) for c in centre)):
            raise CalibrationError(f"{where}: 'centre' must be [x, y]")
        plane = doc.get("plane")
        if plane is not None:
            if not (isinstance(plane, list) and len(plane) == 9
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                            for v in plane)):
                raise CalibrationError(f"{where}: 'plane' must be 9 numbers (a 3x3 homography, row by row)")
            if abs(float(np.linalg.det(np.asarray(plane, float).reshape(3, 3)))) < 1e-12:
                raise CalibrationError(f"{where}: 'plane' is not an invertible homography")
        return RouletteCalibration((float(centre[0]), float(centre[1])),
                                   _number(doc, "pocket_radius", where, 5, 5000),
                                   _number(doc, "track_radius", where, 5, 5000),
                                   _number(doc, "inner_radius", where, 1, 5000), (size[0], size[1]),
                                   None if plane is None else tuple(float(v) for v in plane))
    raise CalibrationError(f"{where}: 'kind' must be \"dice\" or \"roulette\", got {kind!r}")
