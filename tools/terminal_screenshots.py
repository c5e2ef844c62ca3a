"""Regenerate the dealer terminal's and the pit view's screenshots in docs/img (docs/dealer-terminal.md).

    .venv/bin/python tools/terminal_screenshots.py [--out docs/img]

Each picture is a live daemon with emulated devices (tests/controller/runtime/web/harness.py), played into
the moment shown, and taken by Debian's headless Chromium at 800x480 (the 7" touchscreen) and 1280x800:

- dealer-blackjack-*: box 1 to decide on a pair of eights against a dealer ace, insurance open (the dealer
  panel's decision keypad wired: its keys' numbers on the buttons);
- dealer-caribbean-*: two boxes to fold or raise, the dealer's last card up;
- dealer-roulette-unsure-*: the camera unsure of a spin, waiting for the croupier;
- dealer-holdem-*: a no-limit Texas Hold'em hand on the flop, four boxes' cards face down, the board, the
  stacks, the button, box 2 to check or bet (the least bet one tap, another amount on the keypad);
- dealer-holdem-amount-*: the same moment, the croupier typing a bet of 12.50 on the keypad;
- dealer-blackjack-sv-*: the blackjack moment at a Swedish table (``[table] language = "sv"``);
- pit-roulette-*: 80 spins in, the last numbers with hot and cold numbers;
- pit-punto-banco-*: 60 coups in, the big road and the bead plate;
- pit-sic-bo-*: the last throws.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller import cards  # noqa: E402
from controller.events import Action, Bet, CloseBets, Dice, Wheel  # noqa: E402
from drivers.events import SpinRead  # noqa: E402
from tests.chromium import ARGS, CHROMIUM  # noqa: E402
from tests.controller.runtime.web.harness import PINS, LiveTable  # noqa: E402

SIZES = ((800, 480), (1280, 800))


def login(page: Any, url: str, name: str, view: str) -> None:
    page.goto(url + view)
    page.fill("#name", name)
    for digit in PINS[name][1]:
        page.click(f"#pad button[data-key='{digit}']")
    page.click("#pad button[data-key='Log in']")
    page.wait_for_selector("#view[data-seq]")


def blackjack(table: LiveTable) -> None:
    for seat, amount in ((1, 1000), (2, 2500), (4, 1000), (5, 5000)):
        table.bet(seat, "main", amount)
    table.bets.send(CloseBets())
    table.deal("8h", "Kd", "5c", "Qs", "Ac", "8s", "9d", "6h", "Jc")


def caribbean(table: LiveTable) -> None:
    for seat in (2, 3, 5):
        table.bet(seat, "ante", 2000)
    table.bets.send(CloseBets())
    table.deal(*"As 3c 9h Ah Ad 7d Kc 9c Jh Qd 8d 5h 8s 6c 2d Ts 4c 3h Jd 7s".split())


def holdem(table: LiveTable) -> None:
    for seat in (1, 2, 3, 5):
        table.bet(seat, "buy_in", 20000)
    table.bets.send(CloseBets())
    deck = iter("Ah Kd 7c 2s 9h Qd Tc 5h 3d 4c 8s Jh 6d 2c 3c".split())

    def deal_on() -> None:
        while "card" in expects(table):
            table.deal(next(deck))
    deal_on()
    for seat, action in ((5, "call"), (1, "fold"), (2, "call"), (3, "check")):  # before the flop
        table.bets.send(Action(seat, action))
    table.settled()
    deal_on()  # the burn and the flop


def roulette_unsure(table: LiveTable) -> None:
    spins(table, 12)
    table.bet(3, "straight:17", 1000)
    table.bet(5, "red", 5000)
    table.bets.send(CloseBets())
    table.results.send(SpinRead("unsure", 17, "the ball sits on the fret between 17 and 34"))
    table.settled()


def spins(table: LiveTable, count: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        table.bets.send(Bet(1, "red", 1000))
        table.bets.send(CloseBets())
        table.results.send(Wheel(rng.randrange(37)))
    table.settled()


def expects(table: LiveTable) -> tuple[str, ...]:
    """What the live table's round waits for (read on its loop; nothing before its first prompt)."""
    daemon = table.daemon
    assert daemon is not None, "the live table has not started"

    def read() -> tuple[str, ...]:
        live = daemon.table
        prompt = live.last_prompt if live is not None else None
        assert prompt is not None, "the live table has no prompt yet"
        return tuple(prompt.expects)
    return tuple(table.call(read))


