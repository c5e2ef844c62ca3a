"""A blind check of the real photos' labels: are the dice the reader loses lost to the reader or to the label?

    /work/venv/bin/python tools/vision_model/label_audit.py sheets test --cache /tmp/p7_test.pkl --out /tmp/audit
    (two people or more, each alone, read every numbered die on /tmp/audit/sheet_*.png: a.json, b.json {"0": 5, "1": "?", ...})
    /work/venv/bin/python tools/vision_model/label_audit.py compare --out /tmp/audit --readings a.json b.json

``sheets`` replays the shipped photo mode over a photo_eval dump (the reader's own figures), takes every
labelled die it does not read right and 100 (``--right``) of those it reads right, picked at
random (seed 0), shuffles them together and draws each as a numbered cut of its photo with its label box
outlined. Nothing on a sheet says which die was lost, what its label says or what the reader read: the
person reading the sheets cannot lean towards either. The key goes to ``key.json`` beside the sheets, to be
opened only by ``compare``.

``compare`` sets each person's readings against the labels and the reader (how often the label and the
person disagree among the dice read right and among the dice lost) and lists the corrections every reader
agrees on (``labels.audit_corrections``: all read one same value, not the label's; a '?' leaves the label).
It changes no label: bench/vision.py prints the photos' figures against the labels as they are, and
beside them against the labels with the corrections of the audit committed in bench/data/photo_label_audit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "vision_model"))
sys.path.insert(0, str(ROOT))

import photo_eval  # noqa: E402

from drivers.vision import facemodel  # noqa: E402
from drivers.vision.labels import audit_corrections  # noqa: E402

CELL = 168  # a numbered cut's side on the sheet, pixels
COLUMNS = 6
ROWS = 5


def dice_of(half: str) -> list[dict]:
    """Every labelled die of the dump: its photo, set, box, label and what the shipped photo mode read there."""
    shots = photo_eval.load(half)
    model = facemodel.FaceModel(facemodel.PHOTO_MODEL, facemodel.PHOTO_SIDE, True, facemodel.PHOTO_TURNS)
    probs_of = photo_eval.model_probs(model, more=True)
    out = []
    for shot in shots:
        _, dice = photo_eval.replay(shot, probs_of(shot)) if shot.patches else (shot.status, shot.dice)
        for label, i in photo_eval.matched(shot, dice):
            read = None if i is None else dice[i][0]
            out.append({"photo": shot.name, "set": shot.group, "box": list(label.box), "label": label.value,
                        "read": read, "right": read == label.value})
    return out


def cut(image: np.ndarray, box: list[int]) -> np.ndarray:
    """The die's label box with half a side of margin, enlarged to a cell, the box outlined just outside."""
    x, y, w, h = box
    m = max(w, h) // 2
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(image.shape[1], x + w + m), min(image.shape[0], y + h + m)
    piece = image[y0:y1, x0:x1].copy()
    cv2.rectangle(piece, (x - x0 - 2, y - y0 - 2), (x - x0 + w + 1, y - y0 + h + 1), (255, 0, 255), 1)
    scale = (CELL - 20) / max(piece.shape[:2])
    return cv2.resize(piece, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)


def sheets(half: str, photos: Path, out: Path, right: int) -> None:
    dice = dice_of(half)
    lost = [d for d in dice if not d["right"]]
    rng = random.Random(0)
    chosen = lost + rng.sample([d for d in dice if d["right"]], min(right, len(dice) - len(lost)))
    rng.shuffle(chosen)
    paths = {p.name: p for p in photos.rglob("*.jpg")}
    out.mkdir(parents=True, exist_ok=True)
    per = COLUMNS * ROWS
    for s in range(0, len(chosen), per):
        sheet = np.full((ROWS * CELL, COLUMNS * CELL, 3), 255, np.uint8)
        for k, d in enumerate(chosen[s:s + per]):
            photo = cv2.imread(str(paths[d["photo"]]))
            assert photo is not None, f"{paths[d['photo']]}: not an image"
            piece = cut(photo, d["box"])
            r, c = divmod(k, COLUMNS)
            y, x = r * CELL + 18, c * CELL + 4
            sheet[y:y + piece.shape[0], x:x + piece.shape[1]] = piece
            cv2.putText(sheet, str(s + k), (c * CELL + 4, r * CELL + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        (0, 0, 0), 1, cv2.LINE_AA)
        cv2.imwrite(str(out / f"sheet_{s // per:02d}.png"), sheet)
    (out / "key.json").write_text(json.dumps({str(k): d for k, d in enumerate(chosen)}, indent=0))
    print(f"{len(chosen)} dice ({len(lost)} lost, {len(chosen) - len(lost)} read right) on "
          f"{(len(chosen) + per - 1) // per} sheets in {out}")


def compare(out: Path, readings: list[Path]) -> dict:
    """Each reader against the labels and the reader, then the corrections all readers agree on."""
    key = json.loads((out / "key.json").read_text())
    seen = [json.loads(p.read_text()) for p in readings]
    for path, person in zip(readings, seen):
        if missing := sorted(set(key) - set(person), key=int):
            raise SystemExit(f"{path}: no reading for die(s) {', '.join(missing)}")
    report: dict = {}
    for path, person in zip(readings, seen):
        table: dict[str, dict[str, int]] = {"read right": {}, "lost": {}}
        for k, d in key.items():
            value = person[k]
            kind = ("cannot tell" if not isinstance(value, int) else
                    "= label" if value == d["label"] else
                    "= reader, not label" if value == d["read"] else "= neither")
            group = table["read right" if d["right"] else "lost"]
            group[kind] = group.get(kind, 0) + 1
        report[path.name] = table
    fixes = audit_corrections(key, seen)
    report["corrections (every reader the same value, not the label's)"] = [
        {"photo": photo, "box": list(box), "label": label, "read by all": value,
         "reader": next(d["read"] for d in key.values() if d["photo"] == photo and tuple(d["box"]) == box)}
        for (photo, box), (label, value) in sorted(fixes.items())]
    report["readers differ"] = [
        {"die": int(k), "photo": d["photo"], "label": d["label"], "reader": d["read"],
         "readings": [p[k] for p in seen]}
        for k, d in sorted(key.items(), key=lambda kv: int(kv[0])) if len({p[k] for p in seen}) > 1]
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("sheets", "compare"))
    parser.add_argument("half", nargs="?", choices=("train", "test"), default="test")
    parser.add_argument("--photos", type=Path, default=photo_eval.PHOTOS)
    parser.add_argument("--cache", type=Path, default=None, help="the photo_eval dump (default its own)")
    parser.add_argument("--out", type=Path, required=True, help="the sheets' and key's folder")
    parser.add_argument("--right", type=int, default=100, help="dice read right to mix in (default 100)")
    parser.add_argument("--readings", type=Path, nargs="+",
                        help="compare: each reader's readings, JSON {die: value or '?'}")
    args = parser.parse_args()
    if args.cache is not None:
        photo_eval.CACHE[args.half] = args.cache
    if args.what == "sheets":
        sheets(args.half, args.photos, args.out, args.right)
        return 0
    if args.readings is None:
        parser.error("compare needs --readings")
    print(json.dumps(compare(args.out, args.readings), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
