"""Property: random event streams never make a wheel or dice round raise, and a rejection changes nothing."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings, strategies as st

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Dice, Puck, Void, Wheel
from controller.games.contract import Accepted, Rejected
from controller.games.contract import Round
from controller.money import win_amount

TABLES = [("roulette", "se", {}), ("roulette", "european", {"la_partage": True}),
          ("roulette", "se", {"zero_bets": True, "chip_values": [100, 500], "limits": {"straight": [100, 500]}}),
          ("tarning", "se", {}), ("tarning", "se-high-jack", {"six_lines": "any"}),
          ("sic-bo", "fi", {"limits": {"total": [50, 1000]}})]


def spot_names(game: str) -> list[str]:
    spec = games.load_game(game)
    config = spec.resolve(spec.variants[0].id, {}, games.paytable_of(spec))
    return [s.name for s in spec.new_round(config, ()).rules.table]  # type: ignore[attr-defined]


SPOTS = sorted({name for game in ("roulette", "tarning", "sic-bo") for name in spot_names(game)})

spots = st.one_of(
    st.sampled_from(SPOTS),
    st.builds(lambda kind, nums: f"{kind}:{','.join(map(str, nums))}",
              st.sampled_from(["straight", "split", "street", "corner", "line", "trio", "first_four", "dozen",
                               "column", "total", "single", "combo", "double", "triple", "pair"]),
              st.lists(st.integers(-2, 40), min_size=0, max_size=7)),
    st.text(max_size=12),
)
players = st.one_of(st.none(), st.sampled_from(["blue", "pink", "green", "yellow"]))
colors = st.sampled_from(["red", "green", "röd", "grön", "white", "blue"])


@st.composite
def dice_events(draw: st.DrawFn) -> Dice:
    values = tuple(draw(st.lists(st.integers(-1, 8), min_size=1, max_size=4)))
    named = draw(st.booleans())
    return Dice(values, tuple(draw(colors) for _ in values) if named else None)


noise = st.one_of(
    st.builds(Bet, st.integers(1, 12), spots, st.one_of(st.none(), st.integers(0, 3000)), players),
    st.just(CloseBets()),
    st.builds(Wheel, st.integers(-3, 40)),
    dice_events(),
    st.builds(Void, st.sampled_from(["no spin", "die off the table"]), st.one_of(st.none(), st.just("camera"))),
    st.just(CardOut(parse_card("Ah"))),
    st.builds(Action, st.integers(1, 3), st.just("stand")),
    st.builds(Puck, st.integers(1, 3)),
)
COLOURS = {1: "blue", 2: "pink", 3: "green", 4: "yellow"}


@st.composite
def table_and_stream(draw: st.DrawFn) -> tuple[tuple, list]:
    """A table, then a stream mixing its own legal bets and results with any event at all."""
    table = draw(st.sampled_from(TABLES))
    game = table[0]
    seat = st.integers(1, 4)
    own_bet = st.builds(lambda seat, spot, amount, keep: Bet(seat, spot, amount, COLOURS[seat] if keep else None),
                        seat, st.sampled_from(spot_names(game)), st.sampled_from([None, 100, 200, 500, 986]),
                        st.integers(0, 9).map(lambda n: n > 0))
    result = {"roulette": st.builds(Wheel, st.integers(0, 36)),
              "tarning": st.builds(lambda r, g: Dice((r, g), ("red", "green")), st.integers(1, 6), st.integers(1, 6)),
              "sic-bo": st.builds(lambda *v: Dice(tuple(v)), *[st.integers(1, 6)] * 3)}[game]
    stream = draw(st.lists(own_bet, max_size=12)) + draw(st.lists(st.one_of(own_bet, noise), max_size=20))
    if draw(st.booleans()):
        stream.append(draw(result))
    return table, stream


def state(round_: Round) -> dict:
    """Everything the round holds but its (immutable) configuration, deep-copied."""
    return {k: copy.deepcopy(v) for k, v in round_.__dict__.items() if k != "config"}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=table_and_stream())
def test_random_streams_never_raise_and_rejections_change_nothing(case: tuple[tuple, list]) -> None:
    (game, variant, options), stream = case
    spec, config = games.configure(game, variant, options)
    round_ = spec.new_round(config, ())
    for event in stream:
        before = state(round_)
        answer = round_.apply(event)
        if isinstance(answer, Rejected):
            assert answer.reason and state(round_) == before, event
        else:
            assert isinstance(answer, Accepted)
        round_.waiting_for()
    for s in round_.settlements():
        if s.stake is None:
            continue
        if s.result == "win":
            assert s.odds is not None and s.net == win_amount(s.stake, s.odds)[0]
        elif s.result == "lose":
            assert s.net == -s.stake
        else:
            assert s.result == "surrender" and s.net == -(s.stake - s.stake // 2)
    assert round_.complete == (round_.outcome() is not None)
    assert len(round_.settlements()) == (len(round_.bets) if round_.complete else 0)  # type: ignore[attr-defined]
