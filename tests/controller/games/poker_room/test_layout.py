"""What the dealer terminal draws of a poker-room hand (``Round.layout``): the croupier's view of the table."""

from __future__ import annotations

from controller import games
from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets
from controller.games.contract import Accepted


def cards(text: str) -> list:
    return [parse_card(c) for c in text.split()]


def play(game: str, variant: str, *events: object):
    spec, config = games.configure(game, variant)
    r = spec.new_round(config, ())
    for event in events:
        assert isinstance(r.apply(event), Accepted), event  # type: ignore[arg-type]
    return r


def test_holdem_hole_cards_are_face_down_the_board_face_up_and_a_fold_has_no_cards() -> None:
    buy = [Bet(s, "buy_in", 20000) for s in (1, 2, 3)]
    r = play("texas-holdem", "no-limit", *buy)
    assert r.layout() == {"boxes": [{"seat": 1, "hands": [], "stack": 20000}, {"seat": 2, "hands": [], "stack": 20000},
                                    {"seat": 3, "hands": [], "stack": 20000}], "boards": []}
    r = play("texas-holdem", "no-limit", *buy, CloseBets(), *(CardOut(c) for c in cards("Ah Kd 7c 2s 9h Qd")))
    layout = r.layout()
    assert [b["seat"] for b in layout["boxes"]] == [1, 2, 3] and layout["boards"] == []
    assert all(b["hands"] == [{"cards": ["down", "down"]}] for b in layout["boxes"])
    by_seat = {b["seat"]: b for b in layout["boxes"]}
    assert by_seat[1].get("button") and (by_seat[2]["bet"], by_seat[3]["bet"]) == (50, 100)  # the blinds
    assert by_seat[3]["stack"] == 19900
    for event in (Action(1, "call"), Action(2, "fold"), Action(3, "check"), *(CardOut(c) for c in cards("Tc 5h 3d 4c"))):
        assert isinstance(r.apply(event), Accepted), event
    layout = r.layout()
    assert layout["boards"] == [["5h", "3d", "4c"]]  # the burn is not shown
    assert {b["seat"]: b["hands"] for b in layout["boxes"]}[2] == [{"cards": [], "note": "folded"}]


def test_stud_up_cards_are_shown_and_its_down_cards_are_not() -> None:
    r = play("seven-card-stud", "limit", *(Bet(s, "buy_in", 20000) for s in (1, 2, 3)), CloseBets(),
             *(CardOut(c) for c in cards("Ah Kd 7c 2s 9h Qd Tc 5h 3d")))
    assert [b["hands"][0]["cards"] for b in r.layout()["boxes"]] == [
        ["down", "down", "Tc"], ["down", "down", "5h"], ["down", "down", "3d"]]
    assert not any(b.get("button") for b in r.layout()["boxes"]) and r.layout()["boards"] == []  # no button in stud


def test_chinese_poker_is_face_down_and_open_face_shows_its_rows_as_placed() -> None:
    deal = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc")
    r = play("chinese-poker", "points", Bet(1, "points"), Bet(2, "points"), CloseBets(), *(CardOut(c) for c in deal))
    assert [b["hands"] for b in r.layout()["boxes"]] == [[{"cards": ["down"] * 5}], [{"cards": ["down"] * 5}]]
    r = play("open-face-chinese", "points", Bet(1, "points"), Bet(2, "points"), CloseBets(),
             *(CardOut(c) for c in deal), Action(1, "front", cards=tuple(cards("2c 4c 6c"))))
    one, two = r.layout()["boxes"]
    assert one["hands"] == [{"cards": ["2c", "4c", "6c"], "note": "front"}, {"cards": [], "note": "middle"},
                            {"cards": [], "note": "back"}, {"cards": ["down", "down"], "note": "to place"}]
    assert two["hands"][-1] == {"cards": ["down"] * 5, "note": "to place"}
