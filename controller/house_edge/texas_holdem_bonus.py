"""House edge of Texas Hold'em Bonus: the bonus exact, the ante game simulated with a stated strategy.

Bonus (``--exact``): every one of the 1 326 own-card pairs against every one of
the 1 225 dealer pairs left (table II's aces against aces needs the dealer's
cards), each settled by ``texas_holdem_bonus.bonus_result``, the game's code;
a box that never folds a bonus-paying hand (the stated strategy does not).

Ante, flop, turn and river (``--simulate N``): N rounds of one box against the
dealer, nine distinct cards per round in a uniformly random order
(``numpy.random.default_rng(--seed)``). The box plays the game's stated
strategy (``texas_holdem_bonus.basic_strategy``), applied to arrays here
(``decisions``; a test holds them equal to the function deal by deal). The
net of every (seven-card value, contest, bets) is asked of the game's
``main_results`` once per distinct five-card value (``five_card.value_table``).
Dynamic Poker Pro settles through the same simulation with its own rules.
"""

from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any, Callable

import numpy as np

from controller.cards import card_from_index, deck
from controller.games.contract import GameSpec, RoundConfig
from controller.games.texas_holdem_bonus import BETS, basic_strategy, bonus_result, main_results
from controller.hands.batch import rank_batch
from controller.house_edge.deals import deal, run_chunks
from controller.house_edge.five_card import value_table
from controller.house_edge.three_card_poker import unit_net

VERSUS = ("player_higher", "tie", "dealer_higher")
CHUNK = 500_000
MainResults = Callable[[RoundConfig, Any, "str | None"], dict]


def bonus_exact(config: RoundConfig) -> dict[str, Any]:
    cards = deck()
    total = 0.0
    deals = 0
    for hole in combinations(cards, 2):
        rest = [c for c in cards if c not in hole]
        for dealer in combinations(rest, 2):
            total += unit_net(*bonus_result(config, hole, dealer, True))
            deals += 1
    return {"house_edge_percent": round(-total / deals * 100, 4), "bonus_table": config["bonus_table"],
            "note": f"exact over the {deals} pairs of own and dealer cards, for a box that does not fold a "
                    "bonus-paying hand (a fold loses the bonus)"}


@cache
def _preflop_table() -> np.ndarray:
    table = np.zeros((52, 52), dtype=bool)
    for a, b in combinations(range(52), 2):
        table[a, b] = table[b, a] = basic_strategy("preflop", (card_from_index(a), card_from_index(b)), ())
    return table


