"""How the pip count and the face model agree, die by die: the table the thresholds were chosen from.

For every die the reader reads from a patch: the pip count's value and confidence, the model's
probabilities, and the truth (synthetic: the scene's die at that place; photos: the label over it).
Prints, for several values of MODEL_AGREE, how many wrong pip counts the model catches and how many
right ones it refuses, and for several values of MODEL_ONLY, how often the model alone is right where
the pips could not be read.

    python tools/vision_model/agreement.py --seeds 300000 900     # tuning seeds (thresholds chosen here)
    python tools/vision_model/agreement.py --photos train         # the photos' train half
    python tools/vision_model/agreement.py --seeds 500000 600     # held-out seeds: to report, not to tune
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.labels import default_photo_root  # noqa: E402

from drivers.vision import facemodel  # noqa: E402
from drivers.vision.calibration import DiceCalibration  # noqa: E402
from drivers.vision.dice import DiceOptions, DiceReader  # noqa: E402
from drivers.vision.labels import (iter_labelled_images, label_path_for, overlap,  # noqa: E402
                                   read_yolo_labels)
from drivers.vision.pips import rectify  # noqa: E402
from drivers.vision.synth_dice import DIE_PX, KINDS, reader_options, scene  # noqa: E402


def _rows(reader: DiceReader, model: facemodel.FaceModel, truth_of) -> list[dict]:
    """truth_of(box): the die's value, 0 for no die there, -1 for a die with no fair value (cocked, hidden)."""
    items = [(i, patch, box) for patch, box, i in reader.last_patches if i is not None]
    guesses = model.classify([p for _, p, _ in items], judge_tilt=reader.calibration is not None)
    return [{"pip": reader.last_features[i]["value"], "conf": reader.last_features[i]["conf"],
             "probs": g.probabilities, "truth": truth_of(box)} for (i, _, box), g in zip(items, guesses)]


def photo_rows(root: Path, half: str, model: facemodel.FaceModel, crops: dict[str, int]) -> list[dict]:
    """Reader dice of one half of the photos; ``crops`` counts the model alone on every labelled die
    cut from its label box (grown by a tenth): how well it reads the dice the reader does not find too."""
    rows: list[dict] = []
    for path in iter_labelled_images(root, half):
        image = cv2.imread(str(path))
        assert image is not None, f"{path}: not an image"
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        patches = [rectify(image, ((x + w / 2, y + h / 2), (1.1 * w, 1.1 * h), 0.0)) for x, y, w, h in
                   (lab.box for lab in labels)]
        for guess, lab in zip(model.classify(patches, judge_tilt=False), labels):
            crops["labelled"] += 1
            crops["right"] += guess.value == lab.value
            crops["at_p_0.99"] += guess.probability >= 0.99
            crops["right_at_p_0.99"] += guess.probability >= 0.99 and guess.value == lab.value
        reader = DiceReader(face_model=False)
        reader.read(image)

        def truth_of(box, labels=labels):
            best = max(((overlap(lab.box, box), lab.value) for lab in labels), default=(0.0, 0))
            return best[1] if best[0] > 0.3 else 0
        rows += _rows(reader, model, truth_of)
    return rows


def synthetic_rows(first: int, count: int, model: facemodel.FaceModel) -> list[dict]:
    rows: list[dict] = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        strength = round((i // len(KINDS)) % 11 / 10, 1)
        image, truth = scene(first + i, kind, strength)
        cd = truth["calibration"]
        cal = DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                              tuple(tuple(p) for p in cd["table"]))
        reader = DiceReader(cal, DiceOptions(**reader_options(kind)), face_model=False)
        reader.read(image)

        def truth_of(box, truth=truth, kind=kind):
            cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
            dist, d = min(((math.hypot(cx - t["box"][0] - t["box"][2] / 2, cy - t["box"][1] - t["box"][3] / 2), t)
                           for t in truth["dice"]), key=lambda p: p[0])
            if dist > 0.35 * DIE_PX:
                return 0
            return -1 if kind == "occluded" or d["tilt"] > 0 else int(d["value"])
        rows += _rows(reader, model, truth_of)
    return rows


def table(rows: list[dict]) -> dict:
    read = [r for r in rows if r["pip"] is not None and r["truth"] > 0]
    wrong = [r for r in read if r["pip"] != r["truth"]]
    right = [r for r in read if r["pip"] == r["truth"]]
    out: dict = {"dice": len(rows), "pip_read_on_a_die": len(read), "pip_wrong": len(wrong),
                 "pip_read_on_no_die": sum(1 for r in rows if r["pip"] is not None and r["truth"] == 0),
                 "pip_read_on_cocked_or_hidden_die": sum(1 for r in rows if r["pip"] is not None and r["truth"] < 0),
                 "agree": {}, "model_only": {}}
    for t in (0.3, 0.5, 0.7, 0.9):
        out["agree"][str(t)] = {"wrong_caught": sum(1 for r in wrong if r["probs"][r["pip"]] < t),
                                "right_refused": sum(1 for r in right if r["probs"][r["pip"]] < t)}
    failed = [r for r in rows if r["pip"] is None]
    out["pip_failed"] = len(failed)
    out["pip_failed_on_a_die"] = sum(1 for r in failed if r["truth"] > 0)
    for t in (0.9, 0.95, 0.99, 0.995):
        sel = [r for r in failed if int(np.argmax(r["probs"])) > 0 and max(r["probs"]) >= t]
        out["model_only"][str(t)] = {"given": len(sel),
                                     "right": sum(1 for r in sel if int(np.argmax(r["probs"])) == r["truth"]),
                                     "on_no_die": sum(1 for r in sel if r["truth"] == 0),
                                     "on_cocked_or_hidden_die": sum(1 for r in sel if r["truth"] < 0)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "COUNT"))
    parser.add_argument("--photos", choices=("train", "test"))
    parser.add_argument("--photo-root", type=Path, default=default_photo_root(ROOT))
    parser.add_argument("--model", type=Path, default=facemodel.DEFAULT_MODEL)
    args = parser.parse_args()
    model = facemodel.FaceModel(args.model)
    report = {}
    if args.seeds:
        report["synthetic"] = table(synthetic_rows(args.seeds[0], args.seeds[1], model))
    if args.photos:
        crops = {"labelled": 0, "right": 0, "at_p_0.99": 0, "right_at_p_0.99": 0}
        report[f"photos_{args.photos}"] = table(photo_rows(args.photo_root, args.photos, model, crops))
        report[f"photos_{args.photos}"]["model_alone_on_label_box_crops"] = crops
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
