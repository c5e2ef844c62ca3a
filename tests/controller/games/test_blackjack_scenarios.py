"""Every blackjack scenario file through `tablectl settle`, against results worked out by hand from the seeds.

Each line of ``EXPECTED`` is one settlement: ``seat spot player hand result net`` (``-`` for no
player / no hand). ``REJECTED`` and ``ALERTS`` give the event indexes refused or alerted per round.
"""

from __future__ import annotations

import json
import pytest

from tests.tablectl import ROOT, run_tablectl

# The module fixture is costly: its tests stay on one worker under `sh test.sh` (xdist).
pytestmark = pytest.mark.xdist_group("blackjack-settled")

SCENARIOS = ROOT / "tests" / "scenarios" / "blackjack"

EXPECTED: dict[str, list[str]] = {
    "se-deal-and-dealer": [
        "1 main - - win 1000; 4 main - - win 2000",
        "2 main - - lose -1000; 3 main - - win 1000",
    ],
    "se-rule8-ties": [
        "1 main - - lose -1000",
        "1 main - - push 0; 2 main - - push 0",
        "1 main - - win 1500; 2 main - - push 0",
        "1 main - - push 0; 2 main - - lose -1000",
    ],
    "se-rule10-immediate": [
        "1 main - - win 1500; 2 main - - lose -1000",
        "1 main - - win 1500",
        "1 main - - push 0",
        "1 main - - win 1501",
    ],
    "se-rule13-insurance": [
        "1 main - - push 0; 1 insurance - - push 0",
        "1 main - - win 1000; 1 insurance - - lose -500",
        "1 main - - lose -1000; 2 main - - push 0; 2 insurance - - push 0",
        "1 main - - lose -1000",
        "1 main - - lose -1000; 1 insurance - - push 0",
        "1 main - - lose -1000; 1 main anna - push 0; 1 insurance anna - push 0",
    ],
    "se-dealer-hits-soft-17": ["1 main - - lose -1000", "1 main - - win 1000"],
    "se-rule14-even-money": ["1 main - - win 1000; 2 main - - lose -1000"],
    "se-rule15-double": [
        "1 main - - win 2000",
        "1 main - - lose -2000",
        "1 main - - lose -1000; 2 main - - win 1000",
    ],
    "se-rule16-split": [
        "1 main - - win 1000; 2 main - 1 win 1000; 2 main - 2 win 1000; 2 main - 3 win 1000",
        "1 main - 1 win 1000; 1 main - 2 lose -1000",
    ],
    "se-dealer-blackjack": ["1 main - - lose -2000; 2 main - 1 lose -1000; 2 main - 2 lose -1000"],
    "se-original-bets-only": ["1 main - - lose -1000; 2 main - 1 lose -1000; 2 main - 2 push 0"],
    "se-limits": ["1 main - - win 9866"],
    "se-table-limits": ["1 main - - win 9000; 2 main - - lose -5000; 2 main anna - lose -4000"],
    "se-misdeal": ["1 main - - win 1000", "1 main - - lose -1000"],
    "se-without-amounts": ["1 main - - win ?; 2 under13 - - win ?; 2 main - - win ?"],
    "se-over-under-13": [
        "1 over13 - - win 500; 2 under13 - - win 1500; 3 over13 - - lose -1000; "
        "1 main - - lose -1000; 2 main - - lose -1000; 3 main - - lose -1000",
        "1 under13 - - win 1000; 1 main - - lose -1000",
    ],
    "se-back-betting": [
        "3 main - - win 2000; 3 main anna - win 1000; 3 main bo - win 300",
        "3 main eva 1 win 1000; 3 main anna 1 win 500; 3 main eva 2 lose -1000; 3 main anna 2 lose -500",
    ],
    "se-burn-puck": [
        "2 main - - win 1000; 5 main - - win 1000",
        "2 main - - win 1000; 5 main - - lose -1000; 6 main - - win 1000",
        "1 main - - lose -1000; 3 main - - lose -1000",
        "3 main - - lose -1000; 1 main - - lose -1000",
        "3 main - - lose -1000; 1 main - - win 1000",
    ],
    "se-two-decks": ["2 main - - win 1500; 1 main - - win 1000"],
    "se-burn-puck-before-first-card": [
        "3 main - - win 1000; 6 main - - win 1000",
        "3 main - - win 1000; 6 main - - win 1000",
    ],
    "se-rule14-even-money-last-hand": [
        "2 main - - win 1000",
        "4 main - - win 1000; 1 main - - lose -1000",
        "5 main - - win 1000; 3 main - - push 0; 3 insurance - - push 0",
    ],
    "fi-even-money-last-hand": ["1 main - - win 1000"],
    "fi-a-insurance-every-box-blackjack": [
        "1 main - - win 1000; 2 insurance - - lose -500; 2 main - - win 1500",
        "1 main - - win 1000",
        "1 main - - push 0",
    ],
    "se-burn-no-back-bets": ["2 main - - win 1000"],
    "se-two-decks-over-under-13": [
        "1 under13 - - win 1000; 3 over13 - - win 1000; 1 main - - lose -1000; 1 main bo - lose -1000; "
        "3 main - - win 1000",
    ],
    "fi-core": [
        "1 main - - win 1500; 2 main - - push 0; 3 main - 1 win 1000; 3 main - 2 win 1000",
        "1 main - - lose -1000; 2 main - 1 lose -2000; 2 main - 2 lose -1000; 1 insurance - - win 600",
        "1 main - - surrender -500",
        "1 main - - push 0",
    ],
    "fi-blackjack-6-to-5": ["1 main - - win 1203"],
    "fi-more": [
        "1 main - - win 1000; 2 main - - lose -1000; 2 main bo - lose -400; 2 insurance bo - win 400",
        "1 main - - surrender -501",
        "1 main - 1 win 1000; 1 main - 2 win 2000; 1 main - 3 win 1000; 1 main - 4 win 1000",
    ],
    "fi-a-card-closes-insurance": ["1 main - - lose -1000"],
    "fi-a-peek": [
        "1 main - - lose -1000; 2 main - - push 0",
        "1 main - - lose -1000; 1 insurance - - win 1000",
        "1 insurance - - lose -500; 1 main - - push 0",
        "1 main - - lose -1000",
    ],
    "fi-b-both-up": [
        "1 main - - push 0; 2 main - - lose -1000",
        "1 main - - lose -1000; 2 main - - win 1000",
        "1 main - - win 1000; 2 main - - win 2000; 3 main - 1 win 1000; 3 main - 2 win 1000",
    ],
}

