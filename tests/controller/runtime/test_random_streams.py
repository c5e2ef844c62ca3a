"""Random event streams (hypothesis) through the runtime never crash it and always leave a clean journal."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from controller.cards import JOKER, card_from_index
from controller.events import Action, Bet, CardOut, CloseBets, Dice, Puck, Void, Wheel
from controller.runtime.audit import verify
from controller.runtime.interfaces import Command
from drivers import events as dev
from tests.controller.runtime.helpers import open_table, progressive_config, punto_config

cards = st.integers(0, 52).map(lambda i: JOKER if i == 52 else card_from_index(i))
texts = st.text(min_size=1, max_size=8)
game_events = st.one_of(
    st.builds(Bet, st.integers(1, 25), st.sampled_from(["punto", "banco", "tie", "main", "progressive", "x"]),
              st.one_of(st.none(), st.integers(0, 200_000)), st.one_of(st.none(), st.sampled_from(["a", "b", "c"]))),
    st.just(CloseBets()),
    st.builds(CardOut, cards), st.builds(CardOut, cards), st.builds(CardOut, cards),
    st.builds(Action, st.integers(1, 9), st.sampled_from(["stand", "hit", "double", "burn"])),
    st.builds(Wheel, st.integers(-3, 40)),
    st.builds(Dice, st.lists(st.integers(0, 7), min_size=1, max_size=4).map(tuple)),
    st.builds(Void, texts), st.builds(Puck, st.integers(1, 9)),
)
driver_events = st.one_of(
    st.builds(dev.CardDealt, st.one_of(texts, cards.map(str))), st.just(dev.CutCard()), st.just(dev.ShoeEmpty()),
    st.builds(dev.Jam, texts), st.builds(dev.LinkFault, texts), st.builds(dev.Tamper, texts),
    st.builds(dev.Unreadable, texts), st.just(dev.LinkRestored()),
    st.tuples(st.sampled_from([dev.ButtonPressed, dev.ButtonLongPress, dev.ButtonReleased]),
              st.sampled_from(["no_more_bets", "clear_fault", "jackpot_confirm", "x"])).map(lambda p: p[0](p[1])),
    st.builds(dev.DiceRead, st.sampled_from(["ok", "void", "unsure", "?"]),
              st.lists(st.one_of(st.none(), st.integers(0, 7)), max_size=3).map(tuple),
              st.lists(st.sampled_from(["red", "green"]), max_size=3).map(tuple), texts),
    st.builds(dev.PuckSensed, st.integers(1, 9)), st.builds(dev.PuckFault, texts),
    st.builds(dev.SlotLocked, st.lists(st.integers(1, 9), max_size=3).map(tuple)),
    st.sampled_from([None, 42, "text", b"bytes", object()]),
)
commands = st.builds(
    Command, st.sampled_from(["clear_fault", "confirm_jackpot", "correct_meter", "new_shoe", "stop", "nonsense"]),
    st.fixed_dictionaries({}, optional={"name": st.sampled_from(["device_fault.shoe", "journal", "x"]),
                                        "meter": st.sampled_from(["main", "nope"]),
                                        "value": st.one_of(st.integers(-5, 10**6), st.none(), texts),
                                        "reason": st.one_of(texts, st.just(""))}),
    st.sampled_from(["console", "supervisor key"]))
inputs = st.lists(st.tuples(st.sampled_from(["shoe", "buttons", "bets", "wheel", "console"]),
                            st.one_of(game_events, game_events, driver_events, commands)), max_size=40)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stream=inputs, progressive=st.booleans())
def test_random_streams_never_crash_the_runtime(stream, progressive: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = progressive_config(Path(tmp)) if progressive else punto_config(Path(tmp))
        table = open_table(config)
        for source, raw in stream:
            if isinstance(raw, Command):
                answer = table.command(raw)
            else:
                answer = table.submit(source, raw)
            assert isinstance(answer, str)
            table.view()
            table.summary()
        report = verify(table.journal)
        assert report["ok"], report["problems"]
        waiting, number = table.round.waiting_for(), table.round_no
        table.journal.close()
        again = open_table(config)
        assert (again.round_no, again.round.waiting_for()) == (number, waiting)
        assert "replay_mismatch" not in again.faults
        again.journal.close()
