"""A table configuration that names no device is refused unless the table is simulated."""

from __future__ import annotations

from pathlib import Path

from tests.tablectl import run_tablectl

MINIMAL = """[table]
id = "t1"
game = "punto-banco"
currency = "SEK"
minor_unit = 100

[journal]
path = "{journal}"
"""


def minimal(tmp_path: Path) -> Path:
    path = tmp_path / "minimal.toml"
    path.write_text(MINIMAL.format(journal=tmp_path / "journal.sqlite"), encoding="utf-8")
    return path


def test_config_check_refuses_a_table_without_devices_in_one_line(tmp_path: Path) -> None:
    done = run_tablectl("config", "check", str(minimal(tmp_path)))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "names no device" in lines[0] and "--simulate" in lines[0], done.stderr


def test_config_check_simulate_accepts_it(tmp_path: Path) -> None:
    done = run_tablectl("config", "check", "--simulate", str(minimal(tmp_path)))
    assert done.returncode == 0, done.stderr


def test_run_refuses_it_without_simulate_and_writes_no_journal(tmp_path: Path) -> None:
    done = run_tablectl("run", "--config", str(minimal(tmp_path)), "--rounds", "1", "--fast", timeout=60)
    assert done.returncode == 2, done.stdout[-500:]
    assert "ready" not in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "names no device" in lines[0], done.stderr
    assert not (tmp_path / "journal.sqlite").exists()


def test_run_simulate_plays_it(tmp_path: Path) -> None:
    done = run_tablectl("run", "--config", str(minimal(tmp_path)), "--simulate", "--rounds", "1", "--fast",
                        "--quiet", timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "journal.sqlite").exists()
