"""Seeded roulette spins under the conditions of a real table (OpenCV and numpy only): several wheel
designs and lights, and one condition per spin that takes the ball from the camera mid-spin.

Built on ``synth_roulette`` (its spin physics, ``plan``, and its wheel drawing) and drawn from streams of
its own, so no older spin changes.  ``CONDITIONS``:

- ``clear``: nothing in the way;
- ``hand``: a hand (skin) or the croupier's sleeve over part of the wheel for 4 to 45 frames, at any time
  from the launch to the rest (the ball and the zero are hidden where it lies over them);
- ``deflector``: tall chrome deflectors on the lower track that hide the ball while it passes under them,
  and once for 6 to 20 frames while it falls and bounces;
- ``glare``: a lamp's saturated reflection, 10 to 30 degrees of the track, that swallows the ball each time
  it passes under it (and one moving reflection for a while);
- ``blur``: the ball drawn as it is exposed (a shutter open 10 to 25 % of the frame): at speed a faint streak;
- ``tilt``: the camera tilted 8 to 25 degrees off overhead; the calibration carries the homography from the
  wheel's plane to the image (``RouletteCalibration.plane``).

Every spin also draws a wheel design (``FAMILIES``: colours, spokes, deflectors), an uneven light (a
gradient across the frame) and ``distort``'s light, colour, glare, blur, noise and JPEG at a strength of
0.1 to 0.7.  ``OUTCOMES`` are the spin kinds drawn per condition: ``ok`` six times in ten,
``same_direction`` and ``few_turns`` (void) twice each.
"""

from __future__ import annotations

import math
from typing import Any, Iterator

import cv2
import numpy as np

from drivers.vision import distort
from drivers.vision import synth_roulette as S
from drivers.vision.calibration import RouletteCalibration

CONDITIONS = ("clear", "hand", "deflector", "glare", "blur", "tilt")
OUTCOMES = ("ok", "ok", "ok", "ok", "ok", "ok", "same_direction", "same_direction", "few_turns", "few_turns")
FAMILIES = ("classic", "dark", "bright", "deep")


def family_design(seed: int) -> tuple[str, S.Design]:
    """The wheel's design family and colours (a stream of its own)."""
    rng = np.random.default_rng(seed + 5_100_000)
    name = FAMILIES[int(rng.integers(len(FAMILIES)))]
    base = S.design(seed)  # colours drawn around the classic wheel

    def jitter(c: tuple[int, int, int], s: float = 0.08) -> tuple[int, int, int]:
        return S._colour(rng, c, s)

    if name == "classic":
        return name, base
    if name == "dark":  # black lacquer rim and cone, silver frets, a light track
        track = jitter((175, 185, 195))
        return name, S.Design(bowl=jitter((20, 40, 20)), rim=jitter((22, 22, 26)), track=track,
                              track_in=tuple(int(c * 0.65) for c in track),  # type: ignore[arg-type]
                              zero=jitter((50, 150, 30)), red=jitter((35, 30, 170)), black=jitter((20, 20, 22)),
                              fret=jitter((185, 185, 190)), cone=jitter((30, 30, 34)), spoke=jitter((190, 190, 195)),
                              spokes=int(rng.integers(3, 6)), deflectors=True)
    if name == "bright":  # pale maple, brass frets, a cream track
        track = jitter((170, 205, 225))
        return name, S.Design(bowl=jitter((40, 80, 30)), rim=jitter((90, 150, 200)), track=track,
                              track_in=tuple(int(c * 0.7) for c in track),  # type: ignore[arg-type]
                              zero=jitter((40, 160, 40)), red=jitter((40, 40, 200)), black=jitter((35, 35, 35)),
                              fret=jitter((60, 170, 210)), cone=jitter((80, 140, 190)), spoke=jitter((60, 170, 215)),
                              spokes=int(rng.integers(3, 6)), deflectors=True)
    # deep: dark walnut and a darker, browner track (less contrast with the ball)
    track = jitter((105, 130, 150))
    return name, S.Design(bowl=jitter((25, 50, 20)), rim=jitter((18, 28, 48)), track=track,
                          track_in=tuple(int(c * 0.7) for c in track),  # type: ignore[arg-type]
                          zero=jitter((35, 125, 20)), red=jitter((30, 30, 160)), black=jitter((22, 22, 22)),
                          fret=jitter((40, 110, 140)), cone=jitter((25, 50, 80)), spoke=jitter((50, 120, 160)),
                          spokes=int(rng.integers(3, 6)), deflectors=True)


