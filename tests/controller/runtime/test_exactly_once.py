"""Exactly once on the real serial path: `tablectl run --config` (not --simulate) on a shoe or wheel emulator's pty.

The emulator is the device: it lives in the test process, keeps its
unacknowledged frame across the daemon's deaths (with ACKs lost on the line
at ``ack_loss``) and sends it again to each new daemon. The daemon is killed
with SIGKILL at random moments: the instant an ACK reaches the device, the
instant the device sends a new frame (the daemon is parsing or committing
it), at a random time, or during its start. Afterwards every card the shoe
dealt is in the journal exactly once and in shoe order, every coup the cards
make settled exactly once with the outcome the game gives for those cards,
and the journal verifies; the same for the wheel reader's numbers.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from controller import games
from controller.cards import parse_card
from controller.config import load as load_config
from controller.events import CardOut
from controller.runtime.audit import verify
from controller.runtime.journal import Journal
from drivers.shoe import events as shoe_events
from drivers.shoe.emulator import Faults, ShoeEmulator, seeded_shoe
from drivers.wheel.emulator import WheelEmulator
from tests.tablectl import ROOT

PUNTO = """
[table]
id = "pb-kill"
game = "punto-banco"
variant = "se"
currency = "SEK"
minor_unit = 100
price_base_amount = 5920000

[options]
decks = 6
boxes = 7
chip_unit = 1000

[devices.shoe]
driver = "serial"
port = "{port}"

[devices.sign]
driver = "text"

[journal]
path = "{journal}"
"""

SHUFFLER = """
[table]
id = "pb-shuffler-kill"
game = "punto-banco"
variant = "se"
currency = "SEK"
minor_unit = 100
price_base_amount = 5920000

[options]
decks = 6
boxes = 7
chip_unit = 1000

[devices.shuffler]
driver = "serial"
port = "{port}"

[devices.sign]
driver = "text"

[journal]
path = "{journal}"
"""

ROULETTE = """
[table]
id = "rl-kill"
game = "roulette"
currency = "EUR"
minor_unit = 100

[devices.wheel]
driver = "serial"
port = "{port}"
timeout_s = 30

[devices.sign]
driver = "text"

[journal]
path = "{journal}"
"""


class Trigger:
    """Kills the armed daemon from the device's own thread at the instant the device sees the n-th event."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.what = ""
        self.left = 0
        self.fired = threading.Event()
        self.lock = threading.Lock()

    def arm(self, pid: int, what: str, count: int) -> None:
        with self.lock:
            self.pid, self.what, self.left = pid, what, count
            self.fired.clear()

    def disarm(self) -> None:
        with self.lock:
            self.pid = None

    def seen(self, what: str) -> None:
        with self.lock:
            if self.pid is None or what != self.what:
                return
            self.left -= 1
            if self.left <= 0:
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.pid = None
                self.fired.set()


def spawn(config: Path, stdout: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", "import sys; from controller.cli import main; sys.exit(main())",
                             "run", "--config", str(config)], cwd=ROOT, env=env, stdout=stdout,
                            stderr=subprocess.PIPE)


def kill_loop(config: Path, trigger: Trigger, kills: int, seed: int, modes: tuple[str, ...]) -> dict[str, int]:
    """Start and kill the daemon ``kills`` times; returns how many kills of each kind landed."""
    rng = random.Random(seed)
    landed: dict[str, int] = {}
    for _ in range(kills):
        proc = spawn(config)
        mode = rng.choice(modes)
        try:
            if mode == "start":
                time.sleep(rng.uniform(0.0, 0.6))
            elif mode == "time":
                time.sleep(rng.uniform(0.6, 2.0))
            else:
                trigger.arm(proc.pid, mode, rng.randint(1, 4))
                trigger.fired.wait(15.0)
                trigger.disarm()
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            assert proc.returncode in (-signal.SIGKILL, 0), proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            landed[mode] = landed.get(mode, 0) + 1
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stderr is not None:
                proc.stderr.close()
    return landed


def final_run(config: Path, done: Callable[[], bool], timeout: float = 120.0) -> str:
    """One last daemon that runs until ``done()``, then stops cleanly (SIGTERM); returns its stderr."""
    out = config.with_name("final.out")
    with out.open("wb") as sink:
        proc = spawn(config, sink)
    try:
        deadline = time.monotonic() + timeout
        while (not done() or b"ready:" not in out.read_bytes()) and time.monotonic() < deadline \
                and proc.poll() is None:
            time.sleep(0.1)
        assert done(), "the last run did not bring in every frame"
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err.decode()[-2000:]
        return err.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def journal_rows(path: Path, kind_filter: Callable[[Any], bool]) -> list[Any]:
    try:
        journal = Journal(path, readonly=True)
    except Exception:  # noqa: BLE001 - not there yet, or being created by the daemon right now
        return []
    try:
        return [r for r in journal.records() if kind_filter(r)]
    except Exception:  # noqa: BLE001
        return []
    finally:
        journal.close()


