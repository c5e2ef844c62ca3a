"""House edge of Ultimate Texas Hold'em: trips and progressive exact, the ante game simulated with a stated strategy.

Trips (``--exact``): every one of the 133 784 560 seven-card hands is ranked
in batch (``controller.hands.batch``); the counts by paytable key settle
through ``ultimate_texas_holdem.trips_result``, the game's code. The
progressive is exact too: over all 2 598 960 five-card hands (own two and the
flop, the default) or all seven-card hands (``progressive_cards = seven``).

Ante, blind and play (``--simulate N``): N rounds of one box against the
dealer, nine distinct cards per round in a uniformly random order
(``numpy.random.default_rng(--seed)``). The box plays the game's stated
strategy (``ultimate_texas_holdem.basic_strategy``): here it is applied to
whole arrays (``decisions``), and a test holds the arrays equal to the
function deal by deal. Each round settles through ``main_results``: the net
per (hand, contest, dealer qualifies, play multiple) is asked of the game once.
The optimal strategy's figure (``--optimal``) is exact: every deal, the
dealer's cards integrated out, in ``ultimate_texas_holdem_optimal``.
"""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np

from controller.cards import card_from_index
from controller.games.contract import GameSpec, RoundConfig
from controller.games.holdem_streets import progressive_line
from controller.games.ultimate_texas_holdem import _preflop_plays, main_results, trips_result
from controller.hands.batch import all_hands, categories_of, rank_batch
from controller.hands.values import CATEGORIES
from controller.house_edge.deals import deal, run_chunks
from controller.house_edge.three_card_poker import unit_net

ROYAL = 8 << 20 | 14 << 16  # the value of a royal flush on the batch scale
KEYS = CATEGORIES[:9] + ("royal_flush",)  # key index: the category, 9 for a royal flush
STRAIGHT, TWO_PAIR, PAIR = CATEGORIES.index("straight"), CATEGORIES.index("two_pair"), CATEGORIES.index("pair")
VERSUS = ("player_higher", "tie", "dealer_higher")
CHUNK = 250_000
DEFAULT_METER = 1_000_000
OPTIMAL_STEPS = 1755  # --optimal's progress: the flops up to suits (ultimate_texas_holdem_optimal.flop_classes)


def key_index(values: np.ndarray) -> np.ndarray:
    """The paytable key (index into ``KEYS``) of batch values."""
    return np.where(values == ROYAL, 9, categories_of(values))


@cache
def key_counts(k: int) -> tuple[int, ...]:
    """How many of all k-card hands (k = 5 or 7) have each key of ``KEYS`` as their best five.

    Seven cards walk compiled (``hands.compiled``, 3 to 9 s here) where numba is installed, else in numpy batches.
    """
    if k == 7:
        try:
            from controller.hands.compiled import all_seven_key_counts

            return tuple(int(c) for c in all_seven_key_counts(ROYAL))
        except ValueError:  # no numba: the batch walk below
            pass
    counts = np.zeros(len(KEYS), dtype=np.int64)
    for rows in all_hands(k):
        counts += np.bincount(key_index(rank_batch(rows, presorted=True)), minlength=len(KEYS))
    return tuple(int(c) for c in counts)


def trips_exact(config: RoundConfig, counts: tuple[int, ...]) -> dict[str, Any]:
    total = sum(counts)
    ret = sum(n * unit_net(*trips_result(config, key)) for key, n in zip(KEYS, counts))
    return {"house_edge_percent": round(-ret / total * 100, 4), "hands": total,
            "counts": {key: n for key, n in zip(KEYS, counts) if n and trips_result(config, key)[0] == "win"},
            "note": f"exact over all {total} seven-card hands, trips table {config.variant.upper()}"}


