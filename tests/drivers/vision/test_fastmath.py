"""The dice reader's fast reductions give exactly numpy's results (drivers/vision/fastmath.py), and the
per-patch colour conversions done once give what converting each slice gives."""

from __future__ import annotations

import math
import warnings

import cv2
import numpy as np
import pytest

from drivers.vision.fastmath import (HISTOGRAM_ROWS, deeper_than, enlarged_crop, masked_median, median_rows,
                                     percentile_band, transform3, within_radius)

RNG = np.random.default_rng(20261129)


def _pixels(n: int, spread: int) -> np.ndarray:
    """n uint8 pixels, clustered (many ties, like a die's body) or spread over 0..255."""
    centre = RNG.integers(0, 256, 3)
    return np.clip(centre + RNG.integers(-spread, spread + 1, (n, 3)), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 19, 20, 21, 256, 2303, 2304, 2704])
@pytest.mark.parametrize("spread", [0, 2, 40, 255])
def test_median_rows_is_numpys_median(n: int, spread: int) -> None:
    for _ in range(5):
        a = _pixels(n, spread)
        for dtype in (np.float32, np.float64):
            want = np.median(a.astype(dtype), axis=0)
            got = median_rows(a, dtype)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want), (n, spread, dtype)
        assert np.array_equal(median_rows(a), np.median(a, axis=0))  # an integer array's median: float64


@pytest.mark.parametrize("side", [1, 2, 5, 52])
@pytest.mark.parametrize("spread", [0, 2, 40, 255])
def test_masked_median_is_numpys_median_of_the_selection(side: int, spread: int) -> None:
    for share in (0.0, 0.02, 0.5, 1.0):
        for _ in range(4):
            image = _pixels(side * side, spread).reshape(side, side, 3)
            mask = RNG.random((side, side)) < share
            if not mask.any() and share > 0:
                mask = None
            chosen = image.reshape(-1, 3) if mask is None else image[mask]
            for dtype in (np.float32, np.float64):
                with np.errstate(invalid="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # the median of nothing: nan
                    want = np.median(chosen.astype(dtype), axis=0)
                    got = masked_median(image, mask, dtype)
                assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), (side, share, dtype)


@pytest.mark.parametrize("n", list(range(1, 40)) + [101, 1000, 2701, 2704, 5000])
@pytest.mark.parametrize("spread", [0, 3, 60, 255])
def test_percentile_band_is_numpys_band(n: int, spread: int) -> None:
    for low, high in ((50, 90), (10, 90), (25, 75), (0, 100)):
        for _ in range(3):
            v = _pixels(n, spread)[:, 0].copy()
            lo, hi = np.percentile(v.astype(np.float32), (low, high))
            f = v.astype(np.float32)
            assert np.array_equal(percentile_band(v, low, high), (f >= lo) & (f <= hi)), (n, spread, low, high)
    image = _pixels(52 * 52, spread).reshape(52, 52, 3)  # a channel of a die patch, as the footprint passes it
    lo, hi = np.percentile(image[..., 0].reshape(-1).astype(np.float32), (50, 90))
    assert np.array_equal(percentile_band(image[..., 0], 50, 90), (image[..., 0] >= lo) & (image[..., 0] <= hi))


def test_a_slice_converted_is_the_conversion_sliced() -> None:
    """The reader converts a die patch to Lab and HSV once and slices it; OpenCV's 8-bit conversions
    work pixel by pixel, so the slice is what converting the slice gave."""
    for _ in range(20):
        patch = RNG.integers(0, 256, (64, 64, 3), dtype=np.uint8)
        for code in (cv2.COLOR_BGR2LAB, cv2.COLOR_BGR2HSV):
            whole = cv2.cvtColor(patch, code)
            for cut in (6, 8, 10):
                assert np.array_equal(whole[cut:-cut, cut:-cut], cv2.cvtColor(patch[cut:-cut, cut:-cut], code))


