"""The daemon on the real drivers: shoe link and wheel reader over ptys, GPIO on mock pins, luma dummy displays."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

from controller import config as table_config
from controller.events import Bet, CloseBets, Puck
from controller.runtime import device_outputs
from controller.runtime.daemon import Daemon
from controller.runtime.device_outputs import DeviceView, tower_pattern
from controller.runtime.interfaces import Command
from controller.runtime.translate import Latch, Run, Submit, translate
from drivers.shoe import events as shoe_events
from drivers.gpio import events as gpio_events
from drivers.wheel import events as wheel_events
from tests.controller.runtime.helpers import open_table, punto_config

pytestmark = pytest.mark.timeout(60)


def emulated(tmp: Path, game: str = "punto-banco") -> table_config.TableConfig:
    data = table_config.simulated_defaults(game, None, str(tmp / "journal.sqlite"), emulated=True)
    return table_config.from_mapping(data, "test")


def records(tmp: Path, kind: str | None = None) -> list[tuple[int, str, dict[str, Any]]]:
    import json
    with sqlite3.connect(tmp / "journal.sqlite") as db:
        rows = db.execute("SELECT seq, kind, body FROM records ORDER BY seq").fetchall()
    return [(s, k, json.loads(b)) for s, k, b in rows if kind is None or k == kind]


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


def run_daemon(daemon: Daemon, body: Callable[[Daemon], Awaitable[None]]) -> None:
    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        await until(lambda: daemon.ready_s is not None)
        try:
            await body(daemon)
        finally:
            daemon.stopped.set()
            await task
    asyncio.run(main())


def test_simulated_round_on_the_real_shoe_link_and_mock_buttons(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[tuple[str, int, int]] = []  # (output, journal seq on disk at show time, seq the state came from)
    for cls in (device_outputs.SignOutput, device_outputs.JackpotOutput, device_outputs.TowerOutput):
        original = cls.show

        def spy(self: Any, state: Any, original: Any = original, name: str = cls.__name__) -> None:
            with sqlite3.connect(tmp_path / "journal.sqlite") as db:
                on_disk = db.execute("SELECT max(seq) FROM records").fetchone()[0]
            shown.append((name, on_disk, daemon.table.journal.last_seq))
            original(self, state)
        monkeypatch.setattr(cls, "show", spy)
    stream = io.StringIO()
    daemon = Daemon(emulated(tmp_path), simulate=True, seed=5, fast=True, rounds=2, stream=stream)
    asyncio.run(asyncio.wait_for(daemon.run(), 40))
    events = records(tmp_path, "event")
    sources = {body["event"]["type"]: set() for _, _, body in events}
    for _, _, body in events:
        sources[body["event"]["type"]].add(body["source"])
    assert sources["card"] == {"shoe"}  # every card came over the pty through ShoeLink
    assert sources["close_bets"] == {"gpio"}  # the croupier pressed the mock no-more-bets button
    cards = [body["event"]["card"] for _, _, body in events if body["event"]["type"] == "card"]
    assert len(cards) >= 8
    assert len(records(tmp_path, "round_open")) >= 3
    health = daemon.built.inputs["shoe"].health()
    assert health["delivered"] >= len(cards) and health["bad_crc"] == 0
    # write-ahead: every real output showed a state whose records were already on disk
    assert {n for n, _, _ in shown} == {"SignOutput", "JackpotOutput", "TowerOutput"}
    assert all(on_disk is not None and on_disk >= seq for _, on_disk, seq in shown)
    assert "[sign @" in stream.getvalue() and "LAST" in stream.getvalue()


def test_shoe_unplugged_mid_round_is_a_device_fault_and_no_card_is_lost_or_doubled(tmp_path: Path) -> None:
    daemon = Daemon(emulated(tmp_path), simulate=True, seed=9, fast=True, stream=io.StringIO(), croupier=False)
    pulled: list[str] = []

    async def body(d: Daemon) -> None:
        shoe = d.built.inputs["shoe"]
        table = d.table
        table.submit("bets", Bet(1, "punto", 1000))
        table.submit("gpio", CloseBets())

        def pull() -> None:
            pulled.append(shoe.cards[shoe.position])
            shoe.pull()
        pull()
        await until(lambda: sum(1 for r in records(tmp_path, "event") if r[2]["event"]["type"] == "card") == 1)
        shoe.emulator.unplug()
        await until(lambda: "link_down.shoe" in table.faults)
        assert tower_pattern(table) == "device_fault"
        pull()  # dealt while unplugged: the emulator holds the frame until the line is back
        await asyncio.sleep(0.2)
        shoe.emulator.replug()
        await until(lambda: "link_down.shoe" not in table.faults, 10)
        pull()
        await until(lambda: sum(1 for r in records(tmp_path, "event") if r[2]["event"]["type"] == "card") == 3)
        await asyncio.sleep(0.3)

    run_daemon(daemon, body)
    cards = [b["event"]["card"] for _, _, b in records(tmp_path, "event") if b["event"]["type"] == "card"]
    assert cards == pulled  # in order, each once
    kinds = [(k, b.get("name") or b.get("names")) for _, k, b in records(tmp_path) if k in ("fault", "clear")]
    assert kinds == [("fault", "link_down.shoe"), ("clear", ["link_down.shoe"])]


def test_wheel_reader_over_a_pty_settles_a_roulette_round(tmp_path: Path) -> None:
    # the virtual players of every game are another branch's work: here the test places the bet itself
    daemon = Daemon(emulated(tmp_path, "roulette"), simulate=True, seed=4, fast=True, stream=io.StringIO(),
                    croupier=False)

    async def body(d: Daemon) -> None:
        assert d.table.submit("bets", Bet(1, "straight:17", 500, "red")) == "accepted"
        d.built.inputs["wheel"].spin(17)  # states 1..5 on the pty: no more bets (state 4), then the number
        await until(lambda: d.table.round_no == 2)

    run_daemon(daemon, body)
    events = records(tmp_path, "event")
    by_type = {b["event"]["type"]: b for _, _, b in events}
    assert by_type["close_bets"]["source"] == "wheel" and by_type["wheel"]["source"] == "wheel"
    settle = [e["settlement"] for e in by_type["wheel"]["effects"] if "settlement" in e]
    assert settle and settle[0]["result"] == "win"


def intents(table: Any, source: str, raw: object) -> tuple[Any, ...]:
    """What the table's translator makes of ``raw`` now (without applying it)."""
    return translate(source, raw, table.translation_view()).intents


