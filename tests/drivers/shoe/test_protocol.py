"""The frame format and the pure parser: encoding, every byte split, every single-bit flip, garbage between frames."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.shoe.protocol import (MAX_PAYLOAD, Frame, FrameError, FrameParser, Garbage, Good, NeedMore, crc16,
                                   encode, scan)

FRAMES = [Frame(0, "HEL", "ver=1 kind=shoe id=EMU-0001 fw=emu-1 boot=1A2B"), Frame(7, "CRD", "Ah"),
          Frame(8, "CRD", "10d"), Frame(9, "CUT"), Frame(255, "DCK", "n=312 missing=Ah,Kd extra=2c foreign=X9"),
          Frame(16, "ACK"), Frame(17, "JAM", "card stuck at the exit"), Frame(0x42, "CRD", "JK")]


def stream(frames: list[Frame]) -> bytes:
    return b"".join(encode(f.seq, f.type, f.payload) for f in frames)


def good_frames(results: list) -> list[Frame]:
    return [r.frame for r in results if isinstance(r, Good)]


def reference_crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, straight from its definition."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogued check value of CRC-16/CCITT-FALSE
    assert crc16(b"") == 0xFFFF
    rng = random.Random(4)
    for _ in range(500):
        data = rng.randbytes(rng.randint(0, 64))
        assert crc16(data) == reference_crc(data)


def test_encode_is_printable_ascii_with_crc_over_the_body() -> None:
    raw = encode(7, "CRD", "Ah")
    assert raw.startswith(b"@07CRD Ah*") and raw.endswith(b"\r\n")
    assert int(raw[10:14], 16) == crc16(b"07CRD Ah")
    assert all(0x20 <= b <= 0x7E for b in raw[:-2])


@pytest.mark.parametrize("frame", FRAMES)
def test_scan_reads_back_each_frame(frame: Frame) -> None:
    raw = encode(frame.seq, frame.type, frame.payload)
    assert scan(raw) == Good(len(raw) - 1, frame)  # the LF after CR is left for the next scan
    assert scan(raw[:-2]) == NeedMore(0)


@pytest.mark.parametrize("seq,type_,payload", [(256, "CRD", "Ah"), (-1, "CRD", ""), (1, "CR", ""), (1, "crd", ""),
                                               (1, "CRD", "A*h"), (1, "CRD", "A@h"), (1, "CRD", "Ä"),
                                               (1, "CRD", "x" * (MAX_PAYLOAD + 1)), (1, "CRD", "a\nb")])
def test_encode_refuses_what_is_not_a_frame(seq: int, type_: str, payload: str) -> None:
    with pytest.raises(FrameError):
        encode(seq, type_, payload)


def test_longest_payload_round_trips() -> None:
    frame = Frame(3, "DCK", "x" * MAX_PAYLOAD)
    assert good_frames(FrameParser().feed(encode(3, "DCK", frame.payload))) == [frame]


def test_every_byte_split_gives_the_same_frames() -> None:
    raw = b"\x00noise" + stream(FRAMES) + b"@1" + stream(FRAMES[:2])
    expected = FrameParser().feed(raw)
    assert good_frames(expected) == FRAMES + FRAMES[:2]
    def summary(results: list) -> tuple:
        garbage = [r for r in results if isinstance(r, Garbage)]
        return (good_frames(results), sum(r.consumed for r in results),
                sum(r.damaged for r in garbage), sum(r.bad_crc for r in garbage))

    for cut in range(len(raw) + 1):
        parser = FrameParser()
        got = parser.feed(raw[:cut]) + parser.feed(raw[cut:])
        assert summary(got) == summary(expected), cut
        assert parser.pending == 0


def test_byte_by_byte_gives_the_same_frames() -> None:
    raw = stream(FRAMES)
    parser = FrameParser()
    got = [r for b in raw for r in parser.feed(bytes([b]))]
    assert good_frames(got) == FRAMES
    assert not [r for r in got if isinstance(r, Garbage)]


def test_scan_at_every_prefix_says_need_more() -> None:
    for frame in FRAMES:
        raw = encode(frame.seq, frame.type, frame.payload)
        for cut in range(len(raw) - 1):
            assert scan(raw[:cut]) == NeedMore(0), (frame, cut)


@pytest.mark.parametrize("frame", FRAMES)
def test_every_single_bit_flip_is_detected(frame: Frame) -> None:
    raw = encode(frame.seq, frame.type, frame.payload)
    after = encode(1, "CRD", "2c")
    for pos in range(len(raw)):
        for bit in range(8):
            spoiled = bytearray(raw)
            spoiled[pos] ^= 1 << bit
            results = FrameParser().feed(bytes(spoiled) + after)
            frames = good_frames(results)
            if pos == len(raw) - 1:  # the LF after the CR: the frame was complete, the flip is noise after it
                assert frames == [frame, Frame(1, "CRD", "2c")]
            else:
                assert frames == [Frame(1, "CRD", "2c")], (pos, bit, frames)  # the next frame survives
                assert any(isinstance(r, Garbage) and r.damaged for r in results) or spoiled[0] != 0x40


def test_random_garbage_between_frames_is_dropped_and_every_frame_found() -> None:
    rng = random.Random(11)
    frames = [Frame(i % 256, "CRD", rng.choice(["Ah", "Kd", "10c", "2s", "JK"])) for i in range(2000)]
    raw = bytearray()
    for f in frames:
        raw += bytes(rng.randrange(256) for _ in range(rng.choice([0, 0, 1, 5, 40])))
        raw += encode(f.seq, f.type, f.payload)
    parser = FrameParser()
    got: list = []
    pos = 0
    while pos < len(raw):
        step = rng.randint(1, 64)
        got += parser.feed(bytes(raw[pos:pos + step]))
        pos += step
    assert good_frames(got) == frames


def test_bad_crc_is_reported_as_damaged() -> None:
    raw = bytearray(encode(7, "CRD", "Ah"))
    raw[10:14] = b"0000" if raw[10:14] != b"0000" else b"1111"
    result = scan(bytes(raw))
    assert isinstance(result, Garbage) and result.bad_crc and result.damaged


@pytest.mark.parametrize("raw,reason", [(b"@07crd*0000\r", "bad frame header"), (b"@0GCRD*0000\r", "bad frame header"),
                                        (b"@07CRD *0000\r", "empty payload after a space"),
                                        (b"@07CRD A\x01*0000\r", "byte 0x01 not allowed in a payload"),
                                        (b"@07CRD*00g0\r", "bad CRC digits"),
                                        (b"@07CRD*0000x", "no line end after the CRC"),
                                        (b"@07CRD " + b"x" * (MAX_PAYLOAD + 1), "payload too long")])
def test_malformed_frames_say_why(raw: bytes, reason: str) -> None:
    result = scan(raw)
    assert isinstance(result, Garbage) and result.damaged and result.reason == reason


def test_a_new_start_inside_a_frame_resyncs_there() -> None:
    good = encode(5, "CRD", "Qs")
    results = FrameParser().feed(b"@05CR" + good)
    assert isinstance(results[0], Garbage) and results[0].consumed == 5
    assert good_frames(results) == [Frame(5, "CRD", "Qs")]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.integers(min_value=0, max_value=600))
def test_scan_never_raises_and_always_makes_progress(data: bytes, cut: int) -> None:
    parser = FrameParser()
    for piece in (data[:cut], data[cut:]):
        for result in parser.feed(piece):
            assert result.consumed > 0
    result = scan(data)
    assert 0 <= result.consumed <= len(data)
    if not isinstance(result, NeedMore):
        assert result.consumed > 0
