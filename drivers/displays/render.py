"""Pictures of what the displays show: PNG stills and animated GIFs, for the docs and the tests.

The sign is drawn LED by LED (lit red, unlit dark); the jackpot display digit
by digit from the segment bits the MAX7219 receives. The GIFs sample the same
pure frame functions the drivers use, so the pictures are what the hardware
would show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

from drivers.displays.jackpot import image_segments

LIT = (255, 40, 20)
DARK = (48, 12, 10)
BACKGROUND = (12, 12, 12)


def render_matrix(image: Image.Image, pitch: int = 4) -> Image.Image:
    """A 1-bit LED matrix image as round LEDs, ``pitch`` pixels apart."""
    out = Image.new("RGB", (image.width * pitch, image.height * pitch), BACKGROUND)
    draw = ImageDraw.Draw(out)
    mono = image.convert("1")
    for y in range(image.height):
        for x in range(image.width):
            colour = LIT if mono.getpixel((x, y)) else DARK
            draw.ellipse((x * pitch, y * pitch, x * pitch + pitch - 2, y * pitch + pitch - 2), fill=colour)
    return out


def _horizontal(x0: int, x1: int, yc: int) -> list[tuple[int, int]]:
    return [(x0, yc), (x0 + 1, yc - 1), (x1 - 1, yc - 1), (x1, yc), (x1 - 1, yc + 1), (x0 + 1, yc + 1)]


def _vertical(xc: int, y0: int, y1: int) -> list[tuple[int, int]]:
    return [(xc, y0), (xc + 1, y0 + 1), (xc + 1, y1 - 1), (xc, y1), (xc - 1, y1 - 1), (xc - 1, y0 + 1)]


# MAX7219 no-decode bit -> segment polygon in a 14x22 digit cell
_SEGMENTS = {
    6: _horizontal(3, 11, 2),     # A
    5: _vertical(12, 3, 10),      # B
    4: _vertical(12, 12, 19),     # C
    3: _horizontal(3, 11, 20),    # D
    2: _vertical(2, 12, 19),      # E
    1: _vertical(2, 3, 10),       # F
    0: _horizontal(3, 11, 11),    # G
}


def render_segments(image: Image.Image, scale: int = 3) -> Image.Image:
    """The eight seven-segment digits that the MAX7219 image (see ``jackpot.segment_image``) lights."""
    data = image_segments(image.convert("1"))
    cell_w, cell_h = 16, 23
    out = Image.new("RGB", (cell_w * 8 * scale, cell_h * scale), BACKGROUND)
    draw = ImageDraw.Draw(out)
    for i, byte in enumerate(data):
        ox = i * cell_w
        for bit, polygon in _SEGMENTS.items():
            colour = LIT if byte >> bit & 1 else DARK
            draw.polygon([((ox + x + 1) * scale, (y + 0.5) * scale) for x, y in polygon], fill=colour)
        colour = LIT if byte & 0x80 else DARK
        draw.ellipse(((ox + 14) * scale, 19.5 * scale, (ox + 15.5) * scale, 21 * scale), fill=colour)
    return out


def write_png(picture: Image.Image, path: str | Path) -> None:
    picture.save(path, format="PNG", optimize=True)


def write_gif(frames: list[Image.Image], path: str | Path, frame_ms: int) -> None:
    """An endlessly looping GIF; repeated frames are merged so the file stays small."""
    merged: list[tuple[Image.Image, int]] = []
    for frame in frames:
        if merged and merged[-1][0].tobytes() == frame.tobytes():
            merged[-1] = (merged[-1][0], merged[-1][1] + frame_ms)
        else:
            merged.append((frame, frame_ms))
    paletted = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=8) for f, _ in merged]
    paletted[0].save(path, format="GIF", save_all=True, append_images=paletted[1:],
                     duration=[d for _, d in merged], loop=0, optimize=True, disposal=1)


def sample(frame_at: Callable[[float], Image.Image], seconds: float, fps: int) -> list[Image.Image]:
    """Frames of ``frame_at(t)`` for ``t`` from 0 to ``seconds`` (exclusive) at ``fps``."""
    return [frame_at(i / fps) for i in range(int(seconds * fps))]


TOWER_COLOURS = {"red": (255, 40, 20), "amber": (255, 170, 0), "green": (40, 220, 60)}


def render_tower(state: dict[str, bool], scale: int = 2) -> Image.Image:
    """A tower light (red on top, amber, green) and a buzzer mark beside it, as ``state`` says."""
    out = Image.new("RGB", (44 * scale, 70 * scale), BACKGROUND)
    draw = ImageDraw.Draw(out)
    for i, lamp in enumerate(("red", "amber", "green")):
        colour = TOWER_COLOURS[lamp] if state.get(lamp) else tuple(c // 6 for c in TOWER_COLOURS[lamp])
        draw.rectangle((4 * scale, (4 + i * 20) * scale, 24 * scale, (22 + i * 20) * scale), fill=colour)
    draw.rectangle((12 * scale, 64 * scale, 16 * scale, 70 * scale), fill=(90, 90, 90))
    buzz = (235, 235, 235) if state.get("buzzer") else (50, 50, 50)
    draw.polygon([(30 * scale, 8 * scale), (34 * scale, 8 * scale), (38 * scale, 4 * scale),
                  (38 * scale, 16 * scale), (34 * scale, 12 * scale), (30 * scale, 12 * scale)], fill=buzz)
    if state.get("buzzer"):
        draw.arc((36 * scale, 4 * scale, 43 * scale, 16 * scale), -60, 60, fill=buzz, width=scale)
    return out
