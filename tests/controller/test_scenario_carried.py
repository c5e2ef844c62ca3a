"""A scenario round may say which stakes lay on the layout when it opened (``carried``), as journal export writes."""

from __future__ import annotations

import pytest

from controller import scenario


def doc(carried: object) -> dict:
    return {"game": "caribbean-stud", "variant": "dk", "options": {"boxes": 4},
            "rounds": [{"carried": carried, "events": [
                {"type": "bet", "seat": 1, "spot": "ante", "amount": 600},
                {"type": "close_bets"}]}]}


def test_a_carried_raise_is_on_the_layout_when_the_round_opens() -> None:
    carried = [{"type": "bet", "seat": 1, "spot": "bet", "amount": 1000}]
    out = scenario.settle(scenario.load_scenario(doc(carried)))["rounds"][0]
    # the carried raise of 1000 asks for an ante of 500: the 600 is refused, so no box plays and the close is too
    assert [r["index"] for r in out["rejected"]] == [0, 1]
    assert "ante must be 500" in out["rejected"][0]["reason"]
    plain = scenario.settle(scenario.load_scenario(doc([])))["rounds"][0]
    assert plain["rejected"] == []  # without the carried raise the same ante is fine


@pytest.mark.parametrize("carried,place", [
    ({"type": "bet"}, "rounds[0].carried"),
    ([{"type": "close_bets"}], "rounds[0].carried[0]"),
    ([{"type": "bet", "seat": 0, "spot": "bet"}], "rounds[0].carried[0]"),
])
def test_a_malformed_carried_list_names_its_place(carried: object, place: str) -> None:
    with pytest.raises(scenario.ScenarioError) as caught:
        scenario.load_scenario(doc(carried))
    assert caught.value.place.startswith(place)
