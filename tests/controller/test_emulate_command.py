"""`tablectl emulate`: the emulators as an operator runs them, with the real drivers attached."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from drivers.shoe.events import (CardDealt, DeckCheck, DeviceIdentity, Jam, LinkFault, LinkRestored, ShoeEmpty,
                                 ShoeState, ShuffleDone, Tamper)
from drivers.shoe.link import ShoeLink
from drivers.wheel.events import WheelNumber, WheelState
from drivers.wheel.reader import WheelReader
from tests.drivers.shoe.helpers import Collector
from tests.tablectl import ROOT, run_tablectl

pytestmark = pytest.mark.timeout(60)


def start(*args: str, stdin: int | None = None) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "emulate", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=stdin, text=True, cwd=ROOT, env=env)
    assert proc.stdout is not None
    path = proc.stdout.readline().strip()
    assert path, proc.stderr.read() if proc.stderr else ""
    return proc, path


def finish(proc: subprocess.Popen[str], input: str | None = None) -> str:
    try:
        out, err = proc.communicate(input, timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    return out


def test_emulate_shoe_deals_scripted_cards_with_faults_and_a_disconnect(tmp_path: Path) -> None:
    link_path = str(tmp_path / "shoe")
    proc, path = start("shoe", "--link", link_path, "--cards", "Ah Kd 10c 2s 9h", "--interval", "0", "--delay",
                       "0.3", "--jam-after", "2", "--tamper-after", "4", "--disconnect-after", "3",
                       "--disconnect-for", "0.5", "--flip", "0.1", "--fault-seed", "3", "--exit-when-done")
    assert path == link_path
    got = Collector()
    link = ShoeLink(path, got)
    link.start()
    try:
        out = finish(proc)
        assert got.wait_count(ShoeEmpty, 1, 5)
    finally:
        link.stop()
    assert [e.card for e in got.of(CardDealt)] == ["Ah", "Kd", "Tc", "2s", "9h"]
    body = [e for e in got.events if not isinstance(e, (DeviceIdentity, LinkFault, LinkRestored))]
    assert body == [ShoeState(True), CardDealt("Ah"), CardDealt("Kd"), Jam("card stuck at the exit"),
                    CardDealt("Tc"), CardDealt("2s"), Tamper("sensor covered"), CardDealt("9h"), ShoeEmpty()]
    assert len(got.of(LinkRestored)) == 1 and 1 <= len(got.of(LinkFault)) <= 2  # the 2nd: the emulator exiting
    assert "all acknowledged" in out and "unplugged for 0.5 s" in out


def test_emulate_shuffler_reports_the_deck_check() -> None:
    proc, path = start("shuffler", "--decks", "2", "--missing", "Ah", "--foreign", "X1", "--interval", "0",
                       "--delay", "0.2", "--exit-when-done", "--quiet")
    got = Collector()
    link = ShoeLink(path, got, kind="shuffler")
    link.start()
    try:
        out = finish(proc)
        assert got.wait_count(ShuffleDone, 1, 5)
    finally:
        link.stop()
    assert got.of(DeckCheck) == [DeckCheck(missing=("Ah",), extra=(), foreign=("X1",), counted=104)]
    assert got.of(ShuffleDone) == [ShuffleDone(104)] and out == ""


def test_emulate_wheel_spins_the_given_numbers() -> None:
    proc, path = start("wheel", "--numbers", "17 0 32", "--interval", "0", "--delay", "0.5", "--separator", ";",
                       "--exit-when-done")
    got = Collector()
    reader = WheelReader(path, got)
    reader.start()
    try:
        finish(proc)
        assert got.wait_count(WheelNumber, 3, 5)
    finally:
        reader.stop()
    assert [(e.spin, e.number) for e in got.of(WheelNumber)] == [(1, 17), (2, 0), (3, 32)]
    assert got.of(WheelState)[-1].state == 6


def test_seeded_shoe_is_the_same_every_time() -> None:
    proc, path = start("shoe", "--decks", "1", "--count", "5", "--seed", "7", "--interval", "0", "--delay", "0.2",
                       "--exit-when-done", "--quiet")
    got = Collector()
    link = ShoeLink(path, got)
    link.start()
    try:
        finish(proc)
        assert got.wait_count(CardDealt, 5, 5)
    finally:
        link.stop()
    import random

    from controller import cards
    expected = [str(c) for c in cards.shuffled(cards.shoe(1), random.Random(7))][:5]
    assert [e.card for e in got.of(CardDealt)] == expected


@pytest.mark.parametrize("args,message", [
    (("shoe", "--cards", "Ah Xd"), "emulate --cards: bad card 'Xd'"),
    (("shuffler", "--missing", "Zz"), "emulate --missing: bad card 'Zz'"),
    (("wheel", "--numbers", "17 40"), "emulate --numbers: 40 is not on a 0..36 wheel"),
    (("wheel", "--numbers", "seven"), "emulate --numbers: 'seven' is not a list of numbers"),
    (("shoe", "--interval", "-1"), "must not be negative"),
])
def test_bad_options_are_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_tablectl("emulate", *args, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_emulate_interactive_shoe_takes_typed_commands() -> None:
    proc, path = start("shoe", "--interactive", stdin=subprocess.PIPE)
    got = Collector()
    link = ShoeLink(path, got)
    link.start()
    try:
        assert got.wait_count(DeviceIdentity, 1, 5)
        out = finish(proc, "card Ah 10d\njam card stuck\nfly away\nnoise 40\ncut\nstats\nquit\n")
        assert got.wait_count(Jam, 1, 3)
    finally:
        link.stop()
    assert [e.card for e in got.of(CardDealt)] == ["Ah", "10d"] and got.of(Jam) == [Jam("card stuck")]
    assert "unknown command 'fly'" in out
    # the counters in words: no Python repr reaches the technician
    assert "EmulatorStats(" not in out and "sent=" not in out
    assert re.search(r"\d+ frames sent, \d+ acknowledged, \d+ resent, \d+ waiting; line faults: ", out)


def test_emulate_interactive_wheel_takes_typed_commands() -> None:
    proc, path = start("wheel", "--interactive", stdin=subprocess.PIPE)
    got = Collector()
    reader = WheelReader(path, got)
    reader.start()
    try:
        time.sleep(0.3)
        out = finish(proc, "spin 17\nspin 5 warnings=8\nspin x\nline *X:9:9:9:9\nclose\nquit\n")
        assert got.wait_for(lambda evs: any(isinstance(e, WheelState) and e.state == 6 for e in evs), 3)
    finally:
        reader.stop()
    assert [(e.spin, e.number) for e in got.of(WheelNumber)] == [(1, 17)]
    assert "spin 1: 17" in out and "spin: invalid literal" in out and reader.counters().unknown_lines == 1
