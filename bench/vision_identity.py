"""Record the dice reader's full answers on a fixed set of images, or compare two records.

A speed change to the dice reader must not change a single answer.  ``record`` reads, with the
code under ``--code`` (default: this checkout), the synthetic tuning throws (seeds from
``--seed``, kinds and strengths as bench/vision.py deals them), the speed pass's frames, and the
real photos of the train half in photo mode, and writes every answer (status, reason, each
die's JSON and reason, the per-colour die sizes measured for the throw's calibration, and what
the reader measured per die: its ``last_features``) as JSON;
``compare`` says how many answers two records share and lists those that differ::

    python bench/vision_identity.py record --code /tmp/base --out /tmp/before.json
    python bench/vision_identity.py record --out /tmp/after.json
    python bench/vision_identity.py compare /tmp/before.json /tmp/after.json

Prints one JSON document (the compare exits 1 when any answer differs or is missing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _answer(result: Any, reader: Any, body: bool = True) -> dict[str, Any]:
    """The answer's JSON, each die's reason, and what the reader measured per die (its last_features;
    without the colour footprint where the calibration has no per-colour sizes, which does not use it)."""
    out = result.as_json()
    out["die_reasons"] = [d.reason for d in result.dice]
    out["features"] = json.loads(json.dumps([{k: v for k, v in f.items() if body or k != "body"}
                                             for f in reader.last_features], default=float))
    return out


def record_synthetic(count: int, base: int) -> dict[str, Any]:
    """Answers for the i-th throw as bench/vision.py deals it (kind i % 9, strength cycling 0..1)."""
    from drivers.vision import calibration as cal_mod
    from drivers.vision.dice import DiceOptions, DiceReader
    from drivers.vision.synth_dice import KINDS, reader_options, scene_with_calibration_frame
    shipped = DiceReader(None)
    model = shipped.face_model
    if model is None:  # the record would not be the reader's answers with the shipped model
        raise SystemExit(f"vision_identity: {shipped.face_model_problem}")
    out: dict[str, Any] = {}
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        strength = round((i // len(KINDS)) % 11 / 10, 1)
        image, truth, frame = scene_with_calibration_frame(base + i, kind, strength)
        cd = truth["calibration"]
        cal = cal_mod.DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                                      tuple(tuple(p) for p in cd["table"]))
        measure = DiceReader(cal, face_model=False)
        cal.die_sizes = measure.measure_die_sizes(frame)
        reader = DiceReader(cal, DiceOptions(**reader_options(kind)), face_model=model)
        result = reader.read(image)
        out[f"synthetic/{base + i}/{kind}/{strength}"] = {
            "die_sizes": {c: [s.top, s.long] for c, s in sorted(cal.die_sizes.items())}, **_answer(result, reader)}
    return out


def record_speed_frames() -> dict[str, Any]:
    """The frames bench/vision.py's speed pass times, read as it reads them (with and without the model)."""
    from drivers.vision.dice import DiceOptions, DiceReader
    from drivers.vision.synth_dice import calibration, scene
    out: dict[str, Any] = {}
    for model in (True, False):
        reader = DiceReader(calibration(), DiceOptions(count=2, colors=("green", "red")), face_model=model)
        for i in range(20):
            result = reader.read(scene(300_000 + i, "clean", 0.3)[0])
            out[f"speed/{300_000 + i}/model={model}"] = _answer(result, reader, body=False)
    return out


def record_photos(root: Path, half: str) -> dict[str, Any]:
    """Photo mode (no calibration, the learned detector) on every labelled photo of one half."""
    import cv2
    from drivers.vision.dice import DiceReader
    from drivers.vision.labels import iter_labelled_images
    reader = DiceReader()
    out: dict[str, Any] = {}
    for path in iter_labelled_images(root, half):
        image = cv2.imread(str(path))
        if image is not None:
            out[f"photo/{path.relative_to(root)}"] = _answer(reader.read(image), reader)
    return out


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    keys = sorted(set(before) | set(after))
    differ = [k for k in keys if before.get(k) != after.get(k)]
    groups: dict[str, int] = {}
    for k in keys:
        groups[k.split("/")[0]] = groups.get(k.split("/")[0], 0) + 1
    return {"compared": len(keys), "by_group": groups, "identical": len(keys) - len(differ),
            "differ": len(differ),
            "examples": [{"key": k, "before": before.get(k), "after": after.get(k)} for k in differ[:10]]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--code", type=Path, default=ROOT, help="checkout whose drivers/vision is read")
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--dice", type=int, default=900)
    rec.add_argument("--seed", type=int, default=300_000, help="first seed (tuning seeds only: 300000-399999)")
    rec.add_argument("--photos", type=Path, default=ROOT.parent.parent / "shared/data/dice-photos")
    rec.add_argument("--half", default="train")
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.cmd == "compare":
        report = compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()))
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0 if report["differ"] == 0 else 1
    if not (300_000 <= args.seed and args.seed + args.dice <= 400_000):
        parser.error("--seed/--dice must stay within the tuning seeds 300000-399999")
    sys.path.insert(0, str(args.code.resolve()))
    import cv2
    cv2.setNumThreads(1)
    import drivers.vision.dice as dice_mod
    started = time.time()
    answers: dict[str, Any] = {}
    answers.update(record_speed_frames())
    answers.update(record_synthetic(args.dice, args.seed))
    if args.photos.is_dir():
        answers.update(record_photos(args.photos, args.half))
    args.out.write_text(json.dumps(answers, sort_keys=True))
    json.dump({"code": str(Path(dice_mod.__file__).resolve()), "answers": len(answers),
               "seconds": round(time.time() - started, 1)}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
