"""`tablectl demo`: play a few Punto Banco coups from a seeded shuffled shoe and print them.

This is what the README's run command shows until the daemon's simulated table
replaces it: the real game code, a shuffled shoe and a few bets.
"""

from __future__ import annotations

import argparse
import random

from controller import cards, games
from controller.commands.common import UsageError
from controller.events import Bet, CardOut, CloseBets
from controller.games.contract import Rejected
from controller.money import format_amount


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="play simulated Punto Banco coups and print them")
    parser.add_argument("--variant", default="se", help="punto-banco variant (default: se)")
    parser.add_argument("--rounds", type=int, default=5, help="how many coups (default: 5)")
    parser.add_argument("--seed", type=int, default=2026, help="shuffle seed (default: 2026)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        spec, config = games.configure("punto-banco", args.variant)
    except ValueError as exc:
        raise UsageError(f"demo: {exc}") from None
    rng = random.Random(args.seed)
    shoe = cards.shuffled(cards.shoe(config["decks"]), rng)
    spots = [s.name for s in spec.spots_for(config.variant)]
    unit = config.get("chip_unit", 100)
    carried: tuple[Bet, ...] = ()
    print(f"Punto Banco ({config.variant}), {config['decks']} decks, shuffle seed {args.seed}")
    for number in range(1, args.rounds + 1):
        round_ = spec.new_round(config, carried)
        for seat in (1, 2, 3):
            bet = Bet(seat, rng.choice(spots), unit * rng.randint(1, 12))
            answer = round_.apply(bet)
            if isinstance(answer, Rejected):
                print(f"  (bet refused: box {seat} {bet.spot} {format_amount(bet.amount or 0)}: {answer.reason})")
        round_.apply(CloseBets())
        while not round_.complete:
            round_.apply(CardOut(shoe.pop()))
        outcome = round_.outcome() or {}
        print(f"\nCoup {number}: Punto {' '.join(outcome['punto_cards'])} = {outcome['punto']}, "
              f"Banco {' '.join(outcome['banco_cards'])} = {outcome['banco']} -> {outcome['winner'].upper()}")
        for s in round_.settlements():
            odds = f" at {s.odds}" if s.odds else ""
            carry = " (stays on the layout)" if s.result == "carry" else ""
            print(f"  box {s.seat} {s.spot:<6} stake {format_amount(s.stake or 0)}: {s.result}{odds}, "
                  f"net {format_amount(s.net or 0)}{carry}")
        carried = round_.carried()
    return 0
