"""Train photo mode's colour die-face model and export it to ONNX for cv2.dnn (developer machine: needs torch).

    /work/trainvenv/bin/python tools/vision_model/train_photo_faces.py              # the shipped model
    /work/trainvenv/bin/python tools/vision_model/train_photo_faces.py --fold 0 --out /tmp/f0.onnx

Reads ``tools/vision_model/data/photo_faces.npz`` (extract_photo_faces.py: the real photos' train half
only), trains a small CNN on colour PHOTO_SIDE x PHOTO_SIDE patches with a fixed seed on one thread, and
writes ``drivers/vision/models/dice_face_photo.onnx``.  ``--fold K`` (0..4) leaves out the photos whose
index is K modulo 5 and prints the figures on their patches: how the settings were chosen (with
``photo_eval.py score train --fold K``, which replays the reader on the same left-out photos).

Augmentation, drawn afresh every epoch (a die face's value depends on none of these): any turn and a
mirror, a scale of 0.88 to 1.12 and a shift of up to 5 % (the reader's crops are not exact), brightness
and contrast, a swap of the colour channels (a red pip on a blue die is a blue pip on a red one) and a
slight blur.  The model is then checked through ``cv2.dnn`` against torch (exit 1 if they differ by more
than 1e-4).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from drivers.vision.facemodel import CLASSES, PHOTO_SIDE, FaceModel, to_input  # noqa: E402
from extract_photo_faces import DARK_V, load_pixels  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "photo_faces.npz"
SYNTHETIC = Path(__file__).resolve().parent / "data" / "faces.npz"  # the table model's data (extract_faces.py)
OUT = ROOT / "drivers" / "vision" / "models" / "dice_face_photo.onnx"


def network(widths: tuple[int, int, int], dense: int, side: int = PHOTO_SIDE) -> nn.Module:
    """Three 3x3 convolutions with batch norm and two dense layers: about 2.8 million multiply-adds a face
    at the default widths (16, 32, 64)."""
    a, b, c = widths
    return nn.Sequential(
        nn.Conv2d(3, a, 3, padding=1), nn.BatchNorm2d(a), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c * (side // 8) ** 2, dense), nn.ReLU(), nn.Dropout(0.3),
        nn.Linear(dense, CLASSES))


def darken(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face made more like the dark translucent dice with red pips: the hue turned at random (the pips'
    colour changes with it), a gamma of 1 to 2.2 (the die's dark parts darker, its pips closer to the body:
    brightness and contrast alone are undone by ``to_input``'s per-face scaling) and a little noise."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
    q = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32) / 255.0
    q = 255.0 * q ** rng.uniform(1.0, 2.2) + rng.normal(0.0, rng.uniform(0.0, 6.0), q.shape)
    return np.clip(q, 0, 255).astype(np.uint8)


def augment(pixels: np.ndarray, rng: np.random.Generator, side: int = PHOTO_SIDE, dark: float = 0.0) -> np.ndarray:
    """Each stored patch turned, mirrored, scaled, shifted, re-lit, colour-swapped, blurred, at ``side``;
    with probability ``dark`` also ``darken``-ed (0: no extra random draws, the augmentation as before)."""
    store = pixels.shape[1]
    out = np.empty((len(pixels), side, side, 3), np.uint8)
    for i, p in enumerate(pixels):
        scale = rng.uniform(0.88, 1.12)
        m = cv2.getRotationMatrix2D((store / 2 - 0.5, store / 2 - 0.5), rng.uniform(0, 360), scale)
        m[:, 2] += rng.uniform(-0.05, 0.05, 2) * store
        q = cv2.warpAffine(p, m, (store, store), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            q = q[:, ::-1]
        if rng.random() < 0.5:
            q = q[:, :, rng.permutation(3)]
        if rng.random() < 0.3:
            q = cv2.GaussianBlur(q, (0, 0), rng.uniform(0.3, 1.0))
        q = cv2.resize(np.ascontiguousarray(q), (side, side), interpolation=cv2.INTER_AREA)
        if dark and rng.random() < dark:
            q = darken(q, rng)
        q = q.astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
        out[i] = np.clip(q, 0, 255).astype(np.uint8)
    return out


def strong(pixels: np.ndarray, rng: np.random.Generator, side: int = PHOTO_SIDE) -> np.ndarray:
    """The L1 recipe's augmentation (``--strong``), for faces from cameras the model never saw: any turn, a
    mirror, scale 0.75 to 1.3, shift up to a tenth, a squeeze across one direction to 0.7 (a face seen up to
    about 45 degrees off its normal), the hue turned, grey, blur, noise, JPEG and light."""
    store = pixels.shape[1]
    out = np.empty((len(pixels), side, side, 3), np.uint8)
    c = store / 2 - 0.5
    for i, p in enumerate(pixels):
        a = np.radians(rng.uniform(0, 360))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        squeeze = np.diag([1.0, rng.uniform(0.7, 1.0) if rng.random() < 0.5 else 1.0])
        lin = rng.uniform(0.75, 1.3) * rot @ squeeze @ rot.T @ rot
        m = np.hstack([lin, (np.array([c, c]) - lin @ np.array([c, c]) + rng.uniform(-0.1, 0.1, 2) * store)[:, None]])
        q = cv2.warpAffine(p, m, (store, store), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            q = q[:, ::-1]
        if rng.random() < 0.5:
            hsv = cv2.cvtColor(np.ascontiguousarray(q), cv2.COLOR_BGR2HSV)
            hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
            q = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        if rng.random() < 0.15:
            q = cv2.cvtColor(cv2.cvtColor(np.ascontiguousarray(q), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        if rng.random() < 0.4:
            q = cv2.GaussianBlur(q, (0, 0), rng.uniform(0.3, 1.6))
        q = cv2.resize(np.ascontiguousarray(q), (side, side), interpolation=cv2.INTER_AREA)
        f = q.astype(np.float32) * rng.uniform(0.6, 1.4) + rng.uniform(-35, 35)
        f += rng.normal(0.0, rng.uniform(0.0, 8.0), f.shape)
        q = np.clip(f, 0, 255).astype(np.uint8)
        if rng.random() < 0.3:
            decoded = cv2.imdecode(cv2.imencode(".jpg", q, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 91))])[1],
                                   cv2.IMREAD_COLOR)
            if decoded is not None:
                q = decoded
        out[i] = q
    return out


def dark_faces(pixels: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Which stored patches show a dark die face: a value 1..6 and the central half's mean HSV value (the
    brightest channel) under ``DARK_V``, as ``extract_photo_faces.darkness`` judges a label box, here on the
    stored patch itself, so every kind (reader patch, label crop, extra crop, rendered die) is tagged alike."""
    store = pixels.shape[1]
    a, b = store // 4, store - store // 4
    value = np.array([cv2.cvtColor(np.ascontiguousarray(p[a:b, a:b]), cv2.COLOR_BGR2HSV)[..., 2].mean()
                      for p in pixels])
    return (labels > 0) & (value < DARK_V)


