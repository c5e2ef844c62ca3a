"""Where the pip count and the face model disagree on a real photo's die, which of them the label backs.

    python tools/vision_model/disagreements.py train    # the half the display rule was chosen on
    python tools/vision_model/disagreements.py test

Prints the counts: the pip count right, the model right, both wrong, die not matched to a label.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.dice import DiceReader  # noqa: E402
from drivers.vision.labels import (iter_labelled_images, label_path_for, overlap,  # noqa: E402
                                   read_yolo_labels)

SAID = re.compile(r"pip count (\d), face model a (\d)")


def main() -> int:
    half = sys.argv[1] if len(sys.argv) > 1 else "train"
    photos = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT.parent / "shared/data/dice-photos"
    reader = DiceReader()
    counts: Counter[str] = Counter()
    for path in iter_labelled_images(photos, half):
        image = cv2.imread(str(path))
        assert image is not None, f"{path}: not an image"
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        for die in reader.read(image).dice:
            m = SAID.search(die.reason)
            if not m:
                continue
            best = max(labels, key=lambda lab: overlap(lab.box, die.box), default=None)
            if best is None or overlap(best.box, die.box) < 0.3:
                counts["not matched"] += 1
                continue
            pips, model = int(m.group(1)), int(m.group(2))
            counts["pip count right" if pips == best.value else
                   "model right" if model == best.value else "both wrong"] += 1
    print(half, dict(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
