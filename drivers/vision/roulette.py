"""The roulette reader: rotor and ball tracked from an overhead camera, the number once the ball rests.

Per frame (calibrated wheel geometry, so only a few thousand pixels are read):

- the rotor angle is the angle of the green zero on the pocket ring;
- the ball is the small bright spot standing out of its ring's median in a
  polar unwrap of the track and pocket annulus;
- the ball's and the rotor's angles are unwrapped over time, giving both
  directions and the number of ball turns on the track.

A spin ends ``ok`` when the ball has stayed at one place relative to the
rotor for ``rest_frames`` frames, inside one pocket.  It ends ``void`` when
the ball was launched in the rotor's direction (seed 000, Roulett rule 2),
made fewer than ``min_turns`` turns, or left the wheel; ``unsure`` when the
ball was lost, rests on a fret, never rests, came to rest after moving on the track
without its launch seen (``UNSEEN_LAUNCH``), or the wheel is not where it was
calibrated.  A spin that would end ``ok`` or ``void`` is ``unsure`` instead when
its track was bridged: the ball unseen for ``max_gap`` frames in a row, or
something over the track (``occluded_arc``) for two frames or more; except an
``ok`` whose launch was already judged before the bridge began (at least
``min_turns`` turns seen on the track, ball and rotor seen turning opposite
ways, the same directions at the end) and whose rest was seen in frames with
nothing over the wheel and the ball seen in each: the number is decided where
the ball comes to rest.  Pockets run clockwise as seen from the camera in the order
``ORDER`` (mount the camera so that holds, or set ``clockwise=False``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from drivers.vision.calibration import RouletteCalibration

ORDER = (0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9,
         22, 18, 29, 7, 28, 12, 35, 3, 26)
STEP = 2 * math.pi / 37
REST_SPREAD = 0.04  # radians (about a quarter of a pocket): how far a resting ball's sightings may scatter
ANGLES = 360
SEAM_PAD = 16  # columns repeated across the polar view's seam: wider than a ball (12) or a ball on a fret
STREAK_LEVEL = 16  # above its ring's median: a ball drawn out by the shutter at speed (a ball's own is about 100)
WAIT_STEPS = 2  # steps along the track, waiting for a launch, that show a ball was moving (a launch is three)
UNSEEN_LAUNCH = ("the ball came to rest but its launch was not seen: the turns and the direction cannot be "
                 "judged, so the result would be a guess")
STREAK_COLUMNS = 40  # the longest streak taken for the ball (degrees of the polar view)


@dataclass(frozen=True)
class RouletteOptions:
    min_turns: float = 3.0  # ball turns on the track below which the spin is void
    rest_frames: int = 8  # frames the ball must keep its pocket (8 at 30 fps: 267 ms)
    lost_frames: int = 150  # frames without the ball, mid-spin, before the spin is called lost (5 s at 30 fps)
    fret_margin: float = 0.4  # share of a pocket width off centre beyond which the ball is on a fret
    clockwise: bool = True  # pocket order runs clockwise as the camera sees the wheel
    max_gap: int = 8  # a gap this long is counted in SpinResult.gap's reports (the turns are bounded across any gap)
    occluded_degrees: int = 20  # an unbroken arc this wide unlike the rest of the track: something over it
    drop_frames: int = 3  # sightings in a row inside the track before the ball counts as dropped into the pockets


@dataclass(frozen=True)
class SpinResult:
    number: int | None
    frame: int
    status: str
    reason: str
    ball_direction: str | None
    rotor_direction: str | None
    gap: int = 0  # the longest run of frames the ball was not seen mid-spin (not in the JSON)
    occluded: int = 0  # frames mid-spin the calibration check failed (something over the wheel)
    confidence: float | None = None  # ok: the ball's clearance from the frets (1 = the pocket's centre,
    # 0 = the fret margin); void: how far the spin was from the rule's line (1 = the direction); not in the JSON

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "frame": self.frame, "status": self.status, "reason": self.reason,
                "ball_direction": self.ball_direction, "rotor_direction": self.rotor_direction}



def _channel_min(image: np.ndarray) -> np.ndarray:
    """``image.min(axis=2)`` of a 3-channel image, as two element-wise minimums over its colour planes.

    The same values; numpy's reduction over a last axis of 3 walks the pixels one by one and cost about
    30 % of a frame, the element-wise form runs over whole planes (docs/performance.md, "Readers").
    """
    return np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])


def _channel_max(image: np.ndarray) -> np.ndarray:
    """``image.max(axis=2)`` of a 3-channel image, over its colour planes (see ``_channel_min``)."""
    return np.maximum(np.maximum(image[..., 0], image[..., 1]), image[..., 2])

def _ball_sized(area: int, w: int, h: int) -> bool:
    """A bright spot of a ball's size in the polar view (3 to 80 cells, at most 12 by 12)."""
    return 3 <= area <= 80 and w <= 12 and h <= 12


