"""Reference images: compare a display's 1-bit image with tests/drivers/displays/reference/NAME.png.

Set TABLECTL_WRITE_REFERENCES=1 to (re)write a reference after checking the
picture by eye (the docs pictures come from the same content).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

REFERENCE = Path(__file__).resolve().parent / "reference"


def check_reference(image: Image.Image, name: str) -> None:
    path = REFERENCE / f"{name}.png"
    image = image.convert("1")
    if os.environ.get("TABLECTL_WRITE_REFERENCES") == "1":
        image.save(path, optimize=True)
    if not path.exists():
        pytest.fail(f"no reference image {path}; write it with TABLECTL_WRITE_REFERENCES=1 after checking it")
    expected = Image.open(path).convert("1")
    assert expected.size == image.size, f"{name}: size {image.size}, reference {expected.size}"
    diff = ImageChops.difference(expected.convert("L"), image.convert("L"))
    assert diff.getbbox() is None, f"{name}: differs from the reference in the box {diff.getbbox()}"