def progressive_exact(config: RoundConfig, counts: tuple[int, ...], meter: int,
                      in_draw: Fraction = Fraction(1)) -> dict[str, Any]:
    """The progressive chip's return; ``in_draw``: the share of chips that take part in the special prize draw."""
    total = sum(counts)
    stake = config["progressive_stake"]
    paid = fixed_paid = 0
    share_hands = 0.0
    lines: dict[str, Any] = {}
    for key, n in zip(KEYS, counts):
        line = progressive_line(config, key)
        if line is None:
            continue
        if "share" in line:
            num, den = (int(x) for x in line["share"])
            prize = meter * num // den
            share_hands += n * num / den
        else:
            prize = int(line["fixed"])
            fixed_paid += n * prize
        paid += n * prize
        lines[key] = {"hands": n, "probability": n / total, "prize": prize}
    rtp = paid / total / stake
    special: dict[str, Any] | None = None
    special_fixed = Fraction(0)  # the special prize's fixed amounts over all hands
    if config.get("special_prizes"):  # one number per chip, wins of faces take the prize: independent of the hand
        table = config.paytable["special"]
        chance = Fraction(int(table["wins"]), int(table["faces"])) * in_draw
        prize = table["prize"]
        amount = meter * int(prize["share"][0]) // int(prize["share"][1]) if "share" in prize else int(prize["fixed"])
        special = {"probability": float(chance), "prize": amount,
                   "return_percent": round(float(chance * amount / stake) * 100, 4)}
        rtp += float(chance * amount / stake)
        if "share" in prize:
            share_hands += float(total * chance * int(prize["share"][0]) / int(prize["share"][1]))
        else:
            special_fixed = total * chance * amount
    return {
        "method": f"exact over all {total} hands of {'five' if total < 3_000_000 else 'seven'} cards "
                  f"(progressive_cards = {config['progressive_cards']})",
        "meter": meter, "stake": stake,
        "return_percent": round(rtp * 100, 4), "house_edge_percent": round((1 - rtp) * 100, 4),
        "meter_for_100_percent_return": math.ceil((stake * total - fixed_paid - special_fixed) / share_hands) if share_hands else None,
        "expected_paid_per_chip": round(paid / total, 4), "lines": lines,
        **({"special_prize": special} if special is not None else {}),
    }


# --------------------------------------------------------------------------- the stated strategy on arrays


@cache
def _preflop_table() -> np.ndarray:
    """52 x 52: plays 4x before the flop (``_preflop_plays`` asked once per pair of own cards)."""
    table = np.zeros((52, 52), dtype=bool)
    for a, b in combinations(range(52), 2):
        table[a, b] = table[b, a] = _preflop_plays((card_from_index(a), card_from_index(b)))
    return table


def _ranks(cards: np.ndarray) -> np.ndarray:
    return cards >> 2


