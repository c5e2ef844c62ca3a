"""Progress on stderr: a per-cent line where someone watches a terminal, silence otherwise."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys

from controller.progress import Progress
from tests.tablectl import ROOT


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_per_cent_lines_and_one_line_end() -> None:
    stream = Terminal()
    progress = Progress("math blackjack se", 1000, "rounds", stream=stream, every_s=0)
    for done in (0, 250, 500, 1000):
        progress(done)
    progress.close()
    text = stream.getvalue()
    assert "\rmath blackjack se:  25 % (250 of 1,000 rounds)" in text
    assert text.endswith("100 % (1,000 of 1,000 rounds)\n") and text.count("\n") == 1


def test_quiet_and_a_pipe_see_nothing() -> None:
    for stream, quiet in ((Terminal(), True), (io.StringIO(), False)):
        progress = Progress("x", 10, stream=stream, quiet=quiet, every_s=0)
        progress(5)
        progress(10)
        progress.close()
        assert stream.getvalue() == ""


def _stderr_on_a_terminal(*args: str) -> tuple[int, str, str]:
    main, side = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=subprocess.PIPE, stderr=side,
                            cwd=ROOT, env=env)
    os.close(side)
    seen = b""
    while True:
        ready, _, _ = select.select([main], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode() if proc.stdout else ""
    os.close(main)
    return proc.wait(), out, seen.decode()


def test_math_simulate_shows_progress_on_a_terminal_and_not_with_quiet() -> None:
    status, out, err = _stderr_on_a_terminal("math", "blackjack", "--variant", "fi", "--simulate", "60000")
    assert status == 0 and "house edge" in out
    assert "math blackjack fi: 100 % (60,000 of 60,000 rounds)" in err and " 0 % " in err
    status, out, err = _stderr_on_a_terminal("math", "blackjack", "--variant", "fi", "--simulate", "60000",
                                             "--quiet")
    assert status == 0 and "%" not in err


def test_journal_verify_shows_progress_on_a_terminal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    journal = tmp_path / "j.sqlite"
    made = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--simulate", "--game", "roulette",
                           "--fast", "--rounds", "3", "--quiet", "--journal", str(journal)], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    status, out, err = _stderr_on_a_terminal("journal", "verify", str(journal))
    assert status == 0 and "chain intact" in out
    assert "records)" in err and "100 %" in err


def test_vision_generate_shows_progress_on_a_terminal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    status, out, err = _stderr_on_a_terminal("vision", "generate", "dice", "--out", str(tmp_path), "--count", "3")
    assert status == 0, err
    assert "vision generate dice: 100 % (3 of 3 scenes)" in err  # --quiet silences it as it does math's
