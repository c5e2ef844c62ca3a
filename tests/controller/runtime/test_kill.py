"""Power cuts: SIGKILL the daemon at random moments of a simulated session, restart it each time.

After every kill and the final run: no record that was shown is missing or
different in the journal, no round settles twice, every round settles, the
meters equal base + contributions - hits + resets (+ overflow moves), and
``journal verify`` is clean. The default run is small (6 kills, 30 rounds);
the full one (200 kills, 1,000 rounds) is marked slow.

A full disk is simulated with RLIMIT_FSIZE (writes past the limit fail with
EFBIG, which SQLite reports as a full disk): the table latches the ``journal``
fault, stops taking input, and nothing is shown that is not in the journal.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from controller import scenario
from controller.runtime.audit import export_round, journal_settlements, verify
from controller.runtime.journal import Journal
from controller.runtime.outputs import Terminal
from tests.controller.runtime import progressive_game
from tests.controller.runtime.helpers import PROGRESSIVE_TOML
from tests.tablectl import ROOT

LINE = re.compile(r"^#(\d+) r(\d+) (.*)$")
SHOWN = re.compile(r"^  \[(\w+) @(\d+)\] ")


def daemon(config: Path, rounds: int, seed: int, **popen) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "tests.controller.runtime.daemon_with_test_game", "run", "--config", str(config),
           "--simulate", "--fast", "--until-round", str(rounds), "--seed", str(seed)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            **popen)


def shown_lines(output: str) -> list[str]:
    lines = output.split("\n")
    return lines[:-1]  # the last piece has no newline: cut off by the kill, never fully shown


def table_money(config: Path) -> tuple[int, str]:
    """(minor unit, currency) of a table configuration, as the terminal prints amounts."""
    table = tomllib.loads(config.read_text(encoding="utf-8"))["table"]
    return int(table.get("minor_unit", 100)), str(table.get("currency", ""))


def check_shown(journal: Journal, lines: list[str], money: tuple[int, str] = (100, "")) -> int:
    """Every record line shown is in the journal with the same round and text; returns how many were checked."""
    records = {r.seq: r for r in journal.records()}
    checked = 0
    for line in lines:
        if m := LINE.match(line):
            seq, round_, text = int(m.group(1)), int(m.group(2)), m.group(3)
            assert seq in records, f"shown but not journaled: {line}"
            assert records[seq].round == round_ and Terminal.shown(records[seq], *money) == text, line
            checked += 1
        elif m := SHOWN.match(line):
            assert int(m.group(2)) in records or int(m.group(2)) == 0, f"display state from an unjournaled record: {line}"
    return checked


def caribbean_config(tmp_path: Path) -> Path:
    """The example Caribbean Stud table (dk: raises and ties carry) with its progressive, journal in ``tmp_path``."""
    text = (ROOT / "hw" / "tables" / "caribbean-stud-dk.toml").read_text(encoding="utf-8")
    text = text.replace('path = "var/caribbean-stud-dk/journal.sqlite"', f'path = "{tmp_path / "journal.sqlite"}"')
    text = text.replace('pin_map = "../', f'pin_map = "{ROOT / "hw"}/')  # the pin maps stay where they are
    config = tmp_path / "table.toml"
    config.write_text(text)
    return config


def kill_session(tmp_path: Path, kills: int, rounds: int, seed: int, lines_between: int = 60,
                 game: str = "progressive-test") -> dict:
    if game == "caribbean-stud":
        config, meter_name = caribbean_config(tmp_path), "cs-progressive"
    else:
        config, meter_name = tmp_path / "table.toml", "main"
        config.write_text(PROGRESSIVE_TOML.format(journal=tmp_path / "journal.sqlite", cap=160000))
    rng = random.Random(seed)
    outputs: list[str] = []
    killed = 0
    proc: subprocess.Popen[str] | None = None
    try:
        for k in range(kills):
            proc = daemon(config, rounds, seed + k)
            head = ""
            if rng.random() < 0.2:  # one kill in five lands during the start and the recovery
                time.sleep(rng.uniform(0.0, 0.4))
            else:  # the others at a random moment of play, counted in lines of output so that the kill lands
                # mid-session whatever the machine's speed (the machine may be slow to start: wait for ready)
                assert proc.stdout is not None
                while not head.endswith("\n") or "ready:" not in head.splitlines()[-1]:
                    line = proc.stdout.readline()
                    if not line:
                        break
                    head += line
                for _ in range(rng.randint(1, lines_between)):
                    line = proc.stdout.readline()
                    if not line:
                        break
                    head += line
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                killed += 1
            out, _ = proc.communicate(timeout=60)
            outputs.append(head + out)
            if proc.returncode == 0:
                break
        proc = daemon(config, rounds, seed + kills + 1)
        try:
            out, _ = proc.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            raise AssertionError("the last run did not finish the session: " + "\n".join(out.splitlines()[-8:]))
        assert proc.returncode == 0
        outputs.append(out)
    finally:
        if proc is not None and proc.poll() is None:  # never leave a daemon behind a failed test
            proc.kill()
            proc.communicate()
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    checked = sum(check_shown(journal, shown_lines(o), table_money(config)) for o in outputs)
    report = verify(journal)
    assert report["ok"], report["problems"][:5]
    assert report["rounds_settled"] == rounds  # each round settled exactly once (verify refuses a second)
    meter = report["meters"][meter_name]
    assert meter["value"] == (meter["opened"] + meter["contributions"] - meter["hits"] + meter["resets"]
                              + meter["overflow_moved"] + meter["corrections"])
    assert meter["corrections"] == 0 and meter["payouts"] <= meter["hits"]
    stored = journal.stored_meters()[meter_name]
    assert stored["value"] == meter["value"]
    # every hit is either paid (confirmed) or still pending with its frozen amount
    assert meter["hits"] == meter["payouts"] + sum(p["amount"] for p in stored["pending"])
    starts = sum(1 for _ in journal.records(kinds=("start",)))
    # settlements replay: a sample of rounds through the scenario path
    original = scenario.games.load_game
    if game == "progressive-test":
        scenario.games.load_game = progressive_game.lookup  # type: ignore[assignment]
    try:
        for number in sorted(rng.sample(range(1, rounds + 1), min(10, rounds))):
            settled = scenario.settle(scenario.load_scenario(json.loads(json.dumps(export_round(journal, number)))))
            assert settled["rounds"][0]["settlements"] == journal_settlements(journal, number)
    finally:
        scenario.games.load_game = original  # type: ignore[assignment]
    return {"killed": killed, "starts": starts, "shown_checked": checked, "meter": meter,
            "hits": sum(1 for r in journal.records(kinds=("meter",)) if r.body["kind"] == "hit")}


def test_sigkill_at_random_moments_loses_nothing_and_settles_nothing_twice(tmp_path: Path) -> None:
    result = kill_session(tmp_path, kills=6, rounds=40, seed=11)
    assert result["killed"] >= 3 and result["starts"] >= 4
    assert result["shown_checked"] > 100


def test_sigkill_a_caribbean_stud_table_keeps_its_progressive_meter(tmp_path: Path) -> None:
    result = kill_session(tmp_path, kills=4, rounds=40, seed=7, game="caribbean-stud")
    assert result["killed"] >= 2 and result["meter"]["contributions"] > 0


@pytest.mark.slow
def test_sigkill_60_times_in_a_400_round_caribbean_stud_session(tmp_path: Path) -> None:
    result = kill_session(tmp_path, kills=60, rounds=400, seed=2027, game="caribbean-stud")
    print(json.dumps(result))
    assert result["killed"] >= 40 and result["hits"] > 0 and result["meter"]["payouts"] > 0


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_sigkill_200_times_in_a_1000_round_session(tmp_path: Path) -> None:
    result = kill_session(tmp_path, kills=200, rounds=1000, seed=2026, lines_between=40)
    print(json.dumps(result))
    assert result["killed"] == 200  # every kill landed before the session could finish


def test_a_full_disk_stops_the_table_and_nothing_unjournaled_is_shown(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(PROGRESSIVE_TOML.format(journal=tmp_path / "journal.sqlite", cap=160000))

    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))

    proc = daemon(config, 10_000, 5, preexec_fn=limit_file_size)
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("#- FAULT latched: journal"):
                break
        assert lines and lines[-1].startswith("#- FAULT latched: journal"), lines[-5:]
        time.sleep(1.5)  # the table keeps running: nothing more may be journaled or shown
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    after = [line for line in rest.split("\n") if LINE.match(line)]
    assert after == [], after[:3]
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    assert check_shown(journal, lines, table_money(config)) > 5
    assert verify(journal)["ok"]
