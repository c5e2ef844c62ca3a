"""`tablectl settle` on random, half-valid scenario documents: exit 0 or 2, never a traceback."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from controller import cli, games

GAME_IDS = [spec.id for spec in games.all_games()]
VARIANTS = sorted({v.id for spec in games.all_games() for v in spec.variants})
SPOTS = sorted({s.name for spec in games.all_games() for s in spec.spots}) + ["straight:17", "split:1,2", "x"]

scalar = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**7), st.floats(allow_nan=False),
                   st.text(max_size=6), st.sampled_from(["Ah", "10d", "JK", "1h", "red", "green"]))
event = st.fixed_dictionaries(
    {"type": st.sampled_from(["bet", "close_bets", "card", "action", "wheel", "dice", "void", "puck", "nope"])},
    optional={"seat": st.one_of(st.integers(-1, 12), scalar), "spot": st.one_of(st.sampled_from(SPOTS), scalar),
              "amount": st.one_of(st.sampled_from([100, 1000, 5000]), scalar), "card": scalar,
              "number": st.one_of(st.integers(-1, 40), scalar),
              "values": st.one_of(st.lists(st.integers(0, 7), max_size=4), scalar),
              "colors": st.lists(st.sampled_from(["red", "green", "blue"]), max_size=3),
              "action": st.sampled_from(["stand", "double", "split", "fold", "play", "raise", "burn", "x"]),
              "reason": scalar, "player": scalar})
document = st.fixed_dictionaries(
    {"game": st.one_of(st.sampled_from(GAME_IDS), scalar)},
    optional={"variant": st.one_of(st.sampled_from(VARIANTS), scalar),
              "options": st.one_of(st.dictionaries(st.sampled_from(["decks", "limits", "boxes", "x"]), scalar,
                                                   max_size=2), scalar),
              "rounds": st.one_of(st.lists(st.fixed_dictionaries({"events": st.lists(event, max_size=12)}),
                                           max_size=3), scalar)})


@settings(max_examples=300)
@given(document)
def test_settle_never_raises(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("fuzz") / "scenario.json"
    path.write_text(json.dumps(doc))
    status = cli.main(["settle", str(path)])
    assert status in (0, 2)