def _pairs_an_own_card(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """A pair in the hand, or an own card's rank on the board (rows)."""
    own = hole >> 2
    return (own[:, 0] == own[:, 1]) | ((board >> 2)[:, :, None] == own[:, None, :]).any(axis=(1, 2))


def decisions(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Per row: bets made before the flop, on the flop, on the turn (0/1 each), by ``basic_strategy``."""
    out = np.zeros((len(hole), 3), dtype=np.int64)
    out[:, 0] = _preflop_table()[hole[:, 0], hole[:, 1]]
    out[:, 1] = out[:, 0] & _pairs_an_own_card(hole, board[:, :3])
    out[:, 2] = out[:, 0] & _pairs_an_own_card(hole, board[:, :4])
    return out


def value_nets(config: RoundConfig, results: MainResults,
               main_spot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per distinct five-card value: the net per unit of each spot on a win; and the nets on a tie and a loss.

    Returns ``(win, tie, lose)``: ``win`` is (values, 4) for the main spot and
    the flop, turn and river bets; ``tie`` and ``lose`` are (4,).
    """
    table = value_table()
    spots = (main_spot,) + BETS
    win = np.array([[unit_net(*results(config, hand, "player_higher")[s]) for s in spots] for hand in table.hands])
    hand = table.hands[0]
    tie = np.array([unit_net(*results(config, hand, "tie")[s]) for s in spots])
    lose = np.array([unit_net(*results(config, hand, "dealer_higher")[s]) for s in spots])
    return win, tie, lose


def simulate(config: RoundConfig, rounds: int, seed: int, results: MainResults = main_results,
             main_spot: str = "ante") -> dict[str, Any]:
    """Mean net per main stake over ``rounds`` rounds, with its 95 % interval."""
    return simulate_variants([config], rounds, seed, results, main_spot)[0]


def simulate_variants(configs: list[RoundConfig], rounds: int, seed: int, results: MainResults = main_results,
                      main_spot: str = "ante", progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """``simulate`` for several configurations on the same cards: the deal, the decisions and the rankings once.

    The stated strategy does not depend on the variant, so each configuration's
    figures are the ones ``simulate`` gives it alone with the same seed.
    """
    rng = np.random.default_rng(seed)
    table = value_table()
    nets = [value_nets(config, results, main_spot) for config in configs]
    folds = [unit_net(*results(config, None, None)[main_spot]) for config in configs]

    def rounds_of(n: int, done: int) -> dict[str, np.ndarray]:
        dealt = deal(rng, n, 52, 9)
        hole, dealer, board = dealt[:, :2], dealt[:, 2:4], dealt[:, 4:]
        bets = decisions(hole, board)
        player = rank_batch(np.concatenate([hole, board], axis=1))
        house = rank_batch(np.concatenate([dealer, board], axis=1))
        stake = np.column_stack([np.ones(n), 2 * bets[:, 0], bets[:, 1], bets[:, 2]])  # units on each spot
        index = table.index(player)
        higher, tied = (player > house)[:, None], (player == house)[:, None]
        out = {}
        for i, ((win, tie, lose), fold) in enumerate(zip(nets, folds)):
            per_unit = np.where(higher, win[index], np.where(tied, tie, lose))
            out[f"net{i}"] = np.where(bets[:, 0] == 1, (per_unit * stake).sum(axis=1), fold)
        staked = np.array([stake[bets[:, 0] == 1].sum() + (bets[:, 0] == 0).sum()])
        return {**out, "staked": staked, "played": bets[:, 0], "turn": bets[:, 1], "river": bets[:, 2]}

    sums = run_chunks(rounds, CHUNK, rounds_of, progress)
    total = [sums[f"net{i}"][0] for i in range(len(configs))]
    total_sq = [sums[f"net{i}"][1] for i in range(len(configs))]
    staked = sums["staked"][0]
    played, turn, river = (int(sums[k][0]) for k in ("played", "turn", "river"))
    out = []
    for config, sum_x, sum_sq in zip(configs, total, total_sq):
        mean = float(sum_x) / rounds
        sd = math.sqrt(max(float(sum_sq) / rounds - mean * mean, 0.0))
        half = 1.96 * sd / math.sqrt(rounds)
        out.append({
            "strategy": "basic_strategy: before the flop bet with every hand but 3-2 to 7-2 offsuit, which fold; "
                        "on the flop and the turn bet with a pair or better that uses an own card, else check",
            "variant": config.variant, "rounds": rounds, "seed": seed,
            "house_edge_percent": round(-mean * 100, 4),
            "confidence_95_percent": [round((-mean - half) * 100, 4), round((-mean + half) * 100, 4)],
            "house_edge_per_total_staked_percent": round(-float(sum_x) / staked * 100, 4),
            "shares": {"played": round(played / rounds, 6), "turn_bet": round(turn / rounds, 6),
                       "river_bet": round(river / rounds, 6)},
            "sd_per_round": round(sd, 4),
            "note": f"per {main_spot} stake; the second figure divides by everything staked",
        })
    return out


def other_variants(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> list[RoundConfig]:
    """With ``--all-variants``: every variant of the game with the same options, ``config``'s first."""
    if not getattr(args, "all_variants", False):
        return [config]
    options = {k: v for k, v in config.options.items()}
    configs = [config]
    for variant in spec.variants:
        if variant.id != config.variant:
            allowed = {k: v for k, v in options.items() if k in spec.resolve(variant.id).options}
            configs.append(spec.resolve(variant.id, allowed, config.paytable))
    return configs


@cache
def _boards(cards: int) -> np.ndarray:
    """Every ``cards``-subset of 50 positions (the cards left after an own pair), as rows of positions."""
    return np.array(list(combinations(range(50), cards)), dtype=np.int8)


def progressive_counts(config: RoundConfig) -> tuple[int, ...]:
    """Per paytable key (``ultimate_texas_holdem.KEYS``): the (own pair, cards) deals the progressive pays on.

    Every own pair with every flop (``progressive_cards = flop``: 1 326 x 19 600 deals, ten per five-card
    hand) or every five board cards (``seven``: 1 326 x 2 118 760, 21 per seven-card hand); a pair the
    stated strategy folds before the flop loses its chip, so its deals count as paying nothing.
    """
    from controller.house_edge.ultimate_texas_holdem import KEYS, key_counts, key_index

    seven = config["progressive_cards"] == "seven"
    counts = np.array(key_counts(7 if seven else 5), dtype=np.int64) * (21 if seven else 10)
    boards = _boards(5 if seven else 3)
    folded = np.zeros(len(KEYS), dtype=np.int64)
    table = _preflop_table()
    for a, b in combinations(range(52), 2):
        if table[a, b]:
            continue
        rest = np.array([c for c in range(52) if c not in (a, b)], dtype=np.int64)
        rows = np.concatenate([np.tile(np.array([a, b]), (len(boards), 1)), rest[boards]], axis=1)
        folded += np.bincount(key_index(rank_batch(rows)), minlength=len(KEYS))
    counts -= folded
    counts[0] += int(folded.sum())  # a folded chip: no prize (high card is no prize line)
    return tuple(int(c) for c in counts)


def progressive_exact(config: RoundConfig, meter: int) -> dict[str, Any]:
    from controller.house_edge.ultimate_texas_holdem import progressive_exact as exact

    counts = progressive_counts(config)
    played = Fraction(int(_preflop_table().sum()) // 2, 1326)  # only the chips still in the hand are in the draw
    figures = exact(config, counts, meter, played)
    figures["method"] = (f"exact over all {sum(counts)} deals of an own pair and the "
                         f"{'five board cards' if config['progressive_cards'] == 'seven' else 'flop'} "
                         f"(progressive_cards = {config['progressive_cards']}); the 60 pairs the stated strategy "
                         "folds before the flop lose the chip")
    return figures


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError(f"{spec.id}: --exact for the bonus, --simulate N for the main game")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    started = time.perf_counter()
    out["bets"]["bonus"] = bonus_exact(config)
    out["bonus_seconds"] = round(time.perf_counter() - started, 3)
    methods = ["exact bonus"]
    if config["progressive"]:
        started = time.perf_counter()
        meter = getattr(args, "meter", None)
        out["bets"]["progressive"] = progressive_exact(config, 1_000_000 if meter is None else meter)
        out["progressive_seconds"] = round(time.perf_counter() - started, 3)
        methods.append("exact progressive")
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        configs = other_variants(spec, config, args)
        figures = simulate_variants(configs, rounds, getattr(args, "seed", 1), progress=getattr(args, "progress", None))
        out["bets"]["main"] = figures[0]
        if len(configs) > 1:
            out["main_by_variant"] = {c.variant: f for c, f in zip(configs, figures)}
        out["simulation_seconds"] = round(time.perf_counter() - started, 3)
        methods.append(f"simulated main game ({rounds} rounds" + (", every variant on the same cards)"
                                                                 if len(configs) > 1 else ")"))
    out["method"] = "; ".join(methods)
    return out
