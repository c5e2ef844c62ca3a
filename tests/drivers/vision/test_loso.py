"""Leave one source out: the photo sources, the folds' data, the measurement script, the styled scenes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from drivers.vision import synth_styles
from drivers.vision.detector import MODEL_PATH
from drivers.vision.facemodel import PHOTO_MODEL
from drivers.vision.labels import SOURCES, iter_labelled_images, photo_source

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "data"


def test_every_labelled_photo_belongs_to_one_source() -> None:
    every = list(iter_labelled_images(DATA))
    by_source = {s: list(iter_labelled_images(DATA, source=s)) for s in SOURCES}
    assert len(by_source["byler-topdown"]) == 10 and len(by_source["penlington-webcam"]) == 31
    assert sorted(sum(by_source.values(), [])) == every
    assert photo_source(Path("x/byler-topdown/images/IMG_1.jpg")) == "byler-topdown"
    assert photo_source(Path("x/elsewhere/IMG_1.jpg")) == ""


def test_a_fold_trains_on_one_source_only(tmp_path: Path) -> None:
    out = tmp_path / "boxes.npz"
    subprocess.run([sys.executable, "tools/vision_model/extract_boxes.py", "--photos", str(DATA),
                    "--source", "penlington-webcam", "--out", str(out)], cwd=ROOT, check=True, capture_output=True)
    names = [str(n) for n in np.load(out)["names"]]
    assert len(names) == 31 and all(n.startswith("penlington-webcam/") for n in names)


def _loso(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "bench/vision_loso.py", "--photos", str(DATA), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_the_measurement_reads_the_left_out_source_with_the_fold_models(tmp_path: Path) -> None:
    missing = _loso("--models", str(tmp_path))
    assert missing.returncode == 2 and "fold model not found" in missing.stderr
    fold = tmp_path / "penlington-webcam"
    fold.mkdir()
    shutil.copy(MODEL_PATH, fold / "dice_detector.onnx")  # a stand-in for the fold's models: the plumbing only
    shutil.copy(PHOTO_MODEL, fold / "dice_face_photo.onnx")
    lines = tmp_path / "looks.jsonl"
    run = _loso("--models", str(tmp_path), "--train", "penlington-webcam", "--limit", "3", "--out", str(lines))
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    (direction,) = report["directions"]
    assert (direction["train"], direction["test"]) == ("penlington-webcam", "byler-topdown")
    photos = [json.loads(line) for line in lines.read_text().splitlines()]
    assert len(photos) == direction["per_throw"]["photos"] == 3
    assert all(p["test"] == "byler-topdown" and p["photo"].startswith("IMG_") for p in photos)
    assert direction["per_die"]["labelled"] == sum(len(p["labels"]) for p in photos)
    banded = sum(sum(b.values()) for b in direction["read_dice_by_confidence"].values())
    assert direction["per_die"]["right"] <= banded <= direction["per_die"]["labelled"]


def test_styled_throws_are_seeded_and_their_calibration_follows_the_tilt() -> None:
    a, truth, frame = synth_styles.scene(2024, "clean")
    b, again, _ = synth_styles.scene(2024, "clean")
    assert np.array_equal(a, b) and truth == again and frame.shape == a.shape
    flat = synth_styles.tilt_homography(0.0)
    assert np.allclose(flat / flat[2, 2], np.eye(3), atol=1e-6)
    for tilt in (10.0, 35.0):
        hom = synth_styles.tilt_homography(tilt)
        for x, y in synth_styles.D.TABLE:
            v = hom @ np.array([x, y, 1.0])
            assert 0 <= v[0] / v[2] <= 640 and 0 <= v[1] / v[2] <= 480
    styles = [synth_styles.style(s, "clean") for s in range(40)]
    assert {s.cloth for s in styles} == set(synth_styles.CLOTHS)
    assert {s.dice for s in styles} == {"opaque", "translucent"} and max(s.tilt for s in styles) > 30
    assert synth_styles.style(1, "sicbo").dice == "white"


def test_the_show_floor_is_compared_on_styled_throws_only(tmp_path: Path) -> None:
    assert subprocess.run([sys.executable, "tools/vision_model/synth_rules.py", "--models", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True).returncode == 2
    for source in SOURCES:  # stand-ins for the fold models: the plumbing only
        (tmp_path / source).mkdir()
        shutil.copy(MODEL_PATH, tmp_path / source / "dice_detector.onnx")
        shutil.copy(PHOTO_MODEL, tmp_path / source / "dice_face_photo.onnx")
    run = subprocess.run([sys.executable, "tools/vision_model/synth_rules.py", "--models", str(tmp_path),
                          "--seed", "1700000", "--count", "2", "--floors", "0.5,1.01"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert set(report["folds"]) == set(SOURCES) and set(report["both"]) == {"0.5", "1.01"}
    for floor in report["both"].values():
        assert floor["throws"] == 4 and floor["dice"] == 8  # two red-and-green throws a fold
        assert floor.get("right", 0) + floor.get("wrong", 0) <= floor["dice"]
        assert floor.get("ok_wrong", 0) <= floor.get("ok", 0)
