"""House edge of Caribbean Stud (simulation with a stated strategy) and the progressive's return (exact).

Main game: ``--simulate N`` deals N rounds of one box against the dealer
from a shuffled 52-card deck (``random.Random(--seed)``, the tool's own
randomness; the game stays pure). The box raises with ace-king-jack-eight-three
or better (the "AKJ83 rule", which ignores the dealer's up card) and folds
the rest. Every hand is ranked by ``controller.hands.high``; the dealer's
qualification and the settlement are ``caribbean_stud.contest`` and
``caribbean_stud.main_results``, the game's own code.

A carried stake (``dk``: the raise when the dealer does not qualify, both
stakes on a tie) is counted as returned: it becomes the next round's raise or
ante, which the box would have placed anyway, and a fold returns a carried
raise. So carry and push have the same value here.

Progressive: exact over all 2 598 960 five-card hands, at the meter given by
``--meter`` (minor units).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from itertools import combinations
from typing import Any

from controller.cards import deck, parse_cards
from controller.games.caribbean_stud import contest, hand_key, main_results, progressive_line
from controller.games.contract import GameSpec, RoundConfig
from controller.hands.high import HighHand, best_high, high_hand_from, high_value
from controller.house_edge.three_card_poker import unit_net

RAISE_AT_LEAST = "As Kd Jh 8c 3s"  # the stated strategy: raise with this hand or better
DEFAULT_METER = 1_000_000


def _unit(result: str, odds: Any) -> float:
    return 0.0 if result == "carry" else unit_net(result, odds)


def simulate(config: RoundConfig, rounds: int, seed: int) -> dict[str, Any]:
    """Mean net per ante over ``rounds`` simulated rounds, with its 95 % confidence interval."""
    rng = random.Random(seed)
    cards = deck()
    multiple = int(config.paytable[config.variant]["raise_multiple"])
    threshold = best_high(parse_cards(RAISE_AT_LEAST)).value
    hands: dict[int, HighHand] = {}
    nets: dict[tuple[str, str | None], float] = {}

    def ranked(five: list) -> HighHand:
        value = high_value(five)
        hand = hands.get(value)
        if hand is None:
            hand = hands[value] = high_hand_from(five, value)
        return hand

    def net(key: str, versus: str | None) -> float:
        found = nets.get((key, versus))
        if found is None:
            results = main_results(config, key, versus)
            found = nets[(key, versus)] = sum(_unit(*r) * (multiple if spot == "bet" else 1)
                                              for spot, r in results.items())
        return found

    total = total_sq = 0.0
    raised = 0
    sample = rng.sample
    for _ in range(rounds):
        dealt = sample(cards, 10)
        player = ranked(dealt[:5])
        if player.value >= threshold:
            raised += 1
            x = net(hand_key(player), contest(player, ranked(dealt[5:])))
        else:
            x = net(hand_key(player), None)
        total += x
        total_sq += x * x
    mean = total / rounds
    sd = math.sqrt(max(total_sq / rounds - mean * mean, 0.0))
    half = 1.96 * sd / math.sqrt(rounds)
    share = raised / rounds
    return {
        "strategy": f"raise with {RAISE_AT_LEAST} (ace-king-jack-eight-three) or better, fold the rest",
        "rounds": rounds,
        "seed": seed,
        "house_edge_percent": round(-mean * 100, 4),
        "confidence_95_percent": [round((-mean - half) * 100, 4), round((-mean + half) * 100, 4)],
        "house_edge_per_total_staked_percent": round(-mean / (1 + multiple * share) * 100, 4),
        "raise_share": round(share, 6),
        "sd_per_round": round(sd, 4),
    }


def progressive_return(config: RoundConfig, meter: int) -> dict[str, Any]:
    """Exact return of the progressive chip at ``meter``: every five-card hand, the prize by the game's table."""
    counts: dict[str, int] = {}
    names: dict[int, str] = {}
    for five in combinations(deck(), 5):
        value = high_value(five)
        key = names.get(value)
        if key is None:
            key = names[value] = hand_key(high_hand_from(five, value))
        counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    stake = config["progressive_stake"]
    paid = 0
    lines: dict[str, Any] = {}
    royal_share = 0.0
    for key, n in sorted(counts.items(), key=lambda kv: kv[1]):
        line = progressive_line(config, key)
        if line is None:
            continue
        if "share" in line:
            num, den = (int(x) for x in line["share"])
            prize = meter * num // den
            royal_share += n * num / den
        else:
            prize = int(line["fixed"])
        paid += n * prize
        lines[key] = {"hands": n, "probability": n / total, "prize": prize}
    rtp = paid / total / stake
    fixed_part = (paid - sum(v["hands"] * v["prize"] for k, v in lines.items()
                             if "share" in (progressive_line(config, k) or {}))) / total
    break_even = None
    if royal_share:
        break_even = math.ceil((stake - fixed_part) * total / royal_share)
    return {
        "method": "exact over all 2 598 960 five-card hands",
        "meter": meter,
        "stake": stake,
        "return_percent": round(rtp * 100, 4),
        "house_edge_percent": round((1 - rtp) * 100, 4),
        "meter_for_100_percent_return": break_even,
        "contribution_per_chip": config["progressive_contribution"],
        "expected_paid_per_chip": round(paid / total, 4),
        "lines": lines,
    }


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError("caribbean-stud: give --simulate N for the main game, --exact for the progressive alone")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        out["method"] = "simulation of the main game; exact progressive"
        out["bets"]["ante_bet"] = simulate(config, rounds, getattr(args, "seed", 1))
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
    else:
        out["method"] = "exact progressive (the main game needs --simulate N)"
    if config["progressive"]:
        started = time.perf_counter()
        meter = getattr(args, "meter", None)
        progressive = progressive_return(config, DEFAULT_METER if meter is None else meter)
        out["bets"]["progressive"] = {"house_edge_percent": progressive["house_edge_percent"], **progressive}
        out["progressive_seconds"] = round(time.perf_counter() - started, 3)
    return out
