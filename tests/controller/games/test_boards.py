"""Last-results boards (controller/games/boards.py) from the games' own marks."""

from __future__ import annotations

from controller import games
from controller.games import boards


def _marks(letters: str):
    names = {"P": "punto", "B": "banco", "T": "tie"}
    return [{"winner": names[c]} for c in letters]


def test_bead_plate_fills_six_down_then_across_ties_included():
    spec, config = games.configure("punto-banco", "se", {})
    board = boards.build(spec.board, config, _marks("BBTPPPPB"))
    assert board["bead"] == [["B", "B", "T", "P", "P", "P"], ["P", "B"]]
    assert board["counts"] == {"banco": 3, "tie": 1, "punto": 4}


def test_big_road_new_column_per_change_ties_on_the_bead_before_and_the_dragon_tail():
    road = boards.big_road(_marks("TBBTPBBBBBBBBP"))
    assert road[0] == {"col": 0, "row": 0, "winner": "B", "ties": 1}  # the first win takes the ties' cell
    assert road[1] == {"col": 0, "row": 1, "winner": "B", "ties": 1}
    assert road[2] == {"col": 1, "row": 0, "winner": "P", "ties": 0}
    banco = [(c["col"], c["row"]) for c in road if c["winner"] == "B"][2:]
    assert banco == [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (3, 5), (4, 5)]  # seven after six: right
    assert road[-1] == {"col": 3, "row": 0, "winner": "P", "ties": 0}


def test_roulette_hot_and_cold_count_every_number_of_the_wheel():
    from controller.games.roulette import RouletteRules

    spec, config = games.configure("roulette", "se", {})
    rules = RouletteRules(config)
    rules.build_table()
    marks = [spec.board.mark(rules.outcome_data(n)) for n in [17, 17, 5, 17, 5, 32]]
    board = boards.build(spec.board, config, marks)
    assert [m["number"] for m in board["last"]] == [32, 5, 17, 5, 17, 17]
    assert board["last"][0] == {"number": 32, "color": "red", "dozen": 3, "parity": "even", "half": "high"}
    assert board["hot"][:3] == [{"number": 17, "count": 3, "color": "black"}, {"number": 5, "count": 2, "color": "red"},
                                {"number": 32, "count": 1, "color": "red"}]
    assert board["cold"][0] == {"number": 0, "count": 0, "color": "green"} and len(board["cold"]) == 5
    assert all(c["number"] not in (5, 17, 32) for c in board["cold"])
    assert board["tally"]["color"] == {"black": 3, "red": 3} and board["tally"]["dozen"] == {"2": 3, "1": 2, "3": 1}


def test_dice_boards_of_sic_bo_and_tarning_mark_the_throws():
    spec, _ = games.configure("sic-bo", "fi", {})
    mark = spec.board.mark({"dice": [2, 2, 2], "total": 6, "triple": True, "small": False, "big": False})
    assert mark["triple"] and mark["dice"] == [2, 2, 2]
    spec, config = games.configure("tarning", "se", {})
    mark = spec.board.mark({"number": 9, "red": 2, "green": 3, "total": 5, "below_above": "below"})
    assert mark == {"dice": [2, 3], "colors": ["red", "green"], "number": 9, "total": 5, "below_above": "below"}
    assert boards.build(spec.board, config, [mark])["last"] == [mark]
    assert spec.board.mark({"void": "no spin"}) is None