def test_translation_of_shuffler_puck_wheel_and_link_events(tmp_path: Path) -> None:
    table = open_table(punto_config(tmp_path))
    assert table.submit("shuffler", shoe_events.DeckCheck(missing=("Ah",), foreign=("Zz",))) == "fault"
    assert "deck_check.shuffler" in table.faults
    assert table.command(Command("new_shoe", {}, "test")).startswith("no new shoe while deck_check.shuffler")
    assert table.submit("shuffler", shoe_events.ShuffleDone(416)) == "note"
    assert table.submit("shoe", shoe_events.Jam("card stuck")) == "fault"
    assert "device_fault.shoe" in table.faults and tower_pattern(table) == "latched_fault"
    # the puck: a fault that clears itself when exactly one circle senses it again
    assert table.submit("puck", gpio_events.PuckFault("no circle senses the puck")) == "fault"
    assert "sensor_fault.puck" in table.faults
    assert table.submit("puck", gpio_events.PuckSensed(3)) in ("accepted", "rejected")
    assert "sensor_fault.puck" not in table.faults
    assert intents(table, "puck", gpio_events.PuckSensed(4)) == (Submit(Puck(4)),)
    assert intents(table, "wheel", wheel_events.WheelNumber(17, 3))[0].event.number == 17
    assert intents(table, "wheel", wheel_events.WheelVoid("ball not sensed", 3))[0].event.by == "wheel"
    assert intents(table, "wheel", wheel_events.WheelFault("sensor", 3)) == (Latch("device_fault", "wheel: sensor"),)
    assert intents(table, "gpio", gpio_events.PresenceChanged(2, "banco", True)) == (Submit(Bet(2, "banco")),)
    assert not any(isinstance(i, Submit) for i in intents(table, "gpio", gpio_events.SlotLocked((1, 3))))  # no progressive


