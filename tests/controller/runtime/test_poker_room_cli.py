"""`tablectl run --simulate --game V` for every poker-room game, as a technician or an auditor runs it.

Each game plays whole hands on the embedded defaults with virtual players (no configuration file), then
`tablectl journal verify` checks the chain and the meters and replays every round through the game code, and
one round exported with `tablectl journal export` settles again with `tablectl settle` to the journal's
settlements; where PHH has a code for the game the same round exports as PHH and PokerKit reads it back. The
default run plays Texas Hold'em; every other game runs under ``-m slow`` (tests/controller/runtime/
test_every_game_sim.py plays each game and betting from its example table in process).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller import games
from controller.runtime.audit import journal_settlements
from controller.runtime.journal import Journal
from tests.tablectl import run_tablectl

ROOM = sorted(spec.id for spec in games.all_games() if spec.docs_page == "poker-room.md")
CASES = [g if g == "texas-holdem" else pytest.param(g, marks=pytest.mark.slow) for g in ROOM]
HANDS = 3


def test_the_poker_room_is_fifteen_games() -> None:
    assert len(ROOM) == 15 and {"chinese-poker", "open-face-chinese", "soko", "crazy-watermelon"} <= set(ROOM)


@pytest.mark.parametrize("game", CASES)
def test_run_simulate_then_verify_replay_and_export(game: str, tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    done = run_tablectl("run", "--simulate", "--game", game, "--rounds", str(HANDS), "--fast", "--quiet",
                        "--journal", str(journal), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"session: {HANDS} rounds" in done.stdout
    verified = run_tablectl("journal", "verify", "--json", str(journal), timeout=300)
    assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]
    report = json.loads(verified.stdout)
    assert report["ok"] and report["rounds_settled"] == HANDS, report
    exported = tmp_path / "round-2.json"
    assert run_tablectl("journal", "export", str(journal), "--round", "2", "-o", str(exported)).returncode == 0
    settled = run_tablectl("settle", str(exported))
    assert settled.returncode == 0, settled.stderr
    j = Journal(journal, readonly=True)
    try:
        assert json.loads(settled.stdout)["rounds"][0]["settlements"] == journal_settlements(j, 2)
    finally:
        j.close()
    phh = run_tablectl("journal", "export", str(journal), "--round", "2", "--format", "phh")
    if phh.returncode == 0:  # a game PHH has a code for (the default betting of each): PokerKit reads it back
        from controller.games.poker_room.history import from_phh

        history = from_phh(phh.stdout)
        assert len(history.starting_stacks) >= 2
    else:
        assert phh.returncode == 2 and "phh" in phh.stderr.lower(), phh.stderr  # one line saying why not