def test_foreground_distance_is_the_capped_int16_sum() -> None:
    """uint8 absdiff and cv2.transform's saturating weighted sum equal the int16 sum capped at 255."""
    from drivers.vision.dice import _FOREGROUND_WEIGHTS
    for _ in range(10):
        a = RNG.integers(0, 256, (48, 64, 3), dtype=np.uint8)
        b = RNG.integers(0, 256, (48, 64, 3), dtype=np.uint8)
        d = np.abs(a.astype(np.int16) - b.astype(np.int16))
        want = np.clip(d[..., 0] + 2 * d[..., 1] + 2 * d[..., 2], 0, 255).astype(np.uint8)
        assert np.array_equal(cv2.transform(cv2.absdiff(a, b), _FOREGROUND_WEIGHTS), want)
        assert np.array_equal(transform3(cv2.absdiff(a, b), _FOREGROUND_WEIGHTS), want)
    dist = RNG.integers(0, 256, (48, 64), dtype=np.uint8)
    for threshold in (-3.0, 0.0, 37.5, 38.0, 254.5, 255.0, 300.0):
        _, mask = cv2.threshold(dist, threshold, 255, cv2.THRESH_BINARY)
        assert np.array_equal(mask, (dist > threshold).astype(np.uint8) * 255), threshold


def test_the_mask_enlarged_by_its_box_is_the_mask_enlarged() -> None:
    """The reader enlarges only the box of the set pixels of its half-scale mask (nearest, by exactly 2)."""
    for share in (0.0, 0.001, 0.05):
        mask = ((RNG.random((240, 320)) < share) * 255).astype(np.uint8)
        x0, y0, bw, bh = cv2.boundingRect(mask)
        boxed = np.zeros((480, 640), np.uint8)
        if bw and bh:
            boxed[2 * y0:2 * (y0 + bh), 2 * x0:2 * (x0 + bw)] = cv2.resize(
                mask[y0:y0 + bh, x0:x0 + bw], (2 * bw, 2 * bh), interpolation=cv2.INTER_NEAREST)
        assert np.array_equal(boxed, cv2.resize(mask, (640, 480), interpolation=cv2.INTER_NEAREST))


@pytest.mark.parametrize("rows", [1, 2, 3])
@pytest.mark.parametrize("offset", [False, True])
def test_transform3_is_cv2_transform_on_whole_numbers(rows: int, offset: bool) -> None:
    """The fast three-channel kernel gives cv2.transform's numbers on the inputs the reader gives it: float32
    Lab of uint8 pixels against whole-number colour differences (sidepips, footprint), and uint8 pixels
    with small whole weights (the foreground)."""
    for _ in range(10):
        lab = RNG.integers(0, 256, (RNG.integers(1, 95), RNG.integers(1, 95), 3)).astype(np.float32)
        m = RNG.integers(-510, 511, (rows, 4 if offset else 3)).astype(np.float32)
        if offset:
            m[:, 3] = RNG.integers(-200_000, 200_001, rows)
        want, got = cv2.transform(lab, m), transform3(lab, m)
        assert got.shape == want.shape and np.array_equal(got, want)
        flat = lab.reshape(-1, 1, 3)  # the footprint's layout
        assert np.array_equal(transform3(flat, m.astype(np.float64)), cv2.transform(flat, m.astype(np.float64)))
        u8 = RNG.integers(0, 256, lab.shape, dtype=np.uint8)
        w = RNG.integers(0, 4, (rows, 3)).astype(np.float64)
        assert np.array_equal(transform3(u8, w), cv2.transform(u8, w))


def test_pair_distances_are_np_hypot_per_pair() -> None:
    """The pip layout check's distances: one np.hypot over all pairs equals one call per pair, in loop order."""
    from drivers.vision.pips import _pair_distances
    for n in range(2, 8):
        for _ in range(200):
            pts = RNG.uniform(0, 64, (n, 2))
            want = [float(np.hypot(*(pts[i] - pts[j]))) for i in range(n) for j in range(i + 1, n)]
            assert _pair_distances(pts) == want


def test_axis_ratios_are_np_cov_and_eigvalsh_per_component() -> None:
    from drivers.vision.pips import _axis_ratios
    for _ in range(200):
        comps = []
        for _ in range(RNG.integers(0, 7)):
            blob = RNG.random((RNG.integers(1, 12), RNG.integers(1, 12))) < RNG.uniform(0.2, 1.0)
            comps.append(np.nonzero(blob))
        want = []
        for ys, xs in comps:
            if len(xs) < 3:
                want.append(1.0)
            else:
                ev = np.linalg.eigvalsh(np.cov(np.array([xs, ys], dtype=np.float64)))
                want.append(math.sqrt(max(ev[0], 1e-6) / max(ev[1], 1e-6)))
        assert _axis_ratios(comps) == want


