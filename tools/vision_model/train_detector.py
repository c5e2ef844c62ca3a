"""Train the photo-mode dice detector (a small CenterNet) and export it to ONNX for cv2.dnn.

Developer machine only: needs torch (CPU is enough), onnx and onnxscript, none of
which the Pi needs (it runs the exported file through OpenCV's dnn module):

    python -m venv /tmp/trainvenv && /tmp/trainvenv/bin/pip install torch onnx onnxscript numpy opencv-python-headless
    /tmp/trainvenv/bin/python tools/vision_model/extract_boxes.py      # the train half -> data/boxes.npz
    /tmp/trainvenv/bin/python tools/vision_model/train_detector.py     # -> drivers/vision/models/dice_detector.onnx

Data: the TRAIN half of the real photos only (tools/vision_model/data/boxes.npz),
heavily augmented (scale, crops, flips, 90-degree turns, colour, brightness,
blur, noise).  The model sees BGR pixels 0..255 at INPUT x INPUT (the photo
scaled so its long side is INPUT, padded bottom/right with grey) and outputs, at
stride 4, a die-centre heatmap (sigmoid) and the die's width and height in
output cells.  One thread, fixed seed; about 20 minutes here.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from extract_boxes import OUT as DATA, load  # noqa: E402

MODEL = ROOT / "drivers" / "vision" / "models" / "dice_detector.onnx"
INPUT = 320   # inference input side (must match drivers/vision/detector.py)
STRIDE = 4
CROP = 256    # training crop side
PAD = 114     # grey padding value


def block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DiceNet(nn.Module):
    """Encoder to stride 32, two upsampling steps with skips back to stride 4, then the heads."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = block(3, 16, 2)
        self.s4 = nn.Sequential(block(16, 32, 2), block(32, 32))
        self.s8 = nn.Sequential(block(32, 48, 2), block(48, 48))
        self.s16 = nn.Sequential(block(48, 64, 2), block(64, 64))
        self.s32 = nn.Sequential(block(64, 96, 2), block(96, 96))
        self.up16 = block(96 + 64, 64)
        self.up8 = block(64 + 48, 48)
        self.up4 = block(48 + 32, 32)
        self.heat = nn.Sequential(block(32, 32), nn.Conv2d(32, 1, 1))
        self.size = nn.Sequential(block(32, 32), nn.Conv2d(32, 2, 1))
        self.heat[-1].bias.data.fill_(-2.19)  # CenterNet's prior: few centres

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        a4 = self.s4(self.s2(x))
        a8 = self.s8(a4)
        a16 = self.s16(a8)
        a32 = self.s32(a16)
        up = nn.functional.interpolate
        u = self.up16(torch.cat([up(a32, scale_factor=2.0, mode="nearest"), a16], 1))
        u = self.up8(torch.cat([up(u, scale_factor=2.0, mode="nearest"), a8], 1))
        u = self.up4(torch.cat([up(u, scale_factor=2.0, mode="nearest"), a4], 1))
        return torch.cat([torch.sigmoid(self.heat(u)), self.size(u)], 1)