def condition_of(i: int) -> str:
    return CONDITIONS[i % len(CONDITIONS)]


def outcome_of(i: int) -> str:
    return OUTCOMES[(i // len(CONDITIONS)) % len(OUTCOMES)]


def _tilt(seed: int) -> np.ndarray:
    """A homography of a camera tilted 8 to 25 degrees about a random axis in the wheel's plane, with the
    wheel kept in the frame (the plane's top-down picture to the image)."""
    rng = np.random.default_rng(seed + 5_200_000)
    deg = float(rng.uniform(8, 25))
    axis = float(rng.uniform(0, math.pi))
    w, h = S.SIZE
    f = 700.0  # focal length in pixels
    t = math.radians(deg)
    ax, ay = math.cos(axis), math.sin(axis)
    # Rodrigues rotation about (ax, ay, 0)
    k = np.array([[0, 0, ay], [0, 0, -ax], [-ay, ax, 0]], float)
    rot = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
    kmat = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], float)
    # plane points (x - cx, y - cy, 0) turned about the wheel's centre, at a distance f from the camera
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], [0.0, 0.0, f]])
    to_plane = np.array([[1, 0, -S.CENTRE[0]], [0, 1, -S.CENTRE[1]], [0, 0, 1]], float)
    hom = kmat @ extrinsic @ to_plane
    hom /= hom[2, 2]
    # keep the wheel's centre where it was
    c = hom @ np.array([S.CENTRE[0], S.CENTRE[1], 1.0])
    c = c[:2] / c[2]
    shift = np.array([[1, 0, S.CENTRE[0] - c[0]], [0, 1, S.CENTRE[1] - c[1]], [0, 0, 1]], float)
    out = shift @ hom
    return out / out[2, 2]


def calibration(seed: int, condition: str) -> RouletteCalibration:
    """The technician's calibration of this spin's wheel (with the plane's homography when tilted)."""
    cal = S.calibration()
    if condition != "tilt":
        return cal
    plane = tuple(float(v) for v in _tilt(seed).ravel())
    return RouletteCalibration(cal.centre, cal.pocket_radius, cal.track_radius, cal.inner_radius, cal.size,
                               plane)  # type: ignore[arg-type]


def truth(seed: int, condition: str, outcome: str) -> dict[str, Any]:
    out = S.truth(seed, outcome)
    out.update(condition=condition, family=family_design(seed)[0], calibration=calibration(seed, condition).to_json())
    return out


def _hand_mask(rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int, int]]:
    """A hand (skin, with fingers) or a sleeve (dark cloth, long) reaching in from the edge."""
    w, h = S.SIZE
    mask = np.zeros((h, w), np.uint8)
    a = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(150, 215))  # how far from the centre the hand's tip stops
    ex, ey = S.CENTRE[0] + reach * math.cos(a), S.CENTRE[1] + reach * math.sin(a)
    far = (S.CENTRE[0] + 420 * math.cos(a), S.CENTRE[1] + 420 * math.sin(a))
    skin = rng.random() < 0.5
    width = int(rng.uniform(30, 55) if skin else rng.uniform(45, 80))
    cv2.line(mask, (int(ex), int(ey)), (int(far[0]), int(far[1])), 255, 2 * width)
    cv2.circle(mask, (int(ex), int(ey)), width, 255, -1)
    if skin:
        for k in range(4):  # fingers spread towards the centre
            fa = a + math.pi + (k - 1.5) * 0.28
            fx, fy = ex + 45 * math.cos(fa), ey + 45 * math.sin(fa)
            cv2.line(mask, (int(ex), int(ey)), (int(fx), int(fy)), 255, 12)
        colour = S._colour(rng, (120, 160, 215), 0.15)
    else:
        colour = S._colour(rng, (45, 40, 35), 0.4)
    return mask, colour


