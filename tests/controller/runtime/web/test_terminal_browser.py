"""Whole rounds played by tapping the dealer terminal in a real headless Chromium, against a live daemon.

The daemon runs with emulated devices (the shoe and the bet sensors post what the test deals and bets);
the croupier's decisions, no more bets and the confirmation of an unsure camera read are only ever
tapped on the page. After each round the journal is read back: the decisions are there as the
croupier's ``action`` events, and the settlements are the ones the rules give. Along the way:

- every decision the page offers is one the round accepts, and every decision the round's prompt
  expects that the page does not offer is one the round refuses (checked on a copy of the live round);
- a second browser on the pit view shows each committed record within 500 ms;
- a wrong PIN is refused and journaled; a technician's login cannot decide;
- the page goes on working after the daemon restarts in the middle of a round.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from controller.events import Action
from controller.games.contract import Accepted
from controller.games.decisions import copy_of
from controller.language import language
from drivers.events import DiceRead, SpinRead
from tests import chromium
from tests.controller.runtime.web.harness import PINS, LiveTable, login

pytestmark = pytest.mark.timeout(120)
PIT_MS = 500


class Dealer:
    """The dealer page, the pit page beside it, and the live table they show."""

    def __init__(self, table: LiveTable, page: Any, pit: Any | None = None) -> None:
        self.table, self.page, self.pit = table, page, pit
        self.pit_ms: list[float] = []
        self.checked = 0

    def seq(self) -> int:
        return self.table.call(lambda: self.table.daemon.table.journal.last_seq)

    def shown(self, seq: int) -> None:
        """The dealer page shows the state at ``seq``; the pit view too, within 500 ms of the commit."""
        self.page.wait_for_function(f"Number(document.getElementById('view').dataset.seq) >= {seq}", timeout=5000)
        if self.pit is not None:
            t0 = time.perf_counter()
            self.pit.wait_for_function(f"Number(document.getElementById('view').dataset.seq) >= {seq}",
                                       timeout=PIT_MS)
            self.pit_ms.append((time.perf_counter() - t0) * 1000)
        self.check_offered()

    def check_offered(self) -> None:
        """What the page offers is exactly what the round accepts, box by box, for what the prompt expects."""
        buttons = self.page.eval_on_selector_all(
            "#decisions button[data-action]",
            "bs => bs.map(b => [Number(b.dataset.seat), b.dataset.action, Number(b.dataset.multiple || 0), "
            "Number(b.dataset.amount || 0), b.dataset.player || null])")
        offered = {(seat, action) for seat, action, _, _, player in buttons if player is None}
        picks = self.page.eval_on_selector_all(  # a decision naming cards: its button opens the card picker
            "#decisions button[data-cards-for]", "bs => bs.map(b => [Number(b.dataset.seat), b.dataset.cardsFor])")
        offered |= {(seat, action) for seat, action in picks}

        def judge() -> list[str]:
            table = self.table.daemon.table
            problems = []
            prompt = table.last_prompt
            expects = prompt.expects if prompt is not None else ()
            declared = {a.name: a for a in table.round_spec.actions if "action" in expects or a.name in expects}

            def takes(event: Action) -> bool:
                return not table.round.complete and isinstance(copy_of(table.round).apply(event), Accepted)
            for seat, name, multiple, amount, player in buttons:  # each button, as it is sent, is taken
                if not takes(Action(seat, name, player=player, multiple=multiple or None, amount=amount or None)):
                    problems.append(f"box {seat} {name} {multiple}x {amount}: offered, but the round refuses it")
            for seat in range(1, 8):
                for name, spec in declared.items():
                    span = table.round.amounts(seat, name) if spec.amount else None  # a sized bet: its least
                    choice = table.round.card_choice(seat, name) if spec.cards else None
                    if spec.cards:  # named cards only: a plain draw would draw nothing
                        accepted = choice is not None and takes(Action(seat, name, cards=choice.cards[:choice.least]))
                    else:
                        accepted = takes(Action(seat, name)) or any(takes(Action(seat, name, multiple=m))
                                                                    for m in spec.multiples) or \
                            (span is not None and takes(Action(seat, name, amount=span[0])))
                    if accepted != ((seat, name) in offered):
                        problems.append(f"box {seat} {name}: round {'accepts' if accepted else 'refuses'}, page "
                                        f"{'offers' if (seat, name) in offered else 'does not offer'} it")
            return problems
        assert self.table.call(judge) == []
        self.checked += 1

    def tap(self, selector: str) -> None:
        before = self.seq()
        self.page.click(selector)
        for _ in range(500):
            if self.seq() > before:
                break
            time.sleep(0.01)
        else:
            raise AssertionError(f"tapping {selector} committed nothing: "
                                 f"{self.page.inner_text('#toast') if self.page.is_visible('#toast') else ''}")
        self.shown(self.seq())

    def decide(self, seat: int, action: str, multiple: int | None = None, amount: int | None = None) -> None:
        more = f"[data-multiple='{multiple}']" if multiple else ":not([data-multiple])"
        more += f"[data-amount='{amount}']" if amount else ":not([data-amount])"
        self.tap(f"#decisions button[data-seat='{seat}'][data-action='{action}']{more}")

    def deal(self, *cards: str) -> None:
        for card in cards:
            self.table.deal(card)
            self.shown(self.seq())

    def bet(self, seat: int, spot: str, amount: int) -> None:
        self.table.bet(seat, spot, amount)
        self.shown(self.seq())


def settlements(table: LiveTable) -> list[dict[str, Any]]:
    return [e["settlement"] for r in table.records() for e in r.body["effects"] if "settlement" in e]


def decisions_in_journal(table: LiveTable) -> list[tuple[str, dict[str, Any]]]:
    return [(r.body["source"], r.body["event"]) for r in table.records() if r.body["event"]["type"] == "action"]


def brief(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted((s["seat"], s["spot"], s.get("hand"), s["result"], s.get("net")) for s in rows)


def test_blackjack_round_with_insurance_split_and_double_tapped_at_the_terminal(tables: Any, pages: Any) -> None:
    table = tables("blackjack", "fi", options={"boxes": 7})
    page, pit = pages(table, "carla"), pages(table, "tove", "/pit")
    dealer = Dealer(table, page, pit)
    dealer.bet(1, "main", 1000)
    dealer.bet(2, "main", 1000)
    dealer.bet(3, "main", 2000)
    dealer.tap("#close-bets")
    dealer.deal("8h", "5d", "Kd", "Ac", "8s", "6c", "9d")  # boxes 1-3, the dealer's ace, boxes 1-3
    assert "insurance" in page.inner_text("#prompt").lower()
    dealer.decide(3, "insurance")  # the game's own amount: half the bet
    page.click("#decisions button[data-amount-for='insurance'][data-seat='2']")
    for key in "2.5":  # typed in euros and cents: 2.50 is 250 minor units
        page.click(f"#sheet button[data-key='{key}']")
    assert page.inner_text("#amount-entry") == "2.5"
    page.click("#sheet button[data-key='0']")
    page.click("#sheet button[data-key='0']")  # a third decimal is not taken: the euro has two
    assert page.inner_text("#amount-entry") == "2.50"
    page.click("#sheet button[data-key='OK']")
    for _ in range(300):
        if len(decisions_in_journal(table)) == 2:
            break
        time.sleep(0.01)
    dealer.shown(dealer.seq())
    dealer.decide(1, "split")
    dealer.deal("3c")  # the first split hand: 8 3
    dealer.decide(1, "double")
    dealer.deal("Tc", "2h")  # the double's one card (21), then the second hand's second card: 8 2
    dealer.decide(1, "stand")
    dealer.decide(2, "double")
    dealer.deal("9s")  # box 2: 5 6 9 = 20
    dealer.decide(3, "stand")
    dealer.deal("7h")  # the dealer: A 7, soft 18, stands: 21, 20 and 19 win, 10 loses
    assert table.call(lambda: table.daemon.table.round_no) == 2
    assert decisions_in_journal(table) == [
        ("terminal:carla", {"type": "action", "seat": 3, "action": "insurance"}),
        ("terminal:carla", {"type": "action", "seat": 2, "action": "insurance", "amount": 250}),
        ("terminal:carla", {"type": "action", "seat": 1, "action": "split"}),
        ("terminal:carla", {"type": "action", "seat": 1, "action": "double"}),
        ("terminal:carla", {"type": "action", "seat": 1, "action": "stand"}),
        ("terminal:carla", {"type": "action", "seat": 2, "action": "double"}),
        ("terminal:carla", {"type": "action", "seat": 3, "action": "stand"})]
    assert brief(settlements(table)) == [
        (1, "main", 1, "win", 2000), (1, "main", 2, "lose", -1000),
        (2, "insurance", None, "lose", -250), (2, "main", None, "win", 2000),
        (3, "insurance", None, "lose", -1000), (3, "main", None, "win", 2000)]
    assert dealer.checked >= 15 and max(dealer.pit_ms) < PIT_MS


def test_caribbean_stud_fold_and_raise_and_the_page_survives_a_restart_mid_round(tables: Any, pages: Any) -> None:
    table = tables("caribbean-stud", "classic")
    page = pages(table, "carla")
    dealer = Dealer(table, page)
    dealer.bet(1, "ante", 1000)
    dealer.bet(2, "ante", 1000)
    dealer.tap("#close-bets")
    # one card at a time: box 1, box 2, the dealer; five rounds (the dealer's last card face up)
    dealer.deal("As", "3c", "Ah", "Ad", "7d", "Kc", "9c", "Jh", "8d", "5h", "8s", "6c", "2d", "4c", "3h")
    assert page.locator(".dealer-row .card.down").count() == 4  # the dealer's first four face down
    table.restart()  # the daemon restarts with both boxes still to decide
    dealer.shown(dealer.seq())
    page.wait_for_selector("#link:text-is('live')")
    dealer.decide(2, "fold")
    dealer.decide(1, "raise")
    assert decisions_in_journal(table) == [
        ("terminal:carla", {"type": "action", "seat": 2, "action": "fold"}),
        ("terminal:carla", {"type": "action", "seat": 1, "action": "raise"})]
    results = {(s["seat"], s["spot"]): s["result"] for s in settlements(table)}
    # aces beat A K; "bet" is the raise
    assert results == {(1, "ante"): "win", (1, "bet"): "win", (2, "ante"): "lose"}


def test_three_card_poker_play_and_fold(tables: Any, pages: Any) -> None:
    table = tables("three-card-poker", "fi")
    page = pages(table, "carla", width=1280, height=800)
    dealer = Dealer(table, page)
    dealer.bet(1, "ante", 1000)
    dealer.bet(2, "ante", 1000)
    dealer.tap("#close-bets")
    dealer.deal("Kh", "2c", "9s", "Kd", "5d", "4h", "7c", "8h", "Qc")  # box 1 K K 7, box 2 2 5 8, dealer 9 4 Q
    dealer.decide(1, "play")
    dealer.decide(2, "fold")
    results = {(s["seat"], s["spot"]): s["result"] for s in settlements(table)}
    assert results[(2, "ante")] == "lose" and results[(1, "ante")] == "win" and results[(1, "play")] == "win"
    assert [e for _, e in decisions_in_journal(table)] == [
        {"type": "action", "seat": 1, "action": "play"}, {"type": "action", "seat": 2, "action": "fold"}]


def test_roulette_no_more_bets_and_an_unsure_spin_confirmed_at_the_terminal(tables: Any, pages: Any) -> None:
    table = tables("roulette", "european")
    page, pit = pages(table, "carla"), pages(table, "sven", "/pit")
    dealer = Dealer(table, page, pit)
    dealer.bet(1, "straight:17", 1000)
    dealer.bet(2, "red", 2000)
    assert page.locator("#decisions button[data-action]").count() == 0  # roulette has no player decisions
    dealer.tap("#close-bets")
    table.results.send(SpinRead("unsure", 17, "the ball sits on a fret"))
    dealer.shown(table.settled())
    page.wait_for_selector("#pending")
    assert "17" in page.inner_text("#confirm")
    dealer.tap("#confirm")
    assert brief(settlements(table)) == [(1, "straight:17", None, "win", 35000), (2, "red", None, "lose", -2000)]
    event = [r for r in table.records() if r.body["event"]["type"] == "wheel"][0]
    assert event.body["event"] == {"type": "wheel", "number": 17} and event.body["confirmed_by"] == "terminal:carla"
    pit.wait_for_selector("#board .num.first:text-is('17')", timeout=PIT_MS)


def test_a_wrong_pin_is_refused_and_a_technician_cannot_decide(tables: Any, contexts: Any) -> None:
    table = tables("blackjack", "fi")
    page = contexts()
    page.goto(table.url + "/")
    assert page.url.endswith("/login")
    page.fill("#name", "carla")
    for digit in "1111":
        page.click(f"#pad button[data-key='{digit}']")
    page.click("#pad button[data-key='Log in']")
    page.wait_for_selector("#why:text-is('Wrong name or PIN.')")
    page.goto(table.url + "/")
    assert page.url.endswith("/login")  # no session was made
    audits = [r.body for r in table.records(("console",))]
    assert {"who": "carla", "what": "terminal login failed: Wrong name or PIN.", "ok": False} in audits
    login(page, table.url, "tove")
    table.bet(1, "main", 1000)
    page.click("#close-bets")
    page.wait_for_selector("#toast.bad")
    assert "croupier or a supervisor" in page.inner_text("#toast")
    assert [r.body["event"]["type"] for r in table.records()] == ["bet"]  # no more bets was not taken
    # the technician clears what the fault table lets a technician clear, and only that
    table.call(lambda: table.daemon.table.latch("device_silent.shoe", "the shoe stopped answering"))
    table.call(lambda: table.daemon.table.latch("code_digest", "the installed code differs"))
    page.wait_for_selector("#faults button[data-fault='device_silent.shoe']")
    assert page.locator("#faults button[data-fault='code_digest']").count() == 0
    assert "a supervisor clears it" in page.inner_text("#faults")
    page.click("#faults button[data-fault='device_silent.shoe']")
    page.wait_for_function("!document.querySelector(\"#faults button[data-fault='device_silent.shoe']\")")
    assert [r.body["by"] for r in table.records(("clear",))] == ["terminal:tove"]


def test_ultimate_texas_holdem_a_4x_play_tapped_before_the_flop(tables: Any, pages: Any) -> None:
    table = tables("ultimate-texas-holdem", "i")
    page = pages(table, "carla")
    dealer = Dealer(table, page)
    dealer.bet(1, "ante", 1000)
    dealer.bet(1, "blind", 1000)
    dealer.tap("#close-bets")
    deck = iter("Ah Ad 9c 7s 2d 5h Kc 8d 3s 4c Qh Jd Tc 6s".split())
    while "card" in table.call(lambda: tuple(table.daemon.table.last_prompt.expects)):
        dealer.deal(next(deck))
    multiples = page.eval_on_selector_all("#decisions button[data-action='play'][data-multiple]",
                                          "bs => bs.map(b => Number(b.dataset.multiple))")
    assert sorted(multiples) == [3, 4]  # before the flop: 4x or 3x, never 2x or 1x
    dealer.decide(1, "play", 4)
    while not table.call(lambda: table.daemon.table.round_no > 1):
        dealer.deal(next(deck))
    assert decisions_in_journal(table) == [
        ("terminal:carla", {"type": "action", "seat": 1, "action": "play", "multiple": 4})]
    play = [s for s in settlements(table) if s["spot"] == "play"]
    assert len(play) == 1 and play[0]["stake"] == 4000


def test_no_limit_holdem_a_raise_of_the_croupiers_amount_and_the_least_bet_in_one_tap(tables: Any, pages: Any) -> None:
    table = tables("texas-holdem", "no-limit")
    page, pit = pages(table, "carla"), pages(table, "sven", "/pit", 1280, 800)
    dealer = Dealer(table, page, pit)
    for seat in (1, 2, 3):
        dealer.bet(seat, "buy_in", 20000)
    dealer.tap("#close-bets")
    deck = iter("Ah Kd 7c 2s 9h Qd Tc 5h 3d 4c 8s Jh 6d 2c".split())

    def deal_on() -> None:
        while "card" in table.call(lambda: tuple(table.daemon.table.last_prompt.expects)):
            dealer.deal(next(deck))
    deal_on()
    # the boxes' hole cards as the croupier sees them: face down; no board yet; each box's stack and blind
    for seat in (1, 2, 3):
        assert page.locator(f"#view .box[data-seat='{seat}'] .card.down").count() == 2
    assert page.locator("#view .box .card[data-card]").count() == 0 and page.locator(".board-row").count() == 0
    assert "stack 199.00" in page.inner_text("#view .box[data-seat='3']")  # the big blind's 1.00 is in
    # box 1 raises to an amount the player names: "another amount" opens the keypad, the range from the round
    page.click("#decisions button[data-amount-for='raise'][data-seat='1']")
    assert "2.00 to 200.00" in page.inner_text("#sheet h3")
    page.click("#sheet button[data-key='5']")
    dealer.tap("#sheet button[data-key='OK']")
    dealer.decide(2, "fold")
    dealer.decide(3, "call")
    deal_on()  # the flop
    flop = table.call(lambda: [str(c) for c in table.daemon.table.round.hand.board_now(0)])
    assert len(flop) == 3
    assert page.eval_on_selector_all(".board-row .card", "cs => cs.map(c => c.dataset.card)") == flop
    assert page.locator("#view .box[data-seat='2'] .card").count() == 0  # box 2 folded: its cards are mucked
    assert "folded" in page.inner_text("#view .box[data-seat='2']")
    assert page.locator("#decisions button[data-seat='3'][data-action='bet'][data-amount='100']").count() == 1
    dealer.decide(3, "bet", amount=100)  # the least bet, one tap
    dealer.decide(1, "call")
    for _street in ("turn", "river"):
        deal_on()
        dealer.decide(3, "check")
        dealer.decide(1, "check")
    assert table.call(lambda: table.daemon.table.round_no) == 2
    assert [e for _, e in decisions_in_journal(table)] == [
        {"type": "action", "seat": 1, "action": "raise", "amount": 500},
        {"type": "action", "seat": 2, "action": "fold"}, {"type": "action", "seat": 3, "action": "call"},
        {"type": "action", "seat": 3, "action": "bet", "amount": 100},
        {"type": "action", "seat": 1, "action": "call"},
        {"type": "action", "seat": 3, "action": "check"}, {"type": "action", "seat": 1, "action": "check"},
        {"type": "action", "seat": 3, "action": "check"}, {"type": "action", "seat": 1, "action": "check"}]
    assert {source for source, _ in decisions_in_journal(table)} == {"terminal:carla"}
    pot = {s["seat"]: (s["result"], s["net"]) for s in settlements(table) if s["spot"] == "pot"}
    outcome = next(e["outcome"] for r in table.records() for e in r.body["effects"] if "outcome" in e)
    assert outcome["pots"] == [{"amount": 1250, "boxes": [3, 1]}] and outcome["rake"] > 0
    # K high beats Q high: box 3 takes the pot less the house's rake
    assert pot == {1: ("lose", -600), 2: ("lose", -50), 3: ("win", 1250 - 600 - outcome["rake"])}
    assert max(dealer.pit_ms) < PIT_MS


def test_five_card_draw_the_cards_thrown_are_picked_at_the_terminal(tables: Any, pages: Any) -> None:
    table = tables("five-card-draw", "limit")
    page = pages(table, "carla")
    dealer = Dealer(table, page)
    for seat in (1, 2):
        dealer.bet(seat, "buy_in", 20000)
    dealer.tap("#close-bets")
    deck = iter("Ah Kd 7c 2s 9h Qd Tc 5h 3d 4c 8s Jh 6d 2c 3c 9s".split())
    thrown: list[str] = []
    while table.call(lambda: table.daemon.table.round_no) == 1:
        if "card" in table.call(lambda: tuple(table.daemon.table.last_prompt.expects)):
            dealer.deal(next(deck))
            continue
        picker = page.locator("#decisions button[data-cards-for='draw']")
        if picker.count() and not thrown:
            seat = int(picker.first.get_attribute("data-seat"))
            picker.first.click()
            shown = page.eval_on_selector_all("#sheet button[data-pick]", "bs => bs.map(b => b.dataset.pick)")
            assert len(shown) == 5  # the box's own five cards
            held = table.call(lambda: [str(c) for c in table.daemon.table.round.hand.hole_now(
                table.daemon.table.round.order.index(seat))])
            assert sorted(shown) == sorted(held)
            assert page.is_disabled("#sheet button[data-key='OK']")  # nothing chosen: a draw names its cards
            thrown = shown[:2]
            for text in thrown:
                page.click(f"#sheet button[data-pick='{text}']")
            dealer.tap("#sheet button[data-key='OK']")
            continue
        for action in ("stand_pat", "check", "call"):
            button = page.locator(f"#decisions button[data-action='{action}']:not([data-amount])")
            if button.count():
                seat = int(button.first.get_attribute("data-seat"))
                dealer.decide(seat, action)
                break
        else:
            raise AssertionError(f"nothing to tap: {page.inner_text('#decisions')}")
    draws = [(source, e) for source, e in decisions_in_journal(table) if e["action"] == "draw"]
    assert len(draws) == 1 and draws[0][0] == "terminal:carla" and draws[0][1]["cards"] == thrown
    assert {s["seat"] for s in settlements(table)} == {1, 2}


def test_seven_card_stud_the_boxes_show_their_up_cards_and_the_down_cards_face_down(tables: Any, pages: Any) -> None:
    table = tables("seven-card-stud", "limit")
    page = pages(table, "carla")
    dealer = Dealer(table, page)
    for seat in (1, 2, 3):
        dealer.bet(seat, "buy_in", 20000)
    dealer.tap("#close-bets")
    dealt = "Ah Kd 7c 2s 9h Qd Tc 5h 3d".split()
    dealer.deal(*dealt)  # third street: two down and one up to each box
    for seat, up in zip((1, 2, 3), dealt[6:]):
        box = f"#view .box[data-seat='{seat}']"
        assert page.locator(f"{box} .card.down").count() == 2
        assert page.eval_on_selector_all(f"{box} .card[data-card]", "cs => cs.map(c => c.dataset.card)") == [up]
    assert page.locator(".board-row").count() == 0  # stud has no board
    # the lowest up card (the 3 of diamonds at box 3) brings in
    assert page.locator("#decisions button[data-seat='3'][data-action='bring_in']").count() == 1


def test_a_swedish_table_speaks_swedish_at_the_login_the_dealer_page_and_the_pit_view(tables: Any, pages: Any,
                                                                                     contexts: Any) -> None:
    table = tables("blackjack", "se", language="sv")
    page = contexts()
    page.goto(table.url + "/")
    page.wait_for_selector("#pad button[data-key='Log in']:text-is('Logga in')")
    assert page.get_attribute("#pin", "placeholder") == "PIN-kod"
    page.fill("#name", "carla")
    for digit in "0000":
        page.click(f"#pad button[data-key='{digit}']")
    page.click("#pad button[data-key='Log in']")
    page.wait_for_selector("#why:text-is('Fel namn eller PIN-kod.')")
    for digit in PINS["carla"][1]:
        page.click(f"#pad button[data-key='{digit}']")
    page.click("#pad button[data-key='Log in']")
    page.wait_for_selector("#view[data-seq]")
    pit = pages(table, "sven", "/pit")
    dealer = Dealer(table, page, pit)
    assert page.inner_text("#logout") == "Logga ut" and page.evaluate("document.documentElement.lang") == "sv"
    dealer.bet(1, "main", 1000)
    assert page.inner_text("#close-bets") == "Inga fler insatser"
    assert "Spelomgång 1" in page.inner_text("#round")
    dealer.tap("#close-bets")
    dealer.deal("Th", "9c", "7d")  # box 1: 10 and 7 against the dealer's 9
    assert page.inner_text("#prompt") == table.call(
        lambda: language("sv").text(table.daemon.table.last_prompt.text))
    assert "mot" in page.inner_text("#prompt")  # "Box 1: 17 mot 9 — stanna, kort eller dubbla?"
    labels = page.eval_on_selector_all("#decisions button[data-action]", "bs => bs.map(b => b.textContent)")
    assert "Stanna" in labels and "Stand" not in labels
    assert page.locator("#view h3:text-is('Beslut')").count() == 1
    texts = pit.text_content("#view") or ""  # as written (the page shows some labels in capitals)
    assert "Läge" in texts and "Omgångar / timme" in texts and "I spel" in texts
    dealer.decide(1, "stand")
    assert decisions_in_journal(table) == [("terminal:carla", {"type": "action", "seat": 1, "action": "stand"})]
    assert table.records(("console",))[0].body["what"] == "terminal login failed: Wrong name or PIN."  # English


def test_sic_bo_an_unsure_throw_corrected_die_by_die_and_the_pit_shows_the_throws(tables: Any, pages: Any) -> None:
    table = tables("sic-bo", "fi", devices={"camera": {"driver": "simulated"}})
    page, pit = pages(table, "carla"), pages(table, "sven", "/pit", 1280, 800)
    dealer = Dealer(table, page, pit)
    dealer.bet(1, "big", 1000)
    dealer.tap("#close-bets")
    table.results.send(DiceRead("unsure", (4, None, 6), (), "a die leans on the rim"))
    dealer.shown(table.settled())
    page.wait_for_selector("#pending")
    assert page.inner_text("#confirm") == "Tap every die"  # the second die is not read: no confirming a guess
    page.locator("#pending .dice-pick").nth(1).locator("button:text-is('5')").click()  # the croupier looks: 5
    assert page.inner_text("#confirm") == "Confirm 4 5 6"
    dealer.tap("#confirm")
    event = [r for r in table.records() if r.body["event"]["type"] == "dice"][0]
    assert event.body["event"]["values"] == [4, 5, 6] and event.body["confirmed_by"] == "terminal:carla"
    assert brief(settlements(table)) == [(1, "big", None, "win", 1000)]  # 15: big
    pit.wait_for_selector("#board .throw.first", timeout=PIT_MS)
    assert pit.inner_text("#board .throw.first .tot") == "15"


def _processes_under(pid: int) -> list[list[str]]:
    """The command lines of every process descended from ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            try:
                found.append([a.decode() for a in (Path("/proc") / str(child) / "cmdline").read_bytes().split(b"\0")
                              if a])
            except OSError:
                continue
    return found


def test_the_browser_is_debians_chromium_with_the_house_flags_and_a_fresh_profile(browser: Any) -> None:
    started = os.stat(f"/proc/{os.getpid()}").st_ctime  # this test process's start
    mains = [cmd for cmd in _processes_under(os.getpid())
             if cmd and cmd[0].endswith("/chromium") and not any(a.startswith("--type=") for a in cmd)]
    assert mains, "no chromium process under the tests"
    for cmd in mains:
        assert Path(cmd[0]).resolve().is_relative_to("/usr/lib/chromium"), cmd[0]  # Debian's package
        assert set(chromium.HOUSE_FLAGS) <= set(cmd), set(chromium.HOUSE_FLAGS) - set(cmd)
        profiles = [a.split("=", 1)[1] for a in cmd if a.startswith("--user-data-dir=")]
        assert len(profiles) == 1 and Path(profiles[0]).is_dir(), profiles
        assert Path(profiles[0]).resolve() != (Path.home() / ".config" / "chromium").resolve()
        assert os.stat(profiles[0]).st_ctime >= started - 1, "the profile folder was made before this run"