# -- augmentation -------------------------------------------------------------------------------
def colour_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-12, 12)) % 180
        hsv[..., 1] *= rng.uniform(0.6, 1.4)
        f = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    f = f * rng.uniform(0.6, 1.35) + rng.uniform(-30, 30)            # contrast, brightness
    f *= rng.uniform(0.85, 1.15, size=3).astype(np.float32)           # colour temperature
    if rng.random() < 0.15:
        f = np.repeat(f.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.1))
    if rng.random() < 0.3:
        f += rng.normal(0, rng.uniform(2, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Augment:
    """How far ``sample`` distorts a crop.  The defaults are the shipped model's (its draws unchanged);
    the leave-one-source-out L1 recipe widens the scale and adds a perspective warp (a camera up to about
    35 degrees off overhead), motion blur and JPEG."""

    scale: tuple[float, float] = (0.7, 1.45)
    perspective: float = 0.0  # probability of a random homography (corners moved up to 12 % of the side)
    motion: float = 0.0  # probability of a motion blur of 2 to 6 pixels
    jpeg: float = 0.0  # probability of JPEG quality 35 to 90


SHIPPED = Augment()


def warp(img: np.ndarray, b: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random perspective warp of the image and its boxes (each box's corners mapped, then boxed)."""
    h, w = img.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.uniform(-0.12, 0.12, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, m, (w, h), borderValue=(PAD, PAD, PAD))
    if not len(b):
        return out, b
    cx, cy, bw, bh = b[:, 0], b[:, 1], b[:, 2] / 2, b[:, 3] / 2
    pts = np.stack([np.stack([cx - bw, cy - bh], 1), np.stack([cx + bw, cy - bh], 1),
                    np.stack([cx + bw, cy + bh], 1), np.stack([cx - bw, cy + bh], 1)], 1).astype(np.float32)
    q = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), m).reshape(-1, 4, 2)
    lo, hi = q.min(axis=1), q.max(axis=1)
    c = cv2.perspectiveTransform(np.stack([cx, cy], 1).astype(np.float32).reshape(-1, 1, 2), m).reshape(-1, 2)
    return out, np.concatenate([c, (hi - lo) * 0.92], 1).astype(np.float32)  # a tilted square's box, shrunk back


def camera_faults(crop: np.ndarray, rng: np.random.Generator, aug: Augment) -> np.ndarray:
    if aug.motion and rng.random() < aug.motion:
        length = float(rng.uniform(2, 6))
        n = int(round(length)) * 2 + 1
        kernel = np.zeros((n, n), np.float32)
        t = float(rng.uniform(0, math.pi))
        cv2.line(kernel, (int(n / 2 - length * math.cos(t)), int(n / 2 - length * math.sin(t))),
                 (int(n / 2 + length * math.cos(t)), int(n / 2 + length * math.sin(t))), 1.0, 1, cv2.LINE_AA)
        crop = cv2.filter2D(crop, -1, kernel / kernel.sum())
    if aug.jpeg and rng.random() < aug.jpeg:
        ok, enc = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 91))])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        if decoded is not None:
            crop = decoded
    return crop


def sample(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator,
           aug: Augment = SHIPPED) -> tuple[np.ndarray, np.ndarray]:
    """One augmented CROP x CROP training crop and its die boxes (pixels: cx, cy, w, h)."""
    h, w = img.shape[:2]
    long_side = INPUT * math.exp(rng.uniform(math.log(aug.scale[0]), math.log(aug.scale[1])))
    s = long_side / max(h, w)
    im = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    h, w = im.shape[:2]
    b = boxes[:, 1:5] * np.array([w, h, w, h], dtype=np.float32)
    if aug.perspective and rng.random() < aug.perspective:
        im, b = warp(im, b, rng)
    k = int(rng.integers(4))
    for _ in range(k):  # turn 90 degrees counter-clockwise: (x, y) -> (y, W - x)
        im = np.ascontiguousarray(np.rot90(im))
        b = np.stack([b[:, 1], w - b[:, 0], b[:, 3], b[:, 2]], 1)
        h, w = w, h
    if rng.random() < 0.5:
        im = np.ascontiguousarray(im[:, ::-1])
        b[:, 0] = w - b[:, 0]
    canvas = np.full((max(h, CROP), max(w, CROP), 3), PAD, np.uint8)
    canvas[:h, :w] = im
    x0 = int(rng.integers(0, canvas.shape[1] - CROP + 1))
    y0 = int(rng.integers(0, canvas.shape[0] - CROP + 1))
    crop = colour_jitter(canvas[y0:y0 + CROP, x0:x0 + CROP], rng)
    if aug != SHIPPED:
        crop = camera_faults(crop, rng, aug)
    b = b - np.array([x0, y0, 0, 0], dtype=np.float32)
    return crop, b


