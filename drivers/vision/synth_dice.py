"""Seeded synthetic dice throws on felt, with their truth (OpenCV and numpy only).

A scene is a 640x480 overhead view of a felt throw area bordered by a line,
a wooden rail outside it, and dice: by default the red and the green die of
Tärning, flat, apart and inside.  ``kind`` picks a case: touching dice, a
cocked die (5 to 45 degrees), a die off the area, a cup or a hand over the
area, other colours, occlusion.  The truth says what a correct reader answers:
``ok`` with the dice, ``void`` (a die off the area or not flat), or ``unsure``
(nothing readable: a cup or hand in view).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from drivers.vision import distort
from drivers.vision.calibration import DiceCalibration
from drivers.vision.pips import LAYOUTS

SIZE = (640, 480)
TABLE = ((36.0, 31.0), (604.0, 31.0), (604.0, 449.0), (36.0, 449.0))
AREA = ((70.0, 60.0), (570.0, 60.0), (570.0, 420.0), (70.0, 420.0))
DIE_PX = 40.0
COLORS = {"red": (40, 35, 190), "green": (55, 150, 35), "white": (235, 235, 235), "blue": (170, 80, 30),
          "yellow": (40, 210, 230)}
KINDS = ("clean", "touching", "cocked", "off", "cup", "hand", "colours", "occluded", "sicbo")
SIDE_OF = {1: 2, 2: 3, 3: 1, 4: 1, 5: 1, 6: 2}  # a face next to each top face (shown on a cocked die)


@dataclass(frozen=True)
class SynthDie:
    value: int
    color: str
    x: float
    y: float
    angle: float  # degrees
    tilt: float = 0.0  # degrees off flat
    inside: bool = True


def calibration(homography: np.ndarray | None = None, lens: float = 0.0) -> DiceCalibration:
    """The calibration a technician would set for this scene geometry."""
    pts = [_warp_point(x, y, homography, lens) for x, y in AREA]
    table = [_warp_point(x, y, homography, lens) for x, y in TABLE]
    return DiceCalibration(tuple(pts), DIE_PX, SIZE, None, tuple(table))


def _warp_point(x: float, y: float, homography: np.ndarray | None, lens: float) -> tuple[float, float]:
    if homography is not None:
        v = homography @ np.array([x, y, 1.0])
        x, y = v[0] / v[2], v[1] / v[2]
    if abs(lens) > 1e-4:
        x, y = distort.lens_point(x, y, SIZE, lens)
    return float(x), float(y)


def felt(rng: np.random.Generator) -> np.ndarray:
    """The empty table: green felt with a little texture, the area line, the rail."""
    w, h = SIZE
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 30, 25)  # dark wooden rail
    base = np.array([50, 105, 30], np.float32) + rng.uniform(-12, 12, 3).astype(np.float32)
    cv2.rectangle(img, (30, 25), (610, 455), tuple(int(c) for c in base), -1)
    coarse = rng.normal(0, 3, (h // 4, w // 4, 1)).astype(np.float32)
    tex = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    img = np.clip(img.astype(np.float32) + tex, 0, 255).astype(np.uint8)
    cv2.polylines(img, [np.array(AREA, np.int32)], True, (200, 215, 200), 2, cv2.LINE_AA)
    return img


def _rot(points: np.ndarray, angle: float) -> np.ndarray:
    a = math.radians(angle)
    m = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return points @ m.T


def draw_die(img: np.ndarray, die: SynthDie, side: float = DIE_PX) -> None:
    """Draw one die from above: its top face (squeezed by the tilt) and, when cocked, a side face."""
    body = np.array(COLORS[die.color], np.float32)
    pip_color = (30, 30, 30) if die.color in ("white", "yellow") else (245, 245, 245)
    squeeze = math.cos(math.radians(die.tilt))
    strip = side * math.sin(math.radians(die.tilt))
    centre = np.array([die.x, die.y])
    # shadow
    shadow = _rot(np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * side * 1.05, die.angle)
    cv2.fillConvexPoly(img, (shadow + centre + 3).astype(np.int32), (20, 40, 15), cv2.LINE_AA)
    top_h = side * squeeze
    offset = np.array([0.0, -strip / 2])  # top face shifted away from the visible side
    if die.tilt > 0:
        side_poly = np.array([[-side / 2, top_h / 2], [side / 2, top_h / 2],
                              [side / 2, top_h / 2 + strip], [-side / 2, top_h / 2 + strip]]) + offset
        shade = tuple(int(c) for c in body * 0.6)
        cv2.fillConvexPoly(img, (_rot(side_poly, die.angle) + centre).astype(np.int32), shade, cv2.LINE_AA)
        sq = math.sin(math.radians(die.tilt))
        for gx, gy in LAYOUTS[SIDE_OF[die.value]]:
            p = np.array([gx * 0.27 * side, top_h / 2 + strip / 2 + gy * 0.27 * strip]) + offset
            q = _rot(p[None, :], die.angle)[0] + centre
            axes = (max(1, int(0.09 * side)), max(1, int(0.09 * side * sq)))
            cv2.ellipse(img, (int(q[0]), int(q[1])), axes, die.angle, 0, 360, (200, 200, 200), -1, cv2.LINE_AA)
    r = 0.12 * side
    top = np.array([[-side / 2 + r, -top_h / 2], [side / 2 - r, -top_h / 2], [side / 2, -top_h / 2 + r * squeeze],
                    [side / 2, top_h / 2 - r * squeeze], [side / 2 - r, top_h / 2], [-side / 2 + r, top_h / 2],
                    [-side / 2, top_h / 2 - r * squeeze], [-side / 2, -top_h / 2 + r * squeeze]]) + offset
    cv2.fillConvexPoly(img, (_rot(top, die.angle) + centre).astype(np.int32), tuple(int(c) for c in body),
                       cv2.LINE_AA)
    for gx, gy in LAYOUTS[die.value]:
        p = np.array([gx * 0.27 * side, gy * 0.27 * side * squeeze]) + offset
        q = _rot(p[None, :], die.angle)[0] + centre
        rad = 0.09 * side * (1.35 if die.value == 1 else 1.0)
        axes = (max(1, int(round(rad))), max(1, int(round(rad * squeeze))))
        cv2.ellipse(img, (int(round(q[0])), int(round(q[1]))), axes, die.angle, 0, 360, pip_color, -1, cv2.LINE_AA)


def _place(rng: np.random.Generator, taken: list[tuple[float, float]], margin: float = 1.6) -> tuple[float, float]:
    (x0, y0), (x1, y1) = AREA[0], AREA[2]
    for _ in range(200):
        x, y = rng.uniform(x0 + DIE_PX, x1 - DIE_PX), rng.uniform(y0 + DIE_PX, y1 - DIE_PX)
        if all(math.hypot(x - a, y - b) > margin * DIE_PX for a, b in taken):
            return float(x), float(y)
    return float(x0 + DIE_PX), float(y0 + DIE_PX)


def scene(seed: int, kind: str = "clean", strength: float = 0.0) -> tuple[np.ndarray, dict[str, Any]]:
    """One synthetic throw (BGR image) and its truth."""
    image, truth, _ = _scene(seed, kind, strength, False)
    return image, truth


def scene_with_calibration_frame(seed: int, kind: str = "clean",
                                 strength: float = 0.0) -> tuple[np.ndarray, dict[str, Any], np.ndarray]:
    """One throw, its truth, and the frame a technician would calibrate that table from.

    The calibration frame is the same table under the same camera (perspective, lens, light,
    glare, blur, JPEG; fresh sensor noise) with one flat die of each colour (CALIBRATION_DICE),
    so the die size per colour can be measured as the reader sees it.  The throw itself is
    exactly ``scene(seed, kind, strength)``.
    """
    image, truth, frame = _scene(seed, kind, strength, True)
    assert frame is not None
    return image, truth, frame


# One flat die of each colour, apart and well inside the area: (colour, value, x, y, angle).
CALIBRATION_DICE = (("red", 5, 170.0, 170.0, 10.0), ("green", 3, 320.0, 170.0, 35.0),
                    ("white", 4, 470.0, 170.0, 60.0), ("blue", 6, 240.0, 310.0, 20.0),
                    ("yellow", 2, 400.0, 310.0, 75.0))


def _scene(seed: int, kind: str, strength: float,
           want_frame: bool) -> tuple[np.ndarray, dict[str, Any], np.ndarray | None]:
    if kind not in KINDS:
        raise ValueError(f"unknown dice scene kind {kind!r}; one of {', '.join(KINDS)}")
    rng = np.random.default_rng(seed)
    img = felt(rng)
    empty = img.copy() if want_frame else None
    colors = ["red", "green"]
    if kind == "sicbo":
        colors = ["white", "white", "white"]
    elif kind == "colours":
        colors = [str(c) for c in rng.choice(["white", "blue", "yellow"], 2, replace=False)]
    dice: list[SynthDie] = []
    taken: list[tuple[float, float]] = []
    for color in colors:
        x, y = _place(rng, taken)
        taken.append((x, y))
        dice.append(SynthDie(int(rng.integers(1, 7)), color, x, y, float(rng.uniform(0, 90))))
    status, reason = "ok", ""
    if kind == "touching":
        a = dice[0]
        ang = math.radians(a.angle)
        gap = DIE_PX * float(rng.uniform(1.0, 1.08))
        bx, by = a.x + gap * math.cos(ang), a.y + gap * math.sin(ang)
        (x0, y0), (x1, y1) = AREA[0], AREA[2]
        if not (x0 + DIE_PX < bx < x1 - DIE_PX and y0 + DIE_PX < by < y1 - DIE_PX):
            bx, by = a.x - gap * math.cos(ang), a.y - gap * math.sin(ang)
        dice[1] = SynthDie(dice[1].value, dice[1].color, bx, by, a.angle)
    elif kind == "cocked":
        i = int(rng.integers(0, len(dice)))
        d = dice[i]
        dice[i] = SynthDie(d.value, d.color, d.x, d.y, d.angle, float(rng.uniform(5, 45)))
        status, reason = "void", "a die not lying flat"
    elif kind == "off":
        i = int(rng.integers(0, len(dice)))
        d = dice[i]
        side = int(rng.integers(0, 4))
        pos = [(float(rng.uniform(120, 520)), 35.0), (float(rng.uniform(120, 520)), 445.0),
               (48.0, float(rng.uniform(110, 370))), (592.0, float(rng.uniform(110, 370)))][side]
        dice[i] = SynthDie(d.value, d.color, pos[0], pos[1], d.angle, 0.0, inside=False)
        status, reason = "void", "a die off the throw area"
    for d in dice:
        draw_die(img, d)
    if kind == "cup":
        c = _place(rng, [])
        cv2.circle(img, (int(c[0]), int(c[1])), int(rng.uniform(70, 95)), (25, 25, 110), -1, cv2.LINE_AA)
        cv2.circle(img, (int(c[0]), int(c[1])), int(rng.uniform(50, 65)), (35, 35, 150), -1, cv2.LINE_AA)
        status, reason = "unsure", "a cup in the throw area"
    elif kind == "hand":
        x = float(rng.uniform(150, 500))
        cv2.ellipse(img, (int(x), 470), (110, 150), 0, 180, 360, (120, 160, 215), -1, cv2.LINE_AA)
        for k in range(4):
            fx = int(x - 60 + 40 * k)
            cv2.line(img, (fx, 330), (fx + int(rng.uniform(-20, 20)), int(rng.uniform(170, 230))), (120, 160, 215),
                     26, cv2.LINE_AA)
        status, reason = "unsure", "a hand in the throw area"
    occluded = False
    if kind == "occluded":
        d = dice[int(rng.integers(0, len(dice)))]
        share = float(rng.uniform(0.3, 0.7))
        x0 = int(d.x - DIE_PX * 0.6)
        cv2.rectangle(img, (x0, int(d.y - DIE_PX)), (int(x0 + share * 1.2 * DIE_PX), int(d.y + DIE_PX)),
                      (60, 60, 60), -1)
        occluded = True
    dist = distort.draw_distortion(rng, strength)
    hom = distort.geometric_maps(SIZE, dist, rng)
    glare = distort.glare_field(SIZE, dist, rng)  # drawn here (as apply would) to reuse it below
    img = distort.apply(img, dist, rng, hom, glare=glare)
    frame = None
    if empty is not None:
        for color, value, x, y, angle in CALIBRATION_DICE:
            draw_die(empty, SynthDie(value, color, x, y, angle))
        frame = distort.apply(empty, dist, np.random.default_rng([seed, 1]), hom, glare=glare)
    persp = hom if dist.perspective > 0 else None
    truth_dice = []
    for d in dice:
        cx, cy = _warp_point(d.x, d.y, persp, dist.lens)
        half = DIE_PX * 0.75
        truth_dice.append({"value": d.value, "color": d.color, "flat": d.tilt == 0, "tilt": round(d.tilt, 2),
                           "inside": d.inside, "box": [int(cx - half), int(cy - half), int(2 * half), int(2 * half)]})
    truth = {"seed": seed, "kind": kind, "strength": strength, "status": status, "reason": reason,
             "occluded": occluded, "dice": truth_dice, "distortion": dist.as_json(),
             "calibration": calibration(persp, dist.lens).to_json(None)}
    return img, truth, frame


def reader_options(kind: str) -> dict[str, Any]:
    """What the table expects for a scene kind: Tärning (red, green) or Sic Bo (three dice)."""
    if kind == "sicbo":
        return {"count": 3, "colors": ()}
    if kind == "colours":
        return {"count": 2, "colors": ()}
    return {"count": 2, "colors": ("green", "red")}