def plain(pixels: np.ndarray, side: int = PHOTO_SIDE) -> np.ndarray:
    """The stored patches as the runtime sees its own: resized to ``side`` (facemodel.face_pixels)."""
    return np.stack([cv2.resize(p, (side, side), interpolation=cv2.INTER_AREA) for p in pixels])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--fold", type=int, default=None, help="leave out photos with index %% 5 == FOLD")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--widths", type=int, nargs=3, default=(16, 32, 64))
    parser.add_argument("--dense", type=int, default=64)
    parser.add_argument("--side", type=int, default=PHOTO_SIDE,
                        help="input side (a multiple of 8, at most the stored patches' 40; the runtime's PHOTO_SIDE)")
    parser.add_argument("--synthetic-weight", type=float, default=0.0,
                        help="also train on faces.npz's grey synthetic faces (cocked ones left out) at this weight")
    parser.add_argument("--synthetic-every", type=int, default=3,
                        help="only the scenes whose seed is a multiple of this")
    parser.add_argument("--reader-weight", type=float, default=2.0,
                        help="loss weight of the reader's own patches against the label crops and background")
    parser.add_argument("--dark-aug", type=float, default=0.0,
                        help="probability of darken() (hue turn, gamma, noise) per patch and epoch; 0: not drawn")
    parser.add_argument("--dark-weight", type=float, default=1.0,
                        help="loss weight multiplier of the dark die faces (dark_faces); 1: as before")
    parser.add_argument("--strong", action="store_true",
                        help="the L1 recipe's augmentation (strong(): squeeze, hue, grey, blur, noise, JPEG)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    data = np.load(args.data)
    pixels, labels, kind, group = load_pixels(data), data["labels"].astype(np.int64), data["kind"], data["group"]
    val = group % 5 == args.fold if args.fold is not None else np.zeros(len(labels), bool)
    xt, lt = pixels[~val], labels[~val]
    w = np.where(kind[~val] == 0, args.reader_weight, 1.0)
    if args.dark_weight != 1.0:
        dark = dark_faces(xt, lt)
        w = np.where(dark, w * args.dark_weight, w)
        print(f"dark die faces weighed x{args.dark_weight}: {int(dark.sum())} of {len(xt)} training patches "
              f"(by kind {np.bincount(kind[~val][dark], minlength=5).tolist()})", flush=True)
    if args.synthetic_weight > 0:
        synth = np.load(SYNTHETIC)
        keep = (synth["source"] == 0) & (synth["labels"] < 7) & (synth["group"] % args.synthetic_every == 0)
        store = pixels.shape[1]
        grey = [cv2.cvtColor(cv2.resize(p, (store, store), interpolation=cv2.INTER_LINEAR), cv2.COLOR_GRAY2BGR)
                for p in synth["pixels"][keep]]
        xt = np.concatenate([xt, np.stack(grey)])
        lt = np.concatenate([lt, synth["labels"][keep].astype(np.int64)])
        w = np.concatenate([w, np.full(int(keep.sum()), args.synthetic_weight)])
    yt, wt = torch.from_numpy(lt), torch.from_numpy(w.astype(np.float32))
    model = network(tuple(args.widths), args.dense, args.side)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    steps = args.epochs * ((len(xt) + 63) // 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(reduction="none", label_smoothing=0.05)
    started = time.time()
    xv = torch.from_numpy(to_input(plain(pixels[val], args.side))) if val.any() else None
    for epoch in range(args.epochs):
        model.train()
        x = torch.from_numpy(to_input(strong(xt, rng, args.side) if args.strong
                                      else augment(xt, rng, args.side, args.dark_aug)))
        order = torch.from_numpy(rng.permutation(len(xt)))
        total = 0.0
        for i in range(0, len(order), 64):
            idx = order[i:i + 64]
            opt.zero_grad()
            loss = (loss_fn(model(x[idx]), yt[idx]) * wt[idx]).sum() / wt[idx].sum()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        line = f"epoch {epoch + 1}: train loss {total / len(xt):.4f}"
        if xv is not None and (epoch % 5 == 4 or epoch == args.epochs - 1):
            model.eval()
            with torch.no_grad():
                pred = model(xv).argmax(1).numpy()
            reader = kind[val] == 0
            line += (f", left-out accuracy {float((pred == labels[val]).mean()):.4f}"
                     f" (reader patches {float((pred[reader] == labels[val][reader]).mean()):.4f})")
        print(line, flush=True)
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, args.side, args.side), str(args.out), dynamo=False,
                      opset_version=13, input_names=["face"], output_names=["logits"],
                      dynamic_axes={"face": {0: "n"}, "logits": {0: "n"}})
    check = plain(pixels[val] if val.any() else pixels[:512], args.side)
    with torch.no_grad():
        torch_probs = torch.softmax(model(torch.from_numpy(to_input(check))), dim=1).numpy()
    cv_probs = FaceModel(args.out, args.side, True, 1).probabilities(check)
    diff = float(np.abs(cv_probs - torch_probs).max())
    report = {"seconds": round(time.time() - started, 1), "train": int((~val).sum()), "left_out": int(val.sum()),
              "weights": sum(p.numel() for p in model.parameters()), "onnx_bytes": args.out.stat().st_size,
              "cv2_vs_torch_max_abs_diff": diff}
    print(json.dumps(report))
    if diff > 1e-4:
        print(f"cv2.dnn and torch disagree by {diff}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
