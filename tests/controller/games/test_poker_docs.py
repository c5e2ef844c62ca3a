"""Each poker game's docs page is checked against its declaration: every spot, action, option and variant is named."""

from __future__ import annotations

import pytest

from controller.games import load_game
from tests.tablectl import ROOT

GAMES = ("three-card-poker", "fast-poker", "restaurant-holdem", "caribbean-stud", "ultimate-texas-holdem",
         "texas-holdem-bonus", "red-dog", "bulldog",
         "dynamic-poker-pro", "russian-poker")


@pytest.mark.parametrize("game", GAMES)
def test_docs_page_names_everything_the_game_declares(game):
    spec = load_game(game)
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    assert f"`{game}`" in text
    names = [v.id for v in spec.variants] + [s.name for s in spec.spots] + [a.name for a in spec.actions] \
        + [o.name for o in spec.options]
    missing = [n for n in names if f"`{n}`" not in text]
    assert not missing, f"docs/games/{game}.md does not name {missing}"
