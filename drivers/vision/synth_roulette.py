"""Seeded synthetic roulette spins seen from overhead, with their truth (OpenCV and numpy only).

The wheel: a wooden rim, the light ball track, the ring of 37 pockets
(single-zero order, clockwise as seen from the camera, zero green), and the
rotor cone with four spokes.  The rotor turns slowly one way; the ball is
launched the other way on the track, slows down, drops into the pocket ring,
bounces a little and comes to rest in a pocket, turning with the rotor.

``kind`` picks a case: ``ok``, ``same_direction`` (ball launched in the
rotor's direction: void, seed 000 Roulett rule 2), ``few_turns`` (void),
``lost`` (a hand over the wheel hides the ball for a long stretch; the spin
itself is good, so its truth is the number, and a reader that cannot follow
the ball through the hand is honestly unsure), ``left_wheel`` (the
ball jumps out: void), ``no_rest`` (the clip ends before the ball rests:
unsure).  Photometric distortions (light, colour, glare, blur, noise, JPEG)
come from ``distort`` with the same strength scale as the dice scenes.

Two more kinds (``OCCLUSION_KINDS``, not in ``KINDS``, so the benchmark's older seeds keep their kinds)
hide the ball mid-spin after it has made at least 3.5 turns on the track, and the spin is good (``ok``):
``hidden`` (the ball unseen for 8 to 12 frames, nothing in front of it: behind a deflector, lost in glare
or blur at speed) and ``hand`` (a hand or the croupier's sleeve over part of the wheel for 4 to 12 frames,
the ball unseen under it).  ``varied=True`` draws the wheel's design from its own seeded stream (wood and
track colours, pocket shades, fret colour, three to five spokes, the cone, eight deflectors on the track),
so that the spins no longer all show one wheel; every other draw is unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Iterator

import cv2
import numpy as np

from drivers.vision import distort
from drivers.vision.calibration import RouletteCalibration

SIZE = (640, 480)
CENTRE = (320.0, 240.0)
RIM = 232.0
TRACK_OUT, TRACK_IN = 215.0, 180.0
POCKET_OUT, POCKET_IN = 178.0, 138.0
BALL_TRACK_R, BALL_POCKET_R = 199.0, 156.0
BALL_RADIUS = 6
ORDER = (0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9,
         22, 18, 29, 7, 28, 12, 35, 3, 26)
RED = frozenset((1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36))
KINDS = ("ok", "same_direction", "few_turns", "lost", "left_wheel", "no_rest")
OCCLUSION_KINDS = ("hidden", "hand")
ALL_KINDS = KINDS + OCCLUSION_KINDS
FPS = 30


def calibration() -> RouletteCalibration:
    return RouletteCalibration(CENTRE, (POCKET_OUT + POCKET_IN) / 2, TRACK_OUT, POCKET_IN, SIZE)


@dataclass(frozen=True)
class Design:
    """How one wheel looks (BGR colours); ``Design()`` is the one wheel the older spins all show."""

    bowl: tuple[int, int, int] = (30, 60, 25)
    rim: tuple[int, int, int] = (25, 45, 80)
    track: tuple[int, int, int] = (140, 180, 205)
    track_in: tuple[int, int, int] = (90, 120, 150)
    zero: tuple[int, int, int] = (40, 140, 20)
    red: tuple[int, int, int] = (30, 30, 180)
    black: tuple[int, int, int] = (25, 25, 25)
    fret: tuple[int, int, int] = (40, 120, 150)
    cone: tuple[int, int, int] = (30, 70, 110)
    spoke: tuple[int, int, int] = (60, 150, 190)
    spokes: int = 4
    deflectors: bool = False


def _colour(rng: np.random.Generator, base: tuple[int, int, int], spread: float) -> tuple[int, int, int]:
    b, g, r = (int(np.clip(c * rng.uniform(1 - spread, 1 + spread), 0, 255)) for c in base)
    return b, g, r


def design(seed: int) -> Design:
    """A seeded wheel design (its own random stream: the spin's other draws do not change)."""
    rng = np.random.default_rng(seed + 9_000_000)
    woods = ((25, 45, 80), (20, 30, 55), (40, 70, 120), (30, 30, 30))
    tracks = ((140, 180, 205), (170, 190, 200), (120, 150, 175), (185, 200, 210))
    frets = ((40, 120, 150), (170, 170, 175), (60, 160, 200))
    track = _colour(rng, tracks[int(rng.integers(len(tracks)))], 0.06)
    shade = float(rng.uniform(0.6, 0.75))
    return Design(bowl=_colour(rng, (30, 60, 25), 0.3), rim=_colour(rng, woods[int(rng.integers(len(woods)))], 0.1),
                  track=track, track_in=(int(track[0] * shade), int(track[1] * shade), int(track[2] * shade)),
                  zero=_colour(rng, (40, 140, 20), 0.15), red=_colour(rng, (30, 30, 180), 0.15),
                  black=_colour(rng, (25, 25, 25), 0.3), fret=_colour(rng, frets[int(rng.integers(len(frets)))], 0.1),
                  cone=_colour(rng, (30, 70, 110), 0.3), spoke=_colour(rng, (60, 150, 190), 0.2),
                  spokes=int(rng.integers(3, 6)), deflectors=True)


def _rotor_image(d: Design = Design()) -> np.ndarray:
    """The rotor (pockets, frets, cone, spokes) at angle 0 on a square canvas centred on the wheel."""
    side = int(2 * POCKET_OUT + 8)
    c = side / 2
    img = np.zeros((side, side, 3), np.uint8)
    step = 2 * math.pi / 37
    for k, number in enumerate(ORDER):
        a0, a1 = (k - 0.5) * step, (k + 0.5) * step
        pts = []
        for a in np.linspace(a0, a1, 6):
            pts.append((c + POCKET_OUT * math.cos(a), c + POCKET_OUT * math.sin(a)))
        for a in np.linspace(a1, a0, 6):
            pts.append((c + POCKET_IN * math.cos(a), c + POCKET_IN * math.sin(a)))
        color = d.zero if number == 0 else (d.red if number in RED else d.black)
        cv2.fillPoly(img, [np.array(pts, np.int32)], color, cv2.LINE_AA)
    for k in range(37):
        a = (k + 0.5) * step
        p0 = (int(c + POCKET_IN * math.cos(a)), int(c + POCKET_IN * math.sin(a)))
        p1 = (int(c + POCKET_OUT * math.cos(a)), int(c + POCKET_OUT * math.sin(a)))
        cv2.line(img, p0, p1, d.fret, 2, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(POCKET_IN), d.cone, -1, cv2.LINE_AA)
    for k in range(d.spokes):
        a = k * 2 * math.pi / d.spokes + 0.3
        cv2.line(img, (int(c), int(c)), (int(c + 95 * math.cos(a)), int(c + 95 * math.sin(a))), d.spoke, 7,
                 cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), 24, (150, 160, 170), -1, cv2.LINE_AA)
    return img


