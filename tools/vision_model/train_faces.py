"""Train the die-face model and export it to ONNX for cv2.dnn (developer machine only: needs torch).

    python -m venv /tmp/trainvenv && /tmp/trainvenv/bin/pip install torch==2.13.0 onnx onnxscript numpy \\
        opencv-python-headless
    /tmp/trainvenv/bin/python tools/vision_model/train_faces.py

(``pip install '.[train]'`` installs the same.)  Reads ``tools/vision_model/data/faces.npz``
(extract_faces.py), holds out every fifth scene or photo (by ``group``) for validation, trains a
tiny CNN with a fixed seed on one thread (real photo patches weigh twice in the loss: they are fewer
and harder than the synthetic ones), augmented with the eight turns and mirrors of a square (a die
face's pips look the same mirrored) and a shift of up to two pixels, and writes
``drivers/vision/models/dice_face.onnx``.  It then loads that file through ``cv2.dnn.readNetFromONNX``
with the runtime's own preprocessing (drivers/vision/facemodel.py), checks that cv2 and torch give the
same probabilities, and prints the validation figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision.facemodel import CLASSES, SIDE, FaceModel, to_input  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "faces.npz"
OUT = ROOT / "drivers" / "vision" / "models" / "dice_face.onnx"


def network(widths: tuple[int, int, int] = (8, 16, 32)) -> nn.Module:
    """Three 3x3 convolutions and two dense layers: 39,240 weights (160 kB) at the default widths.

    About 0.7 million multiply-adds a face: cv2.dnn reads two dice in about 0.15 ms on one core here.
    Tried first, with the 7 classes of an earlier dataset (no cocked class): (16, 32, 32) for 40
    epochs reached 93.4 % on validation at about twice the time a face; (8, 16, 32) for 40 epochs
    91.3 %, for 80 epochs 94.1 %.
    """
    a, b, c = widths
    return nn.Sequential(
        nn.Conv2d(1, a, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c * (SIDE // 8) ** 2, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, CLASSES))


def augment(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """A random one of the 8 turns/mirrors per batch, and a random shift of up to 2 pixels per sample."""
    k = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, k, dims=(2, 3))
    if int(torch.randint(0, 2, (1,), generator=gen)):
        x = torch.flip(x, dims=(3,))
    pad = nn.functional.pad(x, (2, 2, 2, 2), mode="replicate")
    out = torch.empty_like(x)
    shifts = torch.randint(0, 5, (len(x), 2), generator=gen)
    for i, (dy, dx) in enumerate(shifts.tolist()):
        out[i] = pad[i, :, dy:dy + SIDE, dx:dx + SIDE]
    return out


def figures(probs: np.ndarray, labels: np.ndarray, source: np.ndarray) -> dict:
    pred = probs.argmax(axis=1)
    top = probs.max(axis=1)
    out: dict = {}
    for name, sel in (("all", np.ones_like(labels, bool)), ("synthetic", source == 0), ("real", source == 1)):
        if not sel.any():
            continue
        p, t, c = pred[sel], labels[sel], top[sel]
        face = (t > 0) & (t < 7)  # the six values
        out[name] = {"count": int(sel.sum()), "accuracy": round(float((p == t).mean()), 4),
                     "faces_accuracy": round(float((p[face] == t[face]).mean()), 4) if face.any() else None,
                     "wrong_at_p_0.9": int(((p != t) & (c >= 0.9)).sum()),
                     "wrong_at_p_0.99": int(((p != t) & (c >= 0.99)).sum()),
                     "share_at_p_0.99": round(float((c >= 0.99).mean()), 4)}
    conf = np.zeros((CLASSES, CLASSES), int)
    for t, p in zip(labels, pred):
        conf[t, p] += 1
    out["confusion_rows_truth_cols_model"] = [" ".join(f"{v:4d}" for v in row) for row in conf]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--epochs", type=int, default=80)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--real-weight", type=float, default=2.0,
                        help="loss weight of the real photos' patches against the synthetic ones'")
    parser.add_argument("--widths", type=int, nargs=3, default=(8, 16, 32), help="channels of the 3 convolutions")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    data = np.load(args.data)
    pixels, labels, source, group = data["pixels"], data["labels"].astype(np.int64), data["source"], data["group"]
    val = group % 5 == 0  # whole scenes and photos held out, never single patches of a seen scene
    x = torch.from_numpy(to_input(pixels))
    y = torch.from_numpy(labels)
    xt, yt = x[~val], y[~val]
    wt = torch.from_numpy(np.where(source[~val] == 1, args.real_weight, 1.0).astype(np.float32))
    model = network(tuple(args.widths))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    loss_fn = nn.CrossEntropyLoss(reduction="none")
    started = time.time()
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(order), 64):
            idx = order[i:i + 64]
            opt.zero_grad()
            loss = (loss_fn(model(augment(xt[idx], gen)), yt[idx]) * wt[idx]).sum() / wt[idx].sum()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        if epoch % 5 == 4 or epoch == args.epochs - 1:
            model.eval()
            with torch.no_grad():
                acc = float((model(x[val]).argmax(1) == y[val]).float().mean())
            print(f"epoch {epoch + 1}: train loss {total / len(xt):.4f}, validation accuracy {acc:.4f}", flush=True)
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 1, SIDE, SIDE), str(args.out), dynamo=False, opset_version=13,
                      input_names=["face"], output_names=["logits"],
                      dynamic_axes={"face": {0: "n"}, "logits": {0: "n"}})
    with torch.no_grad():
        torch_probs = torch.softmax(model(x[val]), dim=1).numpy()
    cv_model = FaceModel(args.out)
    cv_probs = np.concatenate([cv_model.probabilities(pixels[val][i:i + 256]) for i in range(0, int(val.sum()), 256)])
    diff = float(np.abs(cv_probs - torch_probs).max())
    report = {"seconds": round(time.time() - started, 1), "train": int((~val).sum()), "validation": int(val.sum()),
              "weights": sum(p.numel() for p in model.parameters()), "onnx_bytes": args.out.stat().st_size,
              "cv2_vs_torch_max_abs_diff": diff,
              "validation_figures": figures(cv_probs, labels[val], source[val])}
    print(json.dumps(report, indent=1))
    if diff > 1e-4:
        print(f"cv2.dnn and torch disagree by {diff}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
