"""Every command the README and docs/ show in a shell block runs as written.

Each fenced block (no language, or sh / shell / bash / console) of README.md and docs/**/*.md is
read; every line that starts with ``tablectl`` or ``sh`` (after ``sudo`` or ``sudo -u USER``, and with
an installed path such as ``/opt/tablectl/.venv/bin/tablectl`` read as ``tablectl``) is run through a
shell, in document order (in this process, as ``tablectl`` would run them; an emulator as its own process),
in one temporary folder that holds a copy of ``hw/`` and a journal of 12
settled rounds. Paths of a real installation are replaced by those temporary files (``REPLACE``).

- A synopsis line (``[--json]``, ``IMAGE...``, ``dice|roulette``) is not run: every ``--option`` it
  names must be in the subcommand's ``--help``.
- ``tablectl run`` gets ``--fast`` and at most 10 rounds (2 where the doc gives none): the doc's
  paced or endless run is the same code, shorter.
- An emulator serves until it is stopped: it must still be running, with nothing on stderr, after
  2 seconds.
- ``SKIP`` lists the lines that need real hardware or are this test suite itself, each with why.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import cli
from tests.tablectl import ROOT

# The module fixture is costly: its tests stay on one worker under `sh test.sh` (xdist).
pytestmark = pytest.mark.xdist_group("docs-place")

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELL_FENCES = {"", "sh", "shell", "bash", "console"}

SKIP = {
    "sh test.sh": "the whole test suite: the suite this test is part of",
    "sh run.sh": "builds its own environment: tests/test_run_sh.py runs it on a fresh copy of the tree",
    "tablectl selftest hw/bj-burn-7.toml": "walks a technician through the real devices of a Raspberry Pi",
    "tablectl floor query --config /etc/tablectl-floor/floor.toml | head":
        "reads a running floor service's store (a NATS broker and the floor.toml of docs/floor.md)",
}

REPLACE = {  # in order: a whole command first, then the paths
    # the journal here was made by a run, which made its key: keygen is shown on a table of its own
    "journal keygen /var/lib/tablectl/journal.sqlite": "journal keygen new-table.sqlite",
    '"$B"': "journal.sqlite",  # the backup of section 9: a shell variable the test does not set
    "/etc/tablectl/table.toml": "hw/tables/punto-banco-se.toml",
    "/opt/tablectl/hw/": "hw/",
    "/var/lib/tablectl/journal.sqlite": "journal.sqlite",
    "/media/usb/journal-$(hostname)-$(date +%F).sqlite": "journal.sqlite",
    "/etc/tablectl/code.sha256": "code.sha256",
    "--round 1234": "--round 12",
}

SERVES = ("tablectl emulate ",)  # run until stopped
EXIT = {  # a documented command whose point is a failure
    'tablectl selftest hw/progressive-7.toml --simulate --simulate-miss presence:"3 ante" --json': 1,  # a missed sensor
}
INPUT = {"tablectl console hash-pin": "4711\n4711\n"}  # the PIN twice, as a technician types it


def is_synopsis(command: str) -> bool:
    return bool(re.search(r"\[--|\.\.\.|\w\|\w", command))


def doc_commands() -> list[tuple[str, int, str]]:
    """(document, line number, command) for every command line of a shell block, in document order."""
    out = []
    for doc in DOCS:
        fence: str | None = None
        pending = ""
        block: list[tuple[str, int, str]] = []
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            opening = re.match(r"^\s*```(\S*)", line)
            if opening:
                if fence is not None:  # a block of synopses (usage lines) is checked as synopses only
                    synopsis = any(is_synopsis(c) for _, _, c in block)
                    out += [(d, n, f"SYNOPSIS {c}" if synopsis else c) for d, n, c in block]
                    block = []
                fence = None if fence is not None else opening.group(1)
                continue
            if fence is None or fence not in SHELL_FENCES:
                continue
            text = pending + line.strip()
            if text.endswith("\\"):
                pending = text[:-1] + " "
                continue
            pending = ""
            command = normalise(text)
            if command is not None:
                block.append((str(doc.relative_to(ROOT)), number, command))
    return out


def normalise(text: str) -> str | None:
    """The command as the test runs it, or None when the line is no tablectl/sh command."""
    text = re.sub(r"^sudo (-u \S+ )?", "", text)
    text = re.sub(r"^\S*/\.venv/bin/tablectl\b", "tablectl", text)
    text = re.sub(r"^\.venv/bin/tablectl\b", "tablectl", text)
    if not re.match(r"^(tablectl|sh)\s", text):
        return None
    return re.sub(r"\s+#.*$", "", text).strip()  # the doc's own comment


COMMANDS = doc_commands()


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    where = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "hw", where / "hw")
    bin_dir = where / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "tablectl"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m controller.cli "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    made = subprocess.run(["tablectl", "run", "--simulate", "--game", "punto-banco", "--fast", "--rounds", "12",
                           "--quiet", "--journal", "journal.sqlite"], cwd=where, env=env, capture_output=True,
                          text=True, timeout=120)
    assert made.returncode == 0, made.stderr  # a table's journal of 12 rounds
    felt = subprocess.run([sys.executable, "-c", "import cv2, numpy; from drivers.vision import synth_dice; "
                           "cv2.imwrite('empty.png', synth_dice.felt(numpy.random.default_rng(1)))"],
                          cwd=where, env=env, capture_output=True, text=True, timeout=60)
    assert felt.returncode == 0, felt.stderr  # the empty felt that docs/devices/vision.md calibrates on
    return where, env


def prepared(command: str) -> str:
    command = re.sub(r"\s*\|\s*(head|tail|less)\b.*$", "", command)  # a pager or head only trims what is shown
    for old, new in REPLACE.items():
        command = command.replace(old, new)
    if command.startswith("tablectl run "):
        if "--fast" not in command:
            command += " --fast"
        rounds = re.search(r"--rounds (\d+)", command)
        if rounds is None:
            command += " --rounds 2"
        elif int(rounds.group(1)) > 10:
            command = command.replace(rounds.group(0), "--rounds 10")
    return command


def tablectl(command: str, stdin: str = "") -> tuple[int, str, str]:
    """Run one ``tablectl ...`` line in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(shlex.split(command)[1:])
            except SystemExit as stop:  # argparse: --help, --version, a usage error
                status = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def check_synopsis(command: str) -> None:
    words = command.split()
    sub = [w for w in words[1:3] if re.fullmatch(r"[a-z][a-z-]*", w)]
    if len(sub) == 2 and words[1] not in ("vision", "journal", "config", "emulate", "console"):
        sub = sub[:1]
    status, help_text, err = tablectl(" ".join(["tablectl", *sub, "--help"]))
    assert status == 0, err
    for option in re.findall(r"--[a-z][a-z-]*", command):
        assert option in help_text, f"{command}: {option} is not an option of 'tablectl {' '.join(sub)}'"


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 25, COMMANDS
    assert any(doc == "docs/operations.md" for doc, _, _ in COMMANDS)


def test_every_documented_command_runs(place: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    where, env = place
    monkeypatch.chdir(where)
    failures = []
    for doc, number, command in COMMANDS:
        if command in SKIP:
            continue
        if command.startswith("SYNOPSIS "):
            try:
                check_synopsis(command.removeprefix("SYNOPSIS "))
            except AssertionError as exc:
                failures.append(f"{doc}:{number}: {exc}")
            continue
        line = prepared(command)
        if line.startswith(SERVES):
            process = subprocess.Popen(line, shell=True, cwd=where, env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, text=True, start_new_session=True)
            time.sleep(2)
            alive = process.poll() is None
            os.killpg(process.pid, signal.SIGTERM)
            _, err = process.communicate(timeout=10)
            if not alive:
                failures.append(f"{doc}:{number}: {command}: stopped at once: {err.strip()[-500:]}")
            continue
        assert line.startswith("tablectl "), line  # every other sh line is in SKIP
        status, _, err = tablectl(line, INPUT.get(command, ""))
        if status != EXIT.get(command, 0) or "Traceback" in err:
            failures.append(f"{doc}:{number}: {command}: exit {status}: {err.strip()[-500:]}")
    assert not failures, "\n".join(failures)
