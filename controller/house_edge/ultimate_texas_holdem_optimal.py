"""Ultimate Texas Hold'em's optimal strategy, exact: every deal, the dealer's cards integrated out.

The box decides three times: before the flop (4x, 3x or check), on the flop
(2x or check) and after the river (1x or fold). Working backwards:

- After the river the box knows its two cards and the board; the dealer's two
  cards are any of the 990 pairs left. For each board the kernel ranks all
  1 081 pairs of the 47 cards left (seven-card values on the compiled scale,
  ``controller.hands.compiled``), sorts them once and walks them lowest first,
  counting for every pair how many disjoint pairs rank below, equal and above
  it and how many of those fail to qualify (below a pair): inclusion-exclusion
  over the two cards, 990 = 1 081 - 46 - 46 + 1. From those six counts each
  play multiple's expectation is a sum of the game's nets (``settlement_nets``,
  asked of ``ultimate_texas_holdem.main_results``): the river value is the
  better of 1x and the fold.
- On the flop the box compares 2x (its expectation summed over the 1 081 turn
  and river cards) with checking (the river values summed the same way).
- Before the flop it compares 4x and 3x (summed over every board) with
  checking (the flop values summed over the 19 600 flops).

The flops are walked up to the exchange of suits: 1 755 flops, each worth the
distinct flops its suit permutations make (22 100 in all); each flop's sums
are added to every image's permuted own pairs. All sums are integers (the nets
scaled to whole units), so the figure is exact; its only rounding is the
printed percentage. 1 755 x 1 176 boards x 1 081 rankings: about 2.2 billion
seven-card values. Needs numba (``tablectl[math]``).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from typing import Any, Callable

import numpy as np

from controller.cards import card_from_index
from controller.games.contract import RoundConfig
from controller.hands import compiled
from controller.hands.values import PAIR
from controller.house_edge.ultimate_texas_holdem import settlement_nets

ROYAL = 8 << 20 | 14 << 16  # a royal flush on the compiled (batch) scale
HANDS, DEALER, BOARDS, FLOPS = 1326, 990, 1081, 19600  # own pairs; dealer pairs, turn-rivers, flops per own pair
ROWS = ("two", "check", "four", "three", "river_plays")  # the kernel's sums per own pair


def integer_nets(config: RoundConfig) -> tuple[np.ndarray, int]:
    """``settlement_nets`` scaled to integers: (nets as int64, the scale)."""
    nets = settlement_nets(config)
    fractions = [Fraction(float(x)).limit_denominator(10_000) for x in nets.flat]
    scale = 1
    for f in fractions:
        scale = scale * f.denominator // math.gcd(scale, f.denominator)
    scaled = np.array([int(f * scale) for f in fractions], dtype=np.int64).reshape(nets.shape)
    if not np.allclose(scaled / scale, nets):
        raise ValueError("the blind table's odds are not whole fractions of the ante")
    return scaled, scale


@cache
def pair_index() -> np.ndarray:
    """52 x 52: the index 0..1325 of the own pair (a, b), either order; -1 on the diagonal."""
    index = np.full((52, 52), -1, dtype=np.int64)
    for i, (a, b) in enumerate(combinations(range(52), 2)):
        index[a, b] = index[b, a] = i
    return index


def _permute(card: int, perm: tuple[int, ...]) -> int:
    return (card & ~3) | perm[card & 3]


@cache
def flop_classes() -> tuple[tuple[tuple[int, int, int], tuple[np.ndarray, ...]], ...]:
    """Each flop up to suits with, per distinct image, the permutation of own-pair indices that maps it there."""
    perms = list(permutations(range(4)))
    index = pair_index()
    pairs = list(combinations(range(52), 2))
    moved = [np.array([index[_permute(a, p), _permute(b, p)] for a, b in pairs], dtype=np.int64) for p in perms]
    classes: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    for flop in combinations(range(52), 3):
        images = {tuple(sorted(_permute(c, p) for c in flop)): k for k, p in enumerate(perms)}
        canon = min(images)
        if canon == flop:
            # from the class's own flop to each image: a permutation taking flop to that image
            classes[canon] = images
    out = []
    for canon, images in classes.items():
        out.append(((canon[0], canon[1], canon[2]), tuple(moved[k] for k in images.values())))
    return tuple(out)


@cache
def _kernel() -> Callable[..., Any]:
    import numba

    flush_value = compiled.flush_kernel()

    @numba.njit(cache=True, nogil=True)
    def flop_sums(flop: np.ndarray, keys: np.ndarray, o7: np.ndarray, v7: np.ndarray, w: np.ndarray,
                  fl: np.ndarray, nets: np.ndarray, index: np.ndarray, pair_min: int, royal: int,
                  out: np.ndarray) -> None:
        seen = np.zeros(52, dtype=np.bool_)
        for c in flop:
            seen[c] = True
        rest = np.empty(49, dtype=np.int64)
        k = 0
        for c in range(52):
            if not seen[c]:
                rest[k] = c
                k += 1
        cards = np.empty(7, dtype=np.int64)
        cards[0], cards[1], cards[2] = flop[0], flop[1], flop[2]
        base3 = 0x3333 + keys[flop[0]] + keys[flop[1]] + keys[flop[2]]
        rem = np.empty(47, dtype=np.int64)
        sort_keys = np.empty(BOARDS, dtype=np.int64)
        pa = np.empty(BOARDS, dtype=np.int64)
        pb = np.empty(BOARDS, dtype=np.int64)
        low = np.empty(BOARDS, dtype=np.int64)
        la = np.empty(BOARDS, dtype=np.int64)
        lb = np.empty(BOARDS, dtype=np.int64)
        below = np.zeros(47, dtype=np.int64)
        weak = np.zeros(47, dtype=np.int64)
        ev = np.zeros(5, dtype=np.int64)
        for i in range(49):
            for j in range(i + 1, 49):
                cards[3], cards[4] = rest[i], rest[j]
                base = base3 + keys[rest[i]] + keys[rest[j]]
                k = 0
                for x in range(49):
                    if x != i and x != j:
                        rem[k] = rest[x]
                        k += 1
                n = 0
                weak[:] = 0
                below[:] = 0
                weak_all = 0
                for p in range(47):
                    kp = base + keys[rem[p]]
                    for q in range(p + 1, 47):
                        t = kp + keys[rem[q]]
                        if t & 0x8888 == 0:
                            v = v7[o7[(t >> 16) & 0x1FFFF] + w[t >> 33]]
                        else:
                            cards[5], cards[6] = rem[p], rem[q]
                            v = flush_value(t, cards, fl)
                        if v < pair_min:
                            weak_all += 1
                            weak[p] += 1
                            weak[q] += 1
                        sort_keys[n] = (np.int64(v) << 11) | n
                        pa[n], pb[n] = p, q
                        n += 1
                order = np.sort(sort_keys)
                s = 0
                while s < BOARDS:
                    v = order[s] >> 11
                    e = s + 1
                    while e < BOARDS and order[e] >> 11 == v:
                        e += 1
                    for g in range(s, e):
                        h = order[g] & 2047
                        la[g], lb[g] = below[pa[h]], below[pb[h]]
                        low[g] = s - la[g] - lb[g]
                    for g in range(s, e):
                        h = order[g] & 2047
                        below[pa[h]] += 1
                        below[pb[h]] += 1
                    qual = v >= pair_min
                    key = 9 if v == royal else v >> 20
                    for g in range(s, e):
                        h = order[g] & 2047
                        a, b = pa[h], pb[h]
                        lo = low[g]
                        eq = (e - s) - (below[a] - la[g]) - (below[b] - lb[g]) + 1
                        nq = weak_all - weak[a] - weak[b] + (0 if qual else 1)
                        if qual:  # counts: (player higher, tie, dealer higher) x (dealer below a pair, qualifies)
                            w0n, w0q, t0n, t0q, h0n, h0q = nq, lo - nq, 0, eq, 0, DEALER - lo - eq
                        else:
                            w0n, w0q, t0n, t0q, h0n, h0q = lo, 0, eq, 0, nq - lo - eq, DEALER - nq
                        idx = index[rem[a], rem[b]]
                        for tb in range(nets.shape[0]):  # each blind table on the same counts
                            for m in range(1, 5):
                                ev[m] = (w0n * nets[tb, key, 0, 0, m] + w0q * nets[tb, key, 0, 1, m]
                                         + t0n * nets[tb, key, 1, 0, m] + t0q * nets[tb, key, 1, 1, m]
                                         + h0n * nets[tb, key, 2, 0, m] + h0q * nets[tb, key, 2, 1, m])
                            fold = DEALER * nets[tb, key, 3, 0, 0]
                            out[tb, 0, idx] += ev[2]
                            if ev[1] > fold:
                                out[tb, 1, idx] += ev[1]
                                out[tb, 4, idx] += 1
                            else:
                                out[tb, 1, idx] += fold
                            out[tb, 2, idx] += ev[4]
                            out[tb, 3, idx] += ev[3]
                    s = e

    return flop_sums


def flop_sums(config: RoundConfig, flop: tuple[int, int, int], nets: np.ndarray | None = None) -> np.ndarray:
    """(5, 1326) int64 sums over the flop's 1 176 turn-river pairs, rows ``ROWS``, scaled nets; pairs on the flop 0."""
    if nets is None:
        nets = integer_nets(config)[0]
    return flop_sums_tables(flop, nets[None])[0]


