"""Build the die-face dataset: grey 32x32 die patches labelled 0 (not a readable top face), 1..6, 7 (cocked).

Sources (tools/vision_model/README.md):

* the real photos' **train half only** (``labels.photo_split(path) == "train"``): each labelled die
  cropped from its label box (with a small margin and a random turn, through ``pips.rectify`` like the
  reader), every die candidate the reader itself cuts out (its own patch, labelled by box overlap;
  candidates on no label are class 0: coins, knobs, shadows), and die-sized crops of the background;
* synthetic throws, seeds below 100000 only (100000 and up are benchmark and tuning seeds): every die
  candidate the calibrated reader cuts out, labelled from the scene's truth by position (a die cocked
  12 degrees or more: class 7), and a felt crop; plus throws with a cocked die for more of class 7.

Run with the project's venv (no torch needed):

    /work/venv/bin/python tools/vision_model/extract_faces.py --photos ../shared/data/dice-photos

Writes ``tools/vision_model/data/faces.npz``: ``pixels`` (N x 32 x 32 uint8, ``facemodel.face_pixels``
output), ``labels`` (N, 0..7), ``source`` (N, 0 synthetic, 1 real photo), ``group`` (N: the scene seed or
photo index, so a validation split can keep a scene's patches together).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.labels import default_photo_root  # noqa: E402

from drivers.vision.calibration import DiceCalibration  # noqa: E402
from drivers.vision.dice import DiceOptions, DiceReader  # noqa: E402
from drivers.vision.facemodel import COCKED_CLASS, face_pixels  # noqa: E402
from drivers.vision.labels import (iter_labelled_images, label_path_for, overlap,  # noqa: E402
                                   read_yolo_labels)
from drivers.vision.pips import rectify  # noqa: E402
from drivers.vision.synth_dice import DIE_PX, KINDS, reader_options, scene  # noqa: E402

SYNTH_LIMIT = 100_000  # seeds at and above this are benchmark/tuning seeds: never trained on
COCKED = 12.0  # degrees: a synthetic die cocked this much or more is class 7; less (but not flat) is left out


class Sink(Protocol):
    """What synthetic() fills: a patch store with its random stream (Builder, or extract_photo_faces'
    colour store)."""

    rng: np.random.Generator

    def add(self, patch: np.ndarray, label: int, source: int, group: int) -> None: ...


class Builder:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.pixels: list[np.ndarray] = []
        self.labels: list[int] = []
        self.source: list[int] = []
        self.group: list[int] = []

    def add(self, patch: np.ndarray, label: int, source: int, group: int) -> None:
        self.pixels.append(face_pixels(patch))
        self.labels.append(label)
        self.source.append(source)
        self.group.append(group)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, pixels=np.stack(self.pixels), labels=np.array(self.labels, np.uint8),
                            source=np.array(self.source, np.uint8), group=np.array(self.group, np.int32))


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def real_photos(b: Builder, root: Path) -> dict[str, int]:
    """The train half of every photo set under root."""
    counts = {"images": 0, "label_crops": 0, "reader_dice": 0, "reader_not_dice": 0, "background": 0}
    index = 0
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in iter_labelled_images(sub, "train"):
            image = cv2.imread(str(path))
            if image is None:
                continue
            index += 1
            group = 1_000_000 + index
            counts["images"] += 1
            h, w = image.shape[:2]
            labels = read_yolo_labels(label_path_for(path), w, h)
            for lab in labels:
                (cx, cy), (lw, lh) = _centre(lab.box), lab.box[2:]
                for _ in range(2):
                    grow = float(b.rng.uniform(1.0, 1.2))
                    jx, jy = (float(v) for v in b.rng.uniform(-0.06, 0.06, 2) * max(lw, lh))
                    rect = ((cx + jx, cy + jy), (lw * grow, lh * grow), float(b.rng.uniform(0, 90)))
                    b.add(rectify(image, rect), lab.value, 1, group)
                    counts["label_crops"] += 1
            reader = DiceReader(face_model=False)
            reader.read(image)
            for patch, box, _ in reader.last_patches:
                best = max(((overlap(lab.box, box), lab.value) for lab in labels), default=(0.0, 0))
                if best[0] >= 0.6:
                    b.add(patch, best[1], 1, group)
                    counts["reader_dice"] += 1
                elif best[0] < 0.1:
                    b.add(patch, 0, 1, group)
                    counts["reader_not_dice"] += 1
            if labels:
                side = float(np.median([max(lab.box[2:]) for lab in labels]))
                for _ in range(2):
                    for _try in range(20):
                        cx, cy = (float(v) for v in b.rng.uniform(side, [w - side, h - side]))
                        box = (int(cx - side / 2), int(cy - side / 2), int(side), int(side))
                        if all(overlap(lab.box, box) < 0.05 for lab in labels):
                            b.add(rectify(image, ((cx, cy), (side, side), float(b.rng.uniform(0, 90)))), 0, 1, group)
                            counts["background"] += 1
                            break
    return counts


def synthetic(b: Sink, scenes: int, first: int, only: str | None = None) -> dict[str, int]:
    """Reader candidates of synthetic throws (seeds first..first+scenes-1, all below SYNTH_LIMIT), the
    scene kinds in turn or ``only`` one kind."""
    if first + scenes > SYNTH_LIMIT:
        raise SystemExit(f"synthetic seeds must stay below {SYNTH_LIMIT} (benchmark seeds)")
    counts = {"scenes": 0, "reader_dice": 0, "cocked": 0, "reader_not_dice": 0, "felt": 0}
    for i in range(scenes):
        seed = first + i
        kind = only or KINDS[i % len(KINDS)]
        strength = round((i // len(KINDS)) % 11 / 10, 1)
        image, truth = scene(seed, kind, strength)
        counts["scenes"] += 1
        cd = truth["calibration"]
        cal = DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                              tuple(tuple(p) for p in cd["table"]))
        reader = DiceReader(cal, DiceOptions(**reader_options(kind)), face_model=False)
        reader.read(image)
        centres = [(_centre(tuple(d["box"])), d) for d in truth["dice"]]
        for patch, box, _ in reader.last_patches:
            cx, cy = _centre(box)
            near = min(((math.hypot(cx - x, cy - y), d) for (x, y), d in centres), key=lambda t: t[0],
                       default=(1e9, None))
            if near[0] < 0.35 * DIE_PX and near[1] is not None:
                d = near[1]
                if kind == "occluded" or 0 < d["tilt"] < COCKED:
                    continue  # a half-hidden or slightly cocked face: neither a clear value nor clearly not one
                if d["tilt"] >= COCKED:
                    b.add(patch, COCKED_CLASS, 0, seed)  # a cocked die shows no flat top face to settle on
                    counts["cocked"] += 1
                else:
                    b.add(patch, int(d["value"]), 0, seed)
                    counts["reader_dice"] += 1
            elif near[0] > 1.2 * DIE_PX:
                b.add(patch, 0, 0, seed)  # a cup, a hand, a crumb
                counts["reader_not_dice"] += 1
        # A die-sized felt crop away from every die (line, rail and texture included), every third scene.
        for _try in range(20 if i % 3 == 0 else 0):
            x, y = (float(v) for v in b.rng.uniform(DIE_PX, [640 - DIE_PX, 480 - DIE_PX]))
            if all(math.hypot(x - cx, y - cy) > 1.5 * DIE_PX for (cx, cy), _ in centres):
                b.add(rectify(image, ((x, y), (DIE_PX, DIE_PX), float(b.rng.uniform(0, 90)))), 0, 0, seed)
                counts["felt"] += 1
                break
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=default_photo_root(ROOT),
                        help="the dice-photos folder (shared/data/dice-photos)")
    parser.add_argument("--scenes", type=int, default=1350, help="synthetic throws, the kinds in turn")
    parser.add_argument("--cocked-scenes", type=int, default=450, help="more synthetic throws with a cocked die")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "data" / "faces.npz")
    args = parser.parse_args()
    if args.photos is None or not args.photos.is_dir():
        print(f"{args.photos}: photo folder not found", file=sys.stderr)
        return 2
    started = time.time()
    cv2.setNumThreads(1)
    b = Builder(np.random.default_rng(20261129))
    report = {"real": real_photos(b, args.photos), "synthetic": synthetic(b, args.scenes, args.first_seed),
              "synthetic_cocked": synthetic(b, args.cocked_scenes, args.first_seed + 50_000, "cocked")}
    b.save(args.out)
    report["per_class"] = np.bincount(np.array(b.labels), minlength=7).tolist()
    report["file_bytes"] = args.out.stat().st_size
    print({**report, "seconds": round(time.time() - started, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