def test_buttons_map_to_game_actions_and_the_key(tmp_path: Path) -> None:
    table = open_table(punto_config(tmp_path))
    table.wiring = replace(table.wiring, actions={"nmb": "close_bets", "clear": "clear_fault",
                                                  "supervisor": "supervisor_key"})

    def runs(raw: object) -> list[Any]:
        return [i.command for i in intents(table, "gpio", raw) if isinstance(i, Run)]

    assert intents(table, "gpio", gpio_events.ButtonPressed("nmb")) == (Submit(CloseBets()),)
    assert not any(isinstance(i, Submit) for i in intents(table, "gpio", gpio_events.ButtonPressed("other")))
    table.latch("device_fault.shoe", "jam")
    assert runs(gpio_events.ButtonLongPress("clear")) == []  # no key
    table.submit("gpio", gpio_events.ButtonPressed("supervisor"))
    assert runs(gpio_events.ButtonPressed("clear")) == []  # a short press does not clear
    assert [c.name for c in runs(gpio_events.ButtonLongPress("clear"))] == ["clear_fault"]
    table.submit("gpio", gpio_events.ButtonReleased("supervisor"))
    assert runs(gpio_events.ButtonLongPress("clear")) == []


def test_tower_pattern_follows_the_table(tmp_path: Path) -> None:
    from drivers.gpio.sim import simulate
    from drivers.gpio.config import load_device_config
    from tests.tablectl import ROOT

    table = open_table(punto_config(tmp_path))
    assert tower_pattern(table) == "idle"
    table.submit("bets", Bet(1, "punto", 1000))
    assert tower_pattern(table) == "betting_open"
    table.submit("gpio", CloseBets())
    assert tower_pattern(table) == "dealing"
    table.latch("link_down.shoe", "unplugged")
    assert tower_pattern(table) == "device_fault"
    table.latch("device_fault.shoe", "jam")
    assert tower_pattern(table) == "latched_fault"
    # the lamps on mock pins follow the pattern at once
    sim = simulate(load_device_config(ROOT / "hw" / "dealer-panel.toml"), lambda e: None)
    loop = asyncio.new_event_loop()
    try:
        out = device_outputs.TowerOutput(sim.devices.tower, loop)
        out.show({"pattern": "dealing"})
        assert set(sim.hands.tower_lit()) == {"green", "amber"}
        out.show({"pattern": "device_fault"})
        assert sim.hands.tower_lit() == ("red",)
    finally:
        loop.close()
        sim.close()