REJECTED: dict[str, list[list[int]]] = {
    "se-rule15-double": [[], [], [8, 12]],
    "se-rule16-split": [[8, 16], []],
    "se-rule13-insurance": [[], [], [8], [5], [], []],
    "fi-more": [[11], [], [11]],
    "se-rule14-even-money": [[8]],
    "se-limits": [[1, 2, 3]],
    "se-table-limits": [[1, 4, 5]],
    "se-over-under-13": [[2, 3, 7, 9], []],
    "se-back-betting": [[7, 10, 12], [8, 10]],
    "se-burn-puck": [[], [17], [], [], [11]],
    "se-burn-puck-before-first-card": [[5], []],
    "se-burn-no-back-bets": [[1, 2]],
    "fi-core": [[], [9], [], []],
    "fi-a-peek": [[], [], [7], []],
    "fi-b-both-up": [[], [], [12, 18, 22]],
}

ALERTS: dict[str, list[list[tuple[int, str]]]] = {
    "se-misdeal": [[(0, "misdeal"), (8, "misdeal")], [(6, "misdeal")]],
    "se-burn-puck": [[(2, "puck")], [(3, "puck"), (4, "misdeal")], [(2, "puck"), (3, "puck")], [], []],
    "fi-a-peek": [[(9, "misdeal")], [], [], []],
    "se-burn-puck-before-first-card": [[], [(3, "misdeal")]],
    "se-rule14-even-money-last-hand": [[(6, "misdeal")], [], []],
    "fi-even-money-last-hand": [[(6, "misdeal")]],
}


def _line(s: dict) -> str:
    return (f"{s['seat']} {s['spot']} {s.get('player', '-')} {s.get('hand', '-')} {s['result']} {s.get('net', '?')}")