def _hidden_pair(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """An own card's rank appears at least twice among own cards and board (rows)."""
    ranks = _ranks(np.concatenate([hole, board], axis=1))
    return ((ranks[:, :, None] == _ranks(hole)[:, None, :]).sum(axis=1) >= 2).any(axis=1)


def decisions(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """The play multiple (4, 2, 1, or 0 for a fold) of ``basic_strategy`` for rows of own cards and board."""
    n = len(hole)
    out = np.zeros(n, dtype=np.int64)
    four = _preflop_table()[hole[:, 0], hole[:, 1]]
    out[four] = 4
    # the flop
    rows = np.flatnonzero(~four)
    h, flop = hole[rows], board[rows, :3]
    cat5 = categories_of(rank_batch(np.concatenate([h, flop], axis=1)))
    distinct = (np.sort(_ranks(flop), axis=1)[:, 1:] != np.sort(_ranks(flop), axis=1)[:, :-1]).sum(axis=1) + 1
    flop_cat = np.where(distinct == 1, CATEGORIES.index("three_of_a_kind"), np.where(distinct == 2, PAIR, 0))
    made = (cat5 >= TWO_PAIR) & (cat5 > flop_cat)
    pocket_twos = (_ranks(h[:, 0]) == 0) & (_ranks(h[:, 1]) == 0) & ~(_ranks(flop) == 0).any(axis=1)
    pair = _hidden_pair(h, flop) & ~pocket_twos
    five = np.concatenate([h, flop], axis=1)
    suits = five & 3
    draw = np.zeros(len(rows), dtype=bool)
    for i in range(2):
        own = h[:, i]
        same = (suits == (own & 3)[:, None]).sum(axis=1) == 4
        high = ((h & 3) == (own & 3)[:, None]) & (_ranks(h) >= 8)  # an own ten or better of that suit
        draw |= same & high.any(axis=1)
    two = made | pair | draw
    out[rows[two]] = 2
    # after the river
    rows = np.flatnonzero(out == 0)
    h, b = hole[rows], board[rows]
    seven = rank_batch(np.concatenate([h, b], axis=1))
    board_value = rank_batch(b)
    plays = _hidden_pair(h, b) | ((seven > board_value) & (categories_of(seven) >= STRAIGHT))
    ask = np.flatnonzero(~plays)
    if ask.size:
        plays[ask] = dealer_outs(h[ask], b[ask], seven[ask]) < 21
    out[rows[plays]] = 1
    return out


def dealer_outs(hole: np.ndarray, board: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """Per row: unseen cards that make board + card better than ``mine`` (``ultimate_texas_holdem.dealer_outs``)."""
    n = len(hole)
    out = np.zeros(n, dtype=np.int64)
    seen = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(seen, np.concatenate([hole, board], axis=1), True, axis=1)
    for card in range(52):
        six = np.concatenate([board, np.full((n, 1), card, dtype=board.dtype)], axis=1)
        rows = np.flatnonzero(~seen[:, card])
        out[rows] += rank_batch(six[rows]) > mine[rows]
    return out


def settlement_nets(config: RoundConfig) -> np.ndarray:
    """Net in antes per (key, versus, dealer qualifies, play multiple 0..4), asked of ``main_results``."""
    nets = np.zeros((len(KEYS), len(VERSUS) + 1, 2, 5))
    for k, key in enumerate(KEYS):
        for v, versus in enumerate(VERSUS + (None,)):
            for q in (0, 1):
                for m in range(5):
                    results = main_results(config, key, versus, bool(q))
                    nets[k, v, q, m] = sum(unit_net(*r) * (m if spot == "play" else 1) for spot, r in results.items())
    return nets


def simulate(config: RoundConfig, rounds: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    nets = settlement_nets(config)

    def rounds_of(n: int, done: int) -> dict[str, np.ndarray]:
        dealt = deal(rng, n, 52, 9)
        hole, dealer, board = dealt[:, :2], dealt[:, 2:4], dealt[:, 4:]
        multiple = decisions(hole, board)
        player = rank_batch(np.concatenate([hole, board], axis=1))
        house = rank_batch(np.concatenate([dealer, board], axis=1))
        versus = np.where(player > house, 0, np.where(player == house, 1, 2))
        versus = np.where(multiple == 0, 3, versus)
        qualifies = (categories_of(house) >= PAIR).astype(np.int64)
        return {"net": nets[key_index(player), versus, qualifies, multiple], "staked": 2 + multiple,
                **{f"{m}x": multiple == m for m in range(5)}}

    sums = run_chunks(rounds, CHUNK, rounds_of)
    total, total_sq = sums["net"]
    staked = sums["staked"][0]
    shares = np.array([sums[f"{m}x"][0] for m in range(5)])
    mean = total / rounds
    sd = math.sqrt(max(total_sq / rounds - mean * mean, 0.0))
    half = 1.96 * sd / math.sqrt(rounds)
    return {
        "strategy": "basic_strategy: 4x with 33+, any ace, K2s+/K5o+, Q6s+/Q8o+, J8s+/JTo; 2x on the flop with "
                    "two pair or better, a pair with an own card (not bare pocket twos) or four to a flush with an "
                    "own ten or better; 1x after the river with a pair or better with an own card, a straight or "
                    "better with an own card, or fewer than 21 dealer outs; else fold",
        "rounds": rounds, "seed": seed,
        "house_edge_percent": round(-mean * 100, 4),
        "confidence_95_percent": [round((-mean - half) * 100, 4), round((-mean + half) * 100, 4)],
        "element_of_risk_percent": round(-total / staked * 100, 4),
        "play_shares": {f"{m}x" if m else "fold": round(float(shares[m]) / rounds, 6) for m in (4, 2, 1, 0)},
        "sd_per_round": round(sd, 4),
        "note": "per ante; the element of risk divides by everything staked (ante, blind and play)",
    }


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    optimal = getattr(args, "optimal", False)
    if not rounds and not getattr(args, "exact", False) and not optimal:
        raise ValueError("ultimate-texas-holdem: --exact for trips and progressive, --optimal for ante, blind and "
                         "play under the optimal strategy (exact, minutes), --simulate N for the stated strategy")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    methods = []
    if getattr(args, "exact", False):
        started = time.perf_counter()
        if config["progressive"] and config["progressive_cards"] == "flop":
            key_counts(5)  # first: its numpy temporaries are freed before the seven-card walk loads numba
        seven = key_counts(7)
        out["bets"]["trips"] = trips_exact(config, seven)
        methods.append("exact trips")
        if config["progressive"]:
            counts = key_counts(5) if config["progressive_cards"] == "flop" else seven
            meter = getattr(args, "meter", None)
            out["bets"]["progressive"] = progressive_exact(config, counts, DEFAULT_METER if meter is None else meter)
            methods.append("exact progressive")
        out["exact_seconds"] = round(time.perf_counter() - started, 3)
    if optimal:  # every blind table of the paytable in one walk (the rankings are shared), the configured first
        from controller.house_edge.ultimate_texas_holdem_optimal import solve_tables

        others = [spec.resolve(config.variant, {**config.options, "blind_table": name}, config.paytable)
                  for name in config.paytable["blind"] if name != config["blind_table"]]
        figures = solve_tables([config] + others, progress=getattr(args, "progress", None))
        out["bets"]["ante_blind_play_optimal"] = figures[0]
        out["optimal_by_blind_table"] = {f["blind_table"]: f for f in figures}
        methods.append("exact ante, blind and play under the optimal strategy (every blind table)")
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        out["bets"]["ante_blind_play"] = simulate(config, rounds, getattr(args, "seed", 1))
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
        methods.append(f"simulated ante, blind and play ({rounds} rounds)")
    out["method"] = "; ".join(methods)
    return out
