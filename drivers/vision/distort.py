"""Tunable camera distortions for synthetic scenes (OpenCV and numpy only, seeded).

``strength`` 0..1 scales every distortion from none to the harshest the
benchmark uses; each one is drawn from the generator's own random stream so a
seed reproduces a frame exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Distortion:
    """The distortions applied to one frame (all zero: a clean frame)."""

    perspective: float = 0.0  # corner shift as a share of the frame size
    lens: float = 0.0  # barrel coefficient
    light: float = 1.0  # overall gain
    warmth: float = 0.0  # -1 cold (blue) .. 1 warm (orange)
    glare: float = 0.0  # peak added brightness of one soft highlight, 0..255
    blur: float = 0.0  # Gaussian sigma, pixels
    noise: float = 0.0  # Gaussian noise sigma, grey levels
    jpeg: int = 100  # JPEG quality (100: none)

    def as_json(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in self.__dict__.items()}


def draw_distortion(rng: np.random.Generator, strength: float) -> Distortion:
    """A random distortion of the given strength."""
    s = max(0.0, min(1.0, strength))
    return Distortion(
        perspective=float(rng.uniform(0, 0.03 * s)),
        lens=float(rng.uniform(-0.08 * s, 0.08 * s)),
        light=float(rng.uniform(1 - 0.45 * s, 1 + 0.25 * s)),
        warmth=float(rng.uniform(-0.6 * s, 0.6 * s)),
        glare=float(rng.uniform(0, 110 * s)) if rng.random() < 0.5 else 0.0,
        blur=float(rng.uniform(0, 1.6 * s)),
        noise=float(rng.uniform(0, 9 * s)),
        jpeg=int(100 - rng.uniform(0, 60 * s)),
    )


def geometric_maps(size: tuple[int, int], d: Distortion, rng: np.random.Generator) -> np.ndarray:
    """The 3x3 homography for the perspective part (applied to truth points too)."""
    w, h = size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    shift = rng.uniform(-d.perspective, d.perspective, (4, 2)) * np.array([w, h], dtype=np.float32)
    return cv2.getPerspectiveTransform(src, (src + shift).astype(np.float32))


def lens_point(x: float, y: float, size: tuple[int, int], k: float) -> tuple[float, float]:
    """Where a point lands after the barrel distortion ``apply`` uses (first order inverse)."""
    w, h = size
    cx, cy, f = w / 2, h / 2, max(w, h) / 2
    nx, ny = (x - cx) / f, (y - cy) / f
    r2 = nx * nx + ny * ny
    scale = 1.0 / (1 + k * r2)
    return cx + nx * scale * f, cy + ny * scale * f


def glare_field(size: tuple[int, int], d: Distortion, rng: np.random.Generator) -> np.ndarray | None:
    """The soft highlight ``apply`` adds (one per scene; a video reuses it for every frame)."""
    if d.glare <= 0:
        return None
    return _glare(size, d.glare, rng)


def _glare(size: tuple[int, int], strength: float, rng: np.random.Generator) -> np.ndarray:
    """A highlight of ``strength`` at a random place (float32, one channel to add to each colour)."""
    w, h = size
    gx, gy = rng.uniform(0, w), rng.uniform(0, h)
    sigma = rng.uniform(0.05, 0.15) * w
    ys, xs = np.indices((h, w), dtype=np.float32)
    return (strength * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma * sigma)))[..., None]


def noise_fields(size: tuple[int, int], d: Distortion, rng: np.random.Generator, count: int = 3) -> list[np.ndarray]:
    """A few sensor-noise fields for a video to cycle through (drawing new noise per frame is slow)."""
    if d.noise <= 0:
        return []
    w, h = size
    return [rng.normal(0, d.noise, (h, w, 3)).astype(np.float32) for _ in range(count)]


def apply(image: np.ndarray, d: Distortion, rng: np.random.Generator,
          homography: np.ndarray | None = None, glare: np.ndarray | None = None,
          noise: np.ndarray | None = None, offset: np.ndarray | None = None) -> np.ndarray:
    """The frame as a camera with these faults would see it (``glare``/``noise``: precomputed fields)."""
    h, w = image.shape[:2]
    out = image
    if homography is not None and d.perspective > 0:
        out = cv2.warpPerspective(out, homography, (w, h), borderMode=cv2.BORDER_REPLICATE)
    if abs(d.lens) > 1e-4:
        f = max(w, h) / 2
        ys, xs = np.indices((h, w), dtype=np.float32)
        nx, ny = (xs - w / 2) / f, (ys - h / 2) / f
        r2 = nx * nx + ny * ny
        mx = (w / 2 + nx * (1 + d.lens * r2) * f).astype(np.float32)
        my = (h / 2 + ny * (1 + d.lens * r2) * f).astype(np.float32)
        out = cv2.remap(out, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if d.light != 1.0 or d.warmth != 0.0:
        gains = np.diag([d.light * (1 - 0.25 * d.warmth), d.light, d.light * (1 + 0.25 * d.warmth)])
        out = cv2.transform(out, gains.astype(np.float32))  # saturates at 0..255
    if offset is not None:
        out = cv2.add(out, offset, dtype=cv2.CV_8U)  # precomputed glare + noise (int16), saturating
    elif d.glare > 0 or d.noise > 0:
        img = out.astype(np.float32)
        if d.glare > 0:
            img += glare if glare is not None else _glare((w, h), d.glare, rng)
        if d.noise > 0:
            img += noise if noise is not None else rng.normal(0, d.noise, img.shape).astype(np.float32)
        out = np.clip(img, 0, 255).astype(np.uint8)
    if d.blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), d.blur)
    if d.jpeg < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(d.jpeg)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out


def offset_fields(size: tuple[int, int], d: Distortion, rng: np.random.Generator, count: int = 3) -> list[np.ndarray]:
    """Glare plus noise as int16 fields for a video to cycle through (``apply(offset=...)``)."""
    w, h = size
    glare = glare_field(size, d, rng)
    noises = noise_fields(size, d, rng, count) or [np.zeros((h, w, 3), np.float32)]
    if glare is None and d.noise <= 0:
        return []
    return [np.round(n + (glare if glare is not None else 0)).astype(np.int16) for n in noises]
