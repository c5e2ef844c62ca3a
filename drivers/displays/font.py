"""An 8-LED-high proportional bitmap font for the LED matrices.

ASCII is drawn in luma's 5x7 LCD font (one-LED strokes: narrow, so more fits,
and readable in inverse); ä, ö, ü and å are that font's a, o, u with their
marks added in the free top row; any other character comes from luma's
bold CP437 font (Å, Ä, Ö, æ, ø...), and a character CP437 lacks is drawn as ``?``.
"""

from __future__ import annotations

from luma.core.legacy.font import CP437_FONT, LCD_FONT, proportional
from PIL import Image

_BOLD = proportional(CP437_FONT)
_THIN = proportional(LCD_FONT)
_MARKS = {"ä": ("a", (1, 3)), "ö": ("o", (1, 3)), "ü": ("u", (1, 3)), "å": ("a", (2,))}
"""Letter -> (base letter, columns that get a dot in the top row)."""


def _glyph(ch: str) -> list[int]:
    if " " <= ch < "\x7f":
        return list(_THIN[ord(ch)])
    if ch in _MARKS:
        base, dots = _MARKS[ch]
        columns = list(_THIN[ord(base)])
        for column in dots:
            columns[column] |= 1
        return columns
    try:
        code = ch.encode("cp437")[0]
    except UnicodeEncodeError:
        code = ord("?")
    return list(_BOLD[code])


def glyph_columns(text: str) -> list[int]:
    """The columns of ``text`` (bit 0 = top row), one blank column after each character."""
    columns: list[int] = []
    for ch in text:
        columns.extend(_glyph(ch))
    return columns


def text_width(text: str) -> int:
    """Width in LEDs of ``text``, without the trailing blank column."""
    return max(0, len(glyph_columns(text)) - 1)


def draw_text(image: Image.Image, x: int, text: str, inverse: bool = False) -> int:
    """Draw ``text`` at column ``x`` of an 8-row 1-bit image; returns the end x.

    ``inverse`` draws dark text on lit LEDs. The 8 rows under the text are
    overwritten either way.
    """
    for column in glyph_columns(text):
        for y in range(8):
            lit = bool(column >> y & 1) != inverse
            if 0 <= x < image.width and y < image.height:
                image.putpixel((x, y), int(lit))
        x += 1
    return x
