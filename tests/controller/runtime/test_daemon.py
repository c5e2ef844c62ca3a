"""The daemon end to end: `tablectl run --simulate` plays, stops after --rounds, resumes where it stopped."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from controller.runtime.audit import verify
from controller.runtime.daemon import Daemon
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal
from tests.controller.runtime.helpers import progressive_config, punto_config
from tests.controller.runtime import progressive_game
from tests.tablectl import ROOT, run_tablectl


def test_run_simulate_plays_punto_banco_and_resumes(tmp_path: Path) -> None:
    journal = str(tmp_path / "j.sqlite")
    done = run_tablectl("run", "--simulate", "--game", "punto-banco", "--variant", "de", "--rounds", "3", "--fast",
                        "--journal", journal, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "ready: table sim-punto-banco punto-banco de, round 1" in out
    assert "Punto" in out and " wins" in out and "round 1: drop EUR" in out and "[sign @" in out and "[tower @" in out
    assert "session: 3 rounds, drop EUR" in out and f"journal {journal}" in out
    assert "[jackpot_display @" in out
    done = run_tablectl("run", "--simulate", "--game", "punto-banco", "--variant", "de", "--rounds", "2", "--fast",
                        "--journal", journal, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "round 4, journal seq" in done.stdout  # recovered from the journal, not from round 1
    report = verify(Journal(journal, readonly=True))
    assert report["ok"] and report["rounds_settled"] == 5  # --rounds counts the rounds of this run
    done = run_tablectl("run", "--simulate", "--game", "punto-banco", "--variant", "de", "--until-round", "6",
                        "--fast", "--journal", journal, timeout=120)
    assert done.returncode == 0, done.stderr
    assert verify(Journal(journal, readonly=True))["rounds_settled"] == 6  # --until-round: the journal's total


def test_real_devices_that_cannot_start_are_refused_in_one_line() -> None:
    # the real drivers exist now (controller/runtime/devices.py); this machine has no SPI for the MAX7219 displays
    done = run_tablectl("run", "--config", str(ROOT / "hw" / "tables" / "punto-banco-fi.toml"))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "cannot start" in done.stderr


def test_run_usage_errors_are_one_line() -> None:
    for args in (["run"], ["run", "--game", "punto-banco"], ["run", "--simulate", "--game", "pontoon"]):
        done = run_tablectl(*args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_the_daemon_in_process_confirms_jackpots_and_reports_health(tmp_path: Path) -> None:
    stream = io.StringIO()
    daemon = Daemon(progressive_config(tmp_path), simulate=True, seed=3, fast=True, rounds=25, stream=stream,
                    lookup=progressive_game.lookup)
    assert asyncio.run(daemon.run()) == 0
    health = daemon.health()
    assert health["journal_ok"] and health["round"] == 26
    assert health["sources"]["shoe"]["accepted"] >= 25 and health["devices"]["shoe"]["cards_out"] >= 25
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    kinds = [r.body["kind"] for r in journal.records(kinds=("meter",))]
    assert kinds.count("contribution") > 5
    assert kinds.count("payout") == kinds.count("hit") - sum(1 for s in journal.stored_meters().values()
                                                              for _ in s["pending"])
    assert verify(journal)["ok"]


def test_commands_go_through_the_queue_on_the_loop(tmp_path: Path) -> None:
    stream = io.StringIO()
    daemon = Daemon(punto_config(tmp_path), simulate=True, seed=1, fast=True, rounds=None, stream=stream,
                    croupier=False)

    async def session() -> None:
        task = asyncio.create_task(daemon.run())
        while daemon.table is None or daemon.ready_s is None:
            await asyncio.sleep(0.01)
        daemon.command(Command("clear_fault", {}, "console"))
        daemon.command(Command("stop", {}, "console"))
        await asyncio.wait_for(task, 10)

    asyncio.run(session())
    records = list(Journal(tmp_path / "journal.sqlite", readonly=True).records(kinds=("command",)))
    assert [r.body["command"] for r in records] == ["clear_fault", "stop"]
    assert records[0].body["refused"] == "no fault is latched"


def test_a_device_that_stops_answering_latches_its_fault(tmp_path: Path) -> None:
    daemon = Daemon(punto_config(tmp_path), simulate=True, seed=1, fast=True, rounds=None, stream=io.StringIO(),
                    croupier=False)

    async def session() -> None:
        task = asyncio.create_task(daemon.run())
        while daemon.ready_s is None:
            await asyncio.sleep(0.01)
        daemon.devices["shoe"].health = lambda: {"ok": False}  # type: ignore[method-assign]
        for _ in range(300):
            await asyncio.sleep(0.01)
            if daemon.table is not None and "device_silent.shoe" in daemon.table.faults:
                break
        assert not daemon.health()["ok"]
        daemon.command(Command("stop", {}, "test"))
        await asyncio.wait_for(task, 10)

    asyncio.run(session())
    faults = [r.body["name"] for r in Journal(tmp_path / "journal.sqlite", readonly=True).records(kinds=("fault",))]
    assert faults == ["device_silent.shoe"]


def test_the_simulated_shoe_posts_the_cut_card_again_after_a_restart_past_it() -> None:
    from controller.runtime.simulate import CUT_FROM_END, SimulatedShoe
    posted: list[object] = []
    shoe = SimulatedShoe(1, seed=5, dealt=52 - CUT_FROM_END + 3, pace_s=0)
    shoe.start(posted.append)
    shoe.pull()
    shoe.pull()
    shoe.stop()
    assert [type(p).__name__ for p in posted] == ["CardDealt", "CutCard", "CardDealt"]


def test_injected_drivers_post_from_their_own_thread_and_outputs_see_only_committed_state(tmp_path: Path) -> None:
    import threading
    from controller.cards import parse_card
    from controller.events import Bet, CardOut, CloseBets

    class ThreadShoe:
        """A driver-like device: its own thread, frozen records through post()."""

        def start(self, post):  # type: ignore[no-untyped-def]
            def run() -> None:
                post(Bet(1, "banco", 1000))
                post(CloseBets())
                for card in "9h 8s Kc Kd".split():
                    post(CardOut(parse_card(card)))
            self.thread = threading.Thread(target=run)
            self.thread.start()

        def stop(self) -> None:
            self.thread.join()

        def health(self):  # type: ignore[no-untyped-def]
            return {"ok": True}

    shown: list[tuple[int, dict]] = []
    daemon: Daemon

    class Sign:
        def show(self, state):  # type: ignore[no-untyped-def]
            assert daemon.table is not None
            shown.append((daemon.table.journal.last_seq, dict(state)))

    daemon = Daemon(punto_config(tmp_path), simulate=False, fast=True, rounds=1, stream=io.StringIO(),
                    inputs={"shoe": ThreadShoe()}, outputs={"sign": Sign()})
    assert asyncio.run(daemon.run()) == 0
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    assert verify(journal)["rounds_settled"] == 1
    settled_at = next(r.seq for r in journal.records(kinds=("event",)) if r.body["complete"])
    with_result = [seq for seq, s in shown if "LAST Punto" in " ".join(s["lines"]) and "Punto wins" in " ".join(s["lines"])]
    assert with_result and min(with_result) >= settled_at  # the result is shown only once its record is committed


def test_the_loop_checkpoints_the_journal_once_the_commits_pause(tmp_path: Path, monkeypatch) -> None:
    from controller.events import Bet
    from controller.runtime import journal as journal_module
    from controller.runtime.table import Table

    monkeypatch.setattr(journal_module, "CHECKPOINT_AFTER_COMMITS", 3)
    table = Table.open(punto_config(tmp_path))
    calls: list[int] = []
    checkpoint = table.journal.checkpoint

    def counted() -> int | None:
        calls.append(table.journal.last_seq)
        return checkpoint()
    table.journal.checkpoint = counted  # type: ignore[method-assign]

    async def session() -> None:
        loop = asyncio.get_running_loop()
        table.listeners.append(Daemon._checkpoint_when_idle(table, loop, idle_s=0.2))
        for n in range(6):  # commits closer together than the pause: no checkpoint between them
            table.submit("bets", Bet(1, "banco", 1000 + n))
            await asyncio.sleep(0.05)
        assert calls == []
        await asyncio.sleep(0.4)
        assert calls == [table.journal.last_seq]  # once, after the last commit
        assert table.journal.commits_since_checkpoint == 0
        await asyncio.sleep(0.4)
        assert len(calls) == 1  # no commit since: no timer left
        table.submit("bets", Bet(2, "punto", 500))
        await asyncio.sleep(0.4)
        assert len(calls) == 1  # one commit since the last: not worth a checkpoint yet
        for n in range(2):
            table.submit("bets", Bet(3, "punto", 500 + n))
        await asyncio.sleep(0.4)
        assert calls == [calls[0], table.journal.last_seq]
    asyncio.run(session())
    table.journal.close()
