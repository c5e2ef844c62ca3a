"""The docs pages of roulette, Tärning and Sic Bo hold the house-edge tables the math tool computes, verbatim."""

from __future__ import annotations

import argparse

import pytest

from controller import games
from controller.house_edge import roulette, sic_bo, tarning
from controller.house_edge.layout_math import markdown_table
from tests.tablectl import ROOT

DOCS = ROOT / "docs" / "games"
MODULES = {"roulette": roulette, "tarning": tarning, "sic-bo": sic_bo}
TABLES = [
    ("roulette", "se", {}),
    ("roulette", "se", {"zero_bets": True, "trio": True, "first_four": True}),
    ("roulette", "european", {}),
    ("roulette", "european", {"la_partage": True}),
    ("tarning", "se", {}),
    ("tarning", "se-high-jack", {}),
    ("sic-bo", "fi", {}),
]


@pytest.mark.parametrize("game, variant, options", TABLES)
def test_the_docs_hold_the_computed_house_edge_table(game: str, variant: str, options: dict) -> None:
    spec, config = games.configure(game, variant, options)
    table = markdown_table(MODULES[game].report(spec, config, argparse.Namespace(exact=True)))
    assert table in (DOCS / f"{game}.md").read_text(encoding="utf-8"), f"docs/games/{game}.md is out of date"


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_docs_name_every_kind_of_bet_and_option(game: str) -> None:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    spec = games.load_game(game)
    for spot in spec.spots:
        assert f"`{spot.name.split(':')[0]}" in text, spot.name
    for option in spec.options:
        assert f"`{option.name}`" in text, option.name
