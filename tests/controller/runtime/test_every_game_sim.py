"""`tablectl run --simulate` plays every game and variant end to end (issue 4: "Done when").

For each variant of each registered game: its example table in hw/tables/
runs in-process with every device simulated, flat out, for a few rounds; the
journal verifies (chain, meters, each round settled once); every round's
export replays through the game to the journaled settlements; and one round
per game goes through the command line (`journal export --round K`, then
`tablectl settle`) as an auditor would run it.
"""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller import config as table_config
from controller.events import Action, event_from_json
from controller.games.contract import Accepted, Prompt
from controller.games.decisions import copy_of, legal, players_at, seats_with_bets
from controller import games, scenario
from controller.runtime.audit import export_round, journal_settlements, verify
from controller.runtime.daemon import Daemon
from controller.runtime.journal import Journal
from tests.tablectl import ROOT, run_tablectl

ROUNDS = 10
VARIANTS = [(spec.id, v.id) for spec in games.all_games() for v in spec.variants]
DECIDING = {"blackjack", "caribbean-stud", "fast-poker", "restaurant-holdem", "three-card-poker",
            "ultimate-texas-holdem", "texas-holdem-bonus", "dynamic-poker-pro", "pai-gow-poker"}
PEER = {spec.id for spec in games.all_games() if spec.new_round.__module__.startswith("controller.games.poker_room")}
# A poker-room hand is some forty journaled events: the default run plays one table of each dealing family
# (board, discards, stud, draw) for a few hands; every other game and betting plays under -m slow.
PEER_DEFAULT = {("texas-holdem", "no-limit"), ("pineapple", "no-limit"), ("seven-card-stud", "limit"),
                ("five-card-draw", "limit")}
PEER_ROUNDS = 4
CASES = [pytest.param(g, v, id=f"{g}-{v}", marks=pytest.mark.slow) if g in PEER and (g, v) not in PEER_DEFAULT
         else pytest.param(g, v, id=f"{g}-{v}") for g, v in VARIANTS]


def example(game: str, variant: str) -> Path:
    return ROOT / "hw" / "tables" / f"{game}-{variant}.toml"


def test_every_variant_has_an_example_table() -> None:
    missing = [f"{g}-{v}" for g, v in VARIANTS if not example(g, v).is_file()]
    assert not missing, f"no example table in hw/tables for {missing}"
    assert len(VARIANTS) >= 21


@pytest.mark.parametrize("game,variant", CASES)
def test_simulated_table_plays_the_game_end_to_end(tmp_path: Path, game: str, variant: str) -> None:
    rounds = PEER_ROUNDS if game in PEER else ROUNDS
    loaded = table_config.load(example(game, variant))
    journal_path = tmp_path / "journal.sqlite"
    config = table_config.TableConfig(**{**loaded.__dict__, "journal_path": journal_path})
    stream = io.StringIO()
    daemon = Daemon(config, simulate=True, seed=41, fast=True, rounds=rounds, stream=stream, quiet=True)
    assert asyncio.run(asyncio.wait_for(daemon.run(), 60)) == 0
    assert daemon.table is not None and daemon.table.round_no == rounds + 1, stream.getvalue()[-2000:]
    assert daemon.croupier is not None
    counts = daemon.croupier.counts
    assert counts["bets"] >= (2 if game in PEER else rounds) and counts["voids"] == 0, counts
    if game in DECIDING or game in PEER:  # poker-room players buy in once and then act in every hand
        assert counts["moves"] >= rounds, counts  # the players decided (no-more-bets alone is one per round)

    journal = Journal(journal_path, readonly=True)
    report = verify(journal)
    assert report["ok"], report["problems"][:5]
    assert_the_terminal_offered_every_move(journal, daemon.table.round_spec, config.round_config, rounds)
    assert report["rounds_settled"] == rounds
    rejects = sum(1 for _ in journal.records(kinds=("reject", "refuse")))
    assert rejects == 0, "the players' moves are tried first: nothing the table refuses is sent"
    chosen, most = 1, -1
    for number in range(1, rounds + 1):
        expected = journal_settlements(journal, number)
        assert expected, f"round {number} settled nothing"
        replay = scenario.settle(scenario.load_scenario(json.loads(json.dumps(export_round(journal, number)))))
        assert replay["rounds"][0]["settlements"] == expected, f"round {number}"
        carried = 1000 if "carried" in export_round(journal, number)["rounds"][0] else 0
        if len(expected) + carried > most:
            chosen, most = number, len(expected) + carried
    journal.close()

    exported = tmp_path / f"round-{chosen}.json"
    done = run_tablectl("journal", "export", str(journal_path), "--round", str(chosen), "-o", str(exported))
    assert done.returncode == 0, done.stderr
    settled = run_tablectl("settle", str(exported))
    assert settled.returncode == 0, settled.stderr
    journal = Journal(journal_path, readonly=True)
    assert json.loads(settled.stdout)["rounds"][0]["settlements"] == journal_settlements(journal, chosen)
    if game in PEER:
        # a poker-room hand as PHH (where PHH has a code for the game), which PokerKit reads back and replays to
        # the hand's stacks before the house's take
        from controller.games.poker_room.history import from_phh, pokerkit_game

        known = pokerkit_game(config.round_config)
        if known is None or known.code is None:
            return
        phh = run_tablectl("journal", "export", str(journal_path), "--round", str(chosen), "--format", "phh")
        assert phh.returncode == 0, phh.stderr
        history = from_phh(phh.stdout)
        *_, last = iter(history)
        taken = history.user_defined_fields["_rake"] + history.user_defined_fields["_drop"]
        assert sum(last.stacks) - taken == sum(history.finishing_stacks)


def assert_the_terminal_offered_every_move(journal: Journal, spec: Any, round_config: Any, rounds: int) -> None:
    """Every decision the virtual players made is one the dealer terminal offered at that moment, with the
    multiple, amount or cards the player chose (controller/games/decisions.py): each simulated round could
    have been played by tapping the terminal at a real table."""
    for number in range(1, rounds + 1):
        opened = next(journal.records(kinds=("round_open",), round_=number), None)
        carried = tuple(event_from_json(b) for b in (opened.body.get("carried", []) if opened else []))
        round_ = spec.new_round(round_config, carried)
        prompt: Prompt | None = None
        taken: list[Any] = []
        for record in journal.records(kinds=("event",), round_=number):
            event = event_from_json(record.body["event"])
            if isinstance(event, Action):
                answer_now = legal(spec, round_, prompt, seats_with_bets(taken, carried),
                                   players=players_at(taken, carried))
                offered = answer_now.find(event.seat, event.action, event.player)
                assert offered is not None, f"round {number}: {event} was not offered ({prompt})"
                tapped = offered.event(event.multiple, event.amount if event.amount != offered.fixed else None,
                                       event.cards)
                assert replace(tapped, hand=event.hand) == event, (number, tapped, event)
                assert isinstance(copy_of(round_).apply(tapped), Accepted), (number, tapped)  # a split hand too
            answer = round_.apply(event)
            assert isinstance(answer, Accepted), (number, event, answer)
            taken.append(event)
            prompt = next((e for e in reversed(answer.effects) if isinstance(e, Prompt)), prompt)
