"""PokerKit under the poker room: pinned to one version, and its warnings refuse instead of warning."""

from __future__ import annotations

import tomllib
import warnings
from importlib import metadata

from controller import games
from controller.cards import parse_card
from controller.events import Bet, CardOut, CloseBets
from controller.games.contract import Rejected
from controller.games.poker_room.engine import to_pk
from tests.tablectl import ROOT


def test_pokerkit_is_pinned_to_the_version_installed() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = [d for d in project["dependencies"] if d.replace(" ", "").lower().startswith("pokerkit")]
    assert pins == [f"pokerkit=={metadata.version('pokerkit')}"], pins  # one exact version, the one in use


def test_what_pokerkit_only_warns_about_is_refused_and_changes_nothing() -> None:
    spec, config = games.configure("texas-holdem", "no-limit", {"seats": 3})
    r = spec.new_round(config, ())
    for event in (Bet(1, "buy_in", 5000), Bet(2, "buy_in", 5000), CloseBets(), CardOut(parse_card("Ah"))):
        r.apply(event)
    state = r.hand.state
    twin = r.hand.clone().state  # PokerKit alone, on a copy: the same card again is only a warning
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        twin.deal_hole(to_pk(parse_card("Ah")))
    assert seen and issubclass(seen[0].category, UserWarning)
    dealt = list(state.hole_cards)
    answer = r.apply(CardOut(parse_card("Ah")))  # through the adapter the warning is a refusal
    assert isinstance(answer, Rejected) and "already out" in answer.reason
    assert list(r.hand.state.hole_cards) == dealt
