"""Jackpot meter rules: contributions, cap and overflow, hits frozen and pending, confirmation, corrections."""

from __future__ import annotations

import pytest

from controller.config import JackpotConfig
from controller.events import Bet, CardOut, CloseBets
from controller.cards import parse_card
from controller.games.contract import MeterChange
from controller.runtime.interfaces import Command
from controller.runtime.meters import MeterRefused, Meters, recompute
from tests.controller.runtime.helpers import open_table, progressive_config


def meters(cap: int | None = None, overflow: bool = False) -> Meters:
    m = Meters([JackpotConfig("main", 1000, 10, cap, overflow)])
    m.open_missing()
    return m


def test_contributions_add_configured_or_given_amounts() -> None:
    m = meters()
    m.apply(MeterChange("main", "contribution", seat=1), 1)
    m.apply(MeterChange("main", "contribution", seat=2, amount=7), 1)
    assert m.states["main"].value == 1017


def test_cap_sends_the_rest_to_overflow_and_overflow_refills_after_a_hit() -> None:
    m = meters(cap=1015, overflow=True)
    for _ in range(3):
        m.apply(MeterChange("main", "contribution"), 1)
    assert (m.states["main"].value, m.states["main"].overflow) == (1015, 15)
    m.apply(MeterChange("main", "hit", share=(1, 1)), 1)
    assert m.display()["main"] == "PEnding"
    out = m.confirm("main", "supervisor")
    assert [b["kind"] for b in out] == ["payout", "reset", "overflow"]
    assert (m.states["main"].value, m.states["main"].overflow) == (1015, 0)
    assert m.display()["main"] == 1015


def test_cap_without_overflow_records_the_excess() -> None:
    m = meters(cap=1005)
    body = m.apply(MeterChange("main", "contribution"), 1)[0]
    assert body["amount"] == 5 and body["excess"] == 5 and m.states["main"].value == 1005


def test_a_hit_freezes_its_amount_and_later_contributions_do_not_change_it() -> None:
    m = meters()
    m.apply(MeterChange("main", "contribution", amount=500), 1)
    hit = m.apply(MeterChange("main", "hit", share=(1, 1), seat=3), 1)[0]
    assert hit["amount"] == 1500
    m.apply(MeterChange("main", "contribution", amount=40), 2)
    payout = m.confirm("main", "sup")[0]
    assert payout["amount"] == 1500 and payout["kind"] == "payout"
    assert m.states["main"].value == 1000  # reset to base: 40 was on a meter below base, the seed tops it up


def test_several_hits_are_paid_in_order_each_from_what_the_meter_then_holds() -> None:
    m = meters()
    m.apply(MeterChange("main", "contribution", amount=1000), 1)  # 2000
    first = m.apply(MeterChange("main", "hit", share=(1, 10), seat=1), 1)[0]
    second = m.apply(MeterChange("main", "hit", share=(1, 1), seat=2), 1)[0]
    assert (first["amount"], second["amount"]) == (200, 1800)
    assert [p["seat"] for _, p in m.pending()] == [1, 2]
    assert m.confirm("main", "s")[0]["seat"] == 1
    assert m.confirm("main", "s")[0]["seat"] == 2
    with pytest.raises(MeterRefused):
        m.confirm("main", "s")


def test_share_rounds_down_to_a_whole_minor_unit() -> None:
    m = meters()
    m.apply(MeterChange("main", "contribution", amount=9), 1)  # 1009
    assert m.apply(MeterChange("main", "hit", share=(1, 10)), 1)[0]["amount"] == 100


def test_a_fixed_prize_is_paid_from_the_meter_and_waits_for_confirmation() -> None:
    m = meters()
    m.apply(MeterChange("main", "contribution", amount=500), 1)  # 1500
    body = m.apply(MeterChange("main", "hit", fixed=200, seat=4, hand="flush"), 1)[0]
    assert (body["kind"], body["amount"], body["fixed"], m.states["main"].value) == ("hit", 200, 200, 1300)
    assert "short" not in body and m.display()["main"] == "PEnding"
    out = m.confirm("main", "sup")
    assert [(b["kind"], b["amount"]) for b in out] == [("payout", 200)] and m.states["main"].value == 1300


def test_a_fixed_prize_larger_than_the_meter_pays_what_it_holds_and_the_meter_is_reset_to_base() -> None:
    m = Meters([JackpotConfig("main", 1000, 10)])
    bodies = m.open_missing()
    bodies += m.apply(MeterChange("main", "hit", fixed=5000), 1)
    assert (bodies[-1]["amount"], bodies[-1]["short"], m.states["main"].value) == (1000, 4000, 0)
    bodies += m.confirm("main", "sup")
    assert [(b["kind"], b["amount"]) for b in bodies[-2:]] == [("payout", 1000), ("reset", 1000)]
    values, problems = recompute(bodies)
    assert not problems and values["main"]["value"] == m.states["main"].value == 1000
    assert values["main"]["hits"] == values["main"]["payouts"] == 1000


def test_bad_hits_are_refused() -> None:
    m = meters()
    for change in (MeterChange("main", "hit"), MeterChange("main", "hit", fixed=0),
                   MeterChange("main", "hit", share=(2, 1))):
        with pytest.raises(MeterRefused):
            m.apply(change, 1)
    assert m.states["main"].value == 1000 and not m.pending()


