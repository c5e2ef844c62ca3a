"""The real shoe/shuffler link against the emulator (or a hand-driven device) over real ptys."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from drivers.shoe.emulator import Faults, ShoeEmulator, seeded_shoe
from drivers.shoe.events import (CardDealt, CutCard, DeckCheck, DeviceIdentity, DoorClosed, DoorOpen, Jam, LinkFault,
                                 LinkRestored, ShoeEmpty, ShoeState, ShuffleDone, ShuffleStarted, Tamper, Unreadable)
from drivers.seriallink import Delivery, SequenceGap, UnknownFrame
from drivers.shoe.link import ShoeLink
from drivers.shoe.protocol import encode
from tests.drivers.shoe.helpers import Collector, HandDevice

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Callable[..., tuple]]:
    """Make (emulator, link, collector) triples; everything is stopped at the end."""
    made: list = []

    def make(kind: str = "shoe", faults: Faults = Faults(), link_kind: str | None = None, **link_kw):
        emu = ShoeEmulator(kind, link_path=str(tmp_path / f"{kind}{len(made)}"), faults=faults,
                           retransmit_timeout=0.05)
        path = emu.start()
        got = Collector()
        link = ShoeLink(path, got, kind=link_kind or kind, **link_kw)
        made.append((emu, link))
        link.start()
        return emu, link, got

    yield make
    for emu, link in made:
        link.stop()
        emu.stop()


@pytest.fixture
def hand(tmp_path: Path) -> Iterator[Callable[..., tuple]]:
    made: list = []

    def make(hold: bool = False, resume: dict | None = None, **link_kw):
        device = HandDevice(str(tmp_path / "hand"))
        got = Collector(hold=hold)
        link = ShoeLink(device.path, got, **link_kw)
        link.resume(resume)
        made.append((device, link))
        link.start()
        assert device.wait_frame(lambda f: f.type == "HEL") is not None  # the host says hello first
        return device, link, got

    yield make
    for device, link in made:
        link.stop()
        device.close()


def cards_of(got: Collector) -> list[str]:
    return [e.card for e in got.of(CardDealt)]


def test_cards_arrive_in_order_after_the_identity(stack) -> None:
    emu, link, got = stack()
    cards = seeded_shoe(1, 5)
    emu.deal(cards)
    assert emu.wait_done(10)
    assert got.wait_count(CardDealt, 52, 5)
    assert cards_of(got) == cards
    assert got.events[0] == DeviceIdentity("shoe", "EMU-0001", "emu-1", 1, False)
    c = link.counters()
    assert c.connected and c.delivered == 52 and c.bad_crc == 0 and c.duplicates == 0 and c.reconnects == 0
    assert c.last_heartbeat_age is not None and c.last_heartbeat_age < 1.5


def test_every_shoe_message_round_trips(stack) -> None:
    emu, _, got = stack()
    sent = [ShoeState(closed=False), ShoeState(closed=True), CardDealt("10d"), CardDealt("JK"), CutCard(),
            Unreadable("smudged index"), Jam("card stuck"), Tamper("lid forced"), ShoeEmpty()]
    for event in sent:
        emu.send(event)
    assert emu.wait_done(10)
    assert got.wait_for(lambda evs: len(evs) >= len(sent) + 1, 5)
    assert got.events[1:] == sent


def test_every_shuffler_message_round_trips(stack) -> None:
    emu, _, got = stack("shuffler")
    sent = [DoorOpen(), DoorClosed(), ShuffleStarted("6 decks"), Jam("elevator"), ShuffleDone(312),
            DeckCheck(missing=("Ah", "Kd"), extra=("2c",), foreign=("X9",), counted=311), DeckCheck(counted=312),
            ShuffleDone(None)]
    for event in sent:
        emu.send(event)
    assert emu.wait_done(10)
    assert got.wait_for(lambda evs: len(evs) >= len(sent) + 1, 5)
    assert got.events[0].kind == "shuffler"
    assert got.events[1:] == sent
    assert not got.events[6].ok and got.events[7].ok


def run_cards_through_faults(stack, count: int, faults: Faults, unplugs: int) -> None:
    emu, link, got = stack(faults=faults)
    cards = seeded_shoe(count // 52 + 1, 2026)[:count]
    emu.deal(cards)
    for k in range(1, unplugs + 1):
        assert got.wait_count(CardDealt, count * k // (unplugs + 1), 60)
        emu.unplug()
        time.sleep(0.2)
        emu.replug()
    assert emu.wait_done(120), emu.stats()
    assert got.wait_count(CardDealt, count, 10)
    time.sleep(0.2)  # anything doubled would show up now
    assert cards_of(got) == cards  # exactly these cards, in this order: nothing lost, nothing doubled
    c, s = link.counters(), emu.stats()
    assert c.delivered == count and c.reconnects == unplugs and c.sequence_gaps == 0
    assert s.flipped > 0 and s.dropped > 0 and s.duplicated > 0 and c.bad_crc > 0 and c.duplicates > 0
    assert len(got.of(LinkFault)) == unplugs and len(got.of(LinkRestored)) == unplugs


def test_10000_cards_through_1_percent_faults_and_an_unplug(stack) -> None:
    run_cards_through_faults(stack, 10_000, Faults(flip=0.004, drop=0.003, duplicate=0.003, noise=0.002,
                                                   ack_loss=0.002, seed=1), unplugs=1)


@pytest.mark.slow
def test_50000_cards_through_5_percent_faults_and_five_unplugs(stack) -> None:
    run_cards_through_faults(stack, 50_000, Faults(flip=0.02, drop=0.015, duplicate=0.015, noise=0.01,
                                                   ack_loss=0.01, seed=7), unplugs=5)


def test_unplug_noticed_within_a_second_and_replug_within_two(stack) -> None:
    emu, link, got = stack()
    assert got.wait_count(DeviceIdentity, 1, 5)
    t0 = time.monotonic()
    emu.unplug()
    assert got.wait_count(LinkFault, 1, 1.0)
    noticed = time.monotonic() - t0
    assert not link.counters().connected
    time.sleep(1.5)  # long enough for the backoff to reach its cap
    t1 = time.monotonic()
    emu.replug()
    assert got.wait_count(LinkRestored, 1, 2.0)
    back = time.monotonic() - t1
    assert noticed < 1.0 and back < 2.0
    emu.deal(["As"])
    assert got.wait_count(CardDealt, 1, 2.0) and cards_of(got) == ["As"]
    assert "lost" in got.of(LinkFault)[0].reason


def test_a_port_missing_at_start_is_reported_then_picked_up(tmp_path: Path) -> None:
    path = str(tmp_path / "later")
    got = Collector()
    link = ShoeLink(path, got)
    link.start()
    emu = ShoeEmulator(link_path=path)
    try:
        assert got.wait_count(LinkFault, 1, 1.0)
        assert "cannot be opened" in got.of(LinkFault)[0].reason
        emu.start()
        assert got.wait_count(LinkRestored, 1, 2.0)
        emu.deal(["Qh", "2d"])
        assert got.wait_count(CardDealt, 2, 2.0) and cards_of(got) == ["Qh", "2d"]
    finally:
        link.stop()
        emu.stop()


def test_the_port_is_opened_exclusively(stack) -> None:
    emu, link, got = stack()
    assert got.wait_count(DeviceIdentity, 1, 5)
    other = Collector()
    second = ShoeLink(emu.path, other)
    second.start()
    try:
        assert other.wait_count(LinkFault, 1, 2.0)
        assert "lock" in other.of(LinkFault)[0].reason
    finally:
        second.stop()


def test_a_device_of_the_wrong_kind_is_refused(stack) -> None:
    emu, link, got = stack("shuffler", link_kind="shoe")
    assert got.wait_count(LinkFault, 1, 3)
    assert "expected a shoe" in got.of(LinkFault)[0].reason and "shuffler" in got.of(LinkFault)[0].reason
    emu.deal(["Ah"])
    time.sleep(0.3)
    assert not got.of(CardDealt) and not link.counters().connected


def test_another_protocol_version_is_refused(hand) -> None:
    device, link, got = hand()
    device.hello(version=2)
    assert got.wait_count(LinkFault, 1, 2)
    assert "version 2" in got.of(LinkFault)[0].reason


def test_data_before_hello_is_not_acknowledged(hand) -> None:
    device, link, got = hand()
    device.send(3, "CRD", "Ah")
    assert device.wait_frame(lambda f: f.type == "ACK", 0.3) is None
    assert not got.of(CardDealt) and link.counters().ignored_before_hello == 1
    device.hello()
    device.send(3, "CRD", "Ah")
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 3) is not None
    assert got.wait_count(CardDealt, 1, 1) and cards_of(got) == ["Ah"]


def test_a_duplicate_is_acknowledged_again_and_never_delivered_twice(hand) -> None:
    device, link, got = hand()
    device.hello()
    for _ in range(3):
        device.send(5, "CRD", "Ah")
        assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 5) is not None
    device.send(6, "CRD", "Ah")  # the same card again, as a new frame: a real second ace
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 6) is not None
    assert cards_of(got) == ["Ah", "Ah"] and link.counters().duplicates == 2


def test_a_damaged_frame_is_not_delivered_and_a_resend_is_asked(hand) -> None:
    device, link, got = hand()
    device.hello()
    raw = bytearray(encode(9, "CRD", "Ks"))
    raw[8] ^= 0x01  # "Ks" -> "Kr"
    device.write(bytes(raw))
    assert device.wait_frame(lambda f: f.type == "NAK") is not None
    device.send(9, "CRD", "Ks")
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 9) is not None
    assert cards_of(got) == ["Ks"]
    c = link.counters()
    assert c.bad_crc == 1 and c.retransmits == 1 and c.resyncs == 1


def test_a_sequence_gap_is_a_fault_but_the_frame_is_delivered(hand) -> None:
    device, link, got = hand()
    device.hello()
    device.send(5, "CRD", "Ah")
    device.send(7, "CRD", "Kh")
    assert got.wait_count(CardDealt, 2, 2)
    assert cards_of(got) == ["Ah", "Kh"]
    assert "sequence gap: expected 06, got 07" in got.of(SequenceGap)[0].reason and not got.of(LinkFault)


def test_wrapping_sequence_numbers_continue(hand) -> None:
    device, link, got = hand()
    device.hello()
    for seq in (254, 255, 0, 1):
        device.send(seq, "CRD", "2c")
    assert got.wait_count(CardDealt, 4, 2)
    assert link.counters().sequence_gaps == 0


def test_a_restarted_device_starts_its_numbers_afresh(hand) -> None:
    device, link, got = hand()
    device.hello(boot="AAAA")
    device.send(0, "CRD", "Ah")
    assert got.wait_count(CardDealt, 1, 2)
    device.hello(boot="BBBB")
    device.send(0, "CRD", "Ah")  # seq 0 again, but a new device session: a new card
    assert got.wait_count(CardDealt, 2, 2)
    assert got.of(DeviceIdentity)[-1].restarted is True
    device.hello(boot="BBBB")
    device.send(0, "CRD", "Ah")  # same session: a duplicate
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 0) is not None
    assert len(got.of(CardDealt)) == 2


def test_a_silent_device_is_a_fault_until_it_speaks_again(hand) -> None:
    device, link, got = hand(heartbeat_timeout=0.3, heartbeat_interval=0.1)
    device.hello()
    assert got.wait_count(DeviceIdentity, 1, 1)
    assert got.wait_count(LinkFault, 1, 1.5)
    assert "no frame from the shoe" in got.of(LinkFault)[0].reason
    assert device.wait_frame(lambda f: f.type == "HEL") is not None  # the host asks again
    device.hello()
    assert got.wait_count(LinkRestored, 1, 1)


def test_the_host_sends_heartbeats(hand) -> None:
    device, link, got = hand(heartbeat_interval=0.1)
    device.hello()
    assert device.wait_frame(lambda f: f.type == "HBT", 1.0) is not None


def test_card_text_that_is_not_a_card_is_unreadable_never_a_card(hand) -> None:
    device, link, got = hand()
    device.hello()
    device.send(1, "CRD", "Zz")
    device.send(2, "CRD", "1h")
    assert got.wait_count(Unreadable, 2, 2)
    assert not got.of(CardDealt)
    assert "'Zz'" in got.of(Unreadable)[0].detail


def test_an_unknown_type_is_acknowledged_counted_and_handed_on_only_as_unknown(hand) -> None:
    device, link, got = hand()
    device.hello()
    device.send(1, "XYZ", "future")
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 1) is not None
    assert link.counters().unknown_types == 1
    # handed on as UnknownFrame only so that its position is journaled before the ACK; the runtime ignores it
    assert [e for e in got.events if not isinstance(e, (DeviceIdentity, LinkRestored))] == [UnknownFrame("XYZ", "future")]


def test_no_ack_before_the_caller_acknowledges_and_a_resend_meanwhile_is_dropped(hand) -> None:
    device, link, got = hand(hold=True)
    device.hello()
    device.send(0, "CRD", "Ah")
    assert got.wait_count(CardDealt, 1, 2)
    device.send(0, "CRD", "Ah")  # resent while the commit is on the way
    time.sleep(0.3)
    assert [f for f in device.received if f.type == "ACK"] == []  # nothing acknowledged before the commit
    assert len(got.of(CardDealt)) == 1 and link.counters().duplicates == 1
    got.held[0].acknowledge()
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 0) is not None
    device.send(0, "CRD", "Ah")  # the ACK was lost: acknowledged again, not delivered again
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 0) is not None
    assert len(got.of(CardDealt)) == 1
    assert got.held[0].position == {"session": "B007", "seq": 0}


def test_a_resumed_link_acknowledges_and_drops_the_frame_the_journal_holds(hand) -> None:
    device, link, got = hand(resume={"session": "B007", "seq": 9})
    device.hello()
    device.send(9, "CRD", "Kd")  # the device resends its last frame after the daemon restarted
    assert device.wait_frame(lambda f: f.type == "ACK" and f.seq == 9) is not None
    device.send(10, "CRD", "Qd")
    assert got.wait_count(CardDealt, 1, 2)
    assert cards_of(got) == ["Qd"] and not got.of(LinkFault)


def test_a_failing_callback_does_not_stop_the_link(tmp_path: Path) -> None:
    emu = ShoeEmulator(link_path=str(tmp_path / "s"))
    path = emu.start()
    got = Collector()
    failed: list[str] = []

    def callback(event) -> None:
        if isinstance(event, Delivery) and event.event == CardDealt("Ah") and not failed:
            failed.append("Ah")
            raise RuntimeError("bug in the caller")
        got(event)

    link = ShoeLink(path, callback)
    link.start()
    try:
        emu.deal(["Ah", "Kh"])  # Ah was not taken, so not acknowledged: the shoe resends it and it is taken then
        assert got.wait_count(CardDealt, 2, 3) and cards_of(got) == ["Ah", "Kh"] and failed == ["Ah"]
        assert link.running
    finally:
        link.stop()
        emu.stop()


def test_stop_is_prompt_and_closes_the_port(stack) -> None:
    emu, link, got = stack()
    assert got.wait_count(DeviceIdentity, 1, 5)
    t0 = time.monotonic()
    link.stop()
    assert time.monotonic() - t0 < 0.5 and not link.running
    again = ShoeLink(emu.path, Collector())  # the lock is gone: a new link may open the port
    again.start()
    try:
        time.sleep(0.3)
        assert not again.faulted
    finally:
        again.stop()


def test_bad_link_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of shoe, shuffler"):
        ShoeLink("/dev/null", print, kind="wheel")


def test_emulator_refuses_bad_fault_rates() -> None:
    with pytest.raises(ValueError, match="probability"):
        Faults(drop=1.5)


def test_a_socket_url_works_and_a_dropped_connection_reconnects() -> None:
    """The same link over ``socket://`` (a serial-to-network converter), through a disconnect."""
    import socket

    from drivers.shoe.protocol import FrameParser, Good

    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(5)
    got = Collector()
    link = ShoeLink(f"socket://127.0.0.1:{server.getsockname()[1]}", got)
    link.start()

    def session(seq: int, card: str) -> None:
        conn, _ = server.accept()
        conn.settimeout(5)
        parser = FrameParser()

        def wait_for(type_: str) -> None:
            while True:
                frames = [r.frame for r in parser.feed(conn.recv(4096)) if isinstance(r, Good)]
                if any(f.type == type_ for f in frames):
                    return

        wait_for("HEL")
        conn.sendall(encode(0, "HEL", "ver=1 kind=shoe id=NET-1 fw=1 boot=CAFE"))
        conn.sendall(encode(seq, "CRD", card))
        wait_for("ACK")
        conn.close()

    try:
        session(1, "Ah")
        assert got.wait_count(LinkFault, 1, 2)  # the converter dropped the connection
        session(2, "Kc")
        assert got.wait_count(CardDealt, 2, 2)
        assert cards_of(got) == ["Ah", "Kc"] and link.counters().reconnects >= 1
    finally:
        link.stop()
        server.close()
