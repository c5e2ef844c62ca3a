import pytest
from hypothesis import given, strategies as st

from controller.cards import Card
from controller.events import (Action, Bet, CardOut, CloseBets, Dice, EventError, Puck, Void, Wheel,
                               event_from_json, event_to_json)


def test_every_event_type_round_trips():
    events = [Bet(1, "banco", 5000), Bet(2, "main", None, "red"), CloseBets(), CardOut(Card(14, "h")),
              Action(3, "split", hand=1, player="b", multiple=2, amount=100, cards=(Card(2, "c"),)),
              Wheel(17), Dice((3, 5), ("red", "green")), Void("ball left the wheel", by="croupier"), Puck(4)]
    for event in events:
        assert event_from_json(event_to_json(event)) == event


@pytest.mark.parametrize("obj, field", [
    ({"type": "bet", "spot": "banco"}, "seat"),
    ({"type": "bet", "seat": 0, "spot": "banco"}, "seat"),
    ({"type": "bet", "seat": 1, "spot": "banco", "amount": 1.5}, "amount"),
    ({"type": "bet", "seat": 1, "spot": "banco", "amount": -5}, "amount"),
    ({"type": "bet", "seat": "1", "spot": "banco"}, "seat"),
    ({"type": "bet", "seat": True, "spot": "banco"}, "seat"),
    ({"type": "bet", "seat": 1, "spot": ""}, "spot"),
    ({"type": "card", "card": "1h"}, "card"),
    ({"type": "card"}, "card"),
    ({"type": "card", "card": "Ah", "colour": "x"}, "colour"),
    ({"type": "wheel", "number": "7"}, "number"),
    ({"type": "dice", "values": []}, "values"),
    ({"type": "dice", "values": [1, 2], "colors": ["red"]}, "colors"),
    ({"type": "deal"}, "type"),
    ({"seat": 1}, "type"),
])
def test_malformed_events_name_the_field(obj, field):
    with pytest.raises(EventError) as info:
        event_from_json(obj)
    assert info.value.field == field


@given(st.dictionaries(st.sampled_from(["type", "seat", "spot", "amount", "card", "number", "values", "action"]),
                       st.one_of(st.none(), st.integers(), st.text(max_size=4), st.floats(), st.booleans(),
                                 st.lists(st.integers(), max_size=3), st.sampled_from(["bet", "card", "Ah", "wheel"]))))
def test_random_json_never_raises_anything_but_event_error(obj):
    try:
        event_from_json(obj)
    except EventError:
        pass
