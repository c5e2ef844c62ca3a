"""Photo mode's display rule chosen on rendered scenes only: the leave-one-source-out fold models read styled
throws (another cloth, dice, light and camera than either photo source) uncalibrated, as photos.

    .venv/bin/python tools/vision_model/synth_rules.py --models var/loso --seed 1700000 --count 100

Where a die's pip count and photo mode's face model disagree, the die shows the model's value only if the
model is at least ``SHOW_FLOOR_PHOTO`` sure of it, else its pip count (``drivers/vision/dice.py``; the
image is unsure either way).  A fold's face model has seen one photo source and plain rendered throws
(``synth_dice``), never a styled throw (``synth_styles``), so styled throws stand in for a camera it was
never tuned on.  For each fold (``MODELS/SOURCE/dice_detector.onnx`` and ``dice_face_photo.onnx``) and each
floor of ``--floors``, every throw of seeds SEED..SEED+COUNT-1 (the kinds clean, touching, off and sicbo in
turn; cocked throws are left out: photo mode does not judge flatness, so a cocked die has no right value) is
read and scored per die (a read die matched to a true die by box, as ``bench/vision_loso.py`` does) and per
throw (the multiset of read values), with the ``ok`` answers and the wrong ones among them.  The two folds'
sums decide.  No photo of either source is read.  Seeded: the same seeds give the same scenes; it prints how
long it took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

KINDS = ("clean", "touching", "off", "sicbo")
SOURCES = ("byler-topdown", "penlington-webcam")


def score_fold(models: Path, source: str, seeds: range, floors: list[float]) -> dict:
    import cv2
    from drivers.vision import dice as dice_module
    from drivers.vision import synth_styles
    from drivers.vision.dice import DiceReader
    from drivers.vision.labels import overlap
    cv2.setNumThreads(1)
    reader = DiceReader(detector_model=models / source / "dice_detector.onnx",
                        photo_face_model=models / source / "dice_face_photo.onnx")
    scenes = []
    for n, seed in enumerate(seeds):
        image, truth, _ = synth_styles.scene(seed, KINDS[n % len(KINDS)], 0.5)
        scenes.append((image, truth))
    out = {}
    kept = dice_module.SHOW_FLOOR_PHOTO
    try:
        for floor in floors:
            dice_module.SHOW_FLOOR_PHOTO = floor
            tally: Counter[str] = Counter()
            for image, truth in scenes:
                result = reader.read(image)
                read = [d for d in result.dice if d.value is not None]
                used: set[int] = set()
                for t in truth["dice"]:
                    tally["dice"] += 1
                    best, best_i = 0.3, -1
                    for i, d in enumerate(read):
                        if i not in used and (o := overlap(tuple(t["box"]), d.box)) > best:
                            best, best_i = o, i
                    if best_i >= 0:
                        used.add(best_i)
                        tally["right" if read[best_i].value == t["value"] else "wrong"] += 1
                right = sorted(d.value for d in read if d.value is not None) == sorted(t["value"] for t in truth["dice"])
                tally["throws"] += 1
                tally["throws_right"] += right
                if result.status == "ok":
                    tally["ok"] += 1
                    tally["ok_wrong"] += not right
            out[str(floor)] = dict(tally)
    finally:
        dice_module.SHOW_FLOOR_PHOTO = kept
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "var/loso")
    parser.add_argument("--seed", type=int, default=1_700_000)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--floors", default="0.5,0.8,0.95,1.01",
                        help="SHOW_FLOOR_PHOTO values to compare (1.01: always the pip count)")
    args = parser.parse_args()
    floors = [float(v) for v in args.floors.split(",")]
    started = time.time()
    report: dict = {"seeds": [args.seed, args.seed + args.count - 1], "kinds": KINDS, "folds": {}}
    for source in SOURCES:
        if not (args.models / source / "dice_face_photo.onnx").is_file():
            print(f"synth_rules: no fold models under {args.models / source}", file=sys.stderr)
            return 2
        report["folds"][source] = score_fold(args.models, source, range(args.seed, args.seed + args.count), floors)
    both = {}
    for f in map(str, floors):
        total: Counter[str] = Counter()
        for fold in report["folds"].values():
            total.update(fold[f])
        both[f] = dict(total, per_die=round(total["right"] / max(1, total["dice"]), 4),
                       per_throw=round(total["throws_right"] / max(1, total["throws"]), 4))
    report["both"] = both
    report["seconds"] = round(time.time() - started, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
