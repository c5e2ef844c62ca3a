"""The live table reads like a table: a pit supervisor's words, the same paced (emulated devices) and --fast."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from controller import config as table_config
from controller.runtime.daemon import Daemon
from drivers.gpio.tower import PATTERNS

REPRS = re.compile(r"=(True|False|None)\b|\bNone\b|[{}]|\w+\(\w+=|'\w+': ")


def play(tmp_path: Path, game: str, variant: str | None = None, emulated: bool = False, rounds: int = 2) -> str:
    data = table_config.simulated_defaults(game, variant, journal=str(tmp_path / f"{game}-{emulated}.sqlite"),
                                           emulated=emulated)
    stream = io.StringIO()
    daemon = Daemon(table_config.from_mapping(data, "test"), simulate=True, seed=5, fast=True, rounds=rounds,
                    stream=stream)
    assert asyncio.run(asyncio.wait_for(daemon.run(), 120)) == 0
    return stream.getvalue()


@pytest.mark.parametrize("game", ["blackjack", "tarning", "caribbean-stud", "punto-banco", "fast-poker",
                                  "three-card-poker"])
def test_the_terminal_speaks_the_tables_words(tmp_path: Path, game: str) -> None:
    out = play(tmp_path, game)
    lines = out.splitlines()
    assert not [line for line in lines if REPRS.search(line) and not line.startswith("  [sign")], \
        [line for line in lines if REPRS.search(line)][:3]
    assert max(len(line) for line in lines if not line.startswith("  [sign")) <= 200
    assert not any(line.lstrip().startswith('{"ts"') for line in lines)  # no JSON log line among them
    currency = "EUR" if game in ("caribbean-stud", "three-card-poker") else "SEK"
    assert re.search(rf"#\d+ r1 bet box \d( \(\w+\))? \S+ {currency} \d+\.\d\d", out), out[:800]
    assert re.search(rf"   round 1: drop {currency} \d+\.\d\d, win {currency} -?\d+\.\d\d", out)
    assert re.search(rf"     box \d: .*{currency} -?\d+\.\d\d \(", out)  # each box's settlements summed
    assert re.search(rf"session: 2 rounds, drop {currency} [\d.]+, win {currency} -?[\d.]+, hold -?[\d.]+ %; "
                     rf"journal {re.escape(str(tmp_path))}", lines[-1])
    if game == "blackjack":
        assert re.search(r"   round 1: dealer (\w\w )+\(\d+(, bust)?\)|   round 1: dealer (\w\w )+Black Jack", out)
        assert re.search(r"     box \d: (\w\w )+\d+ .*(win|lose|push)", out)  # every hand with its total
    if game == "tarning":
        assert re.search(r"dice (red|green) \d, (red|green) \d", out)  # which die is which
        assert re.search(r"   round 1: red \d, green \d: total \d+", out)
    if game == "caribbean-stud":
        assert re.search(r"   round 1: dealer (\w\w ){5}\(", out)
    if game in ("fast-poker", "three-card-poker"):  # the dealer's three cards and hand, not "deal=dark"
        assert re.search(r"   round 1: dealer (\w\w ){3}\([A-Z]", out) and "dark" not in out
        assert re.search(r"     box \d: (\w\w ){3}\([A-Z][^)]*\) (fold|play)", out)


def test_paced_and_fast_show_the_same_words(tmp_path: Path) -> None:
    """The emulated drivers (luma dummies, the shoe on a pty: the paced run) and the in-process stand-ins
    (--fast) print their sign, tower and jackpot lines from the same view, in the same words."""
    fast = play(tmp_path, "punto-banco", emulated=False, rounds=1)
    paced = play(tmp_path, "punto-banco", emulated=True, rounds=1)
    for out in (fast, paced):
        towers = {line.split("] ", 1)[1].split()[0] for line in out.splitlines() if line.startswith("  [tower @")}
        assert towers and towers <= set(PATTERNS), towers
        signs = [line.split("] ", 1)[1] for line in out.splitlines() if line.startswith("  [sign @")]
        assert signs[0].startswith("Punto Banco SE | PUNTO")
        assert any(line.startswith("  [jackpot_display @") for line in out.splitlines())

    def shape(out: str) -> list[str]:
        return [re.sub(r"@\d+", "@", line.split("] ", 1)[0]) for line in out.splitlines() if line.startswith("  [")]
    assert shape(fast)[:3] == shape(paced)[:3]


def test_a_round_opens_with_its_carried_stakes_and_the_burn_puck_told_apart() -> None:
    """At Black Jack Burn the puck's box is carried into the next round beside any stakes: the line names the
    puck as the puck, never as one more stake carried."""
    from controller.runtime.journal import Record
    from controller.runtime.outputs import Terminal

    def opens(carried: list[dict[str, object]]) -> str:
        return Terminal.line(Record(1, 0, 0, "round_open", 7, {"carried": carried}, "", ""))

    puck = {"seat": 2, "spot": "puck"}
    stake = {"seat": 3, "spot": "main", "amount": 1000}
    assert opens([puck]) == "=== round 7 opens: place your bets (burn puck last at box 2)"
    assert opens([stake, puck]) == "=== round 7 opens: place your bets (1 stake carried; burn puck last at box 2)"
    assert opens([stake, dict(stake, seat=4)]) == "=== round 7 opens: place your bets (2 stakes carried)"
    assert opens([]) == "=== round 7 opens: place your bets"