def frames(seed: int, condition: str, outcome: str, trace: list | None = None) -> Iterator[np.ndarray]:
    """The frames of one spin under ``condition`` (see the module's text); ``trace``, when given, gets per
    frame the ball's (angle, radius, drawn) in the wheel's plane, or None before the launch."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; one of {', '.join(CONDITIONS)}")
    p = S.plan(seed, outcome)
    rng = np.random.default_rng(seed + 5_300_000)
    _, look = family_design(seed)
    bowl = S._bowl(rng, look)
    rotor = S._rotor_image(look)
    side = rotor.shape[0]
    rotor_mask = np.zeros((side, side), np.uint8)
    cv2.circle(rotor_mask, (side // 2, side // 2), int(S.POCKET_OUT) + 1, 255, -1)
    strength = float(rng.uniform(0.1, 0.7))
    dist = distort.draw_distortion(rng, strength)
    dist = distort.Distortion(0.0, 0.0, dist.light, dist.warmth, dist.glare, dist.blur, dist.noise, dist.jpeg)
    offsets = distort.offset_fields(S.SIZE, dist, rng)
    w, h = S.SIZE
    # uneven light: a linear gradient across the frame, 0.75-1.0 to 1.0-1.15
    ga = float(rng.uniform(0, 2 * math.pi))
    lo, hi = float(rng.uniform(0.75, 1.0)), float(rng.uniform(1.0, 1.15))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    proj = ((xx - w / 2) * math.cos(ga) + (yy - h / 2) * math.sin(ga)) / (0.5 * math.hypot(w, h))
    light = (lo + (hi - lo) * (proj + 1) / 2).astype(np.float32)[..., None]
    lead = 5
    total = lead + p.track_frames + p.drop_frames + p.rest_frames
    step = 2 * math.pi / 37
    cx, cy = S.CENTRE
    x0, y0 = int(cx - side / 2), int(cy - side / 2)
    rotated = np.empty_like(rotor)
    ev = np.random.default_rng(seed + 5_400_000)
    hand = None
    hand_span = (0, 0)
    if condition == "hand":
        start = int(ev.integers(lead + 5, lead + p.track_frames + p.drop_frames))
        hand_span = (start, start + int(ev.integers(4, 46)))
        hand = _hand_mask(ev)
    deflect_w = float(ev.uniform(0.08, 0.16))
    drop_hide = (0, 0)
    if condition == "deflector":
        start = lead + p.track_frames + int(ev.integers(0, max(1, p.drop_frames - 6)))
        drop_hide = (start, start + int(ev.integers(6, 21)))
        # taller deflectors, drawn on the bowl
        for k in range(8):
            a = k * math.pi / 4 + math.pi / 8
            pts = []
            for aa, rr in ((a - deflect_w, 196), (a, 182), (a + deflect_w, 196), (a, 207)):
                pts.append((cx + rr * math.cos(aa), cy + rr * math.sin(aa)))
            cv2.fillConvexPoly(bowl, np.array(pts, np.int32), (200, 205, 210), cv2.LINE_AA)
    glare_mask: np.ndarray | None = None
    moving_glare = (0, 0)
    if condition == "glare":
        ga0 = float(ev.uniform(0, 2 * math.pi))
        span = math.radians(float(ev.uniform(10, 30)))
        gm = np.zeros((h, w), np.float32)
        centre_pt = (cx + 199 * math.cos(ga0), cy + 199 * math.sin(ga0))
        axes = (int(199 * span / 2), int(float(ev.uniform(14, 24))))
        cv2.ellipse(gm, (int(centre_pt[0]), int(centre_pt[1])), axes, math.degrees(ga0) + 90, 0, 360, 1.0, -1)
        soft = cv2.GaussianBlur(gm, (0, 0), 4)
        glare_mask = np.clip(soft * 1.6, 0, 1)[..., None]
        mstart = int(ev.integers(lead, lead + p.track_frames))
        moving_glare = (mstart, mstart + int(ev.integers(10, 40)))
        mg_angle, mg_speed = float(ev.uniform(0, 2 * math.pi)), float(ev.uniform(-0.05, 0.05))
    exposure = float(ev.uniform(0.1, 0.25))
    hom = _tilt(seed) if condition == "tilt" else None
    ball_angle = p.ball_start
    prev_ball: tuple[float, float] | None = None
    for f in range(total):
        rotor_angle = p.rotor_start + p.rotor_dir * p.rotor_speed * f
        m = cv2.getRotationMatrix2D((side / 2, side / 2), -math.degrees(rotor_angle), 1.0)
        img = bowl.copy()
        roi = img[y0:y0 + side, x0:x0 + side]
        cv2.warpAffine(rotor, m, (side, side), dst=rotated)
        cv2.copyTo(rotated, rotor_mask, roi)
        t = f - lead
        ball = None
        target = rotor_angle + (p.pocket + p.pocket_offset) * step
        kind = outcome
        if t < 0:
            ball = None
        elif t < p.track_frames:
            speed = p.ball_speed0 * (1 - (2 / 3) * t / p.track_frames)
            ball_angle += p.ball_dir * speed
            ball = (ball_angle, S.BALL_TRACK_R)
        elif t < p.track_frames + p.drop_frames:
            u = (t - p.track_frames) / p.drop_frames
            ease = 1 - (1 - u) ** 3
            lag = (1 - ease) * (ball_angle - target + math.pi) % (2 * math.pi) - math.pi
            bounce = 0.0 if u > 0.6 and kind != "no_rest" else 0.08 * math.sin(u * 25)
            ball = (target + lag * (1 - ease) + bounce,
                    S.BALL_TRACK_R + (S.BALL_POCKET_R - S.BALL_TRACK_R) * min(1, 2 * u))
        else:
            ball = (target, S.BALL_POCKET_R)
        hidden = False
        if ball is not None and condition == "deflector":
            if drop_hide[0] <= f < drop_hide[1]:
                hidden = True
            elif ball[1] > 175:
                near = min(abs((ball[0] - (k * math.pi / 4 + math.pi / 8) + math.pi) % (2 * math.pi) - math.pi)
                           for k in range(8))
                hidden = near < deflect_w
        if ball is not None and not hidden:
            bx, by = cx + ball[1] * math.cos(ball[0]), cy + ball[1] * math.sin(ball[0])
            if condition == "blur" and prev_ball is not None:
                # the ball's path while the shutter was open: from (1 - exposure) of the way from the last frame
                px, py = prev_ball
                sx, sy = px + (bx - px) * (1 - exposure), py + (by - py) * (1 - exposure)
                length = math.hypot(bx - sx, by - sy)
                layer = np.zeros((h, w), np.float32)
                # the ball's light spread over its path: each point of the streak is lit 2R / (2R + length)
                cv2.line(layer, (int(round(sx)), int(round(sy))), (int(round(bx)), int(round(by))), 1.0,
                         2 * S.BALL_RADIUS, cv2.LINE_AA)
                layer *= 2 * S.BALL_RADIUS / (2 * S.BALL_RADIUS + length)
                layer = np.clip(layer, 0, 1)[..., None]
                img = (img * (1 - layer) + np.float32(245) * layer).astype(np.uint8)
            else:
                cv2.circle(img, (int(round(bx)), int(round(by))), S.BALL_RADIUS, (245, 245, 245), -1, cv2.LINE_AA)
            prev_ball = (bx, by)
        elif ball is not None:
            prev_ball = (cx + ball[1] * math.cos(ball[0]), cy + ball[1] * math.sin(ball[0]))
        if trace is not None:
            trace.append(None if ball is None else (ball[0], ball[1], not hidden))
        if hand is not None and hand_span[0] <= f < hand_span[1]:
            img[hand[0] > 0] = hand[1]
        if glare_mask is not None:
            g = glare_mask
            if moving_glare[0] <= f < moving_glare[1]:
                a = mg_angle + mg_speed * f
                extra = np.zeros((h, w), np.float32)
                cv2.circle(extra, (int(cx + 199 * math.cos(a)), int(cy + 199 * math.sin(a))), 14, 1.0, -1)
                g = np.maximum(g, cv2.GaussianBlur(extra, (0, 0), 3)[..., None])
            img = (img * (1 - g) + np.float32(252) * g).astype(np.uint8)
        img = np.clip(img * light, 0, 255).astype(np.uint8)
        if hom is not None:
            img = cv2.warpPerspective(img, hom, (w, h), borderMode=cv2.BORDER_REPLICATE)
        yield distort.apply(img, dist, rng, offset=offsets[f % len(offsets)] if offsets else None)
