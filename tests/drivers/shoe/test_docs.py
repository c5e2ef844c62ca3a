"""docs/devices/shoe-protocol.md: every example frame a technician may type has a real CRC."""

from __future__ import annotations

import re

from drivers.shoe.events import DATA_TYPES, LINK_TYPES
from drivers.shoe.protocol import Garbage, Good, scan
from tests.tablectl import ROOT

DOC = (ROOT / "docs" / "devices" / "shoe-protocol.md").read_text(encoding="utf-8")
FRAME = re.compile(r"@[0-9A-F]{2}[A-Z]{3}[^*`\n]*\*[0-9A-F]{4}")


def test_every_example_frame_parses_and_the_damaged_one_does_not() -> None:
    checked = 0
    for line in DOC.splitlines():
        for text in FRAME.findall(line):
            result = scan(text.encode("ascii") + b"\r\n")
            if "damaged on the line" in line:
                assert isinstance(result, Garbage) and result.bad_crc, text
            else:
                assert isinstance(result, Good), (text, result)
                checked += 1
    assert checked >= 30


def test_every_frame_type_is_documented() -> None:
    for code in list(DATA_TYPES) + list(LINK_TYPES):
        assert f"| `{code}` |" in DOC, code