def _ball_off_fret(blob: np.ndarray, diff: np.ndarray) -> tuple[float, float, float] | None:
    """A ball inside a bright blob too tall for one: the ball lying against a fret, whose bright line
    (one or two columns of the polar view) joins it into a blob up to 15 rows tall (held-out spin
    1200636).  Columns under three wide are cut away; a part left that has a ball's size is the ball:
    (score, x, y) in the blob's box, or None."""
    opened = cv2.morphologyEx(blob.astype(np.uint8), cv2.MORPH_OPEN, _FRET_CUT)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(opened, connectivity=8)
    best = None
    for i in range(1, count):
        if not _ball_sized(stats[i, cv2.CC_STAT_AREA], stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]):
            continue
        score = float(diff[labels == i].mean())
        if best is None or score > best[0]:
            best = (score, float(cents[i][0]), float(cents[i][1]))
    return best


_FRET_CUT = np.ones((1, 3), np.uint8)


def _spread(angles: list[float]) -> float:
    """Width of the arc the angles span, measured from the first (all within half a turn of it)."""
    offsets = [_wrap(a - angles[0]) for a in angles]
    return max(offsets) - min(offsets)


def _wrap(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


class RouletteReader:
    """Feed frames in order with ``update``; it returns a SpinResult when a spin ends."""

    def __init__(self, calibration: RouletteCalibration, options: RouletteOptions | None = None) -> None:
        self.cal = calibration
        self.opt = options or RouletteOptions()
        cx, cy = calibration.centre
        r_in, r_out = calibration.inner_radius, calibration.track_radius
        self.radii = np.linspace(r_in - 4, r_out + 24, 40).astype(np.float32)
        theta = np.linspace(0, 2 * math.pi, ANGLES, endpoint=False).astype(np.float32)
        # Where each cell of the polar view lies in the image: through the plane's homography when the
        # camera is tilted (the polar view is then of the wheel's plane, where its rings are circles).
        xs, ys = calibration.to_image(cx + self.radii[:, None] * np.cos(theta)[None, :],
                                      cy + self.radii[:, None] * np.sin(theta)[None, :])
        self.map_x = np.asarray(xs, np.float32)
        self.map_y = np.asarray(ys, np.float32)
        pr = calibration.pocket_radius
        ring_r = pr + 0.55 * (calibration.pocket_radius - calibration.inner_radius)
        self.zero_row = int(np.argmin(np.abs(self.radii - ring_r)))
        self.pocket_rows = (int(np.argmin(np.abs(self.radii - calibration.inner_radius))),
                            int(np.argmin(np.abs(self.radii - (2 * pr - calibration.inner_radius)))))
        self.track_row = int(np.argmin(np.abs(self.radii - (r_out - 0.5 * (r_out - ring_r) / 2))))
        self._polar: np.ndarray = np.zeros((len(self.radii), ANGLES, 3), np.uint8)  # the last frame's polar unwrap
        low = (pr + r_out) / 2 + 4
        self.track_rows_from = int(np.searchsorted(self.radii, (pr + r_out) / 2))  # rows from here: the track
        self.streak_rows = (int(np.searchsorted(self.radii, low)), int(np.searchsorted(self.radii, r_out + 5)))
        # per column of the track band: how often it differed from its ring while no spin was on (a moving mean)
        self.static = np.zeros(ANGLES, np.float32)
        self.still_spots = np.zeros((len(self.radii), ANGLES), np.int16)  # bright spots still while no spin is on
        self._still_sum = np.zeros((len(self.radii), ANGLES), np.float32)
        self.learned = 0  # frames those were learned from
        self._diff = self.still_spots
        self._cover = np.zeros(ANGLES, bool)  # the last frame's columns with something over the wheel
        self._raw_cover = self._cover  # the same before the wheel's own look is taken out
        self.reset()

    def reset(self) -> None:
        self.phase = "wait"
        self.frame = -1
        self.rotor: float | None = None
        self.rotor_unwrapped = 0.0
        self.ball_prev: float | None = None
        self.ball_travel = 0.0
        self.track_travel = 0.0
        self.rotor_travel = 0.0
        self.missing = 0
        self.rest_count = 0
        self.rest_window: list[float] = []  # the ball's angle relative to the rotor, recent sightings off the track
        self.rest_odd: float | None = None  # one sighting unlike the rest window, set aside
        self.rel_prev: float | None = None
        self.moving_frames = 0
        self.left = False
        self.bad_view = 0
        self.quiet = 0
        self.absent = 0
        self.seen_run = 0
        self.out_run = 0
        self.max_gap = 0
        self.occluded = 0
        self.off_track = 0
        self.off_travel = 0.0
        self.back_run = 0  # after a "drop": sightings in a row of the ball still circling on the track
        self.back_travel = 0.0
        self.resumed = 0  # times the spin resumed after a "drop": its turn count is then only a lower bound
        self.occluded_now = False
        self.last_seen = -1  # the frame of the last sighting of the ball that was accepted
        self.rotor_seen = -1  # the frame the zero was last seen
        self.spin_start = -1
        self.wait_on = -1  # waiting for a launch: the frame of the last sighting on the track
        self.steps: list[float] = []  # the ball's last few speeds on the track (radians a frame, unsigned)
        self.pending: tuple[float, int] | None = None  # a first sighting on the track after a gap, to confirm
        self.slack = 0.0  # radians of track travel the ball may have made beyond track_travel while unseen
        self.bridges = 0  # gaps on the track bridged by the ball's speeds before and after
        self.loose = 0  # gaps whose sightings no whole number of turns fits: the turns have no upper bound
        self.wait_steps: list[int] = []  # waiting for a launch: frames of recent steps of the ball along the track
        self.wait_rest: list[float] = []  # waiting for a launch: the ball's recent angles relative to the rotor

    # -- per-frame measurements --------------------------------------------------------------
    def measure(self, frame: np.ndarray) -> tuple[float | None, tuple[float, float] | None]:
        """(rotor angle of the zero, (ball angle, ball radius)) in this frame; None where not seen."""
        polar = cv2.remap(frame, self.map_x, self.map_y, cv2.INTER_LINEAR)
        self._polar = polar
        row = polar[self.zero_row - 1:self.zero_row + 2].astype(np.int16).mean(axis=0)
        b, g, r = row[:, 0], row[:, 1], row[:, 2]
        green = (g > r + 35) & (g > b + 25)
        rotor = None
        if 3 <= int(green.sum()) <= ANGLES // 20:
            idx = np.nonzero(green)[0]
            ang = idx * 2 * math.pi / ANGLES
            rotor = math.atan2(float(np.sin(ang).mean()), float(np.cos(ang).mean()))
        bright = _channel_min(polar).astype(np.int16)
        diff = bright - np.median(bright, axis=1, keepdims=True).astype(np.int16)
        self._diff = diff
        if self.learned:
            # Spots as bright before the spin (deflectors, a lamp's reflection, a stain on the track) stand
            # still in the image; the ball does not: they are taken out.
            diff = diff - self.still_spots
        # The polar view's columns wrap at angle 0, and a ball lying across that seam would be cut in two, each
        # part off the ball's centre (seeds 400342, 1300372: a resting ball's angle jumped 2-4 degrees).  The
        # spots are found on the view with its first SEAM_PAD columns repeated after its last: a spot touching
        # column 0 is seen whole in the repeat, and a spot starting in the repeat is a copy of one already seen.
        diff = np.concatenate([diff, diff[:, :SEAM_PAD]], axis=1)
        cand = (diff > 45).astype(np.uint8)
        count, labels, stats, cents = cv2.connectedComponentsWithStats(cand, connectivity=8)
        best = None
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            x, y, w, h = (int(v) for v in stats[i, :4])
            if x == 0 or x > ANGLES:
                continue
            if w > 12 or h > 12:
                if w < 3 or not (self.phase == "drop" or (self.phase in ("spin", "wait") and y + h <= self.track_rows_from
                                                          and (self.phase == "spin" or self._seen_moving()))):
                    continue  # a fret alone; or on the track mid-spin, where glare makes such spots (a ball
                    # against a fret in the pockets is searched mid-spin too: the drop may have gone unseen); and
                    # waiting for a launch once the ball was seen moving on the track: its launch may have gone unseen)
                found = _ball_off_fret(labels[y:y + h, x:x + w] == i, diff[y:y + h, x:x + w])
                if found is not None and (best is None or found[0] > best[0]):
                    best = (found[0], x + found[1], y + found[2])
                continue
            if not _ball_sized(area, w, h) or (w <= 2 and (h >= 5 or y + h <= self.track_rows_from)):
                continue  # one or two columns wide: a bright fret (or a piece of one), not the round ball
            score = float(diff[labels == i].mean())
            if best is None or score > best[0]:
                best = (score, cents[i][0], cents[i][1])
        if best is None and self.phase in ("wait", "spin"):
            best = self._streak(diff)
        ball = None
        if best is not None:
            ball_angle = best[1] * 2 * math.pi / ANGLES
            rad = float(np.interp(best[2], np.arange(len(self.radii)), self.radii))
            ball = (_wrap(ball_angle), rad)
        return rotor, ball

    def _streak(self, diff: np.ndarray) -> tuple[float, float, float] | None:
        """The ball at speed, drawn out by the shutter into a faint streak along the track: in the track's rows
        only, a spot over STREAK_LEVEL (a fraction of a ball's contrast), 3 to STREAK_COLUMNS columns long and
        at most 12 rows tall, longer along the track than across it; (score, x, y) or None."""
        band = diff[self.streak_rows[0]:self.streak_rows[1]]
        cand = (band > STREAK_LEVEL).astype(np.uint8)
        count, labels, stats, cents = cv2.connectedComponentsWithStats(cand, connectivity=8)
        best = None
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            if x == 0 or x > ANGLES or not (3 <= w <= STREAK_COLUMNS and 3 <= h <= 12 and w >= h and area >= 10):
                continue
            score = float(band[labels == i].mean())
            if best is None or score > best[0]:
                best = (score, float(cents[i][0]), float(cents[i][1]) + self.streak_rows[0])
        return best

    def occluded_arc(self) -> int:
        """Degrees of the widest arc of the ball track (and the stator beyond it) unlike the rest of its ring.

        The track is static and even all round; a hand, a cup or a sleeve over the wheel is a wide arc
        that differs from each ring's median.  The ball (a few degrees) and soft glare do not reach 20.
        """
        band = self._polar[self.track_row - 3:].astype(np.int16)
        diff = _channel_max(np.abs(band - np.median(band, axis=1, keepdims=True).astype(np.int16)))
        col = (diff > 40).mean(axis=0) > 0.5
        # Columns unlike their ring before the spin too (a lamp's reflection, a deflector, a tilted view's
        # shading) are the wheel's own look, not something over it.
        self._raw_cover = col
        col = col & ~(self.static > 0.5)
        self._cover = col
        if col.all():
            return 360
        if not col.any():
            return 0
        start = int(np.argmin(col))  # a column that is not occluded: runs do not wrap past it
        rolled = np.roll(col, -start).astype(np.int8)
        edges = np.diff(np.concatenate([[0], rolled, [0]]))
        return int((np.nonzero(edges == -1)[0] - np.nonzero(edges == 1)[0]).max()) * 360 // ANGLES

    # -- the spin ------------------------------------------------------------------------------
    def update(self, index: int, frame: np.ndarray) -> SpinResult | None:
        return self._update(index, frame)

    def _update(self, index: int, frame: np.ndarray) -> SpinResult | None:
        self.frame = index
        self.occluded_now = False
        if self.phase in ("spin", "drop"):
            self.max_gap = max(self.max_gap, self.missing)
        if self.cal.check(frame):
            self.bad_view += 1
            if self.phase in ("spin", "drop"):
                self.occluded += 1
                self.occluded_now = True
            if self.bad_view >= 5 and self.phase != "wait":
                return self._end("unsure", "the wheel is not where it was calibrated (camera moved or covered)")
            return None
        self.bad_view = 0
        rotor, ball = self.measure(frame)
        arc = self.occluded_arc()
        if self.phase in ("wait", "done"):
            self.static += max(0.05, 1.0 / (self.learned + 1)) * (self._raw_cover.astype(np.float32) - self.static)
            # Not while a ball seen moving on the track may be coming to rest unseen-launched (a ball resting on
            # a slow rotor would be learned as a still spot and taken out: _unseen_launch).
            if self.moving_frames == 0 and not self._seen_moving():
                self._learn_still()
        if self.phase in ("spin", "drop") and arc >= self.opt.occluded_degrees:
            self.occluded += 1
            self.occluded_now = True
        if ball is not None and self.phase != "done" and self._covered(ball[0]):
            ball = None  # seen where something is over the wheel: a glint on a hand or a sleeve, not trusted
        if self.phase == "done":
            # After a result, a new spin may start only once the ball has been quiet (resting in a pocket,
            # or picked up) for a while: the rest of a lost or void spin is not a new spin.
            if ball is None:
                self.absent += 1
            else:
                moving = self.ball_prev is None or abs(_wrap(ball[0] - self.ball_prev)) > 0.05
                self.quiet = 0 if moving else self.quiet + 1
                self.absent = 0
            self.ball_prev = ball[0] if ball is not None else None
            if self.quiet >= 15 or self.absent >= 90:
                self.phase = "wait"
            return None
        if rotor is not None:
            if self.rotor is not None:
                d = _wrap(rotor - self.rotor)
                if self.phase != "wait":
                    gap = index - self.rotor_seen
                    if gap > 1 and abs(self.rotor_travel) >= 0.05 and self.rotor_seen > self.spin_start:
                        # The zero was hidden for frames (a hand): the rotor turned on at its steady speed.
                        sign = 1.0 if self.rotor_travel > 0 else -1.0
                        speed = abs(self.rotor_travel) / (self.rotor_seen - self.spin_start)
                        delta = (d * sign) % (2 * math.pi)
                        d = sign * (delta + 2 * math.pi * max(0, round((speed * gap - delta) / (2 * math.pi))))
                    self.rotor_travel += d
            self.rotor = rotor
            self.rotor_seen = index
        pr, tr = self.cal.pocket_radius, self.cal.track_radius
        if ball is not None and self.phase == "spin" and self.missing > 0 and self.ball_prev is not None \
                and abs(self.track_travel) >= 0.5 and (pr + tr) / 2 + 8 < ball[1] <= tr + 10:
            return self._bridge(index, ball[0])
        if ball is None:
            self.missing += 1
            if self.phase in ("spin", "drop") and self.missing > self.opt.lost_frames:
                return self._end("unsure", "ball lost: not seen for "
                                            f"{self.missing} frames")
            return None
        angle, radius = ball
        if self.phase == "done":
            return None
        if self.phase in ("spin", "drop") and self.ball_prev is not None and \
                abs(_wrap(angle - self.ball_prev)) > 0.9 * (1 + self.missing):
            ball = None  # a jump no ball makes: something else bright, not the ball
        if ball is None:
            self.seen_run = 0
            self.missing += 1
            if self.missing > self.opt.lost_frames:
                return self._end("unsure", f"ball lost: not seen for {self.missing} frames")
            return None
        if self.phase == "spin" and self.ball_prev is not None and radius > (self.cal.pocket_radius + tr) / 2 + 8 \
                and abs(_wrap(angle - self.ball_prev)) < 0.02:
            ball = None  # a still bright spot on the track mid-spin is a glint, not the ball
            self.seen_run = 0
            self.missing += 1
            if self.missing > self.opt.lost_frames:
                return self._end("unsure", f"ball lost: not seen for {self.missing} frames")
            return None
        self.seen_run += 1
        if self.missing and self.seen_run < 2 and self.phase in ("spin", "drop"):
            # One sighting after a gap may be a glint; the ball counts as found again on the second.
            self.missing += 1
            if self.missing > self.opt.lost_frames:
                return self._end("unsure", f"ball lost: not seen for {self.missing} frames")
            return None
        gap = index - self.last_seen
        self.missing = 0
        self.last_seen = index
        if radius > tr + 10:
            # Beyond the track: the ball leaving the wheel only if seen there twice, where the ball was.
            near = self.ball_prev is not None and abs(_wrap(angle - self.ball_prev)) < 0.9
            self.out_run = self.out_run + 1 if near and self.phase in ("spin", "drop") else 0
            if self.out_run >= 2:
                return self._end("void", "the ball left the wheel")
            return None
        self.out_run = 0
        on_track = radius > (pr + tr) / 2 + 8
        d = _wrap(angle - self.ball_prev) if self.ball_prev is not None else 0.0
        self.ball_prev = angle
        if self.phase == "wait":
            # A launch is three steps along the track in one direction, each from a sighting on the track in
            # the frame before (a step from a glint inside the track gave a launch the wrong way, seed 3000069).
            step = on_track and self.wait_on == index - 1 and 0.05 < abs(d) < 0.9 and \
                (self.moving_frames == 0 or d * self.ball_travel > 0)
            self.wait_on = index if on_track else -1
            if step:
                self.moving_frames += 1
                self.ball_travel += d
                if self.moving_frames >= 3:
                    self.phase = "spin"
                    self.spin_start = self.rotor_seen if self.rotor_seen >= 0 else index
                    self.track_travel = self.ball_travel
                    self.rotor_travel = 0.0
            else:
                self.moving_frames = 0
                self.ball_travel = 0.0
            if self.phase == "wait":
                return self._unseen_launch(index, angle, on_track, step)
            return None
        if self.phase == "spin":
            if on_track:
                # Back on the track after a sighting or two inside it: those frames were turns too.
                self.track_travel += d + self.off_travel
                self.off_track, self.off_travel = 0, 0.0
                if gap >= 1:
                    self.steps = (self.steps + [abs(d) / gap])[-3:]
                return None
            if gap > 1 and self.steps:
                # Unseen for frames before it was found inside the track: on the track meanwhile, it could not
                # have gone faster than it went before (a ball on the track only slows down).
                self.slack += (max(self.steps) + 0.03) * (gap - 1) * 1.1
            self.off_track += 1
            self.off_travel += d
            if self.off_track < self.opt.drop_frames:
                # One sighting inside the track (a glint, the lens' edge) does not end the turns: a ball
                # still circling and taken for dropped lost its remaining turns ("too few turns").
                return None
            self.phase = "drop"  # the ball left the track when first seen inside it: those frames are not turns
            self.back_run, self.back_travel = 0, 0.0
        elif on_track and abs(d) > 0.05:
            # Circling on the track again after a "drop": the drop was glints inside the track, taken for
            # the ball while the real one was hidden or filtered out.  Seen circling drop_frames times in a
            # row, the spin resumes and those sightings count as turns (the frames in between do not, so
            # the count never runs above the ball's true turns).
            self.back_run += 1
            self.back_travel += d
            if self.back_run >= self.opt.drop_frames:
                self.phase = "spin"
                self.resumed += 1
                self.track_travel += self.back_travel
                self.off_track, self.off_travel = 0, 0.0
                self.rest_window, self.rest_count, self.rest_odd = [], 0, None
            return None
        else:
            self.back_run, self.back_travel = 0, 0.0
        if self.rotor is None or self.rotor_seen != index:
            return None  # the zero not seen in this frame: where the ball lies on the rotor is not known
        rel = _wrap(angle - self.rotor)
        # At rest: the last rest_frames + 1 sightings off the track all within REST_SPREAD of each other
        # relative to the rotor.  A spread, not frame-to-frame steps: one jittery sighting (noise, blur)
        # does not restart the count, and a ball creeping slowly through a pocket is not taken for resting.
        # One sighting far from a run that agrees (over twice REST_SPREAD: a glint or noise taken for the
        # ball, seed 800024) is set aside: the run goes on if the next sighting agrees with it again, and
        # restarts from the latest sightings if not (the ball moved).  Set aside, it is not a frame at rest.
        # A sighting just outside the spread is the ball creeping on: the run's oldest sightings drop.
        if on_track:
            window, self.rest_odd = [], None
        else:
            window = (self.rest_window + [rel])[-(self.opt.rest_frames + 1):]
            if _spread(window) > 2 * REST_SPREAD and len(self.rest_window) >= 2 and self.rest_odd is None:
                self.rest_odd, window = rel, self.rest_window
            else:
                if _spread(window) > REST_SPREAD and self.rest_odd is not None:
                    window = (self.rest_window + [self.rest_odd, rel])[-(self.opt.rest_frames + 1):]
                self.rest_odd = None
                while window and _spread(window) > REST_SPREAD:
                    window.pop(0)  # the longest recent run of sightings that agree
        self.rest_window = window
        self.rest_count = max(0, len(window) - 1)
        self.rel_prev = rel
        if self.rest_count >= self.opt.rest_frames:
            return self._settle(rel)
        return None

    def _seen_moving(self) -> bool:
        """Waiting for a launch: the ball seen moving along the track (WAIT_STEPS steps) in the last lost_frames."""
        return len([f for f in self.wait_steps if self.frame - f <= self.opt.lost_frames]) >= WAIT_STEPS

    def _unseen_launch(self, index: int, angle: float, on_track: bool, step: bool) -> SpinResult | None:
        """Waiting for a launch: a ball seen moving along the track and then at rest in a pocket is a spin whose
        launch the camera did not see (hidden under a deflector, a hand, glare, or too fast for the shutter), and
        ends ``unsure``: without the launch neither the turns nor the directions (rule 2) can be judged, so the
        pocket it rests in would be a guess.

        Moving: WAIT_STEPS steps along the track (a ball's step between sightings on the track in consecutive
        frames) within the last lost_frames frames.  A ball lying in its pocket from the last spin is never on the
        track, and a wheel with no ball shows none: neither ends anything.  At rest: rest_frames + 1 sightings off
        the track, in frames where the zero was seen, within REST_SPREAD of each other relative to the rotor.
        """
        if on_track:
            if step:
                self.wait_steps = [f for f in self.wait_steps if index - f <= self.opt.lost_frames] + [index]
            self.wait_rest = []
            return None
        if self.rotor is None or self.rotor_seen != index:
            return None
        window = (self.wait_rest + [_wrap(angle - self.rotor)])[-(self.opt.rest_frames + 1):]
        while window and _spread(window) > REST_SPREAD:
            window.pop(0)
        self.wait_rest = window
        if self._seen_moving() and len(window) > self.opt.rest_frames:
            return self._end("unsure", UNSEEN_LAUNCH)
        return None

    def finish(self) -> SpinResult | None:
        """The stream ended: a spin still going is unsure; so is a ball seen moving whose launch was not seen."""
        if self.phase in ("spin", "drop"):
            return self._end("unsure", "no stable pocket: the ball had not come to rest when the frames ended")
        if self.phase == "wait" and self._seen_moving():
            return self._end("unsure", "the ball was seen moving on the track but its launch was not seen, and it "
                                       "had not come to rest when the frames ended")
        return None

    def _directions(self) -> tuple[str | None, str | None]:
        ball = None if abs(self.track_travel) < 0.5 else ("cw" if self.track_travel > 0 else "ccw")
        rotor = None if abs(self.rotor_travel) < 0.05 else ("cw" if self.rotor_travel > 0 else "ccw")
        return ball, rotor

    def _settle(self, rel: float) -> SpinResult:
        ball_dir, rotor_dir = self._directions()
        turns = abs(self.track_travel) / (2 * math.pi)
        if rotor_dir is None:
            return self._end("unsure", "the rotor was not seen turning: the launch direction cannot be checked")
        if ball_dir is None:
            # Under half a radian of track travel: what was followed was not a launched ball (glints, a ball
            # found only after it left the track), and neither its turns nor rule 2 can be judged.
            return self._end("unsure", "the ball was not seen circling on the track: "
                                       "the launch direction and the turns cannot be checked")
        if ball_dir == rotor_dir:
            return self._end("void", "ball launched in the rotor's direction (seed 000, Roulett rule 2)",
                             confidence=1.0)
        most = turns + self.slack / (2 * math.pi)
        if turns < self.opt.min_turns and (self.loose or most >= self.opt.min_turns):
            # Hidden for a while on the track (a hand, a deflector, glare, blur): the turns are bounded by the
            # ball's speed before and after the gap (it only slows down), and the bounds straddle the minimum.
            upper = "no upper bound" if self.loose else f"at most {most:.1f}"
            return self._end("unsure", f"the ball's turns could not be counted: at least {turns:.1f} and {upper} "
                                       f"across {self.bridges + (self.slack > 0)} stretch(es) where it was hidden; "
                                       f"the minimum is {self.opt.min_turns:g}")
        if turns < self.opt.min_turns:
            if self.resumed:
                # The frames between a "drop" and the resume are not counted: too few turns counted is then not
                # too few turns made (seed 1500456: a glare spot inside the track taken for the dropped ball
                # again and again, 0.9 turns counted of many: a good spin voided).
                return self._end("unsure", f"the ball's turns could not be counted: {turns:.1f} seen, but it "
                                           f"was taken for dropped and then seen circling again {self.resumed} "
                                           f"time(s), and the frames between were not counted")
            return self._end("void", f"too few ball turns ({turns:.1f} < {self.opt.min_turns:g})"
                                     + (f", at most {most:.1f} while it was hidden" if self.slack else ""),
                             confidence=round(1 - most / self.opt.min_turns, 3))
        pos = (rel if self.opt.clockwise else -rel) / STEP
        k = round(pos)
        if abs(pos - k) > self.opt.fret_margin:
            return self._end("unsure", "no stable pocket: the ball rests on a fret")
        return self._end("ok", "", ORDER[k % 37],
                         confidence=round(1 - abs(pos - k) / self.opt.fret_margin, 3))

    def _learn_still(self) -> None:
        """The bright spots that stand still in the image while no spin is on: a running mean over the first
        frames, then a moving one (a twentieth a frame)."""
        rate = max(0.05, 1.0 / (self.learned + 1))
        self._still_sum += rate * (np.maximum(self._diff, 0).astype(np.float32) - self._still_sum)
        self.learned += 1
        self.still_spots = self._still_sum.astype(np.int16)

    def _covered(self, angle: float) -> bool:
        """Whether something is over the wheel at this angle (within 8 degrees of an arc that hides it)."""
        if not self._cover.any():
            return False
        col = int(round((angle % (2 * math.pi)) * ANGLES / (2 * math.pi))) % ANGLES
        near = np.arange(col - 8, col + 9) % ANGLES
        return bool(self._cover[near].any())

    def _bridge(self, index: int, angle: float) -> SpinResult | None:
        """A sighting on the track after frames without one, once the ball's direction is known.

        The first is held; the second, a ball's step in the ball's direction and no faster than before the gap,
        confirms both (one alone may be a glint).  Across the gap the ball went the seen angle plus some whole
        turns; it only slows down on the track, so its travel lies between its speed after the gap and its speed
        before, times the frames: the fewest turns that fit count as travelled, and the more that fit are slack
        (the turns are then a range).  No whole turn fitting (glints, a wrong sighting) leaves the turns without
        an upper bound.
        """
        sign = 1.0 if self.track_travel > 0 else -1.0
        before = max(self.steps) if self.steps else 0.65
        if self.pending is None or index - self.pending[1] > 3:
            self.pending = (angle, index)
            self.missing += 1
            return None
        first, at = self.pending
        step = (_wrap(angle - first) * sign) / (index - at)
        if not 0.005 <= step <= before * 1.3 + 0.1:
            self.pending = (angle, index)
            self.missing += 1
            return None
        frames = at - self.last_seen
        prev = first if self.ball_prev is None else self.ball_prev  # (never None here: see the caller)
        delta = ((first - prev) * sign) % (2 * math.pi)
        lo = max(0.0, step - 0.03) * frames * 0.9 - 0.1
        hi = (before + 0.03) * frames * 1.1 + 0.1
        fits = [k for k in range(int(hi / (2 * math.pi)) + 2) if lo <= delta + 2 * math.pi * k <= hi]
        if fits:
            self.slack += 2 * math.pi * (fits[-1] - fits[0])
            travel = delta + 2 * math.pi * fits[0]
        else:
            self.loose += 1
            travel = delta
        self.bridges += 1
        self.track_travel += sign * (travel + step * (index - at))
        self.steps = [step]
        self.ball_prev, self.last_seen, self.pending = angle, index, None
        self.missing, self.seen_run, self.off_track, self.off_travel = 0, 2, 0, 0.0
        return None

    def _end(self, status: str, reason: str, number: int | None = None,
             confidence: float | None = None) -> SpinResult:
        """The spin's result (the reader then waits for the ball to be quiet before a new spin)."""
        ball_dir, rotor_dir = self._directions()
        gap, occluded = max(self.max_gap, self.missing), self.occluded
        result = SpinResult(number, self.frame, status, reason, ball_dir, rotor_dir, gap, occluded,
                            confidence if status != "unsure" else None)
        rotor = self.rotor
        self.reset()
        self.rotor = rotor
        self.phase = "done"
        return result


def read_spins(frames: Any, reader: RouletteReader) -> list[SpinResult]:
    """Every spin in a frame sequence ((index, frame) pairs)."""
    out = []
    for index, frame in frames:
        result = reader.update(index, frame)
        if result is not None:
            out.append(result)
    end = reader.finish()
    if end is not None:
        out.append(end)
    return out


# Ring radii as shares of the outer rim radius (a typical single-zero wheel seen from above).
TRACK_SHARE, POCKET_SHARE, INNER_SHARE = 0.927, 0.681, 0.595


def find_wheel(frame: np.ndarray) -> RouletteCalibration | None:
    """The wheel in one frame (the largest strong circle), with ring radii from typical proportions."""
    h, w = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 1.5)
    circles = cv2.HoughCircles(small, cv2.HOUGH_GRADIENT, dp=1.5, minDist=min(h, w) / 4, param1=80, param2=40,
                               minRadius=min(h, w) // 8, maxRadius=min(h, w) // 2)
    if circles is None:
        return None
    x, y, r = max(circles[0], key=lambda c: c[2])
    x, y, rim = 2 * float(x), 2 * float(y), 2 * float(r)
    return _refine(frame, (x, y), rim) or RouletteCalibration((x, y), rim * POCKET_SHARE, rim * TRACK_SHARE,
                                                              rim * INNER_SHARE, (w, h))


def _refine(frame: np.ndarray, centre: tuple[float, float], rim: float) -> RouletteCalibration | None:
    """Ring radii measured on the frame: the pocket ring is where the green zero shows along the
    radius, the track is the bright band outside it.  None when the zero is not found."""
    h, w = frame.shape[:2]
    theta = np.linspace(0, 2 * math.pi, 360, endpoint=False)
    radii = np.arange(int(0.3 * rim), int(1.15 * rim))
    xs = np.clip((centre[0] + radii[:, None] * np.cos(theta)).astype(np.int32), 0, w - 1)
    ys = np.clip((centre[1] + radii[:, None] * np.sin(theta)).astype(np.int32), 0, h - 1)
    ring = frame[ys, xs].astype(np.int16)  # radii x angles x BGR
    b, g, r = ring[..., 0], ring[..., 1], ring[..., 2]
    green = ((g > r + 35) & (g > b + 25)).sum(axis=1)
    rows = (green >= 3) & (green <= 30)
    best, start = (0, 0), None
    for i, on in enumerate(list(rows) + [False]):  # the longest run of radii showing only the zero
        if on and start is None:
            start = i
        elif not on and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    if best[1] - best[0] < 5:
        return None
    inner, outer = float(radii[best[0]]), float(radii[best[1] - 1])
    bright = np.median(_channel_min(ring), axis=1)
    beyond = np.nonzero(radii > outer)[0]
    if len(beyond) == 0:
        return None
    level = float(bright[beyond].max())
    band = [i for i in beyond if bright[i] > 0.75 * level]
    if not band:
        return None
    track = float(radii[max(band)])
    return RouletteCalibration(centre, (inner + outer) / 2, track, inner, (w, h))
