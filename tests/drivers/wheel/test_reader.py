"""The real wheel reader against the wheel emulator over real ptys."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from drivers.wheel.emulator import LineFaults, WheelEmulator
from drivers.wheel.events import (LinkFault, LinkRestored, WheelFault, WheelNoMoreBets, WheelNumber, WheelState,
                                  WheelVoid)
from drivers.wheel.reader import WheelReader
from tests.drivers.shoe.helpers import Collector

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Callable[..., tuple]]:
    made: list = []

    def make(emulator_kw: dict | None = None, **reader_kw):
        emu = WheelEmulator(link_path=str(tmp_path / f"wheel{len(made)}"), **(emulator_kw or {}))
        path = emu.start()
        got = Collector()
        reader = WheelReader(path, got, **reader_kw)
        made.append((emu, reader))
        reader.start()
        time.sleep(0.15)  # let the reader open the port before the wheel talks (a wheel does not repeat old lines)
        return emu, reader, got

    yield make
    for emu, reader in made:
        reader.stop()
        emu.stop()


def numbers(got: Collector) -> list[tuple[int, int]]:
    return [(e.spin, e.number) for e in got.of(WheelNumber)]


@pytest.mark.parametrize("sep", [":", ";"])
def test_spins_become_numbers(stack, sep: str) -> None:
    emu, reader, got = stack({"seed": 4, "separator": sep, "first_spin": 550})
    drawn = [emu.spin() for _ in range(20)]
    emu.close_table()
    assert emu.wait_done(10)
    assert got.wait_count(WheelNumber, 20, 3)
    # the table's closing state line comes after the last number: wait for it too (a CI run asserted first)
    got.wait_for(lambda events: WheelState(6, 570, 0, 1) in events, 3)
    assert numbers(got) == list(zip(range(550, 570), drawn))
    assert len(got.of(WheelNoMoreBets)) == 20 and got.of(WheelState)[-1] == WheelState(6, 570, 0, 1)
    c = reader.counters()
    assert c.connected and c.lines_good == 101 and c.unknown_lines == 0 and c.numbers == 20


def test_void_and_fault_flags_over_the_line(stack) -> None:
    emu, reader, got = stack()
    emu.spin(5, warnings=2)
    emu.spin(6, warnings=4)
    assert emu.wait_done(5)
    assert got.wait_count(WheelNumber, 1, 3)
    assert got.of(WheelVoid) == [WheelVoid("ball spun the same way as the rotor", 1)]
    assert got.of(WheelFault) == [WheelFault("sensor or motor fault", 2)]
    assert numbers(got) == [(2, 6)]


def test_unknown_lines_are_counted_never_fatal(stack) -> None:
    emu, reader, got = stack()
    for junk in (b"*T:1:2:3\r\n", b"hello\r\n", b"\x00\xff\xfe\r\n", b"*X:9:1:1:0\r\n", b"x" * 500 + b"\r\n"):
        emu.send_line(junk)
    emu.spin(11)
    assert emu.wait_done(5)
    assert got.wait_count(WheelNumber, 1, 3) and numbers(got) == [(1, 11)]
    c = reader.counters()
    assert c.unknown_lines + c.resyncs == 5 and c.unknown_lines >= 4 and reader.running  # the long one either way


def test_faulty_line_never_gives_a_wrong_number_with_confirmations(stack) -> None:
    emu, reader, got = stack({"seed": 9, "repeat": 3, "faults": LineFaults(noise=0.03, flip=0.05, drop=0.03,
                                                                           duplicate=0.03, seed=2)},
                             confirmations=2)
    drawn = {550 + i: None for i in range(300)}
    emu.spin_number = 550
    for spin in drawn:
        drawn[spin] = emu.spin()
    assert emu.wait_done(30)
    time.sleep(0.3)
    got_numbers = numbers(got)
    assert all(drawn.get(spin) == number for spin, number in got_numbers), got_numbers
    assert len({spin for spin, _ in got_numbers}) == len(got_numbers)  # once per spin
    assert len(got_numbers) >= 250  # most spins survive 5 % faults on three repeats
    assert emu.flipped > 0 and reader.counters().unknown_lines > 0


def test_unplug_noticed_within_a_second_and_replug_within_two(stack) -> None:
    emu, reader, got = stack()
    t0 = time.monotonic()
    emu.unplug()
    assert got.wait_count(LinkFault, 1, 1.0)
    assert time.monotonic() - t0 < 1.0 and not reader.counters().connected
    time.sleep(1.5)
    t1 = time.monotonic()
    emu.replug()
    assert got.wait_count(LinkRestored, 1, 2.0)
    assert time.monotonic() - t1 < 2.0
    time.sleep(0.1)
    emu.spin(33)
    assert got.wait_count(WheelNumber, 1, 3) and numbers(got) == [(1, 33)]
    assert reader.counters().reconnects == 1


def test_silence_is_a_fault_when_asked_for(stack) -> None:
    emu, reader, got = stack(silence_timeout=0.3)
    assert got.wait_count(LinkFault, 1, 1.5)
    assert "no status line from the wheel" in got.of(LinkFault)[0].reason
    emu.spin(1)
    assert got.wait_count(LinkRestored, 1, 2) and got.wait_count(WheelNumber, 1, 2)


def test_a_million_random_bytes_into_the_reader_give_no_event() -> None:
    got = Collector()
    reader = WheelReader("fuzz://", got)
    rng = random.Random(1)
    for _ in range(250):
        reader.on_data(rng.randbytes(4000), 0.0)
    assert got.events == [] and reader.counters().unknown_lines > 0
