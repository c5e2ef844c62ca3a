"""House edge of Caribbean Stud (exact, or simulated with ``--simulate N``) and the progressive's return (exact).

Main game, exact (the default): every player hand against every dealer hand of
the other 47 cards, counted by ``dealer_counts`` (inclusion-exclusion over the
player's cards, as the three-card tool counts), each outcome settled by
``caribbean_stud.main_results`` per paytable key. Two strategies are figured:
the stated AKJ83 rule below, and the best raise-or-fold decision for each
player hand computed from those same counts, without the dealer's up card (a
strategy that also looks at the up card is not figured).

Main game, simulated: ``--simulate N`` deals N rounds of one box against the dealer,
ten distinct cards per round in a uniformly random order
(``numpy.random.default_rng(--seed)``, the tool's own randomness; the game
stays pure). The box raises with ace-king-jack-eight-three or better (the
"AKJ83 rule", which ignores the dealer's up card) and folds the rest. Hands
are ranked in batch by ``controller.hands.batch``; each distinct value is
shown once to the game (``hand_key``, ``ace_king_or_better``) and every
settlement is ``caribbean_stud.main_results``. ``versus_codes`` is
``caribbean_stud.contest`` over arrays (a test holds them equal).

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
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from controller.cards import parse_cards
from controller.games.caribbean_stud import hand_key, main_results, progressive_line
from controller.games.contract import GameSpec, RoundConfig
from controller.progress import nothing
from controller.hands.batch import rank_batch
from controller.hands.high import best_high
from controller.hands.qualifiers import ace_king_or_better
from controller.house_edge.dealer_counts import DEALER_HANDS, PLAYER_HANDS, DealerCounts, player_classes, \
    release_freed_memory
from controller.house_edge.five_card import ValueTable, value_table
from controller.house_edge.three_card_poker import unit_net

RAISE_AT_LEAST = "As Kd Jh 8c 3s"  # the stated strategy: raise with this hand or better
DEFAULT_METER = 1_000_000


def _unit(result: str, odds: Any) -> float:
    return 0.0 if result == "carry" else unit_net(result, odds)


VERSUS = ("no_qualify", "player_higher", "tie", "dealer_higher")
CHUNK = 50_000
"""Rounds dealt at a time by the simulation: its arrays stay near 25 MB whatever --simulate N is."""


@dataclass(frozen=True)
class GameView:
    """The game's view of every five-card value: paytable key, dealer qualification, hands per key."""

    table: ValueTable
    keys: tuple[str, ...]
    qualifies: np.ndarray
    counts: dict[str, int]

    @property
    def values(self) -> np.ndarray:
        return self.table.values


def game_view() -> GameView:
    table = value_table()
    release_freed_memory()
    keys = tuple(hand_key(h) for h in table.hands)
    qualifies = np.array([ace_king_or_better(h) for h in table.hands], dtype=bool)
    counts: dict[str, int] = {}
    for key, n in zip(keys, table.hands_per_value):
        counts[key] = counts.get(key, 0) + int(n)
    return GameView(table, keys, qualifies, counts)