def test_stray_pips_in_the_masks_box_are_those_of_the_whole_mask() -> None:
    """Contours traced in the box of the set pixels (with its offset) are the whole mask's contours."""
    from drivers.vision.dice import DiceReader
    for _ in range(100):
        mask = np.zeros((480, 640), np.uint8)
        for _ in range(RNG.integers(0, 12)):
            cv2.circle(mask, (int(RNG.integers(0, 640)), int(RNG.integers(0, 480))), int(RNG.integers(1, 9)), 255, -1)
        mask[RNG.random((480, 640)) < 0.0005] = 255
        box = cv2.boundingRect(mask)
        for die in (20.0, 40.0):
            boxes = [(int(RNG.integers(0, 600)), int(RNG.integers(0, 440)), 40, 40)]
            assert DiceReader._stray_pips(mask, die, boxes, box) == DiceReader._stray_pips(mask, die, boxes)
        whole, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if box[2]:
            x, y, w, h = box
            part, _ = cv2.findContours(mask[y:y + h, x:x + w], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(x, y))
            assert len(part) == len(whole) and all(np.array_equal(p, q) for p, q in zip(part, whole))


def test_a_count_over_the_size_is_the_boolean_mean() -> None:
    """tilt_evidence's side share: np.count_nonzero / size is float(mask.mean()) (both one rounded division)."""
    for _ in range(500):
        side = RNG.random((64, 64)) < RNG.uniform(0, 1)
        assert np.count_nonzero(side) / side.size == float(side.mean())


def test_median_rows_by_histogram_and_by_partition_agree_at_the_switch() -> None:
    """median_rows counts from HISTOGRAM_ROWS pixels on: both sides of the switch give numpy's median."""
    for n in (HISTOGRAM_ROWS - 1, HISTOGRAM_ROWS, HISTOGRAM_ROWS + 1):
        for spread in (0, 5, 255):
            a = _pixels(n, spread)
            for dtype in (np.float32, np.float64):
                assert np.array_equal(median_rows(a, dtype), np.median(a.astype(dtype), axis=0)), (n, spread)
            # a non-contiguous view, as a slice of a patch reshaped gives
            b = np.repeat(a, 2, axis=0)[::2]
            assert np.array_equal(median_rows(b), np.median(b, axis=0))


def _masks(count: int) -> list[np.ndarray]:
    """Random uint8 0/1 masks like the side-pip view's: ellipses (a die's top face, some cut by the border),
    specks, blurred noise, and empty and full ones."""
    out = [np.zeros((40, 50), np.uint8), np.ones((30, 30), np.uint8)]
    for i in range(count):
        h, w = (int(v) for v in RNG.integers(5, 110, 2))
        mask = np.zeros((h, w), np.uint8)
        kind = i % 4
        if kind == 0:
            for _ in range(int(RNG.integers(1, 4))):
                centre = (int(RNG.integers(-10, w + 10)), int(RNG.integers(-10, h + 10)))
                axes = (int(RNG.integers(1, 40)), int(RNG.integers(1, 40)))
                cv2.ellipse(mask, centre, axes, float(RNG.random() * 180), 0, 360, 1, -1)
        elif kind == 1:
            mask[RNG.random((h, w)) < RNG.random() * 0.05] = 1
        elif kind == 2:
            x, y = int(RNG.integers(0, w)), int(RNG.integers(0, h))
            mask[y:y + int(RNG.integers(1, 50)), x:x + int(RNG.integers(1, 50))] = 1
            mask[RNG.random((h, w)) < 0.01] = 1
        else:
            mask = (cv2.GaussianBlur(RNG.random((h, w)).astype(np.float32), (0, 0), 3) > 0.5).astype(np.uint8)
        out.append(mask)
    return out


@pytest.mark.parametrize("radius", [1.0, 3.0, 8.0, 12.0, 16.0])
def test_distance_thresholds_in_the_masks_box_are_the_whole_masks(radius: float) -> None:
    """within_radius and deeper_than run the distance transform in the mask's box only: the same pixels as
    the whole mask's transform, thresholded (whole-number radii, as the side-pip check uses: 8 and 16)."""
    for mask in _masks(600):
        want_within = cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, 5) <= radius
        want_deeper = cv2.distanceTransform(mask, cv2.DIST_L2, 5) > radius
        assert np.array_equal(within_radius(mask, radius), want_within), (mask.shape, radius)
        assert np.array_equal(deeper_than(mask, radius), want_deeper), (mask.shape, radius)
    core = deeper_than(_masks(1)[-1], 2.0)  # a bool result passed on as uint8, as top_face does
    assert np.array_equal(within_radius(core.view(np.uint8), 2.0),
                          cv2.distanceTransform((core == 0).astype(np.uint8), cv2.DIST_L2, 5) <= 2.0)


