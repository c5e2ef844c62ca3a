"""The console's ``act``: the supervisor's fallback offers the same legal decisions as the terminal."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from controller.runtime.auth import ConsoleUser, Lockout, hash_pin
from controller.runtime.console import ConsoleSession
from controller.runtime.control import DaemonControl
from tests.controller.runtime.test_decision_keys import feed, open_table
from controller.events import Bet, CloseBets

USERS = {"sven": ConsoleUser("sven", "supervisor", hash_pin("8642")),
         "tove": ConsoleUser("tove", "technician", hash_pin("1357")),
         "carla": ConsoleUser("carla", "croupier", hash_pin("2468"))}


def session(tmp: Path, name: str, pin: str):
    table = open_table(tmp, "blackjack", "fi")
    feed(table, Bet(1, "main", 1000), Bet(2, "main", 1000), CloseBets(), "8h", "Kd", "6c", "8s", "9d")
    console = ConsoleSession(USERS, DaemonControl(SimpleNamespace(table=table, config=table.config)), Lockout())
    console.start(0.0)
    console.feed(name, 1.0)
    reply = console.feed(pin, 2.0)
    return table, console, reply


def test_act_lists_the_decisions_and_enters_one_as_the_supervisors_action(tmp_path: Path) -> None:
    table, console, _ = session(tmp_path, "sven", "8642")
    lines = console.feed("act", 3.0).lines
    assert lines == ("Waiting for: Box 1: 16 against 6 — stand, hit, double, split or surrender?",
                     "  box 1: stand, double, split, surrender")
    assert console.feed("act 2 stand", 4.0).lines[0].startswith("Refused: stand is not a decision of box 2 now")
    assert console.feed("act 1 split", 5.0).lines[0] == "Done (journaled)."
    event = table.journal.last("event").body
    assert event["source"] == "console:sven" and event["event"] == {"type": "action", "seat": 1, "action": "split"}
    assert console.feed("act 1 split amount=500", 6.0).lines[0].startswith("Refused:")
    assert ("sven", "act 1 split", True) in [(r.body["who"], r.body["what"], r.body["ok"])
                                             for r in table.journal.records(kinds=("console",))]


def test_act_is_a_supervisors_and_a_croupier_logs_in_at_the_terminal(tmp_path: Path) -> None:
    table, console, _ = session(tmp_path, "tove", "1357")
    assert console.feed("act 1 stand", 3.0).lines == ("'act' needs a supervisor login.",)
    assert table.journal.last("event").body["event"]["type"] == "card"
    _, console, reply = session(tmp_path / "c", "carla", "2468")
    assert reply.lines == ("A croupier logs in at the dealer terminal, not at the console.",)
    assert console.user is None


def test_act_takes_a_poker_raise_of_a_named_amount_and_the_cards_of_a_draw(tmp_path: Path) -> None:
    table = open_table(tmp_path, "five-card-draw", "no-limit")
    feed(table, Bet(1, "buy_in", 20000), Bet(2, "buy_in", 20000), CloseBets(),
         "Ah", "Kd", "7c", "2s", "9h", "Qd", "Tc", "5h", "3d", "4c")
    console = ConsoleSession(USERS, DaemonControl(SimpleNamespace(table=table, config=table.config)), Lockout())
    console.start(0.0)
    console.feed("sven", 1.0)
    console.feed("8642", 2.0)
    listed = console.feed("act", 3.0).lines
    assert "raise amount=200..20000" in listed[1], listed
    assert console.feed("act 1 raise", 4.0).lines[0].startswith("Refused: raise at box 1: name the amount")
    assert console.feed("act 1 raise amount=600", 5.0).lines[0] == "Done (journaled)."
    assert table.journal.last("event").body["event"] == {"type": "action", "seat": 1, "action": "raise",
                                                         "amount": 600}
    assert console.feed("act 2 call", 6.0).lines[0] == "Done (journaled)."
    listed = console.feed("act", 7.0).lines
    drawer = int(listed[1].split(":")[0].split()[-1])
    held = [str(c) for c in table.round.hand.hole_now(table.round.order.index(drawer))]
    assert f"draw cards=C,C.. (1-5 of {' '.join(held)})" in listed[1], listed
    assert console.feed(f"act {drawer} draw cards=As", 8.0).lines[0].startswith("Refused:")  # not its card
    assert console.feed(f"act {drawer} draw cards={held[0]},{held[1]}", 9.0).lines[0] == "Done (journaled)."
    assert table.journal.last("event").body["event"] == {"type": "action", "seat": drawer, "action": "draw",
                                                         "cards": held[:2]}
