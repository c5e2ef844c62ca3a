"""The opt-in hardware suite (tests/hardware) itself: left out of the default run, green against the emulators
standing in for the devices, and red, with its own words, where a device does not answer."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np

from drivers.ptydevice import PtyPort
from drivers.shoe.emulator import ShoeEmulator
from drivers.wheel.emulator import WheelEmulator

ROOT = Path(__file__).resolve().parents[1]
DEVICES = ("TABLECTL_HW_SHOE", "TABLECTL_HW_WHEEL", "TABLECTL_HW_CAMERA", "TABLECTL_HW_PINMAP")


def run_suite(*args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLECTL_HW_")} | settings
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "tests/hardware"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def video(path: Path, frames: int) -> str:
    """A 640x480 video of a grey scene with a moving square (the camera test's stand-in for a camera)."""
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    for i in range(frames):
        frame = np.full((480, 640, 3), 120, np.uint8)
        cv2.rectangle(frame, (10 + 5 * i, 200), (60 + 5 * i, 250), (40, 40, 200), -1)
        out.write(frame)
    out.release()
    return str(path)


def test_the_default_run_leaves_the_hardware_suite_out() -> None:
    done = run_suite()
    assert done.returncode == 5 and "4 deselected" in done.stdout, done.stdout + done.stderr


def test_with_no_device_set_every_hardware_test_is_skipped_naming_its_variable() -> None:
    done = run_suite("-m", "hardware", "-rs")
    assert done.returncode == 0 and "4 skipped" in done.stdout, done.stdout + done.stderr
    for name in DEVICES:
        assert f"set {name} to" in done.stdout


def test_the_suite_passes_against_the_emulators(tmp_path: Path) -> None:
    shoe, wheel = ShoeEmulator("shoe"), WheelEmulator()
    stop = threading.Event()

    def spin() -> None:  # the wheel talks only when it has something to say: keep it talking
        while not stop.wait(0.3):
            wheel.spin()

    talker = threading.Thread(target=spin, daemon=True)
    try:
        settings = {"TABLECTL_HW_SHOE": shoe.start(), "TABLECTL_HW_WHEEL": wheel.start(),
                    "TABLECTL_HW_CAMERA": video(tmp_path / "camera.avi", 120),
                    "TABLECTL_HW_PINMAP": str(ROOT / "hw" / "dealer-panel.toml"), "TABLECTL_HW_PIN_FACTORY": "mock"}
        talker.start()
        done = run_suite("-m", "hardware", **settings)
    finally:
        stop.set()
        shoe.stop()
        wheel.stop()
    assert done.returncode == 0 and "4 passed" in done.stdout, done.stdout + done.stderr


def test_a_silent_shoe_and_a_camera_that_stops_fail_saying_so(tmp_path: Path) -> None:
    dead = PtyPort()
    try:
        done = run_suite("-m", "hardware", TABLECTL_HW_SHOE=dead.plug(),
                         TABLECTL_HW_CAMERA=video(tmp_path / "short.avi", 10))
    finally:
        dead.unplug()
    assert done.returncode == 1 and "2 failed" in done.stdout, done.stdout + done.stderr
    assert "no hello from a shoe on" in done.stdout
    assert "the frames stopped after 10 of 90" in done.stdout