def test_sign_content_shows_limits_and_last_results(tmp_path: Path) -> None:
    table = open_table(punto_config(tmp_path))
    view = DeviceView(table)
    view(table, [type("R", (), {"kind": "event", "body": {"effects": [{"outcome": {"number": 17, "color": "black"}}]}})(),
                 type("R", (), {"kind": "event", "body": {"effects": [{"outcome": {"dice": [3, 5, 6]}}]}})(),
                 type("R", (), {"kind": "event", "body": {"effects": [{"outcome": {"winner": "banco"}}]}})()])
    content = view.sign_content(table)
    # each game marks its own outcomes (GameSpec.result_mark): a Punto Banco table shows only its winners
    assert [(m.text, m.colour) for m in content.results] == [("B", None)]
    assert content.title == "Punto Banco" and content.currency == "EUR"  # the fi example table (hw/tables) is in euro
    from controller.games import load_game
    marks = {game: load_game(game).mark(outcome) for game, outcome in (
        ("roulette", {"number": 17, "color": "black"}), ("roulette", {"number": 0, "color": "green"}),
        ("sic-bo", {"dice": [3, 5, 6]}), ("tarning", {"number": 17, "red": 3, "green": 5}),
        ("punto-banco", {"winner": "tie"}), ("blackjack", {"dealer": {"total": 20}}))}
    assert marks == {"roulette": ("0", "green"), "sic-bo": ("3 5 6", None), "tarning": ("3 5", None),
                     "punto-banco": ("T", None), "blackjack": None}
    assert load_game("punto-banco").mark({"void": "no spin", "winner": "banco"}) is None


def burn_table(tmp: Path, fault_after_ms: int = 5000, options: dict[str, Any] | None = None,
               ) -> table_config.TableConfig:
    """A Black Jack Burn table on the 7-box pin map (its puck fault after ``fault_after_ms``), mock pins."""
    from tests.tablectl import ROOT

    pin_map = (ROOT / "hw" / "bj-burn-7.toml").read_text()
    assert "fault_after_ms = 5000" in pin_map
    (tmp / "bj-burn-7.toml").write_text(pin_map.replace("fault_after_ms = 5000", f"fault_after_ms = {fault_after_ms}"))
    data = {"table": {"id": "bj", "game": "blackjack", "variant": "se-burn", "currency": "SEK",
                      "price_base_amount": 5920000}, "options": options or {},
            "devices": {"gpio": {"driver": "gpio", "pin_factory": "mock", "pin_map": str(tmp / "bj-burn-7.toml")},
                        "sign": {"driver": "dummy"}},
            "journal": {"path": str(tmp / "journal.sqlite")}}
    return table_config.from_mapping(data, "test")


def pucks_journaled(tmp: Path) -> list[tuple[str, int]]:
    return [(b["source"], b["event"]["seat"]) for _, _, b in records(tmp, "event") if b["event"]["type"] == "puck"]


@pytest.mark.parametrize("options, laid_at", [({}, 1), ({"previous_puck_box": 4}, 4)])
def test_idle_simulated_burn_table_lays_the_puck_and_runs_past_the_fault_time(
        tmp_path: Path, options: dict[str, Any], laid_at: int) -> None:
    # --idle: devices up, nobody plays; the puck lies in a burn circle from the start, as at a real table
    daemon = Daemon(burn_table(tmp_path, 300, options), simulate=True, fast=True, stream=io.StringIO(),
                    croupier=False)

    async def body(d: Daemon) -> None:
        await asyncio.sleep(1.2)  # four times the puck's fault time
        assert d.built.inputs["gpio"].devices.puck.seats == (laid_at,)
        assert not d.table.faults

    run_daemon(daemon, body)
    assert pucks_journaled(tmp_path) == [("gpio", laid_at)]
    assert not records(tmp_path, "fault")


def test_burn_puck_lifted_off_every_circle_still_latches_the_fault(tmp_path: Path) -> None:
    daemon = Daemon(burn_table(tmp_path, 300), simulate=True, fast=True, stream=io.StringIO(), croupier=False)

    async def body(d: Daemon) -> None:
        await until(lambda: bool(pucks_journaled(tmp_path)))
        d.built.inputs["gpio"].hands.puck(1, False)  # the puck taken off the table: no box senses it
        await until(lambda: "sensor_fault.gpio" in d.table.faults, 5)
        assert d.table.faults["sensor_fault.gpio"].text == "no box has sensed the puck for 0.3 s"

    run_daemon(daemon, body)


