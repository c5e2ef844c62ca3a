"""The house games' events go through one table in the shared round base (``contract.DispatchedRound``): each
game registers its handlers with ``@handles``, nothing dispatches on the event's class by hand."""

from __future__ import annotations

import inspect

import pytest

from controller.events import Action, Bet, CardOut, CloseBets, Dice, Void, Wheel
from controller.games import configure
from controller.games.contract import DispatchedRound, Rejected, handles

HOUSE = [("oasis-stud", "fi", "Oasis Stud Poker"), ("russian-poker", "fi-a", "Russian Poker"),
         ("pai-gow-poker", "fi", "Pai Gow Poker"), ("baccara", "fi", "Baccara"), ("red-dog", "fi", "Red Dog"),
         ("bulldog", "fi", "Bulldog")]


@pytest.mark.parametrize("game, variant, name", HOUSE, ids=[g for g, _, _ in HOUSE])
def test_each_house_game_registers_one_handler_per_event_and_refuses_the_rest(game: str, variant: str,
                                                                               name: str) -> None:
    spec, config = configure(game, variant)
    round_ = spec.new_round(config, ())
    assert isinstance(round_, DispatchedRound)
    assert set(type(round_)._handlers) == {Bet, CloseBets, CardOut, Action, Void}
    assert "_apply" not in vars(type(round_))  # no ladder of its own
    for method in set(type(round_)._handlers.values()):
        assert callable(getattr(round_, method))
    before = round_._snapshot()
    for event, word in ((Wheel(17), "wheel"), (Dice((1, 2, 3)), "dice")):
        answer = round_.apply(event)
        assert isinstance(answer, Rejected) and answer.reason == f"a {word} event has no place in {name}"
    assert round_._snapshot() == before


def test_a_subclass_inherits_the_table_adds_to_it_and_an_override_keeps_its_registration() -> None:
    class Base(DispatchedRound):
        game_name = "Base"

        def __init__(self) -> None:
            self.seen: list[str] = []

        @handles(Bet)
        def _bet(self, event: Bet) -> list[object]:
            self.seen.append("base bet")
            return []

        complete = False

        def waiting_for(self) -> str:
            return ""

        def outcome(self) -> None:
            return None

        def settlements(self) -> list[object]:
            return []

    class Child(Base):
        def _bet(self, event: Bet) -> list[object]:  # not registered again: still the Bet handler
            self.seen.append("child bet")
            return []

        @handles(Void, Wheel)
        def _other(self, event: object) -> list[object]:
            self.seen.append(type(event).__name__)
            return []

    assert set(Base._handlers) == {Bet} and set(Child._handlers) == {Bet, Void, Wheel}
    child = Child()
    for event in (Bet(1, "x", 5), Void("test"), Wheel(3)):
        assert not isinstance(child.apply(event), Rejected)
    assert child.seen == ["child bet", "Void", "Wheel"]
    assert isinstance(Base().apply(Void("test")), Rejected)
    assert "isinstance" not in inspect.getsource(DispatchedRound._apply)
