"""Dice whose pips could not be read on the real photos: how often the face model is right, by its probability.

    python tools/vision_model/unread.py train    # the half MODEL_ONLY_PHOTO_GREY (drivers/vision/dice.py) was chosen on (the table's grey model)
    python tools/vision_model/unread.py test

Prints, for each probability floor, how many such dice the model is that sure of and how many it reads right.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.dice import DiceReader  # noqa: E402
from drivers.vision.labels import (iter_labelled_images, label_path_for, overlap,  # noqa: E402
                                   read_yolo_labels)


def main() -> int:
    half = sys.argv[1] if len(sys.argv) > 1 else "train"
    photos = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT.parent / "shared/data/dice-photos"
    reader = DiceReader()
    assert reader.face_model is not None, reader.face_model_problem
    rows: list[tuple[int | None, int, float]] = []
    for path in iter_labelled_images(photos, half):
        image = cv2.imread(str(path))
        assert image is not None, f"{path}: not an image"
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        result = reader.read(image)
        unread = {d.box for d in result.dice if d.value is None or d.reason.startswith("read by the face model only")}
        for patch, box, index in reader.last_patches:
            if index is None or box not in unread:
                continue
            best = max(labels, key=lambda lab: overlap(lab.box, box), default=None)
            truth = best.value if best is not None and overlap(best.box, box) >= 0.3 else None
            guess = reader.face_model.classify([patch], judge_tilt=False)[0]
            rows.append((truth, guess.value, guess.probability))
    print(f"{half}: {len(rows)} dice with unread pips, {sum(r[0] is None for r in rows)} not matched to a label")
    for floor in (0.5, 0.7, 0.8, 0.9, 0.95, 0.99):
        sure = [r for r in rows if r[0] is not None and r[2] >= floor and 1 <= r[1] <= 6]
        print(f"  model at least {floor}: {len(sure)} dice, {sum(r[0] == r[1] for r in sure)} right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
