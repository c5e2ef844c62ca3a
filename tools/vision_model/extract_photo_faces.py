"""Build the photo face model's dataset: colour die patches from the real photos' TRAIN half only.

    /work/venv/bin/python tools/vision_model/extract_photo_faces.py --photos /work/shared/data/dice-photos

For every train-half photo (``labels.photo_split(path) == "train"``; the test half is never read here):

* every die patch the photo-mode reader itself cuts out (classical finder and learned detector, the
  reader run without a face model), labelled by box overlap with the labels (over 0.6: the label's
  value; under 0.1: class 0, not a die face: coins, knobs, parts of a tray; between: left out);
* every labelled die cut from its label box ``CROPS`` times, grown by 0 to 25 %, at a random turn and a
  shift of up to 8 % (through ``pips.rectify``, the reader's own warp);
* with ``--dark-crops N``: N more crops (kind 4; grown 0.95 to 1.3, shifted up to 10 %, any turn) of each
  labelled die whose face is dark (``darkness`` under ``DARK_V``: the dark translucent dice with red pips
  the model was least sure of), from their own random stream (the other patches are unchanged);
* three die-sized crops of the background away from every label (class 0);
* rendered throws (``synth_dice``, seeds 0..449, below every benchmark seed): every die candidate the
  calibrated reader cuts out, labelled from the truth (``extract_faces.synthetic``; cocked dice left out),
  in colour: the photos alone taught the model to miss a white centre pip on a red die.

Writes ``tools/vision_model/data/photo_faces.npz``: ``jpeg`` and ``ends`` (the N patches, each STORE x STORE
BGR, JPEG-encoded one after another, ``ends`` the end offsets; ``load_pixels`` decodes them; the trainer
turns, scales and resizes them to the model's input), ``labels`` (0..6), ``kind`` (0 reader patch,
1 label crop, 2 background, 3 rendered, 4 extra crop of a dark die, 5 drawn dark die), ``group`` (the photo's
index, to hold whole photos out; the rendered patches all have the last group, "synthetic"), ``names``
(the photo file per group).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.labels import default_photo_root  # noqa: E402

from drivers.vision.detector import MODEL_PATH  # noqa: E402
from drivers.vision.dice import DiceReader  # noqa: E402
from drivers.vision.labels import SOURCES, iter_labelled_images, label_path_for, overlap, read_yolo_labels  # noqa: E402
from drivers.vision.pips import LAYOUTS, rectify  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import extract_faces  # noqa: E402

STORE = 40  # stored side; the model reads facemodel.PHOTO_SIDE (smaller), so scale and shift can be augmented
CROPS = 3
DARK_V = 90  # a labelled die whose face centre has a mean HSV value (brightest channel) under this is "dark"
DARK_CROPS = 6  # extra crops of each dark labelled die (kind 4); --dark-crops (0: none)


def darkness(image: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """The mean HSV value (0..255) of the central half of a label box: low for the dark, translucent,
    blue/purple marbled dice (red or white pips) the model is least sure of; the light dice and the
    webcam set's dice are far above DARK_V (train half: Byler's quartile 81, the webcam's 5th percentile 157)."""
    x, y, w, h = box
    patch = rectify(image, ((x + w / 2, y + h / 2), (w, h), 0.0))
    side = patch.shape[0]
    centre = patch[side // 4: side - side // 4, side // 4: side - side // 4]
    return float(cv2.cvtColor(centre, cv2.COLOR_BGR2HSV)[..., 2].mean())


def dark_render(value: int, rng: np.random.Generator, ghosts: bool = False) -> np.ndarray:
    """A drawn STORE x STORE patch of one dark die (black, grey, purple or blue-black body, a faint lighter
    rim, red pips, now and then white ones) on a light grey tray, turned, blurred and noisy: more faces like
    the dark dice the model is least sure of (drawn here, not by synth_dice, whose scenes stay as they are).
    ``ghosts``: a translucent die, as the real ones: dimmer red pips, and the bottom face's pips (7 - value,
    mirrored, shifted a little) showing faintly through the body; False draws exactly as before."""
    up = 4 * STORE  # drawn four times larger, then shrunk: smooth edges
    bg = rng.uniform(140, 215) + rng.uniform(-6, 6, 3)
    img: np.ndarray = np.empty((up, up, 3), np.float32)
    img[:] = bg
    tint = np.array([[30, 30, 30], [45, 45, 45], [70, 25, 55], [80, 45, 25], [35, 35, 50]], np.float32)
    body = tint[int(rng.integers(len(tint)))] * rng.uniform(0.5, 1.1) + rng.uniform(-6, 6, 3)
    red = rng.random() < 0.8
    pip = (np.array([40, 40, 200], np.float32) * rng.uniform(0.6, 1.1) if red
           else np.array([235, 235, 235], np.float32) * rng.uniform(0.7, 1.0))
    side = up * rng.uniform(0.62, 0.85)
    angle = float(rng.uniform(0, 90))
    centre = np.array([up / 2, up / 2]) + rng.uniform(-0.06, 0.06, 2) * up
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) / 2
    shadow = (square * side * 1.04) @ rot.T + centre + rng.uniform(2, 10, 2)
    cv2.fillConvexPoly(img, shadow.astype(np.int32), tuple(float(c) for c in bg * 0.6))
    rim = body + rng.uniform(10, 45)
    cv2.fillConvexPoly(img, ((square * side) @ rot.T + centre).astype(np.int32), tuple(float(c) for c in rim))
    cv2.fillConvexPoly(img, ((square * side * rng.uniform(0.82, 0.92)) @ rot.T + centre).astype(np.int32),
                       tuple(float(c) for c in body))
    spacing, radius = side * rng.uniform(0.25, 0.29), side * rng.uniform(0.07, 0.1)
    if ghosts:
        pip = pip * rng.uniform(0.55, 1.0) if red else pip
        layer = img.copy()
        shift = rng.uniform(-0.06, 0.06, 2) * side
        for gx, gy in LAYOUTS[7 - value]:
            q = (np.array([-gx, gy]) * spacing * rng.uniform(0.9, 1.1)) @ rot.T + centre + shift
            cv2.circle(layer, (int(q[0]), int(q[1])), int(radius * 1.2), tuple(float(c) for c in pip), -1)
        layer = cv2.GaussianBlur(layer, (0, 0), radius * 0.4)
        alpha = rng.uniform(0.15, 0.45)
        inner = np.zeros(img.shape[:2], np.float32)
        cv2.fillConvexPoly(inner, ((square * side * 0.82) @ rot.T + centre).astype(np.int32), 1.0)
        img = img + alpha * inner[..., None] * (layer - img)
    for gx, gy in LAYOUTS[value]:
        q = (np.array([gx, gy]) * spacing) @ rot.T + centre
        r = radius * (rng.uniform(1.0, 1.5) if value == 1 else 1.0)
        cv2.circle(img, (int(q[0]), int(q[1])), int(r), tuple(float(c) for c in pip * rng.uniform(0.85, 1.0)), -1)
    # a translucent body: low-frequency mottling over the die
    mottle = cv2.resize(rng.normal(0, rng.uniform(0, 12), (6, 6, 1)).astype(np.float32), (up, up))[..., None]
    img = img + mottle
    img = cv2.resize(img, (STORE, STORE), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0)) + rng.normal(0, rng.uniform(1, 6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


STYLED_KINDS = ("clean", "touching", "sicbo", "off")


def styled_faces(scenes: int, add: Any) -> None:
    """Kind 6: the dice of styled throws (``synth_styles``: four cloths, opaque, translucent and white dice,
    square pips, shadows, blur, clutter, the camera tilted up to 35 degrees; seeds 0..scenes-1, far below the
    held-out styled seeds 2,200,000 on), each flat die cut twice from its true centre (grown 1.0 to 1.3 die
    sides, any turn, a small shift) and one die-sized crop of the cloth or clutter away from every die
    (class 0).  A cocked die is left out (photo mode has no such class).  Its own random stream."""
    from drivers.vision.synth_styles import scene
    rng = np.random.default_rng(20261202)
    for seed in range(scenes):
        image, truth, _ = scene(seed, STYLED_KINDS[seed % len(STYLED_KINDS)], float(rng.uniform(0, 1)))
        side = float(truth["calibration"]["die_px"])
        centres = []
        for d in truth["dice"]:
            x, y, bw, bh = d["box"]
            centres.append((x + bw / 2, y + bh / 2))
            if not d["flat"]:
                continue
            for _ in range(2):
                grow = float(rng.uniform(1.0, 1.3))
                jx, jy = (float(v) for v in rng.uniform(-0.08, 0.08, 2) * side)
                rect = ((x + bw / 2 + jx, y + bh / 2 + jy), (side * grow, side * grow), float(rng.uniform(0, 90)))
                add(rectify(image, rect), int(d["value"]), 6)
        h, w = image.shape[:2]
        for _try in range(20):
            cx, cy = (float(v) for v in rng.uniform(side, [w - side, h - side]))
            if all(abs(cx - a) > 1.3 * side or abs(cy - b) > 1.3 * side for a, b in centres):
                add(rectify(image, ((cx, cy), (side * 1.1, side * 1.1), float(rng.uniform(0, 90)))), 0, 6)
                break


def load_pixels(data: np.lib.npyio.NpzFile) -> np.ndarray:
    """The N x STORE x STORE x 3 patches of a photo_faces.npz."""
    jpeg, ends = data["jpeg"], data["ends"]
    starts = np.concatenate([[0], ends[:-1]])
    pixels: list[np.ndarray] = []
    for a, b in zip(starts, ends):
        patch = cv2.imdecode(jpeg[a:b], cv2.IMREAD_COLOR)
        assert patch is not None, f"patch bytes {a}..{b} do not decode"
        pixels.append(patch)
    return np.stack(pixels)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=default_photo_root(ROOT))
    parser.add_argument("--scenes", type=int, default=450, help="rendered throws (seeds 0..N-1), the kinds in turn")
    parser.add_argument("--dark-crops", type=int, default=DARK_CROPS,
                        help="extra crops (kind 4: wider scale and shift) of each labelled die darker than DARK_V")
    parser.add_argument("--dark-renders", type=int, default=0,
                        help="drawn dark dice per value (kind 5, dark_render; own random stream; 0: none, as shipped)")
    parser.add_argument("--dark-ghosts", action="store_true",
                        help="draw the dark dice translucent (dimmer pips, the bottom face faintly through)")
    parser.add_argument("--styled-scenes", type=int, default=0,
                        help="styled rendered throws (synth_styles, seeds 0..N-1, kind 6; own random stream; 0: none, as shipped)")
    parser.add_argument("--store", type=int, default=STORE,
                        help="stored patch side (a model with a larger --side needs patches at least that big)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "data" / "photo_faces.npz")
    parser.add_argument("--source", choices=SOURCES,
                        help="a leave-one-source-out fold: every photo of this source only, both halves (not for shipping)")
    parser.add_argument("--detector", type=Path, default=MODEL_PATH,
                        help="the photo-mode detector whose dice are cut (a fold's own, trained on the same source)")
    args = parser.parse_args()
    started = time.time()
    if args.photos is None or not args.photos.is_dir():
        print(f"{args.photos}: photo folder not found", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rng = np.random.default_rng(20261129)
    # The dark dice's extra crops draw from their own stream, so the other patches stay exactly as without them.
    dark_rng = np.random.default_rng(20261130)
    reader = DiceReader(face_model=False, detector_model=args.detector)
    pixels: list[np.ndarray] = []
    labels: list[int] = []
    kinds: list[int] = []
    groups: list[int] = []
    names: list[str] = []

    def add(patch: np.ndarray, label: int, kind: int) -> None:
        pixels.append(cv2.resize(patch, (args.store, args.store), interpolation=cv2.INTER_AREA))
        labels.append(label)
        kinds.append(kind)
        groups.append(len(names) - 1)

    for sub in sorted(p for p in args.photos.iterdir() if p.is_dir()):
        if args.source is not None and sub.name != args.source:
            continue
        for path in iter_labelled_images(sub, None if args.source else "train"):
            image = cv2.imread(str(path))
            if image is None:
                continue
            names.append(f"{sub.name}/{path.name}")
            h, w = image.shape[:2]
            labs = read_yolo_labels(label_path_for(path), w, h)
            reader.read(image)
            for patch, box, _ in reader.last_patches:
                best = max(((overlap(lab.box, box), lab.value) for lab in labs), default=(0.0, 0))
                if best[0] >= 0.6:
                    add(patch, best[1], 0)
                elif best[0] < 0.1:
                    add(patch, 0, 0)
            for lab in labs:
                x, y, lw, lh = lab.box
                for _ in range(CROPS):
                    grow = float(rng.uniform(1.0, 1.25))
                    jx, jy = (float(v) for v in rng.uniform(-0.08, 0.08, 2) * max(lw, lh))
                    rect = ((x + lw / 2 + jx, y + lh / 2 + jy), (lw * grow, lh * grow), float(rng.uniform(0, 90)))
                    add(rectify(image, rect), lab.value, 1)
                if args.dark_crops and darkness(image, lab.box) < DARK_V:
                    for _ in range(args.dark_crops):
                        grow = float(dark_rng.uniform(0.95, 1.3))
                        jx, jy = (float(v) for v in dark_rng.uniform(-0.1, 0.1, 2) * max(lw, lh))
                        rect = ((x + lw / 2 + jx, y + lh / 2 + jy), (lw * grow, lh * grow),
                                float(dark_rng.uniform(0, 90)))
                        add(rectify(image, rect), lab.value, 4)
            if labs:
                side = float(np.median([max(lab.box[2:]) for lab in labs]))
                for _ in range(3):
                    for _try in range(20):
                        cx, cy = (float(v) for v in rng.uniform(side, [w - side, h - side]))
                        box = (int(cx - side / 2), int(cy - side / 2), int(side), int(side))
                        if all(overlap(lab.box, box) < 0.05 for lab in labs):
                            add(rectify(image, ((cx, cy), (side, side), float(rng.uniform(0, 90)))), 0, 2)
                            break
    # Rendered throws (seeds below 100000 only, the scene kinds in turn; extract_faces.synthetic's rules), in
    # colour: without them the model, trained on two photo sets, misread clean rendered red dice (a white
    # centre pip on red ignored: red 5 read as 4). Cocked dice (class 7) are left out: photo mode has no such class.
    names.append("synthetic")

    class _Colour:
        """extract_faces.Builder's interface, keeping colour patches (labels 1..6 and 0) under one group."""

        def __init__(self) -> None:
            self.rng = rng

        def add(self, patch: np.ndarray, label: int, source: int, group: int) -> None:
            if label != extract_faces.COCKED_CLASS:
                add(patch, label, 3)

    synthetic = extract_faces.synthetic(_Colour(), args.scenes, 0)
    render_rng = np.random.default_rng(20261131)  # its own stream: without --dark-renders nothing is drawn from it
    for _ in range(args.dark_renders):
        for value in range(1, 7):
            add(dark_render(value, render_rng, args.dark_ghosts), value, 5)
    if args.styled_scenes:
        styled_faces(args.styled_scenes, add)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # Each patch as JPEG (quality 95; the photos themselves are JPEG): a quarter of the raw pixels' size.
    blobs = [cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].ravel() for p in pixels]
    ends = np.cumsum([len(b) for b in blobs])
    np.savez_compressed(args.out, jpeg=np.concatenate(blobs), ends=ends, labels=np.array(labels, np.uint8),
                        kind=np.array(kinds, np.uint8), group=np.array(groups, np.int32), names=np.array(names))
    print({"photos": len(names), "patches": len(pixels), "per_class": np.bincount(labels, minlength=7).tolist(),
           "per_kind": np.bincount(kinds).tolist(), "synthetic": synthetic,
           "file_bytes": args.out.stat().st_size, "seconds": round(time.time() - started, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