def test_every_scenario_file_has_expectations():
    names = {p.stem for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json")}
    assert names == set(EXPECTED)


@pytest.fixture(scope="module")
def settled() -> dict[str, dict]:
    """One `tablectl settle` per file (a subprocess each, as an operator runs it)."""
    out = {}
    for name in EXPECTED:
        done = run_tablectl("settle", str(SCENARIOS / f"{name}.json"))
        assert done.returncode == 0, done.stderr
        out[name] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_settles_as_the_rules_say(settled, name):
    rounds = settled[name]["rounds"]
    assert len(rounds) == len(EXPECTED[name])
    for number, (got, want) in enumerate(zip(rounds, EXPECTED[name])):
        assert got["complete"], f"round {number}: {got.get('waiting_for')}"
        assert "; ".join(_line(s) for s in got["settlements"]) == want, f"round {number}"
        want_rejected = REJECTED.get(name, [[]] * len(rounds))[number]
        assert [r["index"] for r in got["rejected"]] == want_rejected, f"round {number}: {got['rejected']}"
        want_alerts = ALERTS.get(name, [[]] * len(rounds))[number]
        assert [(a["index"], a["kind"]) for a in got.get("alerts", [])] == want_alerts, f"round {number}"


def test_burned_card_and_puck_in_the_outcome(settled):
    rounds = settled["se-burn-puck"]["rounds"]
    assert [r["outcome"]["puck_box"] for r in rounds] == [2, 5, 3, 1, 3]
    assert [r["outcome"]["burned"] for r in rounds] == [None, "Kd", "2c", None, None]
    assert rounds[1]["outcome"]["dealer"]["cards"] == ["9d", "8d"]  # the Kd is not the dealer's
    assert rounds[1]["outcome"]["unused_cards"] == ["4c"]


def test_ace_stays_one_after_an_se_double(settled):
    hand = settled["se-rule15-double"]["rounds"][1]["outcome"]["boxes"][0]["hands"][0]
    assert hand == {"hand": 1, "cards": ["Ah", "6s", "3c"], "total": 10, "doubled": True,
                    "ace_counts_one": True, "result": "lose"}


def test_without_amounts_the_croupier_gets_result_odds_and_the_double(settled):
    bj, under, main = settled["se-without-amounts"]["rounds"][0]["settlements"]
    assert bj["odds"] == [3, 2] and "stake" not in bj and "net" not in bj
    assert under["odds"] == [1, 1]
    assert main["odds"] == [1, 1] and main["note"] == "doubled"


def test_rounding_and_odds_are_reported(settled):
    (bj,) = settled["se-rule10-immediate"]["rounds"][3]["settlements"]
    assert bj["odds"] == [3, 2] and bj["rounded"] is True
    (six_five,) = settled["fi-blackjack-6-to-5"]["rounds"][0]["settlements"]
    assert six_five["odds"] == [6, 5] and six_five["rounded"] is True
    under = settled["se-over-under-13"]["rounds"][0]["settlements"][1]
    assert under["spot"] == "under13" and under["odds"] == [3, 2]


@pytest.mark.parametrize("options, words", [
    ({"limits": {"main": [100, 10000]}}, "above the legal 1/600 of the price base amount (9866"),
    ({"boxes": 12}, "at most 11 boxes"),
    ({"decks": 1}, "at least 2 decks"),
    ({"limits": {"tie": [1, 2]}}, "no spot 'tie'"),
])
def test_illegal_se_table_is_a_configuration_error(tmp_path, options, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "blackjack", "variant": "se", "options": options, "rounds": []}))
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("variant, options, words", [
    ("se-two-decks", {"decks": 6}, "always played with 2 decks"),
    ("fi-b", {"blackjack_pays": "3:2"}, "unknown option 'blackjack_pays'"),
    ("fi", {"double_totals": "nine"}, "double_totals"),
    ("fi", {"blackjack_pays": "2:1"}, "blackjack_pays"),
    ("se", {"surrender": True}, "unknown option 'surrender'"),
])
def test_other_configuration_errors(tmp_path, variant, options, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "blackjack", "variant": variant, "options": options, "rounds": []}))
    done = run_tablectl("settle", str(path))
    assert done.returncode == 2 and words in done.stderr, done.stderr


def test_even_money_on_the_last_hand_collects_the_cards_at_once(settled):
    for name in ("se-rule14-even-money-last-hand", "fi-even-money-last-hand"):
        first = settled[name]["rounds"][0]
        assert len(first["outcome"]["dealer"]["cards"]) == 1, name  # no second dealer card was waited for


def test_the_burn_puck_may_move_after_no_more_bets_until_the_first_card(settled):
    rounds = settled["se-burn-puck-before-first-card"]["rounds"]
    assert [r["outcome"]["puck_box"] for r in rounds] == [3, 6]
    assert rounds[0]["outcome"]["burned"] == "Kd"
    assert "before the first card" in rounds[0]["rejected"][0]["reason"]
