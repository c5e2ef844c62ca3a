"""Leave one photo source out: the dice reader tuned on one camera's photos, tested on the whole of the other.

    python bench/vision_loso.py --models var/loso                # both directions, the fold models in var/loso
    python bench/vision_loso.py --models var/loso --train byler-topdown   # one direction
    python bench/vision_loso.py --shipped                        # the shipped models (NOT a left-out figure)
    python bench/vision_loso.py --classical                      # no learned model at all (pip counts only)

The two photo sources (``drivers.vision.labels.SOURCES``: a phone's top-down photos of mixed dice on a grey
tray, a USB webcam's oblique photos of white dice on a wooden desk) differ in camera, scene and dice.  For each
direction the photo-mode reader runs with the learned models of one **fold**, trained on the training source
(every photo of it) and on rendered scenes only, and reads every photo of the other source (``FOLD/dice_detector.onnx``
and ``FOLD/dice_face_photo.onnx`` under ``--models``, FOLD the training source's name; made by
tools/vision_model/README.md, "Leave-one-source-out folds").  Nothing of the test source was trained on.
The reader's hand-set rules (cut-offs in drivers/vision) stay as they are: they were chosen on the
photos' old train half of both sources, which the output says.

Per direction it prints, per die: labelled dice, dice read right (value matched by box, labels.Score), per-die
accuracy; per throw (photo): photos whose multiset of read values equals the labels' (whatever the status),
``ok`` photos, ``ok`` photos right and wrong (a wrong ``ok`` is a confident wrong answer), ``unsure`` and
``void``; the confidence of each answer: read dice by confidence band, right and wrong; and the commonest
reasons for ``unsure``.  ``--out FILE`` writes one JSON line per photo (status, reason, every die with its
value, confidence and reason, the labels) for the record in docs/devices/vision.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BANDS = ((0.0, 0.62), (0.62, 0.8), (0.8, 0.95), (0.95, 1.01))


def default_photos() -> Path | None:
    for cand in (ROOT.parent / "shared/data/dice-photos", ROOT.parent.parent / "shared/data/dice-photos"):
        if cand.is_dir():
            return cand
    return None


def reason_kind(reason: str) -> str:
    """A reason with its numbers and positions taken out, so like refusals count together."""
    text = re.sub(r"\([^)]*\)", "", reason.split(";")[0])
    return re.sub(r"[-\d.,]+", "N", text).strip()[:90]


def judge(labels: list, dice: list) -> list[tuple[Any, Any]]:
    """(labelled value, read die or None) per labelled die, matched by box as labels.Score does."""
    from drivers.vision.labels import overlap
    used: set[int] = set()
    out = []
    for lab in labels:
        best, best_i = 0.3, -1
        for i, d in enumerate(dice):
            if i not in used and d.value is not None and (o := overlap(lab.box, d.box)) > best:
                best, best_i = o, i
        if best_i >= 0:
            used.add(best_i)
        out.append((lab.value, dice[best_i] if best_i >= 0 else None))
    return out


def run_direction(photos: Path, train: str, test: str, detector: Path | None, face: Path | None, out,
                  limit: int | None, side_faces: bool = False) -> dict:
    import cv2
    import numpy as np
    from drivers.vision.dice import DiceReader
    from drivers.vision.labels import Score, iter_labelled_images, label_path_for, photo_split, read_yolo_labels
    cv2.setNumThreads(1)
    reader = (DiceReader(face_model=False, detector_model=None, photo_face_model=False) if face is None
              else DiceReader(detector_model=detector, photo_face_model=face))
    reader.side_faces = side_faces
    reader.read(np.zeros((480, 640, 3), np.uint8))  # the photo-mode models load here
    if face is not None and reader.photo_face_note:
        raise SystemExit(f"vision_loso: {face}: {reader.photo_face_note}")
    score = Score()
    bands: dict[str, Counter[str]] = {f"{lo:.2f}-{min(hi, 1.0):.2f}": Counter() for lo, hi in BANDS}
    reasons: Counter = Counter()
    wrong_ok: list[str] = []
    halves: dict[str, Score] = {"train": Score(), "test": Score()}
    seconds = 0.0
    throws_right = 0
    for n, path in enumerate(iter_labelled_images(photos, source=test)):
        if limit is not None and n >= limit:
            break
        image = cv2.imread(str(path))
        if image is None:
            continue
        labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
        started = time.process_time()
        result = reader.read(image)
        seconds += time.process_time() - started
        read = [(d.value, d.box) for d in result.dice if d.value is not None]
        right = score.add(labels, result.status, read)
        halves[photo_split(path)].add(labels, result.status, read)
        throws_right += right
        if result.status == "ok" and not right:
            wrong_ok.append(path.name)
        if result.status == "unsure":
            reasons[reason_kind(result.reason)] += 1
        for value, die in judge(labels, list(result.dice)):
            if die is None:
                continue
            for lo, hi in BANDS:
                if lo <= die.confidence < hi:
                    bands[f"{lo:.2f}-{min(hi, 1.0):.2f}"]["right" if die.value == value else "wrong"] += 1
        if out is not None:
            out.write(json.dumps({"train": train, "test": test, "photo": path.name, "status": result.status,
                                  "reason": result.reason, "throw_right": right,
                                  "labels": sorted(lab.value for lab in labels),
                                  "dice": [{"value": d.value, "confidence": round(d.confidence, 3),
                                            "box": list(d.box), "reason": d.reason} for d in result.dice]}) + "\n")
    s = score.as_dict()
    return {
        "train": train, "test": test,
        "per_die": {"labelled": s["labelled_dice"], "right": s["right_dice"], "accuracy": s["per_die_accuracy"]},
        "per_throw": {"photos": score.images, "multiset_right": throws_right,
                      "multiset_right_share": round(throws_right / max(1, score.images), 4),
                      "ok": s["ok_images"], "ok_right": s["ok_images_multiset_right"],
                      "ok_wrong_confident_wrong": s["ok_images_multiset_wrong"], "unsure": s["unsure_images"],
                      "void": s["void_images"], "ok_wrong_photos": wrong_ok},
        "read_dice_by_confidence": {k: dict(v) for k, v in bands.items()},
        "old_halves_per_die_accuracy": {k: v.as_dict()["per_die_accuracy"] for k, v in halves.items()},
        "unsure_reasons": dict(reasons.most_common(8)),
        "cpu_ms_per_photo": round(seconds * 1000 / max(1, score.images), 1),
    }


def main() -> int:
    from drivers.vision import labels
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=default_photos())
    parser.add_argument("--models", type=Path, help="folder of fold models: FOLD/dice_detector.onnx, FOLD/dice_face_photo.onnx")
    parser.add_argument("--shipped", action="store_true",
                        help="the shipped models, trained on the old train half of both sources: not a left-out figure")
    parser.add_argument("--classical", action="store_true",
                        help="the reader without any learned model (classical finder, pip counts only)")
    parser.add_argument("--train", choices=labels.SOURCES, help="only the direction trained on this source")
    parser.add_argument("--side-faces", action="store_true",
                        help="candidate L1's side-face rule on (DiceReader.side_faces; L1's look ran with it)")
    parser.add_argument("--limit", type=int, help="at most this many test photos a direction (a quick check)")
    parser.add_argument("--out", type=Path, help="one JSON line per photo")
    args = parser.parse_args()
    if args.photos is None or not args.photos.is_dir():
        print(json.dumps({"real_photos": "not found", "photos": str(args.photos)}))
        return 0
    if not args.shipped and not args.classical and args.models is None:
        print("vision_loso: give --models FOLDER (the fold models), --classical or --shipped", file=sys.stderr)
        return 2
    from drivers.vision.detector import MODEL_PATH
    from drivers.vision.facemodel import PHOTO_MODEL
    report: dict[str, Any] = {"models": "shipped (trained on half of each source: NOT left out)" if args.shipped
                              else "none (classical reader)" if args.classical else str(args.models),
                              "directions": []}
    out = args.out.open("w", encoding="utf-8") if args.out else None
    try:
        for train in labels.SOURCES:
            if args.train and train != args.train:
                continue
            test = next(s for s in labels.SOURCES if s != train)
            detector: Path | None
            face: Path | None
            if args.shipped:
                detector, face = MODEL_PATH, Path(PHOTO_MODEL)
            elif args.classical:
                detector, face = None, None
            else:
                detector, face = args.models / train / "dice_detector.onnx", args.models / train / "dice_face_photo.onnx"
                for f in (detector, face):
                    if not f.is_file():
                        print(f"vision_loso: {f}: fold model not found (tools/vision_model/README.md says how "
                              "to train the folds)", file=sys.stderr)
                        return 2
            report["directions"].append(run_direction(args.photos, train, test, detector, face, out, args.limit,
                                                     args.side_faces))
    finally:
        if out is not None:
            out.close()
    dirs = report["directions"]
    report["both"] = {
        "per_die_accuracy": [d["per_die"]["accuracy"] for d in dirs],
        "throws_right_share": [d["per_throw"]["multiset_right_share"] for d in dirs],
        "confident_wrong": sum(d["per_throw"]["ok_wrong_confident_wrong"] for d in dirs),
        "goal": {"per_die": 0.97, "throws": 0.93, "confident_wrong": 0},
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