def versus_codes(table: GameView, player: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """``contest`` for whole arrays of values: an index into ``VERSUS`` per row (checked against it in tests)."""
    qualifies = table.qualifies[np.searchsorted(table.values, dealer)]
    codes = np.where(player > dealer, 1, np.where(player == dealer, 2, 3))
    return np.where(qualifies, codes, 0)


def outcome_nets(config: RoundConfig, table: GameView) -> tuple[np.ndarray, np.ndarray, float]:
    """(key index per value, net in antes per (key, ``VERSUS``) of a raised box, net of a fold): the game's settlement."""
    multiple = int(config.paytable[config.variant]["raise_multiple"])
    key_names = sorted(set(table.keys))
    key_index = np.array([key_names.index(k) for k in table.keys])
    nets = np.zeros((len(key_names), len(VERSUS)))
    for i, key in enumerate(key_names):
        for j, versus in enumerate(VERSUS):
            nets[i, j] = sum(_unit(*r) * (multiple if spot == "bet" else 1)
                             for spot, r in main_results(config, key, versus).items())
    fold = _unit(*main_results(config, "high_card", None)["ante"])
    return key_index, nets, fold


def least_qualifying(table: GameView) -> int:
    """The least value index the dealer qualifies with (the game's qualifier must be a threshold on the value)."""
    least = int(np.argmax(table.qualifies))
    if not table.qualifies[least:].all() or table.qualifies[:least].any():
        raise AssertionError("the dealer's qualifier is not a threshold on the hand value")
    return least


def exact(config: RoundConfig, table: GameView) -> dict[str, Any]:
    """The main game exactly: every player hand against every dealer hand of the other 47 cards.

    Two strategies: the stated AKJ83 rule, and the best raise-or-fold decision for each player hand when the
    dealer's up card is not looked at (raise where the exact expectation of raising is at least the fold's).
    """
    multiple = int(config.paytable[config.variant]["raise_multiple"])
    key_index, nets, fold = outcome_nets(config, table)
    classes = player_classes()
    release_freed_memory()
    counter = DealerCounts(table.table)
    release_freed_memory()
    own = table.table.index(rank_batch(classes.hands))
    least = least_qualifying(table)
    no_qualify = counter.below(classes.hands, np.full(len(own), least))
    below_own = counter.below(classes.hands, own)
    below_next = counter.below(classes.hands, own + 1)
    plays = own >= least
    higher = np.where(plays, below_own - no_qualify, 0)
    tie = np.where(plays, below_next - below_own, 0)
    dealer_higher = DEALER_HANDS - no_qualify - higher - tie
    counts = np.stack([no_qualify, higher, tie, dealer_higher], axis=1).astype(np.int64)
    raise_net = (counts * nets[key_index[own]]).sum(axis=1) / DEALER_HANDS
    weights = classes.weights
    threshold = int(table.table.index(np.array([best_high(parse_cards(RAISE_AT_LEAST)).value]))[0])

    def figures(raises: np.ndarray, words: str) -> dict[str, Any]:
        mean = float((weights * np.where(raises, raise_net, fold)).sum()) / PLAYER_HANDS
        share = float(weights[raises].sum()) / PLAYER_HANDS
        return {"strategy": words, "house_edge_percent": round(-mean * 100, 4),
                "house_edge_per_total_staked_percent": round(-mean / (1 + multiple * share) * 100, 4),
                "raise_share": round(share, 6)}

    rule = own >= threshold
    best = raise_net >= fold
    out = figures(rule, f"raise with {RAISE_AT_LEAST} (ace-king-jack-eight-three) or better, fold the rest")
    out["method"] = (f"exact: {len(weights)} player hands by suit pattern (all {PLAYER_HANDS}) against the "
                     f"{DEALER_HANDS} dealer hands of the other 47 cards each")
    out["best_without_up_card"] = figures(best, "raise where the exact expectation of raising, over every dealer "
                                                "hand, is at least the fold's (the dealer's up card not used)")
    lowest = int(own[best].min())
    out["best_without_up_card"].update({
        "least_hand_raised": table.table.hands[lowest].name,
        "hands_differing_from_the_stated_rule": int(weights[best != rule].sum())})
    return out


def simulate(config: RoundConfig, rounds: int, seed: int, table: GameView,
             progress: Callable[[int], None] = nothing) -> dict[str, Any]:
    """Mean net per ante over ``rounds`` simulated rounds, with its 95 % confidence interval."""
    rng = np.random.default_rng(seed)
    multiple = int(config.paytable[config.variant]["raise_multiple"])
    threshold = best_high(parse_cards(RAISE_AT_LEAST)).value
    key_index, nets, fold = outcome_nets(config, table)
    total = total_sq = 0.0
    raised = 0
    done = 0
    while done < rounds:
        n = min(CHUNK, rounds - done)
        keys = rng.random((n, 52))
        ten = np.argpartition(keys, 10, axis=1)[:, :10]
        order = np.argsort(np.take_along_axis(keys, ten, axis=1), axis=1)
        dealt = np.take_along_axis(ten, order, axis=1)  # ten distinct cards in a uniformly random order
        player = rank_batch(dealt[:, :5])
        dealer = rank_batch(dealt[:, 5:])
        raise_ = player >= threshold
        key = key_index[np.searchsorted(table.values, player)]
        x = np.where(raise_, nets[key, versus_codes(table, player, dealer)], fold)
        total += float(x.sum())
        total_sq += float((x * x).sum())
        raised += int(raise_.sum())
        done += n
        progress(done)
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


def progressive_return(config: RoundConfig, meter: int, table: GameView) -> dict[str, Any]:
    """Exact return of the progressive chip at ``meter``: every five-card hand, the prize by the game's table."""
    counts = table.counts
    total = sum(counts.values())
    stake = config["progressive_stake"]
    paid = fixed_paid = 0
    royal_share = 0.0
    lines: dict[str, Any] = {}
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
            fixed_paid += n * prize
        paid += n * prize
        lines[key] = {"hands": n, "probability": n / total, "prize": prize}
    rtp = paid / total / stake
    break_even = math.ceil((stake * total - fixed_paid) / royal_share) if royal_share else None
    return {
        "method": f"exact over all {total} five-card hands",
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
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    started = time.perf_counter()
    table = game_view()
    out["ranking_seconds"] = round(time.perf_counter() - started, 3)
    started = time.perf_counter()
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        out["method"] = "simulation of the main game; exact progressive"
        out["bets"]["ante_bet"] = simulate(config, rounds, getattr(args, "seed", 1), table,
                                           getattr(args, "progress", nothing))
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
    else:
        out["method"] = "exact enumeration of the main game and the progressive"
        out["bets"]["ante_bet"] = exact(config, table)
        out["exact_seconds"] = round(time.perf_counter() - started, 3)
    if config["progressive"]:
        started = time.perf_counter()
        meter = getattr(args, "meter", None)
        progressive = progressive_return(config, DEFAULT_METER if meter is None else meter, table)
        out["bets"]["progressive"] = {"house_edge_percent": progressive["house_edge_percent"], **progressive}
        out["progressive_seconds"] = round(time.perf_counter() - started, 3)
    return out