def card_records(path: Path) -> list[Any]:
    return journal_rows(path, lambda r: r.kind in ("event", "reject", "refuse") and r.body.get("source") == "shoe"
                        and r.body.get("event", {}).get("type") == "card")


def shoe_session(tmp_path: Path, kills: int, cards: int, ack_loss: float, seed: int) -> dict[str, Any]:
    trigger = Trigger()
    sent: list[str] = []

    def log(text: str) -> None:
        if text.startswith("sending"):
            sent.append(text)
            trigger.seen("sent")

    emu = ShoeEmulator("shoe", faults=Faults(ack_loss=ack_loss, seed=seed), retransmit_timeout=0.05,
                       log=log, on_host_frame=lambda type_, seq: trigger.seen("ack") if type_ == "ACK" else None)
    port = emu.start()
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "table.toml"
    config.write_text(PUNTO.format(port=port, journal=journal))
    dealt = seeded_shoe(6, seed)[:cards]
    emu.deal(dealt)
    try:
        landed = kill_loop(config, trigger, kills, seed, ("ack", "ack", "sent", "time", "start"))
        final_run(config, lambda: emu.wait_done(0) and len(card_records(journal)) >= cards)
    finally:
        emu.stop()
    records = card_records(journal)
    taken = [str(parse_card(r.body["event"]["card"])) for r in records]
    assert taken == [str(parse_card(c)) for c in dealt]  # every card exactly once, in shoe order
    assert all(r.kind == "event" for r in records)
    positions = [(r.body["link"]["session"], r.body["link"]["seq"]) for r in records]
    assert len(positions) == cards and len({s for s, _ in positions}) == 1  # one device session throughout
    assert all(b[1] == (a[1] + 1) % 256 for a, b in zip(positions, positions[1:]))  # each frame once, in order
    # every coup settled once, as the game settles those cards
    table = load_config(config)
    spec = games.load_game("punto-banco")
    outcomes: list[tuple[int, Any]] = []
    game_outcomes: list[Any] = []
    rnd = spec.new_round(table.round_config, ())
    for r in records:
        outcomes += [(r.round, e["outcome"]) for e in r.body["effects"] if "outcome" in e]
        answer = rnd.apply(CardOut(parse_card(r.body["event"]["card"])))
        game_outcomes += [e.data for e in getattr(answer, "effects", ()) if type(e).__name__ == "Outcome"]
        if rnd.complete:
            rnd = spec.new_round(table.round_config, ())
    assert [o for _, o in outcomes] == [dict(o) for o in game_outcomes]
    assert [n for n, _ in outcomes] == list(range(1, len(outcomes) + 1))  # one outcome per round, none twice
    report = verify(Journal(journal, readonly=True))
    assert report["ok"], report["problems"][:3]
    stats = emu.stats()
    return {"landed": landed, "cards": cards, "rounds": len(outcomes), "acked": stats.acked,
            "retransmits": stats.retransmits}


def test_killing_the_daemon_on_a_real_shoe_link_neither_loses_nor_doubles_a_card(tmp_path: Path) -> None:
    result = shoe_session(tmp_path, kills=20, cards=90, ack_loss=0.3, seed=21)
    print(result)
    assert sum(result["landed"].values()) == 20 and result["landed"].get("ack", 0) >= 4
    assert result["rounds"] >= 15


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_killing_the_daemon_200_times_on_a_real_shoe_link_with_a_third_of_the_acks_lost(tmp_path: Path) -> None:
    result = shoe_session(tmp_path, kills=200, cards=312, ack_loss=0.3, seed=2026)
    print(result)
    assert sum(result["landed"].values()) == 200


