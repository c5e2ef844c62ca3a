"""The dice reader on a labelled subset of real photos (tests/drivers/vision/data).

These floors are today's measured figures (photo mode with the learned dice detector and face model), kept as a regression guard; they
are below the project's goal (97 % per die, no wrong `ok` image): see
docs/devices/vision.md and docs/performance.md section "Vision".
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from drivers.vision.dice import DiceReader
from drivers.vision.labels import Score, iter_labelled_images, label_path_for, read_yolo_labels

DATA = Path(__file__).parent / "data"


def _score(subset: str) -> Score:
    score = Score()
    reader = DiceReader()  # one reader, its models loaded once
    for path in iter_labelled_images(DATA / subset):
        image = cv2.imread(str(path))
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        result = reader.read(image)
        score.add(labels, result.status, [(d.value, d.box) for d in result.dice if d.value is not None])
    return score


@pytest.mark.parametrize("subset,images,per_die,of_matched", [
    # Measured with the detector and photo mode's own colour face model (2026-11-29, branch photoacc):
    # 0.979 / 0.989 and 0.870 / 0.952 (with the table's grey model before it: 0.958 / 0.989 and 0.754 / 0.897).
    # The subsets hold photos of both halves of the split (the models were trained on the train-half ones).
    ("penlington-webcam", 31, 0.96, 0.97),
    ("byler-topdown", 10, 0.84, 0.92),
])
def test_real_photo_subset_floors(subset: str, images: int, per_die: float, of_matched: float) -> None:
    s = _score(subset)
    assert s.images == images
    assert s.right / s.labelled >= per_die
    assert s.right / s.matched >= of_matched
    assert s.ok_right == s.ok_images  # no ok image with a wrong multiset


def test_labels_are_read_as_pixel_boxes() -> None:
    path = DATA / "penlington-webcam" / "dice_1.jpg"
    labels = read_yolo_labels(label_path_for(path), 640, 480)
    assert labels and all(1 <= lab.value <= 6 for lab in labels)
    assert all(0 <= lab.box[0] < 640 and 0 <= lab.box[1] < 480 for lab in labels)


def test_photo_split_keeps_near_duplicates_together() -> None:
    from pathlib import Path

    from drivers.vision.labels import photo_split
    assert photo_split(Path("IMG_20191208_111228.jpg")) == "train"
    assert photo_split(Path("IMG_20191209_100722.jpg")) == "test"
    assert photo_split(Path("six_25.jpg")) == "train"
    assert photo_split(Path("six_26.jpg")) == "test"
    assert photo_split(Path("anything-else.png")) == "test"  # unknown photos are never trained on
