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


def test_a_long_run_is_kept_with_its_time_report_and_no_load(tmp_path, monkeypatch):
    perf_doc = tool()
    monkeypatch.setattr(perf_doc, "RECORDS", tmp_path / "perf")
    out = tmp_path / "run.json"
    out.write_text('{"bets": {"bet": {"house_edge_percent": 2.5}}}\n')
    report = tmp_path / "time.txt"
    report.write_text("\tUser time (seconds): 10.5\n\tSystem time (seconds): 0.25\n"
                      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 2:03.5\n"
                      "\tMaximum resident set size (kbytes): 2048\n")
    path = perf_doc.keep("long", [sys.executable, "x.py", "--n", "5"], "2026-12-02 05:17", out, report)
    record = __import__("json").loads(path.read_text())
    assert record["resources"] == {"user_cpu_s": 10.5, "system_cpu_s": 0.25, "wall_s": 123.5, "max_rss_mb": 2.0}
    text = perf_doc.block("long", record)
    assert "load average not recorded" in text and "| `bets.bet.house_edge_percent` | 2.5 |" in text
    assert "| `resources.wall_s` | 123.5 |" in text and "`python x.py --n 5`" in text


def test_keep_refuses_a_file_without_a_time_report(tmp_path):
    perf_doc = tool()
    (tmp_path / "run.json").write_text("{}")
    (tmp_path / "time.txt").write_text("nothing here\n")
    try:
        perf_doc.keep("x", ["x"], "2026-12-02 05:17", tmp_path / "run.json", tmp_path / "time.txt")
    except SystemExit as stop:
        assert "no /usr/bin/time -v report" in str(stop)
    else:
        raise AssertionError("a run without its time report was kept")
