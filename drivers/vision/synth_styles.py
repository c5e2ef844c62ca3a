"""Seeded dice throws in varied styles: other felts, dice, light, blur, clutter and a tilted camera.

``synth_dice`` draws one table under one camera; its seeds and figures stay as they are.  This module
draws the same kinds of throw (``KINDS``) with a style drawn from the seed's own stream (``style``):

- the cloth: green, blue or burgundy felt, or bare wood with a grain;
- the dice: the casino's red and green dice opaque or translucent (the felt showing through, a lighter
  core), or white dice with black pips (Sic Bo's three); 0.85 to 1.2 times the nominal size; round or
  square pips;
- the light: a cast shadow of each die (offset and darkness from one lamp), glare and colour from
  ``distort``; motion blur along one direction (a die or the camera moving) and sensor noise and JPEG;
- clutter outside the table's edge: a cable along the rail, a stack of chips, a croupier's hand;
- the camera tilted 0 to 35 degrees off overhead about a horizontal axis (a pinhole camera), applied as
  one homography to the scene and to the calibration's throw area and table (the calibration a
  technician makes of that view: the area's corners where the camera sees them, the die size measured
  in a frame of that table).

The truth is that of ``synth_dice``'s kinds: clean (ok), touching (ok), cocked (void), off (void), sicbo
(ok).  Only OpenCV and numpy; the same seed always gives the same scene.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from drivers.vision import distort
from drivers.vision import synth_dice as D
from drivers.vision.pips import LAYOUTS

KINDS = ("clean", "touching", "cocked", "off", "sicbo")
CLOTHS = {"green": (50, 105, 30), "blue": (120, 70, 20), "burgundy": (45, 30, 105), "wood": (45, 85, 135)}


@dataclass(frozen=True)
class Style:
    cloth: str = "green"
    dice: str = "opaque"  # opaque | translucent | white
    size: float = 1.0  # times synth_dice.DIE_PX
    square_pips: bool = False
    shadow: tuple[float, float, float] = (3.0, 3.0, 0.6)  # dx, dy, how dark (share of the cloth's brightness)
    motion: tuple[float, float] = (0.0, 0.0)  # blur length in pixels, direction in degrees
    clutter: tuple[str, ...] = ()
    tilt: float = 0.0  # camera degrees off overhead

    def as_json(self) -> dict[str, Any]:
        return {"cloth": self.cloth, "dice": self.dice, "size": round(self.size, 3), "square_pips": self.square_pips,
                "shadow": [round(v, 2) for v in self.shadow], "motion": [round(v, 2) for v in self.motion],
                "clutter": list(self.clutter), "tilt": round(self.tilt, 2)}


def style(seed: int, kind: str) -> Style:
    """The seed's style (its own stream: seed + 3,000,000)."""
    rng = np.random.default_rng(seed + 3_000_000)
    cloth = str(rng.choice(list(CLOTHS)))
    dice = "white" if kind == "sicbo" else str(rng.choice(["opaque", "translucent"]))
    angle = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(1, 8))
    clutter = tuple(str(c) for c in rng.choice(["cable", "chips", "hand"], int(rng.integers(0, 3)), replace=False))
    return Style(cloth, dice, float(rng.uniform(0.85, 1.2)), bool(rng.random() < 0.3),
                 (reach * math.cos(angle), reach * math.sin(angle), float(rng.uniform(0.35, 0.75))),
                 (float(rng.uniform(0, 6)) if rng.random() < 0.5 else 0.0, float(rng.uniform(0, 180))),
                 clutter, float(rng.uniform(0, 35)))


def tilt_homography(tilt: float, size: tuple[int, int] = D.SIZE) -> np.ndarray:
    """The homography of a pinhole camera (focal length the frame's width) turned ``tilt`` degrees about the
    frame's horizontal centre line, scaled back so the table's corners stay in the frame."""
    w, h = size
    f = float(w)
    a = math.radians(tilt)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    r = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    hom = k @ r @ np.linalg.inv(k)
    corners = np.array([[x, y, 1.0] for x, y in D.TABLE]).T
    seen = hom @ corners
    seen = seen[:2] / seen[2]
    lo, hi = seen.min(axis=1), seen.max(axis=1)
    scale = min((w - 12) / (hi[0] - lo[0]), (h - 12) / (hi[1] - lo[1]), 1.0)
    fit = np.array([[scale, 0, w / 2 - scale * (lo[0] + hi[0]) / 2],
                    [0, scale, h / 2 - scale * (lo[1] + hi[1]) / 2], [0, 0, 1]])
    out: np.ndarray = fit @ hom
    return out