def _bowl(rng: np.random.Generator, d: Design = Design()) -> np.ndarray:
    w, h = SIZE
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = d.bowl
    cx, cy = int(CENTRE[0]), int(CENTRE[1])
    cv2.circle(img, (cx, cy), int(RIM), d.rim, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy), int(TRACK_OUT), d.track, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy), int(TRACK_IN), d.track_in, -1, cv2.LINE_AA)
    if d.deflectors:
        # eight small chrome diamonds on the lower track, as on a real wheel (the ball passes over them)
        for k in range(8):
            a = k * math.pi / 4 + math.pi / 8
            r0, r1 = TRACK_IN + 2, TRACK_IN + 12
            mid = (r0 + r1) / 2
            pts = [(cx + r0 * math.cos(a), cy + r0 * math.sin(a)),
                   (cx + mid * math.cos(a + 0.03), cy + mid * math.sin(a + 0.03)),
                   (cx + r1 * math.cos(a), cy + r1 * math.sin(a)),
                   (cx + mid * math.cos(a - 0.03), cy + mid * math.sin(a - 0.03))]
            cv2.fillConvexPoly(img, np.array(pts, np.int32), (175, 180, 185), cv2.LINE_AA)
    return img


@dataclass(frozen=True)
class SpinPlan:
    """The physics of one spin, in frames and radians (angles grow clockwise on screen)."""

    rotor_dir: int
    ball_dir: int
    rotor_speed: float  # rad/frame
    rotor_start: float
    ball_start: float
    ball_speed0: float  # rad/frame at launch
    track_frames: int  # frames on the track
    drop_frames: int  # frames falling and bouncing
    rest_frames: int  # frames resting until the clip ends
    pocket: int  # index into ORDER
    pocket_offset: float  # share of a pocket width off its centre
    lost: tuple[int, int] | None = None  # frames the ball is hidden
    leaves_at: int | None = None  # frame the ball jumps out of the wheel