def test_an_enlarged_crop_is_the_crop_of_the_enlargement() -> None:
    """fastmath.enlarged_crop: only the box, enlarged by whole factors, gives the whole enlargement's pixels
    (boxes anywhere, at the borders too; other factors go through the whole enlargement)."""
    for _ in range(400):
        sw, sh = int(RNG.integers(1, 45)), int(RNG.integers(1, 35))
        fx, fy = (int(RNG.choice([1, 2, 4, 8, 16])) for _ in range(2))
        small = RNG.integers(0, 256, (sh, sw, 3), dtype=np.uint8)
        size = (sw * fx, sh * fy) if RNG.random() < 0.8 else (sw * fx + int(RNG.integers(1, 5)), sh * fy)
        whole = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
        x0, x1 = sorted(int(v) for v in RNG.integers(0, size[0] + 1, 2))
        y0, y1 = sorted(int(v) for v in RNG.integers(0, size[1] + 1, 2))
        if RNG.random() < 0.2:
            x0, y0, x1, y1 = 0, 0, size[0], size[1]
        assert np.array_equal(enlarged_crop(small, size, (x0, y0, x1, y1)), whole[y0:y1, x0:x1])


def test_a_cut_of_the_felt_grid_is_the_cut_of_its_enlargement() -> None:
    """dice._cut of an _Enlarged felt: numpy's slice of the whole enlargement, also past the far sides."""
    from drivers.vision.dice import _cut, _Enlarged
    small = RNG.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    whole = cv2.resize(small, (320, 240), interpolation=cv2.INTER_LINEAR)
    felt = _Enlarged(small, (320, 240))
    for x0, y0, x1, y1 in ((0, 0, 24, 24), (300, 220, 330, 250), (310, 10, 320, 40), (320, 0, 340, 20),
                           (5, 239, 30, 260), (100, 100, 100, 120)):
        assert np.array_equal(_cut(felt, x0, y0, x1, y1), whole[y0:y1, x0:x1]), (x0, y0, x1, y1)
        assert np.array_equal(_cut(whole, x0, y0, x1, y1), whole[y0:y1, x0:x1])


def test_tilt_evidences_felt_test_on_split_channels_is_the_whole_arrays() -> None:
    """pips.tilt_evidence tests the felt distance channel by channel: the same share as the whole-array
    float32 arithmetic it replaced, for float32, float64 and list felt colours."""
    from drivers.vision.pips import PATCH, _SIDE_KERNEL, tilt_evidence
    for i in range(60):
        patch = RNG.integers(0, 256, (PATCH, PATCH, 3), dtype=np.uint8)
        patch = cv2.GaussianBlur(patch, (0, 0), 2) if i % 2 else patch
        lab, hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB), cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
        for felt in (RNG.integers(0, 256, 3).astype(np.float32), RNG.random(3) * 255, [10.0, 128.0, 140.5]):
            share, _ = tilt_evidence(patch, felt, lab, hsv)
            without, _ = tilt_evidence(patch, None, lab, hsv)
            d = lab.astype(np.float32) - felt
            d *= d
            far = np.sqrt(d[..., 0] + d[..., 1] + d[..., 2]) > 22
            # the side mask before the felt test, recovered: tilt_evidence without a felt, then the felt test
            h, s, v = (c.astype(np.int32) for c in cv2.split(hsv))
            centre = hsv[PATCH // 2 - 8:PATCH // 2 + 8, PATCH // 2 - 8:PATCH // 2 + 8].reshape(-1, 3)
            bh, bs, bv = (float(x) for x in np.median(centre, axis=0))
            if bs >= 60:
                dh = np.abs(h - bh)
                same = (np.minimum(dh, 180 - dh) < 12) & (s > 0.5 * bs)
            else:
                same = s < 60
            side = same & (v > 0.35 * bv) & (v < 0.72 * bv)
            opened = cv2.morphologyEx((side & far).astype(np.uint8), cv2.MORPH_OPEN, _SIDE_KERNEL) > 0
            assert share == np.count_nonzero(opened) / opened.size
            assert without == np.count_nonzero(
                cv2.morphologyEx(side.astype(np.uint8), cv2.MORPH_OPEN, _SIDE_KERNEL) > 0) / opened.size
