"""The tower shows betting open from the first bet until no more bets, at every game (seen on the live table)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from controller import config as table_config
from controller.runtime.daemon import Daemon
from controller.runtime.table import Table


@pytest.mark.parametrize("game", ["blackjack", "fast-poker", "roulette", "punto-banco"])
def test_the_tower_stays_on_betting_open_while_bets_are_taken(tmp_path: Path, game: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = table_config.simulated_defaults(game, journal=str(tmp_path / "j.sqlite"))
    config = table_config.from_mapping(defaults, "test")
    seen: list[tuple[str, bool]] = []  # (record kind of event, betting open) after each committed record

    def watch(table: Table, records: list) -> None:
        for record in records:
            kind = record.body.get("event", {}).get("type") if isinstance(record.body, dict) else None
            seen.append((str(kind), table.betting_open()))

    stream = io.StringIO()
    daemon = Daemon(config, simulate=True, seed=3, fast=True, rounds=1, stream=stream, quiet=True)
    original = Table.open

    def opened(*args, **kwargs):  # type: ignore[no-untyped-def]
        table = original(*args, **kwargs)
        table.listeners.append(watch)
        return table

    monkeypatch.setattr(Table, "open", opened)  # watch every committed record from the first
    assert asyncio.run(asyncio.wait_for(daemon.run(), 60)) == 0
    kinds = [k for k, _ in seen]
    assert "bet" in kinds and "close_bets" in kinds, kinds
    first_bet, close = kinds.index("bet"), kinds.index("close_bets")
    assert all(open_ for _, open_ in seen[first_bet:close]), seen[first_bet:close]
    assert not seen[close][1]
