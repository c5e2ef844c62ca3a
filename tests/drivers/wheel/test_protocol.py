"""The wheel status line: every state, every flag, both separators, and what is not a status line."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.wheel.protocol import (STATES, WARNINGS, LineError, LineSplitter, WheelStatus, format_line,
                                    parse_line)


def test_the_published_example() -> None:
    status = parse_line(b"*X:2:552:24:0:439:1\r\n")
    assert status == WheelStatus(state=2, spin=552, number=24, warnings=0, rotor_speed=439, direction=1)
    assert status.state_name == "rotor turning"


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("flags", range(16))
def test_every_state_and_flag_combination(state: int, flags: int) -> None:
    status = WheelStatus(state, 17, 32, flags, 400, 0)
    for sep in ":;":
        assert parse_line(format_line(status, sep)) == status


@pytest.mark.parametrize("seps", list(itertools.product(":;", repeat=6)))
def test_every_separator_mix(seps: tuple[str, ...]) -> None:
    fields = ["5", "552", "0", "8", "439", "1"]
    line = "*X" + "".join(s + f for s, f in zip(seps, fields))
    assert parse_line(line) == WheelStatus(5, 552, 0, 8, 439, 1)


@pytest.mark.parametrize("end", ["", "\r", "\n", "\r\n"])
def test_line_ends_are_optional_to_the_line_parser(end: str) -> None:
    assert parse_line("*X;5;9;36;0;300;0" + end).number == 36


def test_speed_and_direction_may_be_missing_and_extra_fields_are_ignored() -> None:
    assert parse_line("*X:4:10:7:0") == WheelStatus(4, 10, 7, 0, None, None)
    assert parse_line("*X:4:10:7:0:350") == WheelStatus(4, 10, 7, 0, 350, None)
    assert parse_line("*X:4:10:7:0:350:1:99:abc") == WheelStatus(4, 10, 7, 0, 350, 1)


def test_leading_zeros_and_noise_before_the_status() -> None:
    assert parse_line("*X:5:0552:07:00:0439:1") == WheelStatus(5, 552, 7, 0, 439, 1)
    assert parse_line(b"\xff\x00garbage*X:5:1:17:0:400:1") == WheelStatus(5, 1, 17, 0, 400, 1)


@pytest.mark.parametrize("line,reason", [
    ("", "not a *X status line"), ("hello", "not a *X status line"), ("*T:1:2", "not a *X status line"),
    ("*X", "not a *X status line"), ("*X,5,1,2,0", "not a *X status line"),
    ("*X:5:1:2", "3 field(s), expected at least state, spin, number and warnings"),
    ("*X:7:1:2:0:400:1", "unknown state 7"), ("*X:0:1:2:0", "unknown state 0"),
    ("*X:5:1:37:0:400:1", "number 37 is not on a 0..36 wheel"),
    ("*X:5:1:-2:0", "field 3 '-2' is not a number"), ("*X:5:1:2:0:4x0:1", "field 5 '4x0' is not a number"),
    ("*X:5::2:0", "field 2 '' is not a number"), ("*X:5:1234567:2:0", "field 2 '1234567' is not a number"),
    ("*X:5:1:2:0:" + "1" * 200, "line too long"),
])
def test_what_is_not_a_status_line_says_why(line: str, reason: str) -> None:
    with pytest.raises(LineError) as info:
        parse_line(line)
    assert str(info.value) == reason


def test_warning_names_cover_the_four_flags() -> None:
    assert sorted(WARNINGS) == [1, 2, 4, 8]


def test_splitter_cuts_on_cr_lf_and_crlf_at_every_split() -> None:
    raw = b"*X:1:5:0:0:400:1\r\n*X:2:5:0:0:400:1\n*X:3:5:0:0:400:1\r\r\n*X:4:5:0:0:400:1\r\n"
    expected = [b"*X:1:5:0:0:400:1", b"*X:2:5:0:0:400:1", b"*X:3:5:0:0:400:1", b"*X:4:5:0:0:400:1"]
    for cut in range(len(raw) + 1):
        splitter = LineSplitter()
        assert splitter.feed(raw[:cut]) + splitter.feed(raw[cut:]) == expected, cut


def test_splitter_drops_an_overlong_run_and_resyncs_at_the_next_line_end() -> None:
    splitter = LineSplitter(max_line=40)
    out = splitter.feed(b"x" * 100) + splitter.feed(b"y" * 100 + b"\r\n*X:5:1:17:0\r\n")
    assert out == [b"*X:5:1:17:0"] and splitter.overlong == 1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_anything_but_line_error(data: bytes) -> None:
    for line in LineSplitter().feed(data):
        try:
            status = parse_line(line)
        except LineError:
            continue
        assert 0 <= status.number <= 36 and status.state in STATES


def test_a_million_random_bytes_through_the_splitter_and_parser() -> None:
    rng = random.Random(5)
    splitter = LineSplitter()
    good = 0
    for _ in range(250):
        for line in splitter.feed(rng.randbytes(4000)):
            try:
                parse_line(line)
                good += 1
            except LineError:
                pass
    assert good == 0