def test_corrections_need_a_reason_and_are_the_only_other_way_down() -> None:
    m = meters()
    with pytest.raises(MeterRefused):
        m.correct("main", 10, " ", "sup")
    body = m.correct("main", 900, "meter read wrong after power cut", "sup")[0]
    assert body["amount"] == -100 and m.states["main"].value == 900
    with pytest.raises(MeterRefused):
        m.apply(MeterChange("main", "contribution", amount=-5), 1)


def test_stopped_progressive_refuses_contributions_and_unknown_meters_are_refused() -> None:
    m = meters()
    m.stop("main")
    with pytest.raises(MeterRefused):
        m.apply(MeterChange("main", "contribution"), 1)
    with pytest.raises(MeterRefused):
        m.apply(MeterChange("other", "contribution"), 1)


def test_recompute_adds_up_every_kind_and_finds_an_edited_value() -> None:
    m = meters(cap=1100, overflow=True)
    bodies = [{"meter": "main", "kind": "open", "amount": 1000, "value": 1000, "overflow": 0}]
    bodies += m.apply(MeterChange("main", "contribution", amount=150), 1)
    bodies += m.apply(MeterChange("main", "hit", share=(1, 2)), 1)
    bodies += m.confirm("main", "s")
    bodies += m.correct("main", 1234, "audit", "s")
    values, problems = recompute(bodies)
    assert not problems
    v = values["main"]
    assert v["value"] == m.states["main"].value == (v["opened"] + v["contributions"] - v["hits"] + v["resets"]
                                                   + v["overflow_moved"] + v["corrections"])
    bodies[2] = {**bodies[2], "value": bodies[2]["value"] + 1}
    assert recompute(bodies)[1]


def test_runtime_applies_meter_changes_in_the_event_transaction_and_waits_for_confirmation(tmp_path) -> None:
    table = open_table(progressive_config(tmp_path))
    assert table.submit("bets", Bet(1, "progressive", 500)) == "accepted"
    assert table.submit("bets", Bet(2, "progressive", 500)) == "accepted"
    assert table.meters.states["main"].value == 100500
    table.submit("buttons", CloseBets())
    assert table.submit("shoe", CardOut(parse_card("As"))) == "accepted"
    assert table.view()["jackpot_display"]["meters"]["main"] == "PEnding"
    assert table.view()["tower"]["pattern"] == "jackpot_pending" and table.view()["tower"]["amber"] == "flash"
    event = next(r for r in table.journal.records(kinds=("event",)) if r.body["complete"])
    hits = [r for r in table.journal.records(kinds=("meter",)) if r.body["kind"] == "hit"]
    assert [h.body["amount"] for h in hits] == [100500, 0]  # the second ace is paid from what is left
    assert all(h.seq > event.seq and h.seq < event.seq + 4 for h in hits)  # same transaction, right after the event
    assert table.command(Command("confirm_jackpot", {}, "supervisor key")) == "done"
    assert table.command(Command("confirm_jackpot", {}, "supervisor key")) == "done"
    assert table.meters.states["main"].value == 100000
    assert table.command(Command("confirm_jackpot", {}, "supervisor key")) == "no jackpot hit is waiting"


def test_the_days_drop_is_added_to_its_jackpot_at_day_end_and_the_records_add_up() -> None:
    m = Meters([JackpotConfig("bad_beat", 500_000, 0), JackpotConfig("bad_beat_drop", 0, 0)])
    bodies = m.open_missing()
    for _ in range(3):
        bodies += m.apply(MeterChange("bad_beat_drop", "contribution", amount=100), 1)
    assert m.states["bad_beat"].value == 500_000  # the drop waits for the end of the day (004)
    moved = m.day_end("bad_beat_drop", "bad_beat", "eva")
    assert [(b["meter"], b["kind"], b["amount"]) for b in moved] == [("bad_beat_drop", "day_end", 300),
                                                                     ("bad_beat", "day_in", 300)]
    assert m.states["bad_beat"].value == 500_300 and m.states["bad_beat_drop"].value == 0
    values, problems = recompute(bodies + moved)
    assert not problems and values["bad_beat"]["value"] == 500_300 and values["bad_beat_drop"]["value"] == 0
    with pytest.raises(MeterRefused):
        m.day_end("bad_beat_drop", "bad_beat_drop", "eva")
    with pytest.raises(MeterRefused):
        m.day_end("bad_beat_drop", "nowhere", "eva")


def test_day_end_is_a_journaled_table_command_between_rounds(tmp_path) -> None:
    from pathlib import Path

    from controller import config as table_config
    from controller.runtime.audit import verify
    from controller.runtime.journal import Journal
    from controller.runtime.table import Table

    root = Path(__file__).resolve().parents[3]
    loaded = table_config.load(root / "hw" / "tables" / "texas-holdem-no-limit.toml")
    config = table_config.TableConfig(**{**loaded.__dict__, "journal_path": tmp_path / "journal.sqlite"})
    table = Table.open(config)
    assert table.command(Command("correct_meter", {"meter": "bad_beat_drop", "value": 700,
                                                   "reason": "the day's drop as counted"}, "eva")) == "done"
    assert table.command(Command("day_end", {"meter": "bad_beat_drop", "into": "bad_beat"}, "eva")) == "done"
    assert table.meters.states["bad_beat"].value == 500_700 and table.meters.states["bad_beat_drop"].value == 0
    assert "no jackpot meter" in table.command(Command("day_end", {"meter": "drop", "into": "bad_beat"}, "eva"))
    table.journal.close()
    assert verify(Journal(tmp_path / "journal.sqlite", readonly=True))["ok"]
