"""Extract the detector's training set: the TRAIN half of the real dice photos, resized, with their boxes.

Only photos with ``drivers.vision.labels.photo_split(path) == "train"`` go in;
the test half stays out so that its figures are honest (docs/devices/vision.md,
"Finding dice in photos: the detector").

Each image is resized so its long side is ``--side`` pixels and stored as a
JPEG (bytes concatenated in one array); boxes are the label boxes normalised to
the image, one row per die: image index, value (1..6), cx, cy, w, h.

    python tools/vision_model/extract_boxes.py [--photos ../shared/data/dice-photos]

writes tools/vision_model/data/boxes.npz (numpy only, no pickle).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.labels import SOURCES, iter_labelled_images, label_path_for  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "boxes.npz"


def default_photos() -> Path | None:
    for cand in (ROOT.parent / "shared/data/dice-photos", ROOT.parent.parent / "shared/data/dice-photos"):
        if cand.is_dir():
            return cand
    return None


def extract(photos: Path, side: int, quality: int, source: str | None = None) -> dict[str, np.ndarray]:
    """The train half as arrays: jpeg bytes, offsets, image names, per-die rows.  With ``source`` (a
    leave-one-source-out fold, bench/vision_loso.py): every photo of that one source, both halves."""
    blobs: list[bytes] = []
    names: list[str] = []
    rows: list[tuple[float, ...]] = []
    for sub in sorted(p for p in photos.iterdir() if p.is_dir()):
        if source is not None and sub.name != source:
            continue
        for path in iter_labelled_images(sub, None if source else "train"):
            image = cv2.imread(str(path))
            if image is None:
                continue
            h, w = image.shape[:2]
            scale = side / max(h, w)
            small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
            ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
            if not ok:
                continue
            index = len(names)
            names.append(f"{sub.name}/{path.name}")
            blobs.append(buf.tobytes())
            for line in label_path_for(path).read_text(encoding="utf-8").splitlines():
                parts = line.split()
                if len(parts) == 5:
                    cls = int(float(parts[0]))
                    rows.append((index, cls + 1, *(float(p) for p in parts[1:])))
    offsets = np.cumsum([0] + [len(b) for b in blobs]).astype(np.int64)
    return {"jpeg": np.frombuffer(b"".join(blobs), dtype=np.uint8), "offsets": offsets,
            "names": np.array(names), "boxes": np.array(rows, dtype=np.float32).reshape(-1, 6)}


def load(path: Path = OUT) -> tuple[list[np.ndarray], list[np.ndarray], list[str]]:
    """(images BGR, per-image boxes [value, cx, cy, w, h] normalised, names) from the npz."""
    data = np.load(path, allow_pickle=False)
    jpeg, offsets, rows = data["jpeg"], data["offsets"], data["boxes"]
    images: list[np.ndarray] = []
    boxes: list[np.ndarray] = []
    for i in range(len(offsets) - 1):
        image = cv2.imdecode(jpeg[offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)
        assert image is not None, f"{path}: image {i} does not decode"
        images.append(image)
        boxes.append(rows[rows[:, 0] == i][:, 1:])
    return images, boxes, [str(n) for n in data["names"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=default_photos())
    parser.add_argument("--side", type=int, default=416, help="long side of the stored images")
    parser.add_argument("--quality", type=int, default=88, help="JPEG quality")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--source", choices=SOURCES,
                        help="a leave-one-source-out fold: every photo of this source only (not for shipping)")
    args = parser.parse_args()
    if args.photos is None or not args.photos.is_dir():
        print("extract_boxes: no dice-photos folder (give --photos)", file=sys.stderr)
        return 2
    started = time.time()
    arrays = extract(args.photos, args.side, args.quality, args.source)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # numpy's stub lets ** fill allow_pickle; these keys are the four array names, never that keyword
    np.savez_compressed(args.out, **arrays)  # type: ignore[arg-type]
    print(f"{len(arrays['names'])} images, {len(arrays['boxes'])} dice, {args.out.stat().st_size / 1e6:.1f} MB -> {args.out}, "
          f"{time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
