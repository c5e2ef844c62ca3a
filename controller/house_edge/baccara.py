"""Exact figures of Baccara (chemin de fer): punto's and the bank's expectation per unit staked against the bank.

The first six cards of a fresh shoe are enumerated by point value with their
exact counts (as for Punto Banco), drawn by the game's own ``punto_must`` and
``banco_must``; the two choices the seed leaves open (punto on 5, banco on 3
against a third card of 9) are taken each way, so the tool shows what each
choice is worth, and the stated strategy (``BaccaraRound.wants``: punto draws
on 5, banco draws on 3 against a 9) is the row the docs quote. The bank's
figure is per unit staked against it, its win less the commission
(``after_commission`` on a large stake, so the rounding does not show).
A banco solo's free choices are not enumerated (the players' strategy plays
them as the fixed table).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from controller.games.baccara import CHOICE, after_commission, banco_must, punto_must, winner_of
from controller.games.contract import GameSpec, RoundConfig
from controller.games.punto_banco import is_natural

UNIT = 1_000_000


def outcome_weights(decks: int, punto_on_5: str, banco_3_vs_9: str) -> dict[str, int]:
    """``{winner: weight}`` over every order of the first six cards, the choices taken as given."""
    counts = [16 * decks] + [4 * decks] * 9
    total = 52 * decks
    weights = {"punto": 0, "banco": 0, "tie": 0}

    def take(v: int) -> int:
        c = counts[v]
        counts[v] -= 1
        return c

    def banco_draws(points: int, third: int | None) -> bool:
        rule = banco_must(points, third, False)
        return rule == "draw" or rule == CHOICE and banco_3_vs_9 == "draw"

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    pp, bp = (p1 + p2) % 10, (b1 + b2) % 10
                    rule = punto_must(pp, False)
                    if is_natural(pp) or is_natural(bp):
                        weights[winner_of(pp, bp)] += w4 * (total - 4) * (total - 5)
                    elif rule == "draw" or rule == CHOICE and punto_on_5 == "draw":
                        for p3 in range(10):
                            w5 = w4 * take(p3)
                            pf = (pp + p3) % 10
                            if banco_draws(bp, p3):
                                for b3 in range(10):
                                    if counts[b3]:
                                        weights[winner_of(pf, (bp + b3) % 10)] += w5 * counts[b3]
                            else:
                                weights[winner_of(pf, bp)] += w5 * (total - 5)
                            counts[p3] += 1
                    elif banco_draws(bp, None):
                        for b3 in range(10):
                            if counts[b3]:
                                weights[winner_of(pp, (bp + b3) % 10)] += w4 * counts[b3] * (total - 5)
                    else:
                        weights[winner_of(pp, bp)] += w4 * (total - 4) * (total - 5)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return weights


def figures(config: RoundConfig, decks: int, punto_on_5: str, banco_3_vs_9: str) -> dict[str, Any]:
    table = config.paytable[config.variant]
    weights = outcome_weights(decks, punto_on_5, banco_3_vs_9)
    whole = sum(weights.values())
    p = {k: Fraction(v, whole) for k, v in weights.items()}
    bank_win = Fraction(after_commission(table, UNIT), UNIT)
    punto_ev = p["punto"] - p["banco"]
    bank_ev = p["banco"] * bank_win - p["punto"]
    return {"punto_on_5": punto_on_5, "banco_3_vs_9": banco_3_vs_9,
            "punto_wins": float(p["punto"]), "banco_wins": float(p["banco"]), "tie": float(p["tie"]),
            "punto_ev": float(punto_ev), "bank_ev": float(bank_ev), "house_take": float(-(punto_ev + bank_ev))}


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    if getattr(args, "simulate", None):
        raise ValueError("baccara: the figures are exact; run it with --exact")
    started = time.perf_counter()
    decks = int(config["decks"])
    rows = [figures(config, decks, p5, b3) for p5 in ("draw", "stand") for b3 in ("draw", "stand")]
    stated = next(r for r in rows if r["punto_on_5"] == "draw" and r["banco_3_vs_9"] == "draw")
    bets = {"punto": {"house_edge_percent": -100 * stated["punto_ev"],
                      "note": "a stake against the bank; what punto loses the bank side wins"},
            "bank": {"house_edge_percent": -100 * stated["bank_ev"],
                     "note": "per unit staked against the bank, after the 5 % commission"}}
    return {"game": spec.id, "variant": config.variant, "decks": decks, "bets": bets, "choices": rows,
            "method": "exact, the first six cards of a fresh shoe; the stated strategy (punto draws on 5, banco "
                      "draws on 3 against a 9)", "seconds": round(time.perf_counter() - started, 2)}
