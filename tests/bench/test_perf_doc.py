"""docs/performance.md's figures blocks are what the recorded benchmark output says (tools/perf_doc.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tool():
    spec = importlib.util.spec_from_file_location("perf_doc", ROOT / "tools" / "perf_doc.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_the_document_is_what_the_records_say():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "perf_doc.py"), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_every_record_is_shown_and_every_block_has_a_record():
    perf_doc = tool()
    names = {m.group("name") for m in perf_doc.BLOCK.finditer(perf_doc.DOC.read_text())}
    assert names == {p.stem for p in perf_doc.RECORDS.glob("*.json")}


def test_figures_are_flattened_to_one_row_each():
    perf_doc = tool()
    rows = perf_doc.flatten({"a": {"b": 1234567, "c": [1, 2]}, "d": [{"e": 0.5}], "f": None, "g": "x|y"})
    assert rows == [("a.b", "1,234,567"), ("a.c", "1, 2"), ("d[0].e", "0.5"), ("f", "null"), ("g", "x\\|y")]
