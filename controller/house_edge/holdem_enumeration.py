"""Hold em (SE) exactly: every own-card pair, every flop, every turn and river (compiled with numba).

For each of the 169 classes of own cards (pairs, suited, offsuit; weighted by
their 6, 4 or 12 pairs) and each flop of the other 50 cards, the value of
calling is the mean, over the 1 081 turn-river pairs of the 47 cards left, of
the net of ante and call; the box calls where that beats folding. Rather than
ranking 19 600 x 1 081 seven-card hands per class, every board of five of the
50 cards is ranked once (2 118 760 a class, 358 million in all) and its net is
added to each of its ten flops; the nested loops over the board's cards reuse
each prefix's key sum.

The hand's value is the hands package's: the single-hand path's tables
(``controller.hands.fast.build_tables``: rank-count digits, the flush table)
are walked here card by card, and the best hand must use at least one own
card (rule 6): where the board's own five are as good as the best of seven,
the best of the 20 five-card subsets holding an own card is taken, as
``restaurant_holdem.own_card_values`` does. The net of each value comes from
the game's ``main_result``, asked once per (category, top rank), which is all
it reads (checked over every value).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any, Callable

import numpy as np

from controller.cards import Card
from controller.hands import fast

SUITS = "cdhs"
LOW_SHIFT, HIGH_SHIFT = 16, 33
LOW_MASK = (1 << (HIGH_SHIFT - LOW_SHIFT)) - 1
WITH_OWN = np.array([c for c in combinations(range(7), 5) if 0 in c or 1 in c], dtype=np.int64)


@cache
def card_keys() -> np.ndarray:
    """Per card index ((rank - 2) * 4 + suit, suits c d h s): its contribution to the fast path's hand key."""
    return np.array([fast.CARD_KEY[SUITS[c & 3]][(c >> 2) + 2] for c in range(52)], dtype=np.int64)


@cache
def tables() -> tuple[np.ndarray, ...]:
    """The fast path's tables as arrays: offset7, values7, within, offset5, values5, flush."""
    built = fast.filled_tables()  # from the cache when the math command warmed them
    return tuple(np.array(built[name], dtype=np.int64)
                 for name in ("offset7", "values7", "within", "offset5", "values5", "flush"))


def nets_by_key(values: np.ndarray, hands: tuple[Any, ...], net_of: Callable[[Any], float]) -> np.ndarray:
    """The net per ``value >> 16`` (category and top rank), from the game's settlement of one hand each."""
    out = np.full(16 * 16, np.nan)
    for value, hand in zip(values.tolist(), hands):
        net = net_of(hand)
        key = value >> 16
        if not np.isnan(out[key]) and out[key] != net:
            raise AssertionError("the game's result depends on more than the category and the top rank")
        out[key] = net
    return out


@cache
def _kernel() -> Callable[..., np.ndarray]:
    try:
        import numba
    except ModuleNotFoundError:
        raise ValueError("restaurant-holdem: the exact walk needs numba (pip install 'tablectl[math]'); "
                         "or sample it with --simulate N") from None

    @numba.njit(cache=True, nogil=True, inline="always")
    def value_of(cards: np.ndarray, n: int, t: int, v: np.ndarray, o: np.ndarray, w: np.ndarray,
                 fl: np.ndarray) -> int:
        """The value of ``cards[:n]`` whose key sum is ``t`` (the fast path's walk: digits, or the flush suit)."""
        if t & 0x8888 == 0:
            return v[o[(t >> LOW_SHIFT) & LOW_MASK] + w[t >> HIGH_SHIFT]]
        bits = t & 0x8888
        suit = 3 if bits & 0x8000 else 2 if bits & 0x800 else 1 if bits & 0x80 else 0
        mask = 0
        for i in range(n):
            if cards[i] & 3 == suit:
                mask |= 1 << ((cards[i] >> 2) + 2)
        return fl[mask]

    @numba.njit(cache=True, nogil=True, parallel=True)
    def flop_sums(hole: np.ndarray, rest: np.ndarray, keys: np.ndarray, o7: np.ndarray, v7: np.ndarray,
                  w: np.ndarray, o5: np.ndarray, v5: np.ndarray, fl: np.ndarray, net: np.ndarray,
                  with_own: np.ndarray, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray) -> np.ndarray:
        """Per flop of ``rest`` (colex index of its positions): the sum of the nets over its 1 081 turn-rivers.

        Every board of five of the 50 cards is ranked once, and its net added to each of its ten flops.
        """
        sums = np.zeros((50, 19600))
        own = 0x3333 + keys[hole[0]] + keys[hole[1]]
        for a in numba.prange(50):
            seven = np.zeros(7, dtype=np.int64)
            five = np.zeros(5, dtype=np.int64)
            seven[0], seven[1] = hole[0], hole[1]
            mine = sums[a]
            seven[2] = rest[a]
            ka = keys[rest[a]]
            for b in range(a + 1, 50):
                seven[3] = rest[b]
                kb = ka + keys[rest[b]]
                for c in range(b + 1, 50):
                    seven[4] = rest[c]
                    kc = kb + keys[rest[c]]
                    abc = c1[a] + c2[b] + c3[c]
                    for d in range(c + 1, 50):
                        seven[5] = rest[d]
                        kd = kc + keys[rest[d]]
                        abd, acd, bcd = c1[a] + c2[b] + c3[d], c1[a] + c2[c] + c3[d], c1[b] + c2[c] + c3[d]
                        for e in range(d + 1, 50):
                            seven[6] = rest[e]
                            ke = kd + keys[rest[e]]
                            value = value_of(seven, 7, own + ke, v7, o7, w, fl)
                            if value_of(seven[2:], 5, 0x3333 + ke, v5, o5, w, fl) == value:
                                value = 0  # the board plays: the best five holding an own card (rule 6)
                                for s in range(len(with_own)):
                                    t = 0x3333
                                    for k in range(5):
                                        five[k] = seven[with_own[s, k]]
                                        t += keys[five[k]]
                                    v = value_of(five, 5, t, v5, o5, w, fl)
                                    if v > value:
                                        value = v
                            x = net[value >> 16]
                            mine[abc] += x
                            mine[abd] += x
                            mine[c1[a] + c2[b] + c3[e]] += x
                            mine[acd] += x
                            mine[c1[a] + c2[c] + c3[e]] += x
                            mine[c1[a] + c2[d] + c3[e]] += x
                            mine[bcd] += x
                            mine[c1[b] + c2[c] + c3[e]] += x
                            mine[c1[b] + c2[d] + c3[e]] += x
                            mine[c1[c] + c2[d] + c3[e]] += x
        return sums.sum(axis=0)

    return flop_sums  # type: ignore[no-any-return]


def call_values(hole: tuple[Card, Card], net: np.ndarray) -> np.ndarray:
    """Per flop of the other 50 cards (colex order of their positions), the value of calling in antes."""
    from math import comb

    kernel = _kernel()
    o7, v7, w, o5, v5, fl = tables()  # the fast path's tables
    own = [c.index for c in hole]
    rest = np.array([c for c in range(52) if c not in own], dtype=np.int64)
    c1, c2, c3 = (np.array([comb(n, k) for n in range(50)], dtype=np.int64) for k in (1, 2, 3))
    sums = kernel(np.array(own, dtype=np.int64), rest, card_keys(), o7, v7, w, o5, v5, fl, net, WITH_OWN, c1, c2, c3)
    return sums / 1081.0