def plan(seed: int, kind: str, number: int | None = None) -> SpinPlan:
    """The seeded spin; ``number`` (0-36) picks the pocket the ball ends in, every other draw unchanged."""
    if kind not in ALL_KINDS:
        raise ValueError(f"unknown roulette scene kind {kind!r}; one of {', '.join(ALL_KINDS)}")
    if number is not None and number not in ORDER:
        raise ValueError(f"{number!r} is not a number of the single-zero wheel (0-36)")
    rng = np.random.default_rng(seed)
    rotor_dir = 1 if rng.random() < 0.5 else -1
    ball_dir = rotor_dir if kind == "same_direction" else -rotor_dir
    turns = float(rng.uniform(1.2, 2.6)) if kind == "few_turns" else float(rng.uniform(5.0, 8.0))
    track_frames = int(rng.integers(120, 180)) if kind != "few_turns" else int(rng.integers(40, 60))
    # constant deceleration to a third of the launch speed: distance = mean speed * frames
    speed0 = 2 * math.pi * turns / (track_frames * (1 + 1 / 3) / 2)
    lost = None
    if kind == "lost":
        start = int(rng.integers(20, track_frames - 50))
        lost = (start, start + int(rng.integers(25, 40)))
    leaves = int(rng.integers(20, track_frames - 5)) if kind == "left_wheel" else None
    rest = 3 if kind == "no_rest" else int(rng.integers(20, 30))
    if kind in OCCLUSION_KINDS:
        # After at least 3.5 turns on the track (its own stream: the other draws stay as for "ok").
        hide = np.random.default_rng(seed + 8_000_000)
        travelled, start = 0.0, 0
        for start in range(track_frames):
            if travelled >= 2 * math.pi * 3.5:
                break
            travelled += speed0 * (1 - (2 / 3) * start / track_frames)
        start += int(hide.integers(0, max(1, track_frames - start - 14)))
        length = int(hide.integers(8, 13)) if kind == "hidden" else int(hide.integers(4, 13))
        lost = (start, start + length)
    made = SpinPlan(rotor_dir, ball_dir, float(rng.uniform(0.015, 0.05)), float(rng.uniform(0, 2 * math.pi)),
                    float(rng.uniform(0, 2 * math.pi)), speed0, track_frames, int(rng.integers(20, 30)), rest,
                    int(rng.integers(0, 37)), float(rng.uniform(-0.25, 0.25)), lost, leaves)
    return made if number is None else replace(made, pocket=ORDER.index(number))


