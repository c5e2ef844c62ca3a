"""Every script in bench/ runs with a tiny workload and prints its JSON, so that no benchmark can rot unnoticed.

A new script in bench/ must get its tiny arguments here (``TINY``); a helper module the scripts share goes in
``HELPERS``. These runs check that a bench works, not its figures (benchmarks are not timed tests).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
HELPERS = {"speed_frames.py"}
"""Modules of bench/ that are imported by the scripts, not run."""

TINY: dict[str, list[list[str]]] = {
    "blackjack_math.py": [["--rounds", "300", "--round-rounds", "3"]],
    "cli_start.py": [["--runs", "1", "--math-runs", "0"]],
    "cocked.py": [["--count", "2"]],
    "daemon.py": [["--cards", "40", "--rounds", "3", "--idle-seconds", "0.3"]],
    "daemon_latency.py": [["--cards", "30", "--journal", "{tmp}/latency.sqlite"],
                          ["--cards", "20", "--turns", "2", "--nice", "0", "--base", "HEAD"]],
    "journal_commit.py": [["--cards", "12", "--turns", "2", "--warm", "8", "--round", "3"]],
    "journal_integrity.py": [["--records", "200", "--folder", "{tmp}/jbench"]],
    "floor.py": [["--tables", "2", "--seconds", "1", "--outage", "1", "--no-cluster"]],
    "gpio_tick.py": [[]],
    "idle.py": [["--seconds", "0.2", "--table", "hw/tables/roulette-se.toml"],
                ["--seconds", "0.2", "--table", "shuffler", "--nice", "0", "--base", "HEAD", "--no-compile"]],
    "house_edge.py": [["--only", "tiny_caribbean_simulate"]],
    "hands_compiled.py": [["--hands", "20000", "--rounds", "1", "--no-all", "--no-c"]],
    "hands.py": [["--single", "2000", "--batch", "20000"], ["--single", "2000", "--batch", "20000", "--base", "HEAD"]],
    "poker_crosscheck.py": [["--hands", "3", "--seconds", "5", "--phh"],
                            ["--hands", "1", "--seconds", "5", "--interleave", "--pokerkit-only", "--every", "0"],
                            ["--hands", "1", "--seconds", "5", "--where", "--games", "razz-limit"]],
    "poker_room.py": [["--hands", "2", "--showdowns", "1", "--games", "texas-holdem"]],
    "roulette_camera.py": [["--seconds", "0", "--rounds", "0", "--spins", "1"]],
    "roulette_wide.py": [["--spins", "1", "--seed", "3000000", "--out", "{tmp}/wide.jsonl"]],
    "roulette_identity.py": [["record", "--spins", "1", "--out", "{tmp}/a.json"],
                             ["record", "--spins", "1", "--out", "{tmp}/b.json"],
                             ["compare", "{tmp}/a.json", "{tmp}/b.json"]],
    "serial.py": [["--frames", "100", "--lines", "2000"]],
    "sim_rounds.py": [["--rounds", "2", "--only", "punto-banco"]],
    "terminal.py": [["--decisions", "20", "--dir", "{tmp}/terminal", "--no-tracemalloc"]],
    "vision.py": [["--dice", "2", "--spins", "1", "--no-photos", "--no-detector", "--speed-frames", "3"]],
    "vision_identity.py": [["record", "--dice", "1", "--photos", "{tmp}/no-photos", "--out", "{tmp}/v.json"],
                           ["compare", "{tmp}/v.json", "{tmp}/v.json"]],
    "vision_loso.py": [["--shipped", "--limit", "1"]],
    "vision_instructions.py": [["--frames", "1", "--reader", "plain"]],
    "vision_speed_ab.py": [["--base", "HEAD", "--rounds", "1", "--frames", "2"]],
    "wheel_dice_settle.py": [["--players", "1"]],
}
SLOW = {"vision_instructions.py"}
"""Scripts whose tiny run still takes minutes (python under valgrind): in the slow run only."""


def test_every_script_has_its_tiny_run():
    scripts = {p.name for p in BENCH.glob("*.py")} - HELPERS
    assert scripts == set(TINY), "give a new bench its tiny arguments in TINY (or list a helper in HELPERS)"


def last_json(text: str) -> object:
    """The JSON document a bench printed (some print progress lines before it)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start = max(text.rfind("\n{"), text.rfind("\n["))
        return json.loads(text[start + 1:] if start >= 0 else text.strip().splitlines()[-1])


@pytest.mark.parametrize("script", [pytest.param(s, marks=pytest.mark.slow) if s in SLOW else s for s in sorted(TINY)])
def test_bench_runs_with_a_tiny_workload(script, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for args in TINY[script]:
        argv = [a.format(tmp=tmp_path) for a in args]
        done = subprocess.run([sys.executable, str(BENCH / script), *argv], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, f"{script} {' '.join(argv)}: exit {done.returncode}\n{done.stderr[-3000:]}"
        assert last_json(done.stdout) is not None


def test_the_interleaved_cross_check_stopped_by_sigterm_prints_every_game_and_the_summary():
    """A long cross-check stopped at a deadline keeps its per-game lines (counts, mismatches, CPU split)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(BENCH / "poker_crosscheck.py"), "--interleave", "--pokerkit-only",
                             "--games", "razz-limit,lowball-limit-draws=3", "--hands", "100000", "--seconds", "600",
                             "--every", "0", "--seed", "sigterm"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    first = json.loads(proc.stdout.readline())  # a progress line: hands are being played
    assert first["progress"] is True
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    lines = [json.loads(line) for line in out.splitlines() if '"progress"' not in line]
    games = {line["game"]: line["hands"] for line in lines if "game" in line}
    assert set(games) == {"razz-limit", "lowball-limit-draws=3"} and min(games.values()) >= 1
    assert lines[-1]["summary"] is True and lines[-1]["hands"] == sum(games.values()) < 200_000
