"""The simulated croupier's hands (controller/runtime/devices.py CroupierHands) on a table with decision buttons.

A decision button means "this decision at the first box still to decide, with the game's own stake"
(controller/runtime/decision_keys.py). The hands press it only where the press means exactly the
decision the player made; a decision it cannot carry (Ultimate Texas Hold'em's 4x or 3x play before
the flop, a fold at a later box) is keyed in as the game event, as the croupier would at the terminal.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from controller import config as table_config
from controller.runtime.daemon import Daemon
from controller.runtime.journal import Journal
from tests.tablectl import ROOT

pytestmark = pytest.mark.timeout(90)


def test_an_ultimate_texas_holdem_round_at_six_boxes_plays_through_the_play_button_table(tmp_path: Path) -> None:
    loaded = table_config.load(ROOT / "hw" / "tables" / "ultimate-texas-holdem-ii.toml")
    assert loaded.round_config.get("boxes") == 6
    terminal = {**(loaded.terminal or {}), "port": 0}  # the terminal runs as at the table, on a free port
    config = table_config.TableConfig(**{**loaded.__dict__, "journal_path": tmp_path / "journal.sqlite",
                                         "terminal": terminal})
    stream = io.StringIO()
    daemon = Daemon(config, simulate=True, seed=41, fast=True, rounds=1, stream=stream, quiet=True)
    assert asyncio.run(asyncio.wait_for(daemon.run(), 40)) == 0
    assert daemon.table is not None and daemon.table.round_no == 2, stream.getvalue()[-2000:]
    assert daemon.croupier is not None and daemon.croupier.counts["voids"] == 0, daemon.croupier.counts

    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    actions = [(r.body["source"], r.body["event"]) for r in journal.records(kinds=("event",))
               if r.body["event"]["type"] == "action"]
    deciding = {e["seat"] for r in journal.records(kinds=("event",)) for e in [r.body["event"]]
                if e["type"] == "bet" and e["spot"] == "ante"}
    journal.close()
    assert len(deciding) >= 2, deciding
    decided = {e["seat"] for _s, e in actions if e["action"] in ("play", "fold")}
    assert decided == deciding, actions  # every box played or folded: none was left waiting
    for source, event in actions:
        if event.get("multiple") in (4, 3):  # a pre-flop play: no button carries its multiple, it is keyed in
            assert source == "buttons", (source, event)
        if source == "gpio":  # a press: the button's own meaning, never a multiple or an amount
            assert "multiple" not in event and "amount" not in event, event