def flop_sums_tables(flop: tuple[int, int, int], nets: np.ndarray) -> np.ndarray:
    """``flop_sums`` for several tables' nets at once, (T, 10, 4, 2, 5): (T, 5, 1326); the ranking is shared."""
    out = np.zeros((len(nets), len(ROWS), HANDS), dtype=np.int64)
    _kernel()(np.array(flop, dtype=np.int64), *compiled.tables(), np.ascontiguousarray(nets), pair_index(),
              PAIR << 20, ROYAL, out)
    return out


def solve(config: RoundConfig, limit: int | None = None,
          progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The optimal strategy's expectation; ``limit`` walks only the first flops up to suits (a partial figure)."""
    return solve_tables([config], limit, progress)[0]


def solve_tables(configs: list[RoundConfig], limit: int | None = None,
                 progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """``solve`` for several configurations (blind tables) in one walk: the rankings and counts are shared."""
    started, cpu = time.perf_counter(), time.process_time()
    scaled = [integer_nets(c) for c in configs]
    nets = np.stack([n for n, _ in scaled])
    classes = flop_classes()[:limit]
    walks = [_Walk() for _ in configs]
    index = pair_index()
    for done, (flop, images) in enumerate(classes, 1):
        sums = flop_sums_tables(flop, nets)
        live = np.ones(HANDS, dtype=bool)
        live[[index[a, b] for a, b in combinations(flop, 2)]] = False
        live[[index[c, x] for c in flop for x in range(52) if x not in flop]] = False
        for walk, table_sums in zip(walks, sums):
            walk.add(table_sums, images, live)
        if progress is not None:
            progress(done)
    seconds, cpu_seconds = round(time.perf_counter() - started, 1), round(time.process_time() - cpu, 1)
    out = []
    for config, walk, (_, scale) in zip(configs, walks, scaled):
        figures = walk.result(scale, len(classes))
        out.append({**figures, "blind_table": config["blind_table"], "seconds": seconds, "cpu_seconds": cpu_seconds})
    return out


class _Walk:
    """One table's sums over the flops up to suits, scattered to every image's own pairs."""

    def __init__(self) -> None:
        self.check = np.zeros(HANDS, dtype=np.int64)  # per own pair: sum over flops of the flop's best
        self.four = np.zeros(HANDS, dtype=np.int64)
        self.three = np.zeros(HANDS, dtype=np.int64)
        self.stake_check = np.zeros(HANDS, dtype=np.int64)  # antes staked after a pre-flop check, x BOARDS a flop
        self.flops_two = np.zeros(HANDS, dtype=np.int64)
        self.river_plays = np.zeros(HANDS, dtype=np.int64)
        self.river_seen = np.zeros(HANDS, dtype=np.int64)
        self.flops_seen = np.zeros(HANDS, dtype=np.int64)

    def add(self, sums: np.ndarray, images: tuple[np.ndarray, ...], live: np.ndarray) -> None:
        two = sums[0] > sums[1]
        best = np.where(two, sums[0], sums[1])
        stake = np.where(two, 4 * BOARDS, 2 * BOARDS + sums[4])
        for moved in images:
            self.check[moved] += best
            self.four[moved] += sums[2]
            self.three[moved] += sums[3]
            self.stake_check[moved] += stake * live
            self.flops_two[moved] += two & live
            self.river_plays[moved] += np.where(two, 0, sums[4]) * live
            self.river_seen[moved] += np.where(two, 0, BOARDS) * live
            self.flops_seen[moved] += live

    def result(self, scale: int, walked: int) -> dict[str, Any]:
        check, four, three = self.check, self.four, self.three
        stake_check, flops_two, flops_seen = self.stake_check, self.flops_two, self.flops_seen
        river_plays, river_seen = self.river_plays, self.river_seen
        classes = flop_classes()[:walked]
        complete = walked >= len(flop_classes())
        if complete and not (flops_seen == FLOPS).all():
            raise AssertionError("the flops up to suits did not cover every flop once per own pair")
        choice = np.argmax(np.stack([check, three, four]), axis=0)  # 0 check, 1 3x, 2 4x; ties go to the smaller bet
        best = np.choose(choice, [check, three, four])
        per_pair = np.maximum(flops_seen, 1) * BOARDS * DEALER * scale
        total = Fraction(0)  # exact, in antes, summed over the own pairs
        staked = Fraction(0)
        for b, d, c, s, f in zip(best, per_pair, choice, stake_check, flops_seen):
            total += Fraction(int(b), int(d))
            staked += Fraction(6 if c == 2 else 5) if c else Fraction(int(s), max(int(f), 1) * BOARDS)
        edge = -total / HANDS
        staked /= HANDS
        checked = choice == 0
        raise_classes = sorted({_hand_class(a, b) for i, (a, b) in enumerate(combinations(range(52), 2))
                                if choice[i] == 2}, key=_class_order)
        return {
            "method": "exact: every own pair, flop, turn and river and the dealer's 990 pairs, optimal at each decision"
                      if complete else f"partial: the first {len(classes)} of {len(flop_classes())} flops up to suits "
                                       "(not the game's figure)",
            "flops_up_to_suits": len(classes),
            "house_edge_percent": round(float(edge) * 100, 4),
            "house_edge_fraction": f"{edge.numerator}/{edge.denominator}",
            "element_of_risk_percent": round(float(edge / staked) * 100, 4),
            "average_staked_antes": round(float(staked), 6),
            "preflop": {"4x": int((choice == 2).sum()), "3x": int((choice == 1).sum()), "check": int(checked.sum()),
                        "of": HANDS, "4x_hands": raise_classes},
            "flop_2x_share_after_check": round(float(flops_two[checked].sum() / max(flops_seen[checked].sum(), 1)), 6),
            "river_play_share_after_two_checks": round(float(river_plays[checked].sum()
                                                             / max(river_seen[checked].sum(), 1)), 6),
            "note": "per ante (ante, blind and play; trips and progressive apart); the element of risk divides by "
                    "the average total staked",
        }


RANKS = "23456789TJQKA"


def _hand_class(a: int, b: int) -> str:
    ca, cb = card_from_index(a), card_from_index(b)
    hi, lo = sorted((a >> 2, b >> 2), reverse=True)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if ca.suit == cb.suit else "o")


def _class_order(name: str) -> tuple[int, int, int]:
    return (-RANKS.index(name[0]), -RANKS.index(name[1]), 0 if len(name) == 2 or name[2] == "s" else 1)
