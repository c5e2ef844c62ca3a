"""Exact house edge of Punto Banco bets by enumerating the shoe composition.

The cards are drawn by point value (0 for tens and faces) with their exact
counts; each final pair of points is settled by ``punto_banco.spot_result``
and the tableau is ``punto_draws`` / ``banco_draws``: the game's own code.
Weights are integers over N(N-1)...(N-5) so the figures are exact fractions.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from controller.games.contract import GameSpec, RoundConfig
from controller.games.punto_banco import banco_draws, is_natural, punto_draws, spot_result


def final_points_weights(decks: int) -> dict[tuple[int, int], int]:
    """``{(punto, banco): weight}`` over every order of the first six cards of a fresh shoe."""
    counts = [16 * decks] + [4 * decks] * 9
    total = 52 * decks
    weights: dict[tuple[int, int], int] = {}

    def take(v: int) -> int:
        c = counts[v]
        counts[v] -= 1
        return c

    def add(key: tuple[int, int], w: int) -> None:
        weights[key] = weights.get(key, 0) + w

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    pp, bp = (p1 + p2) % 10, (b1 + b2) % 10
                    if is_natural(pp) or is_natural(bp):
                        add((pp, bp), w4 * (total - 4) * (total - 5))
                    elif punto_draws(pp):
                        for p3 in range(10):
                            w5 = w4 * take(p3)
                            pf = (pp + p3) % 10
                            if banco_draws(bp, p3):
                                for b3 in range(10):
                                    if counts[b3]:
                                        add((pf, (bp + b3) % 10), w5 * counts[b3])
                            else:
                                add((pf, bp), w5 * (total - 5))
                            counts[p3] += 1
                    elif banco_draws(bp, None):
                        for b3 in range(10):
                            if counts[b3]:
                                add((pp, (bp + b3) % 10), w4 * counts[b3] * (total - 5))
                    else:
                        add((pp, bp), w4 * (total - 4) * (total - 5))
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return weights


def bet_figures(config: RoundConfig, spot: str, weights: dict[tuple[int, int], int]) -> dict[str, Any]:
    """Expected value of one unit on ``spot``, settled by the game, with the share of each result."""
    total = sum(weights.values())
    ev = Fraction(0)
    shares: dict[str, Fraction] = {}
    for (p, b), w in weights.items():
        result, odds = spot_result(config, spot, p, b)
        share = Fraction(w, total)
        shares[result] = shares.get(result, Fraction(0)) + share
        if result == "win":
            assert odds is not None
            ev += share * Fraction(odds.paid, odds.per)
        elif result == "lose":
            ev -= share
    edge = -ev
    out: dict[str, Any] = {
        "house_edge_percent": round(float(edge * 100), 4),
        "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
        "results": {k: round(float(v), 8) for k, v in sorted(shares.items())},
    }
    carry = shares.get("carry", Fraction(0))
    if carry:
        resolved = -ev / (1 - carry)
        out["house_edge_per_resolved_bet_percent"] = round(float(resolved * 100), 4)
    return out


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    if not getattr(args, "exact", False):
        raise ValueError("punto-banco math is exact enumeration: add --exact")
    started = time.perf_counter()
    weights = final_points_weights(config["decks"])
    bets = {spot.name: bet_figures(config, spot.name, weights) for spot in spec.spots_for(config.variant)}
    return {
        "game": spec.id,
        "variant": config.variant,
        "decks": config["decks"],
        "method": "exact enumeration of the shoe composition (first six cards)",
        "bets": bets,
        "seconds": round(time.perf_counter() - started, 3),
    }
