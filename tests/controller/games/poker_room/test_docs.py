"""docs/games/poker-room.md names every poker-room game, betting, spot, action and option the code declares."""

from __future__ import annotations

from controller.games.poker_room import SPECS
from tests.tablectl import ROOT


def test_the_page_names_everything_the_games_declare():
    text = (ROOT / "docs" / "games" / "poker-room.md").read_text(encoding="utf-8")
    missing = []
    for spec in SPECS:
        names = [spec.id] + [v.id for v in spec.variants] + [s.name for s in spec.spots] \
            + [a.name for a in spec.actions] + [o.name for o in spec.options]
        missing += [f"{spec.id}: {n}" for n in names if f"`{n}`" not in text]
    assert not missing, f"docs/games/poker-room.md does not name {missing}"