def round_no(table: LiveTable) -> int:
    """The round the live table's daemon is at (read on its loop)."""
    daemon = table.daemon
    assert daemon is not None, "the live table has not started"

    def read() -> int:
        live = daemon.table
        assert live is not None, "the live table has not started"
        return live.round_no
    return int(table.call(read))


def coups(table: LiveTable, count: int, seed: int = 5) -> None:
    deck = cards.shuffled(cards.shoe(8), random.Random(seed))
    position = 0
    for _ in range(count):
        start = round_no(table)
        table.bets.send(Bet(1, "banco", 10000))
        table.bets.send(CloseBets())
        while round_no(table) == start:
            table.deal(str(deck[position]))
            position += 1


def throws(table: LiveTable, count: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        table.bets.send(Bet(1, "big", 1000))
        table.bets.send(CloseBets())
        table.results.send(Dice(tuple(rng.randint(1, 6) for _ in range(3))))
    table.settled()


PANEL = {"gpio": {"driver": "gpio", "pin_factory": "mock", "pin_map": str(ROOT / "hw" / "dealer-panel.toml")}}
"""The dealer panel on mock pins: its decision keypad's numbers show on the dealer page."""

def type_amount(page: Any) -> None:
    page.click("#decisions button[data-amount-for='bet']")
    for key in "12.50":
        page.click(f"#sheet button[data-key='{key}']")


Shot = tuple[str, str, str | None, dict[str, Any], Callable[[LiveTable], None], str, str]
SHOTS: tuple[Shot, ...] = (
    ("dealer-blackjack", "blackjack", "fi", {"boxes": 7}, blackjack, "carla", "/"),
    ("dealer-blackjack-sv", "blackjack", "se", {"boxes": 7}, blackjack, "carla", "/"),
    ("dealer-caribbean", "caribbean-stud", "classic", {}, caribbean, "carla", "/"),
    ("dealer-roulette-unsure", "roulette", "european", {}, roulette_unsure, "carla", "/"),
    ("dealer-holdem", "texas-holdem", "no-limit", {}, holdem, "carla", "/"),
    ("dealer-holdem-amount", "texas-holdem", "no-limit", {}, holdem, "carla", "/"),
    ("pit-roulette", "roulette", "european", {}, lambda t: spins(t, 80), "sven", "/pit"),
    ("pit-punto-banco", "punto-banco", "fi", {}, lambda t: coups(t, 60), "sven", "/pit"),
    ("pit-sic-bo", "sic-bo", "fi", {}, lambda t: throws(t, 30), "sven", "/pit"),
)


TAPS: dict[str, Callable[[Any], None]] = {"dealer-holdem-amount": type_amount}
"""What the croupier taps on the page before the picture."""
LANGUAGES = {"dealer-blackjack-sv": "sv"}
"""The tables shown in another language than English."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--only", nargs="*", help="the pictures to take again (dealer-holdem ...); default: all")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for name, game, variant, options, play, user, view in SHOTS:
            if args.only and name not in args.only:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                table = LiveTable(Path(tmp), game, variant, options=options,
                                  devices=PANEL if view == "/" and game != "roulette" else None,
                                  language=LANGUAGES.get(name, "en")).start()
                try:
                    play(table)
                    for width, height in SIZES:
                        context = browser.new_context(viewport={"width": width, "height": height})
                        page = context.new_page()
                        login(page, table.url, user, view)
                        time.sleep(0.3)
                        page.evaluate("document.getElementById('clock').textContent = '21:04'")
                        if name in TAPS:
                            TAPS[name](page)
                        path = args.out / f"{name}-{width}x{height}.png"
                        page.screenshot(path=str(path))
                        context.close()
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                finally:
                    table.stop()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
