"""A real camera: frames of one size, live, at the rate the still gate and the result time assume."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from tests.hardware.env import setting

pytestmark = pytest.mark.hardware


def test_the_camera_gives_live_frames_at_the_table_rate() -> None:
    from drivers.vision.sources import open_source

    spec = setting("TABLECTL_HW_CAMERA", "the camera as tablectl dice takes it (camera:0, picamera)")
    least_fps = float(os.environ.get("TABLECTL_HW_CAMERA_FPS", "25"))
    width, height = (int(v) for v in os.environ.get("TABLECTL_HW_CAMERA_SIZE", "640x480").split("x"))
    frames: list[np.ndarray] = []
    stamps: list[float] = []
    # The size asked of the camera as the table's [devices.camera] width and height ask for it.
    for _, frame in open_source(spec, (width, height)).frames():
        frames.append(frame)
        stamps.append(time.monotonic())
        if len(frames) == 90:
            break
    assert len(frames) == 90, f"{spec}: the frames stopped after {len(frames)} of 90"
    shapes = {f.shape for f in frames}
    assert len(shapes) == 1, f"{spec}: frames of several sizes {shapes}"
    got = frames[0].shape
    assert got == (height, width, 3) and frames[0].dtype == np.uint8, (
        f"{spec}: frames of {got[1]}x{got[0]}x{got[2] if len(got) > 2 else 1} {frames[0].dtype}, asked for "
        f"{width}x{height} BGR (the readers are measured at 640x480)")
    fps = (len(stamps) - 31) / (stamps[-1] - stamps[30])  # after the first second's start-up
    assert fps >= least_fps, f"{spec}: {fps:.1f} frames a second, the still gate and result time assume {least_fps:g}"
    assert any(not np.array_equal(frames[30], f) for f in frames[31:]), f"{spec}: the picture does not change (frozen?)"
    assert 5 < float(np.mean(frames[-1])) < 250, f"{spec}: the picture is black or white (lens covered, exposure?)"