SYNTH_KINDS = ("clean", "touching", "colours", "sicbo", "off")


def synthetic(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A rendered table scene (drivers/vision/synth_dice.scene, seeds below 100000 only: the benchmark's
    seeds are 100000 and up) as (image at the stored 416 px, boxes [value, cx, cy, w, h] normalised)."""
    sys.path.insert(0, str(ROOT))
    from drivers.vision.synth_dice import DIE_PX, scene
    kind = SYNTH_KINDS[int(rng.integers(len(SYNTH_KINDS)))]
    image, truth = scene(int(rng.integers(0, 100_000)), kind, float(rng.uniform(0, 1)))
    h, w = image.shape[:2]
    rows = []
    for d in truth["dice"]:
        if not d["flat"]:
            continue
        x, y, bw, bh = d["box"]
        side = DIE_PX * 1.2  # the top face's upright box, about (|cos a| + |sin a|) die sides
        rows.append((d["value"], (x + bw / 2) / w, (y + bh / 2) / h, side / w, side / h))
    s = 416 / max(h, w)
    small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return small, np.array(rows, np.float32).reshape(-1, 5)


STYLED_KINDS = ("clean", "touching", "sicbo", "off")


def styled(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A styled throw (drivers/vision/synth_styles.scene: other cloths, translucent and white dice, shadows,
    blur, clutter, the camera tilted up to 35 degrees; seeds below 100000 only, the held-out styled set is
    2,200,000 and up) as ``synthetic`` gives it: flat dice only (a cocked die's top face is not boxed)."""
    sys.path.insert(0, str(ROOT))
    from drivers.vision.synth_styles import scene
    kind = STYLED_KINDS[int(rng.integers(len(STYLED_KINDS)))]
    image, truth, _ = scene(int(rng.integers(0, 100_000)), kind, float(rng.uniform(0, 1)))
    h, w = image.shape[:2]
    side = 1.2 * float(truth["calibration"]["die_px"])
    rows = []
    for d in truth["dice"]:
        if not d["flat"]:
            continue
        x, y, bw, bh = d["box"]
        rows.append((d["value"], (x + bw / 2) / w, (y + bh / 2) / h, side / w, side / h))
    s = 416 / max(h, w)
    small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return small, np.array(rows, np.float32).reshape(-1, 5)


def targets(b: np.ndarray, out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CenterNet targets: gaussian centre heatmap, size map, and the mask of centre cells."""
    heat = np.zeros((out, out), np.float32)
    size = np.zeros((2, out, out), np.float32)
    mask = np.zeros((out, out), np.float32)
    yy, xx = np.mgrid[0:out, 0:out].astype(np.float32)
    for cx, cy, bw, bh in b:
        gx, gy = cx / STRIDE, cy / STRIDE
        ix, iy = int(gx), int(gy)
        if not (0 <= ix < out and 0 <= iy < out):
            continue
        sigma = max(0.7, 0.12 * (bw + bh) / 2 / STRIDE * 2)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        np.maximum(heat, g, out=heat)
        size[:, iy, ix] = (bw / STRIDE, bh / STRIDE)
        mask[iy, ix] = 1.0
    return heat, size, mask


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def train(steps: int, batch: int, seed: int, synth_share: float, fold: int | None = None,
          data: Path | None = None, styled_share: float = 0.0, aug: Augment = SHIPPED) -> DiceNet:
    """``fold``: leave out the photos whose index is fold modulo 5 (photo_eval.py --fold), to judge photo-mode
    rules on photos the detector has not seen; None (the shipped model) trains on the whole train half."""
    images, boxes, names = load(data or DATA)
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    # The Byler set has many more dice per image and is the harder one; both halves drawn equally.
    groups = [[i for i, n in enumerate(names) if n.startswith(p) and (fold is None or i % 5 != fold)]
              for p in ("byler", "penlington")]
    groups = [g for g in groups if g]  # a leave-one-source-out fold has one source only
    model = DiceNet()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps, pct_start=0.05)
    out = CROP // STRIDE
    started = time.time()
    model.train()
    for step in range(steps):
        xs, hs, ss, ms = [], [], [], []
        for _ in range(batch):
            if rng.random() < synth_share:
                # styled_share 0 draws nothing more: the shipped recipe's stream is unchanged
                scene = styled(rng) if styled_share and rng.random() < styled_share else synthetic(rng)
                crop, b = sample(*scene, rng, aug)
            else:
                g = groups[int(rng.integers(len(groups)))]
                i = g[int(rng.integers(len(g)))]
                crop, b = sample(images[i], boxes[i], rng, aug)
            heat, size, mask = targets(b, out)
            xs.append(crop.transpose(2, 0, 1))
            hs.append(heat)
            ss.append(size)
            ms.append(mask)
        x = torch.from_numpy(np.stack(xs).astype(np.float32))
        heat_t = torch.from_numpy(np.stack(hs))[:, None]
        size_t = torch.from_numpy(np.stack(ss))
        mask_t = torch.from_numpy(np.stack(ms))[:, None]
        y = model(x)
        l_heat = focal(y[:, :1], heat_t)
        l_size = (torch.abs(y[:, 1:] - size_t) * mask_t).sum() / mask_t.sum().clamp(min=1)
        loss = l_heat + 0.1 * l_size
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"step {step} loss {loss.item():.3f} heat {l_heat.item():.3f} size {l_size.item():.3f} "
                  f"{time.time() - started:.0f}s", flush=True)
    model.eval()
    return model


def export(model: DiceNet, path: Path, data: Path = DATA) -> float:
    """ONNX at INPUT x INPUT; returns the largest difference between torch and cv2.dnn on a real image."""
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, INPUT, INPUT)
    torch.onnx.export(model, dummy, str(path), dynamo=False, opset_version=13,
                      input_names=["image"], output_names=["maps"])
    images, _, _ = load(data)
    img = images[0]
    s = INPUT / max(img.shape[:2])
    small = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    canvas = np.full((INPUT, INPUT, 3), PAD, np.uint8)
    canvas[:small.shape[0], :small.shape[1]] = small
    blob = cv2.dnn.blobFromImage(canvas)  # BGR, 0..255, NCHW float
    with torch.no_grad():
        ref = model(torch.from_numpy(blob)).numpy()
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(blob)
    got = net.forward()
    diff = float(np.abs(got - ref).max())
    if got.shape != ref.shape or diff > 1e-3:
        raise SystemExit(f"cv2.dnn output differs from torch: shape {got.shape} vs {ref.shape}, max diff {diff}")
    return diff


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2200)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--synthetic", type=float, default=0.2, help="share of rendered scenes in the batches")
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--fold", type=int, default=None,
                        help="leave out the train-half photos whose index is FOLD modulo 5 (not for shipping)")
    parser.add_argument("--data", type=Path, default=DATA,
                        help="boxes file (extract_boxes.py --source S --out F: a leave-one-source-out fold)")
    parser.add_argument("--styled", type=float, default=0.0,
                        help="share of the rendered scenes drawn by synth_styles (0: synth_dice only, as shipped)")
    parser.add_argument("--wide", action="store_true",
                        help="the L1 recipe's augmentation: scale 0.45 to 1.6, perspective, motion blur, JPEG")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    started = time.time()
    aug = Augment((0.45, 1.6), 0.5, 0.2, 0.3) if args.wide else SHIPPED
    model = train(args.steps, args.batch, args.seed, args.synthetic, args.fold, args.data, args.styled, aug)
    diff = export(model, args.out, args.data)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e6:.2f} MB); cv2.dnn matches torch (max diff {diff:.2e}); "
          f"{time.time() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