def _cloth(rng: np.random.Generator, s: Style) -> np.ndarray:
    w, h = D.SIZE
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 30, 25)
    base = np.array(CLOTHS[s.cloth], np.float32) + rng.uniform(-10, 10, 3).astype(np.float32)
    cv2.rectangle(img, (30, 25), (610, 455), tuple(int(c) for c in base), -1)
    out = img.astype(np.float32)
    if s.cloth == "wood":
        grain = np.sin(np.linspace(0, float(rng.uniform(30, 60)), h))[:, None] * rng.uniform(4, 10)
        grain = grain + cv2.resize(rng.normal(0, 4, (h // 8, 4)).astype(np.float32), (w, h))
        inside = np.zeros((h, w), np.float32)
        inside[25:456, 30:611] = 1
        out += (grain * inside)[..., None]
    tex = cv2.resize(rng.normal(0, 3, (h // 4, w // 4)).astype(np.float32), (w, h))[..., None]
    img = np.clip(out + tex, 0, 255).astype(np.uint8)
    cv2.polylines(img, [np.array(D.AREA, np.int32)], True, (200, 215, 200), 2, cv2.LINE_AA)
    return img


def draw_die(img: np.ndarray, die: D.SynthDie, s: Style, cloth: np.ndarray) -> None:
    """One die in the style: its shadow, body (translucent: blended with the cloth, a lighter core), pips."""
    side = D.DIE_PX * s.size
    body = np.array(D.COLORS[die.color], np.float32)
    dx, dy, dark = s.shadow
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    centre = np.array([die.x, die.y])
    shade = tuple(int(c * (1 - dark)) for c in cloth)
    cv2.fillConvexPoly(img, (D._rot(square * side * 1.04, die.angle) + centre + (dx, dy)).astype(np.int32), shade,
                       cv2.LINE_AA)
    if die.tilt > 0 or s.dice == "opaque" and not s.square_pips:
        D.draw_die(img, die, side)
        return
    layer = img.copy()
    D.draw_die(layer, D.SynthDie(die.value, die.color, die.x, die.y, die.angle), side)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, (D._rot(square * side * 0.98, die.angle) + centre).astype(np.int32), 255, cv2.LINE_AA)
    if s.dice == "translucent":
        core = np.zeros(img.shape[:2], np.uint8)
        cv2.fillConvexPoly(core, (D._rot(square * side * 0.6, die.angle) + centre).astype(np.int32), 255, cv2.LINE_AA)
        lit = np.clip(layer.astype(np.float32) * 1.18, 0, 255).astype(np.uint8)
        layer = np.where(core[..., None] > 0, cv2.addWeighted(layer, 0.5, lit, 0.5, 0), layer)
        see_through = cv2.addWeighted(layer, 0.78, img, 0.22, 0)
        pip_mask = np.abs(layer.astype(np.int16) - body.astype(np.int16)).max(axis=2) > 90
        layer = np.where(pip_mask[..., None], layer, see_through)
    if s.square_pips:
        pip = (30, 30, 30) if die.color in ("white", "yellow") else (245, 245, 245)
        for gx, gy in LAYOUTS[die.value]:
            q = D._rot(np.array([[gx * 0.27 * side, gy * 0.27 * side]]), die.angle)[0] + centre
            half = 0.085 * side * (1.3 if die.value == 1 else 1.0)
            cv2.fillConvexPoly(layer, (D._rot(square * 2 * half, die.angle + 45 * (die.value == 1)) + q)
                               .astype(np.int32), pip, cv2.LINE_AA)
    img[mask > 0] = layer[mask > 0]


def _clutter(img: np.ndarray, s: Style, rng: np.random.Generator) -> None:
    """Things at the edge, outside the table polygon (they are not dice and must not void a throw)."""
    if "cable" in s.clutter:
        xs = np.linspace(20, 620, 12)
        ys = 12 + rng.uniform(-5, 5, 12)
        cv2.polylines(img, [np.stack([xs, ys], 1).astype(np.int32)], False, (25, 25, 25), 7, cv2.LINE_AA)
    if "chips" in s.clutter:
        x = int(rng.uniform(60, 580))
        for k in range(3):
            cv2.circle(img, (x + 3 * k, 468 - k), 11, (30, 30, 170) if k % 2 else (230, 230, 230), -1, cv2.LINE_AA)
    if "hand" in s.clutter:
        y = int(rng.uniform(120, 360))
        cv2.ellipse(img, (0, y), (30, 60), 0, 0, 360, (120, 160, 215), -1, cv2.LINE_AA)


def scene(seed: int, kind: str = "clean", strength: float = 0.5) -> tuple[np.ndarray, dict[str, Any], np.ndarray]:
    """(image, truth, calibration frame) of one styled throw; truth carries the style and the calibration."""
    if kind not in KINDS:
        raise ValueError(f"unknown styled dice kind {kind!r}; one of {', '.join(KINDS)}")
    s = style(seed, kind)
    rng = np.random.default_rng(seed)
    img = _cloth(rng, s)
    empty = img.copy()
    cloth = np.array(CLOTHS[s.cloth], np.float32)
    colors = ["white", "white", "white"] if kind == "sicbo" else ["red", "green"]
    dice: list[D.SynthDie] = []
    taken: list[tuple[float, float]] = []
    for color in colors:
        x, y = D._place(rng, taken, 1.6 * s.size)
        taken.append((x, y))
        dice.append(D.SynthDie(int(rng.integers(1, 7)), color, x, y, float(rng.uniform(0, 90))))
    status, reason = "ok", ""
    side = D.DIE_PX * s.size
    if kind == "touching":
        a = dice[0]
        ang = math.radians(a.angle)
        gap = side * float(rng.uniform(1.0, 1.08))
        bx, by = a.x + gap * math.cos(ang), a.y + gap * math.sin(ang)
        (x0, y0), (x1, y1) = D.AREA[0], D.AREA[2]
        if not (x0 + side < bx < x1 - side and y0 + side < by < y1 - side):
            bx, by = a.x - gap * math.cos(ang), a.y - gap * math.sin(ang)
        dice[1] = D.SynthDie(dice[1].value, dice[1].color, bx, by, a.angle)
    elif kind == "cocked":
        i = int(rng.integers(0, len(dice)))
        d = dice[i]
        dice[i] = D.SynthDie(d.value, d.color, d.x, d.y, d.angle, float(rng.uniform(12, 45)))
        status, reason = "void", "a die not lying flat"
    elif kind == "off":
        i = int(rng.integers(0, len(dice)))
        d = dice[i]
        pos = [(float(rng.uniform(120, 520)), 35.0), (float(rng.uniform(120, 520)), 445.0),
               (48.0, float(rng.uniform(110, 370))), (592.0, float(rng.uniform(110, 370)))][int(rng.integers(0, 4))]
        dice[i] = D.SynthDie(d.value, d.color, pos[0], pos[1], d.angle, 0.0, inside=False)
        status, reason = "void", "a die off the throw area"
    for d in dice:
        draw_die(img, d, s, cloth)
    for color, value, x, y, angle in D.CALIBRATION_DICE:
        if color in colors:
            draw_die(empty, D.SynthDie(value, color, x, y, angle), s, cloth)
    _clutter(img, s, rng)
    _clutter(empty, s, np.random.default_rng([seed, 2]))
    hom = tilt_homography(s.tilt)
    w, h = D.SIZE
    dist = distort.draw_distortion(rng, strength)
    dist = distort.Distortion(0.0, 0.0, dist.light, dist.warmth, dist.glare, dist.blur, dist.noise, dist.jpeg)
    glare = distort.glare_field(D.SIZE, dist, rng)

    def camera(picture: np.ndarray, noise_rng: np.random.Generator) -> np.ndarray:
        seen = cv2.warpPerspective(picture, hom, (w, h), flags=cv2.INTER_LINEAR, borderValue=(20, 20, 20))
        length, direction = s.motion
        if length >= 1:
            n = int(round(length)) * 2 + 1
            kernel = np.zeros((n, n), np.float32)
            t = math.radians(direction)
            cv2.line(kernel, (int(n / 2 - length * math.cos(t)), int(n / 2 - length * math.sin(t))),
                     (int(n / 2 + length * math.cos(t)), int(n / 2 + length * math.sin(t))), 1.0, 1, cv2.LINE_AA)
            seen = cv2.filter2D(seen, -1, kernel / kernel.sum())
        out: np.ndarray = distort.apply(seen, dist, noise_rng, None, glare=glare)
        return out

    image, frame = camera(img, rng), camera(empty, np.random.default_rng([seed, 1]))
    area = [D._warp_point(x, y, hom, 0.0) for x, y in D.AREA]
    table = [D._warp_point(x, y, hom, 0.0) for x, y in D.TABLE]
    scale = math.sqrt(abs(np.linalg.det(hom[:2, :2]))) / abs(hom[2] @ np.array([w / 2, h / 2, 1.0]))
    truth_dice = []
    for d in dice:
        cx, cy = D._warp_point(d.x, d.y, hom, 0.0)
        half = side * 0.75 * scale
        truth_dice.append({"value": d.value, "color": d.color, "flat": d.tilt == 0, "tilt": round(d.tilt, 2),
                           "inside": d.inside, "box": [int(cx - half), int(cy - half), int(2 * half), int(2 * half)]})
    calibration = {"area": [list(p) for p in area], "table": [list(p) for p in table],
                   "die_px": round(side * scale, 2), "size": list(D.SIZE)}
    truth = {"seed": seed, "kind": kind, "strength": strength, "status": status, "reason": reason,
             "occluded": False, "dice": truth_dice, "style": s.as_json(), "distortion": dist.as_json(),
             "calibration": calibration}
    return image, truth, frame


def read_throw(seed: int, kind: str, strength: float = 0.5, face_model: Any = True) -> tuple[dict, dict]:
    """(truth, answer) for one styled throw, read with the calibration a technician would make of it."""
    from drivers.vision.calibration import DiceCalibration
    from drivers.vision.dice import DiceOptions, DiceReader
    image, truth, frame = scene(seed, kind, strength)
    cd = truth["calibration"]
    cal = DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                          tuple(tuple(p) for p in cd["table"]))
    cal.die_sizes = DiceReader(cal, face_model=False).measure_die_sizes(frame)
    options = DiceOptions(**D.reader_options(kind))
    return truth, DiceReader(cal, options, face_model=face_model).read(image).as_json()
