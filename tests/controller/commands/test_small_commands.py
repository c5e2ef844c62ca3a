"""hash-pin on piped input, journal tail's -n and times, and the wrong kind of file named as such."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tablectl import ROOT, run_tablectl


def test_hash_pin_refuses_two_different_pins_on_piped_input() -> None:
    done = run_tablectl("console", "hash-pin", input="4711\n4712\n")
    assert done.returncode == 2 and "differ" in done.stderr and not done.stdout
    done = run_tablectl("console", "hash-pin", input="4711\n4711\n")
    assert done.returncode == 0 and done.stdout.startswith("scrypt$")
    done = run_tablectl("console", "hash-pin", input="4711\n")  # one line: a script that gives it once
    assert done.returncode == 0 and done.stdout.startswith("scrypt$")


def test_journal_tail_shows_times_and_refuses_no_records(tmp_path: Path) -> None:
    journal = str(tmp_path / "j.sqlite")
    assert run_tablectl("run", "--simulate", "--game", "roulette", "--fast", "--rounds", "1", "--quiet",
                        "--journal", journal).returncode == 0
    done = run_tablectl("journal", "tail", journal, "-n", "3")
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and len(lines) == 3
    assert all(re.match(r"#\d+ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC r\d+ ", line) for line in lines), lines
    for bad in ("0", "-3"):
        done = run_tablectl("journal", "tail", journal, "-n", bad)
        assert done.returncode == 2 and "1 or more" in done.stderr and not done.stdout


def test_a_pin_map_given_to_config_check_is_named_as_a_pin_map() -> None:
    done = run_tablectl("config", "check", str(ROOT / "hw" / "dealer-panel.toml"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pin map" in done.stderr and "not a table configuration" in done.stderr


def test_a_table_config_given_to_selftest_is_named_as_a_table_config() -> None:
    done = run_tablectl("selftest", str(ROOT / "hw" / "tables" / "blackjack-se.toml"), "--simulate")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "table configuration" in done.stderr and "not a pin map" in done.stderr
