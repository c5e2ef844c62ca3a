"""`sh run.sh` on a fresh copy of the tree, the way the README tells a new user to start.

One fresh environment is built for the whole module by the first `sh run.sh` (nothing but
python3 on the PATH, no virtual environment active), then every game the README names is
started through it: the games whose simulated devices need the most (the dice cameras of Sic Bo
and Tärning, the shoe of Blackjack) one by one, then every game and variant of `tablectl games`
and every file in hw/tables/ for a round each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from controller import games
from tests.tablectl import ROOT

# The module fixture is costly: its tests stay on one worker under `sh test.sh` (xdist).
pytestmark = pytest.mark.xdist_group("fresh-clone")

VARIANTS = [(spec.id, v.id) for spec in games.all_games() for v in spec.variants]
TABLES = sorted(p.name for p in (ROOT / "hw" / "tables").glob("*.toml"))


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}}
    venv_bin = str(ROOT / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree as a clone has it (tracked and new files, nothing ignored: no .venv, no var/)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    dest = tmp_path_factory.mktemp("clone")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def run_sh(clone: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "run.sh", *args], cwd=clone, env=_clean_env(), capture_output=True, text=True,
                          timeout=timeout)


def tablectl(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(clone / ".venv" / "bin" / "tablectl"), *args], cwd=clone, env=_clean_env(),
                          capture_output=True, text=True, timeout=120)


def assert_played(done: subprocess.CompletedProcess[str], what: str) -> None:
    assert done.returncode == 0, f"{what}: exit {done.returncode}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr + done.stdout, f"{what}:\n{done.stderr[-3000:]}"
    assert "ready: table" in done.stdout, f"{what}: never ready\n{done.stdout[-2000:]}"


@pytest.fixture(scope="module")
def built(fresh_clone: Path) -> Path:
    """The first `sh run.sh` builds .venv from nothing; the later ones reuse it."""
    assert not (fresh_clone / ".venv").exists()
    done = run_sh(fresh_clone, "--game", "sic-bo", "--rounds", "1", "--fast")
    assert_played(done, "sh run.sh --game sic-bo")
    assert (fresh_clone / ".venv" / "bin" / "tablectl").exists()
    return fresh_clone


@pytest.mark.parametrize("game", ["tarning", "blackjack"])
def test_run_sh_plays_the_game_on_a_fresh_clone(built: Path, game: str) -> None:
    assert_played(run_sh(built, "--game", game, "--rounds", "1", "--fast"), f"sh run.sh --game {game}")


def test_an_example_table_with_a_dice_camera_runs_simulated(built: Path) -> None:
    done = tablectl(built, "run", "--config", "hw/tables/sic-bo-fi.toml", "--simulate", "--fast", "--rounds", "1",
                    "--journal", str(built / "var" / "sic-bo-fi.sqlite"))
    assert_played(done, "tablectl run --config hw/tables/sic-bo-fi.toml --simulate")


def test_the_run_sh_environment_has_what_math_needs(built: Path) -> None:
    done = tablectl(built, "math", "caribbean-stud", "--variant", "classic", "--simulate", "2000")
    assert done.returncode == 0, done.stderr


def _failure(done: subprocess.CompletedProcess[str], what: str) -> str | None:
    try:
        assert_played(done, what)
    except AssertionError as refused:
        return str(refused)
    return None


def test_every_game_variant_and_example_table_starts_from_the_fresh_environment(built: Path) -> None:
    """Every `sh run.sh --game G --variant V` and every `tablectl run --config hw/tables/X --simulate`.

    One round each, three at a time (each start is mostly the interpreter's imports), through the one
    environment the first `sh run.sh` built; every failure is named, not only the first.
    """
    jobs: list[tuple[str, Callable[[], subprocess.CompletedProcess[str]]]] = []
    for game, variant in VARIANTS:
        jobs.append((f"sh run.sh --game {game} --variant {variant}",
                     partial(run_sh, built, "--game", game, "--variant", variant, "--rounds", "1", "--fast")))
    for table in TABLES:
        jobs.append((f"tablectl run --config hw/tables/{table} --simulate",
                     partial(tablectl, built, "run", "--config", f"hw/tables/{table}", "--simulate", "--fast",
                             "--rounds", "1", "--journal", str(built / "var" / f"{table}.sqlite"))))
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda job: _failure(job[1](), job[0]), jobs))
    failed = [failure for failure in results if failure is not None]
    assert len(jobs) == len(VARIANTS) + len(TABLES) and len(TABLES) > 20
    assert not failed, f"{len(failed)} of {len(jobs)} did not play:\n" + "\n".join(failed)
