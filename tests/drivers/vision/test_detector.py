"""The photo-mode dice detector: it loads through cv2.dnn, finds the dice in held-out photos, and a
missing or broken model file is reported, never raised."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.vision.detector import MODEL_PATH, DiceDetector
from drivers.vision.dice import DiceReader
from drivers.vision.labels import iter_labelled_images, label_path_for, overlap, photo_split, read_yolo_labels
from drivers.vision.synth_dice import calibration, scene

DATA = Path(__file__).parent / "data"
# Test half only (labels.photo_split): the model never saw these.
HELD_OUT = sorted(p for p in iter_labelled_images(DATA) if photo_split(p) == "test")


@pytest.fixture(scope="module")
def detector() -> DiceDetector:
    found, why = DiceDetector.load()
    assert found is not None, why
    return found


def test_model_ships_small_and_loads_through_cv2_dnn(detector: DiceDetector) -> None:
    assert MODEL_PATH.stat().st_size < 4_000_000
    assert detector.path == MODEL_PATH


def test_finds_the_dice_in_held_out_photos(detector: DiceDetector) -> None:
    """Matched by box overlap as the benchmark does: most labelled dice found, few boxes on no die."""
    assert len(HELD_OUT) == 18
    labelled = found = boxes = false = 0
    for path in HELD_OUT:
        image = cv2.imread(str(path))
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        dets = detector.detect(image, 0.5)
        labelled += len(labels)
        found += sum(any(overlap(lab.box, d.box) > 0.3 for d in dets) for lab in labels)
        boxes += len(dets)
        false += sum(not any(overlap(lab.box, d.box) > 0.3 for lab in labels) for d in dets)
        for d in dets:
            x, y, w, h = d.box
            assert 0 < w < image.shape[1] and 0 < h < image.shape[0]
            assert -w < x < image.shape[1] and -h < y < image.shape[0]
    assert found / labelled >= RECALL_FLOOR
    assert false / max(1, boxes) <= FALSE_CEILING


RECALL_FLOOR = 0.9
FALSE_CEILING = 0.1


def test_blank_image_has_no_dice(detector: DiceDetector) -> None:
    grey = np.full((480, 640, 3), 120, np.uint8)
    assert detector.detect(grey, 0.5) == []


def test_missing_model_is_reported_and_the_reader_still_reads(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.onnx"
    found, why = DiceDetector.load(missing)
    assert found is None and str(missing) in why and "not found" in why
    image = cv2.imread(str(DATA / "penlington-webcam" / "five_1.jpg"))
    reader = DiceReader(detector_model=missing)
    result = reader.read(image)
    assert result.status == "unsure" and "not found" in result.reason
    assert [d.value for d in result.dice] == [5]  # the classical finder still reads
    assert "not found" in reader.detector_note


def test_broken_model_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx file" * 10)
    found, why = DiceDetector.load(broken)
    assert found is None and "cannot be loaded" in why
    image = cv2.imread(str(DATA / "penlington-webcam" / "dice_1.jpg"))
    assert DiceReader(detector_model=broken).read(image).status == "unsure"


def test_calibrated_table_path_does_not_load_the_detector() -> None:
    image, _ = scene(300_001, "clean", 0.0)
    reader = DiceReader(calibration())
    reader.read(image)
    assert reader._detector is None and reader.detector_note == "" and reader.last_detections == []
