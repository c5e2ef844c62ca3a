"""Fuzz: random bytes never raise out of the parser or the link, and never produce a card."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.shoe.events import CardDealt, DeviceIdentity
from drivers.shoe.link import ShoeLink
from drivers.shoe.protocol import FrameParser, Good, encode
from tests.drivers.shoe.helpers import Collector, HandDevice

HELLO = encode(0, "HEL", "ver=1 kind=shoe id=FUZZ fw=t boot=F00D")


def linked_link() -> tuple[ShoeLink, Collector]:
    """A link fed by hand (no port, no thread), already past the hello so that data frames would count."""
    got = Collector()
    link = ShoeLink("fuzz://", got)
    link.on_open(0.0)
    link.on_data(HELLO, 0.0)
    assert got.of(DeviceIdentity)
    return link, got


def test_a_million_random_bytes_through_parser_and_link() -> None:
    rng = random.Random(20261129)
    link, got = linked_link()
    parser = FrameParser()
    total = 0
    now = 0.0
    while total < 1_000_000:
        chunk = rng.randbytes(rng.randint(1, 4096))
        total += len(chunk)
        assert not [r for r in parser.feed(chunk) if isinstance(r, Good) and r.frame.type == "CRD"]
        now += 0.001
        link.on_data(chunk, now)
        link.on_tick(now)
    assert not got.of(CardDealt)
    assert link.counters().bytes_in >= 1_000_000 and link.counters().resyncs > 0


def test_random_bytes_with_frame_shaped_pieces_never_deliver_a_damaged_card() -> None:
    """Bytes built from frame pieces (starts, hex, types, stars, line ends) get past the framing far more often."""
    rng = random.Random(7)
    pieces = [b"@", b"*", b"\r", b"\n", b" ", b"CRD", b"HEL", b"ACK", b"Ah", b"10d", b"0", b"7", b"A", b"F", b"JK"]
    link, got = linked_link()
    sent_good = 0
    for _ in range(200_000):
        if rng.random() < 0.001:
            link.on_data(encode(rng.randrange(256), "CRD", "9s"), 0.0)  # real frames among the junk still count
            sent_good += 1
        else:
            link.on_data(rng.choice(pieces), 0.0)
    cards = got.of(CardDealt)
    assert all(c.card == "9s" for c in cards)  # nothing but the real frames; each one at most once
    assert len(cards) <= sent_good


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_hypothesis_chunks_never_raise_and_never_deal(chunks: list[bytes]) -> None:
    link, got = linked_link()
    for chunk in chunks:
        link.on_data(chunk, 0.0)
        link.on_tick(0.0)
    assert not got.of(CardDealt)


@pytest.mark.timeout(60)
def test_random_bytes_over_a_real_pty_do_not_stop_the_link(tmp_path: Path) -> None:
    device = HandDevice(str(tmp_path / "fuzz"))
    got = Collector()
    link = ShoeLink(device.path, got)
    link.start()
    try:
        assert device.wait_frame(lambda f: f.type == "HEL") is not None
        device.hello()
        assert got.wait_count(DeviceIdentity, 1, 2)
        rng = random.Random(3)
        for _ in range(64):
            device.write(rng.randbytes(4096))
            device.poll(0)
        device.send(1, "CRD", "Td")  # after 256 KiB of noise the link still takes a real card
        assert got.wait_count(CardDealt, 1, 3)
        time.sleep(0.1)
        assert [e.card for e in got.of(CardDealt)] == ["Td"] and link.running
    finally:
        link.stop()
        device.close()


@pytest.mark.slow
def test_ten_million_random_bytes_through_the_link() -> None:
    rng = random.Random(99)
    link, got = linked_link()
    for _ in range(2500):
        link.on_data(rng.randbytes(4000), 0.0)
    assert not got.of(CardDealt)
