"""Properties every game in the registry must keep, on random event streams (hypothesis).

- ``apply`` never raises: every event is accepted or rejected with a reason.
- A rejected event changes nothing: the round fed every event behaves exactly like
  a round fed only the accepted ones (same effects, outcome, settlements, state).
- Money settles once: no (seat, spot, player, hand) is settled twice.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from controller import games
from controller.cards import card_from_index
from controller.events import Action, Bet, CardOut, CloseBets, Dice, Puck, Void, Wheel
from controller.games.contract import Accepted, Rejected

SPECS = games.all_games()
CASES = [(spec.id, variant.id) for spec in SPECS for variant in spec.variants]


def event_strategy(spec, variant):
    spots = [s.name for s in spec.spots_for(variant)] or ["main"]
    actions = [a.name for a in spec.actions] or ["stand"]
    seat = st.integers(1, 8)
    amount = st.one_of(st.none(), st.sampled_from([100, 500, 1000, 2000, 5000]), st.integers(0, 10**6))
    player = st.one_of(st.none(), st.sampled_from(["anna", "bo"]))
    card = st.integers(0, 52).map(card_from_index)
    return st.one_of(
        st.builds(Bet, seat, st.sampled_from(spots + ["nonsense"]), amount, player),
        st.just(CloseBets()),
        st.builds(CardOut, card), st.builds(CardOut, card), st.builds(CardOut, card),
        st.builds(Action, seat, st.sampled_from(actions + ["dance"]), st.one_of(st.none(), st.integers(1, 3)),
                  player, st.one_of(st.none(), st.integers(1, 4))),
        st.builds(Wheel, st.integers(-1, 38)),
        st.builds(Dice, st.lists(st.integers(0, 7), min_size=1, max_size=4).map(tuple)),
        st.builds(Void, st.just("no spin")),
        st.builds(Puck, seat),
    )


def observe(round_):
    return (round_.complete, round_.waiting_for(), round_.outcome(),
            tuple(s.to_json().items().__repr__() for s in round_.settlements()))


@pytest.mark.parametrize("game_id, variant", CASES)
def test_random_streams_never_raise_and_rejections_change_nothing(game_id, variant):
    spec, config = games.configure(game_id, variant)

    @settings(max_examples=60)
    @given(st.lists(event_strategy(spec, variant), max_size=40))
    def check(events):
        everything = spec.new_round(config, ())
        accepted_only = spec.new_round(config, ())
        for event in events:
            answer = everything.apply(event)
            assert isinstance(answer, (Accepted, Rejected))
            if isinstance(answer, Rejected):
                assert answer.reason.strip()
                continue
            again = accepted_only.apply(event)
            assert again == answer
            assert observe(everything) == observe(accepted_only)
        keys = [(s.seat, s.spot, s.player, s.hand) for s in everything.settlements()]
        assert len(keys) == len(set(keys)), "a bet was settled twice"

    check()