def frames(seed: int, kind: str = "ok", strength: float = 0.0, number: int | None = None,
           varied: bool = False) -> Iterator[np.ndarray]:
    """The frames of one spin (a few quiet frames, the spin, the ball at rest); ``number``: see ``plan``;
    ``varied``: the wheel's design drawn from the seed (``design``), else the one wheel of the older spins."""
    p = plan(seed, kind, number)
    rng = np.random.default_rng(seed + 7_000_000)
    look = design(seed) if varied else Design()
    bowl = _bowl(rng, look)
    rotor = _rotor_image(look)
    arm = np.random.default_rng(seed + 8_500_000)
    arm_angle, arm_skin = float(arm.uniform(0, 2 * math.pi)), arm.random() < 0.5
    side = rotor.shape[0]
    rotor_mask = np.zeros((side, side), np.uint8)
    cv2.circle(rotor_mask, (side // 2, side // 2), int(POCKET_OUT) + 1, 255, -1)
    dist = distort.draw_distortion(rng, strength)
    dist = distort.Distortion(0.0, 0.0, dist.light, dist.warmth, dist.glare, dist.blur, dist.noise, dist.jpeg)
    offsets = distort.offset_fields(SIZE, dist, rng)
    lead = 5
    total = lead + p.track_frames + p.drop_frames + p.rest_frames
    step = 2 * math.pi / 37
    ball_angle = p.ball_start
    x0, y0 = int(CENTRE[0] - side / 2), int(CENTRE[1] - side / 2)
    rotated = np.empty_like(rotor)
    for f in range(total):
        rotor_angle = p.rotor_start + p.rotor_dir * p.rotor_speed * f
        m = cv2.getRotationMatrix2D((side / 2, side / 2), -math.degrees(rotor_angle), 1.0)
        img = bowl.copy()
        roi = img[y0:y0 + side, x0:x0 + side]
        # The rotor is round: rotating it inside its own disc needs no mask once the disc is pasted.
        cv2.warpAffine(rotor, m, (side, side), dst=rotated)
        cv2.copyTo(rotated, rotor_mask, roi)
        t = f - lead
        ball = None
        target = rotor_angle + (p.pocket + p.pocket_offset) * step
        if t < 0:
            ball = None
        elif t < p.track_frames:
            speed = p.ball_speed0 * (1 - (2 / 3) * t / p.track_frames)
            ball_angle += p.ball_dir * speed
            r = BALL_TRACK_R
            if p.leaves_at is not None and t >= p.leaves_at:
                r = BALL_TRACK_R + 14 * (t - p.leaves_at + 1)
            ball = (ball_angle, r)
        elif t < p.track_frames + p.drop_frames:
            u = (t - p.track_frames) / p.drop_frames
            # fall inwards and swing towards the final pocket (which turns with the rotor)
            ease = 1 - (1 - u) ** 3
            lag = (1 - ease) * (ball_angle - target + math.pi) % (2 * math.pi) - math.pi
            bounce = 0.0 if u > 0.6 and kind != "no_rest" else 0.08 * math.sin(u * 25)
            ball = (target + lag * (1 - ease) + bounce, BALL_TRACK_R + (BALL_POCKET_R - BALL_TRACK_R) * min(1, 2 * u))
            if p.leaves_at is not None:
                ball = None
        else:
            ball = None if p.leaves_at is not None else (target, BALL_POCKET_R)
            if kind == "no_rest" and ball is not None:
                ball = (target + 0.25 * math.sin(f), BALL_POCKET_R)
        if p.lost is not None and p.lost[0] <= t < p.lost[1]:
            ball = None
            if kind == "hand":
                # a hand (skin) or a dark sleeve reaching in from the edge over the track, towards the centre
                ex = CENTRE[0] + 230 * math.cos(arm_angle)
                ey = CENTRE[1] + 230 * math.sin(arm_angle)
                colour = (120, 160, 215) if arm_skin else (40, 35, 30)
                cv2.ellipse(img, (int(ex), int(ey)), (110, 55), math.degrees(arm_angle), 0, 360, colour, -1,
                            cv2.LINE_AA)
            elif kind != "hidden":
                cv2.ellipse(img, (int(CENTRE[0] + 120), int(CENTRE[1] + 200)), (120, 160), -30, 0, 360,
                            (120, 160, 215), -1, cv2.LINE_AA)
        if ball is not None:
            bx = CENTRE[0] + ball[1] * math.cos(ball[0])
            by = CENTRE[1] + ball[1] * math.sin(ball[0])
            if 0 <= bx < SIZE[0] and 0 <= by < SIZE[1]:
                cv2.circle(img, (int(round(bx)), int(round(by))), BALL_RADIUS, (245, 245, 245), -1, cv2.LINE_AA)
        yield distort.apply(img, dist, rng, offset=offsets[f % len(offsets)] if offsets else None)


def truth(seed: int, kind: str = "ok", strength: float = 0.0, number: int | None = None) -> dict[str, Any]:
    """What a correct reader says about this spin."""
    p = plan(seed, kind, number)
    status, reason, number = "ok", "", ORDER[p.pocket]
    if kind == "same_direction":
        status, reason = "void", "ball launched in the rotor's direction (seed 000, Roulett rule 2)"
    elif kind == "few_turns":
        status, reason = "void", "too few ball turns"
    elif kind == "left_wheel":
        status, reason = "void", "the ball left the wheel"
    elif kind == "no_rest":
        status, reason = "unsure", "no stable pocket"
    lead = 5
    return {"seed": seed, "kind": kind, "strength": strength, "status": status, "reason": reason,
            "number": number if status == "ok" else None,
            "rest_frame": lead + p.track_frames + p.drop_frames,
            "ball_direction": "cw" if p.ball_dir > 0 else "ccw",
            "rotor_direction": "cw" if p.rotor_dir > 0 else "ccw",
            "frames": lead + p.track_frames + p.drop_frames + p.rest_frames,
            "calibration": calibration().to_json()}