def test_played_simulated_burn_table_with_the_puck_laid_still_bets_in_its_first_round(tmp_path: Path) -> None:
    # the laid puck is sensed (and journaled) in round 1 before or among the players' bets: they still bet
    daemon = Daemon(burn_table(tmp_path, 300), simulate=True, seed=5, fast=True, rounds=2, stream=io.StringIO())
    asyncio.run(asyncio.wait_for(daemon.run(), 40))
    import json

    with sqlite3.connect(tmp_path / "journal.sqlite") as db:
        rows = db.execute("SELECT body FROM records WHERE kind = 'event' AND round = 1 ORDER BY seq").fetchall()
    types = [json.loads(body)["event"]["type"] for (body,) in rows]
    assert "bet" in types and "puck" in types and "void" not in types
    assert len(records(tmp_path, "round_open")) >= 3 and not records(tmp_path, "fault")


def test_puck_at_the_wrong_box_on_mock_pins_blocks_the_deal(tmp_path: Path) -> None:
    daemon = Daemon(burn_table(tmp_path), simulate=True, fast=True, stream=io.StringIO(), croupier=False)

    def rejected() -> list[str]:
        return [b["reason"] for _, _, b in records(tmp_path, "reject")]

    async def body(d: Daemon) -> None:
        hands, panel = d.built.inputs["gpio"].hands, d.built.inputs["gpio"]
        assert d.table.submit("bets", Bet(2, "main", 1000)) == "accepted"
        assert d.table.submit("bets", Bet(4, "main", 1000)) == "accepted"
        await until(lambda: pucks_journaled(tmp_path) == [("gpio", 1)])  # laid at box 1 as the table opened
        hands.puck(1, False)
        hands.puck(5, True)  # the puck lies at box 5; it belongs at box 2
        await until(lambda: len(pucks_journaled(tmp_path)) == 2)
        assert await panel.press("close_bets")  # no more bets; the puck may still move until the first card
        await until(lambda: any(b["event"]["type"] == "close_bets" for _, _, b in records(tmp_path, "event")))
        assert d.table.waiting_for() == "Burn puck to box 2, then the first card"
        hands.puck(5, False)
        hands.puck(2, True)
        await until(lambda: len(pucks_journaled(tmp_path)) == 3)
        assert d.table.waiting_for() == "First card to box 2"
        assert not rejected()

    run_daemon(daemon, body)
    assert pucks_journaled(tmp_path) == [("gpio", 1), ("gpio", 5), ("gpio", 2)]
    assert "sign" in daemon.built.outputs and "tower" in daemon.built.outputs


def test_sign_results_come_back_after_a_restart_and_the_jackpot_display_states(tmp_path: Path) -> None:
    from luma.core.device import dummy

    from drivers.displays.jackpot import JackpotDisplay
    from tests.controller.runtime.helpers import progressive_config

    daemon = Daemon(emulated(tmp_path), simulate=True, seed=6, fast=True, rounds=2, stream=io.StringIO())
    asyncio.run(asyncio.wait_for(daemon.run(), 40))
    table = open_table(punto_config(tmp_path))  # the same journal, reopened
    assert len(DeviceView(table).results) == 2
    table.journal.close()
    prog = open_table(progressive_config(tmp_path / "p" if (tmp_path / "p").mkdir() is None else tmp_path))
    view = DeviceView(prog)
    assert view.jackpot(prog) == {"meter": "main", "amount": 100000, "state": "ok"}
    prog.meters.stop("main")
    assert view.jackpot(prog)["state"] == "untrusted"
    loop = asyncio.new_event_loop()
    try:
        out = device_outputs.JackpotOutput(JackpotDisplay(dummy(width=8, height=8, mode="1")), loop, ticked=True)
        out.show({"meter": "main", "amount": 123456, "state": "pending"})
        assert out.text == "main pending PEnding"
        out.show({"meter": "main", "amount": 123456, "state": "ok"})
        assert out.text.endswith("1234.56")
    finally:
        loop.close()