def shuffler_session(tmp_path: Path, kills: int, shuffles: int, ack_loss: float, seed: int) -> dict[str, Any]:
    """The shuffler's facts (a shuffle started, a shuffle done) on the same link as the shoe's cards."""
    trigger = Trigger()
    emu = ShoeEmulator("shuffler", faults=Faults(ack_loss=ack_loss, seed=seed), retransmit_timeout=0.05,
                       device_id="EMU-SHUF", log=lambda text: trigger.seen("sent") if text.startswith("sending") else None,
                       on_host_frame=lambda type_, seq: trigger.seen("ack") if type_ == "ACK" else None)
    port = emu.start()
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "table.toml"
    config.write_text(SHUFFLER.format(port=port, journal=journal))
    for n in range(shuffles):
        emu.send(shoe_events.ShuffleStarted(f"shuffle {n + 1}"))
        emu.send(shoe_events.ShuffleDone(416))

    def frames() -> list[Any]:
        return journal_rows(journal, lambda r: r.body.get("link", {}).get("device") == "shuffler")
    try:
        landed = kill_loop(config, trigger, kills, seed, ("ack", "ack", "sent", "time", "start"))
        final_run(config, lambda: emu.wait_done(0) and len(frames()) >= 2 * shuffles)
    finally:
        emu.stop()
    records = frames()
    # each fact once and in order: a shuffle started (journaled as its position alone), then its shuffle done
    assert [(r.kind, r.body.get("what") or r.body.get("note")) for r in records] == \
        [("link", "ShuffleStarted"), ("shoe", "shuffle_done")] * shuffles
    positions = [(r.body["link"]["session"], r.body["link"]["seq"]) for r in records]
    assert len({s for s, _ in positions}) == 1
    assert all(b[1] == (a[1] + 1) % 256 for a, b in zip(positions, positions[1:]))
    report = verify(Journal(journal, readonly=True))
    assert report["ok"], report["problems"][:3]
    return {"landed": landed, "frames": len(records), "acked": emu.stats().acked,
            "retransmits": emu.stats().retransmits}


def test_killing_the_daemon_on_a_real_shuffler_link_neither_loses_nor_doubles_a_shuffle(tmp_path: Path) -> None:
    result = shuffler_session(tmp_path, kills=10, shuffles=40, ack_loss=0.3, seed=7)
    print(result)
    assert sum(result["landed"].values()) == 10 and result["frames"] == 80 and result["landed"].get("ack", 0) >= 2


def wheel_session(tmp_path: Path, kills: int, spins: int, seed: int) -> dict[str, Any]:
    trigger = Trigger()
    emu = WheelEmulator(seed=seed, keepalive=0.2,
                        log=lambda text: trigger.seen("sent") if text.startswith("sending *X:5") else None)
    port = emu.start()
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "table.toml"
    config.write_text(ROULETTE.format(port=port, journal=journal))

    def numbers() -> list[int]:
        return [r.body["event"]["number"] for r in journal_rows(
            journal, lambda r: r.kind in ("event", "reject", "refuse")
            and r.body.get("event", {}).get("type") == "wheel")]
    spun: list[int] = []
    stop = threading.Event()

    def croupier() -> None:  # launches the next ball only once the last result is on the board (journaled)
        rng = random.Random(seed)
        for _ in range(spins):
            spun.append(emu.spin(rng.randrange(37)))
            while len(numbers()) < len(spun) and not stop.is_set():
                time.sleep(0.05)
            if stop.is_set():
                return
    thread = threading.Thread(target=croupier, daemon=True)
    thread.start()
    try:
        landed = kill_loop(config, trigger, kills, seed, ("sent", "time", "time", "start"))
        final_run(config, lambda: not thread.is_alive() and len(numbers()) >= spins)
    finally:
        stop.set()
        thread.join(5)
        emu.stop()
    assert numbers() == spun  # every spin's number exactly once, in order
    records = journal_rows(journal, lambda r: r.kind == "event" and r.body.get("event", {}).get("type") == "wheel")
    assert all(r.body["source"] == "wheel" for r in records)
    positions = [json.dumps(r.body["link"], sort_keys=True) for r in records]
    assert len(set(positions)) == spins  # each spin once, from its own place in the wheel's stream
    # every spin settled its round once: one outcome each, with the spin's number, rounds 1, 2, 3 ...
    outcomes = [(r.round, e["outcome"]) for r in records for e in r.body["effects"] if "outcome" in e]
    assert [o["number"] for _, o in outcomes] == spun, outcomes[:3]
    assert [n for n, _ in outcomes] == list(range(1, spins + 1))
    assert all(r.body["complete"] for r in records)
    opened = journal_rows(journal, lambda r: r.kind == "round_open")
    assert [r.round for r in opened] == list(range(1, spins + 2))  # each spin's round closed once, none again
    report = verify(Journal(journal, readonly=True))  # and every settlement replays through the game code
    assert report["ok"], report["problems"][:3]
    return {"landed": landed, "spins": spins, "rounds": len(outcomes)}


def test_killing_the_daemon_on_a_real_wheel_reader_neither_loses_nor_doubles_a_number(tmp_path: Path) -> None:
    result = wheel_session(tmp_path, kills=20, spins=40, seed=5)
    print(result)
    assert sum(result["landed"].values()) == 20


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_killing_the_daemon_200_times_on_a_real_wheel_reader(tmp_path: Path) -> None:
    result = wheel_session(tmp_path, kills=200, spins=300, seed=2026)
    print(result)
    assert sum(result["landed"].values()) == 200
