"""An 8-LED-high proportional bitmap font for the LED matrices.

ASCII is drawn in luma's 5x7 LCD font (one-LED strokes: narrow, so more fits,
and readable in inverse); ä, ö, ü and å are that font's a, o, u with their
marks added in the free top row; the Nordic capitals and æ, ø are drawn here
in the same style (``_DRAWN``); any other character comes from luma's bold
CP437 font, and a character CP437 lacks is drawn as ``?``.
"""

from __future__ import annotations

from luma.core.legacy.font import CP437_FONT, LCD_FONT, proportional
from PIL import Image

_BOLD = proportional(CP437_FONT)
_THIN = proportional(LCD_FONT)
_MARKS = {"ä": ("a", (1, 3)), "ö": ("o", (1, 3)), "ü": ("u", (1, 3)), "å": ("a", (2,))}
"""Letter -> (base letter, columns that get a dot in the top row)."""

_DRAWN_ROWS = {
    "Ä": (".#.#.", ".....", ".###.", "#...#", "#...#", "#####", "#...#", "#...#"),
    "Ö": (".#.#.", ".....", ".###.", "#...#", "#...#", "#...#", "#...#", ".###."),
    "Ü": (".#.#.", ".....", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "Å": ("..#..", ".#.#.", "..#..", ".###.", "#...#", "#####", "#...#", "#...#"),
    "Æ": (".####", "#.#..", "#.#..", "#.###", "###..", "#.#..", "#.###", "....."),
    "Ø": (".###.", "#..##", "#.#.#", "#.#.#", "#.#.#", "##..#", ".###.", "....."),
    "æ": (".....", ".....", "##.#.", "..#.#", ".####", "#.#..", ".#.##", "....."),
    "ø": (".....", ".....", ".###.", "#..##", "#.#.#", "##..#", ".###.", "....."),
}


def _columns(rows: tuple[str, ...]) -> list[int]:
    return [sum(1 << y for y, row in enumerate(rows) if row[x] == "#") for x in range(len(rows[0]))] + [0]


_DRAWN = {ch: _columns(rows) for ch, rows in _DRAWN_ROWS.items()}
"""Letters drawn here, 5 columns each, in the thin font's style (rows top to bottom)."""


def _glyph(ch: str) -> list[int]:
    if " " <= ch < "\x7f":
        return list(_THIN[ord(ch)])
    if ch in _DRAWN:
        return list(_DRAWN[ch])
    if ch in _MARKS:
        base, dots = _MARKS[ch]
        columns = list(_THIN[ord(base)])
        for column in dots:
            columns[column] |= 1
        return columns
    try:
        code = ch.encode("cp437")[0]
    except UnicodeEncodeError:
        return list(_THIN[ord("?")])
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
    overwritten either way. All pixels go through one pixel-access object
    (``Image.load``): a call per LED of ``putpixel`` cost ten times more.
    """
    pixels = image.load()
    assert pixels is not None  # a loaded image always has its pixel access
    width, rows = image.width, range(min(8, image.height))
    for column in glyph_columns(text):
        if 0 <= x < width:
            for y in rows:
                pixels[x, y] = 255 if bool(column >> y & 1) != inverse else 0
        x += 1
    return x
