"""The numba kernels of ``controller.house_edge.holdem_enumeration`` (imported only where numba is installed).

Module-level functions, not closures, so that numba's on-disk cache finds them
again in the next process (a closure's cells are part of the cache key, and a
compiled function in a cell pickles differently in every process).
"""

from __future__ import annotations

import numba
import numpy as np

LOW_SHIFT, HIGH_SHIFT = 16, 33
LOW_MASK = (1 << (HIGH_SHIFT - LOW_SHIFT)) - 1


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

@numba.njit(cache=True, nogil=True, inline="always")
def best_with_own(seven: np.ndarray, board: int, k0: int, k1: int, r0: int, r1: int, keys: np.ndarray,
                  v5: np.ndarray, o5: np.ndarray, w: np.ndarray, fl: np.ndarray) -> int:
    """The best five of ``seven`` holding an own card, when the board's five (key sum ``board``) play.

    Keys add, so each of the 20 such fives is the board's key with one or two board cards
    swapped for own cards; a five of one suit (a flush) is read by its rank bits, which add too.
    """
    ranks = 0
    for k in range(2, 7):
        ranks += 1 << ((seven[k] >> 2) + 2)
    best = 0
    for j in range(2, 7):
        kj, rj = keys[seven[j]], 1 << ((seven[j] >> 2) + 2)
        for own_key, own_rank in ((k0, r0), (k1, r1)):
            t = 0x3333 + board - kj + own_key
            v = v5[o5[(t >> LOW_SHIFT) & LOW_MASK] + w[t >> HIGH_SHIFT]] if t & 0x8888 == 0 \
                else fl[ranks - rj + own_rank]
            if v > best:
                best = v
        for m in range(j + 1, 7):
            km, rm = keys[seven[m]], 1 << ((seven[m] >> 2) + 2)
            t = 0x3333 + board - kj - km + k0 + k1
            v = v5[o5[(t >> LOW_SHIFT) & LOW_MASK] + w[t >> HIGH_SHIFT]] if t & 0x8888 == 0 \
                else fl[ranks - rj - rm + r0 + r1]
            if v > best:
                best = v
    return best

@numba.njit(cache=True, nogil=True, parallel=True)
def flop_sums(hole: np.ndarray, rest: np.ndarray, keys: np.ndarray, o7: np.ndarray, v7: np.ndarray,
              w: np.ndarray, o5: np.ndarray, v5: np.ndarray, fl: np.ndarray, net: np.ndarray,
              order: np.ndarray, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray) -> np.ndarray:
    """Per flop of ``rest`` (colex index of its positions): the sum of the nets over its 1 081 turn-rivers.

    Every board of five of the 50 cards is ranked once, and its net added to each of its ten flops:
    the four flops without the board's last card once per (a, b, c, d), the six with it per board.
    """
    sums = np.zeros((50, 19600))
    h0, h1 = hole[0], hole[1]
    k0, k1 = keys[h0], keys[h1]
    r0, r1 = 1 << ((h0 >> 2) + 2), 1 << ((h1 >> 2) + 2)
    own = 0x3333 + k0 + k1
    for i in numba.prange(50):
        a = order[i]
        seven = np.zeros(7, dtype=np.int64)
        seven[0], seven[1] = h0, h1
        mine = sums[a]
        seven[2] = rest[a]
        ka = keys[rest[a]]
        for b in range(a + 1, 50):
            seven[3] = rest[b]
            kb = ka + keys[rest[b]]
            ab = c1[a] + c2[b]
            for c in range(b + 1, 50):
                seven[4] = rest[c]
                kc = kb + keys[rest[c]]
                ac, bc = c1[a] + c2[c], c1[b] + c2[c]
                for d in range(c + 1, 50):
                    seven[5] = rest[d]
                    kd = kc + keys[rest[d]]
                    ad, bd, cd = c1[a] + c2[d], c1[b] + c2[d], c1[c] + c2[d]
                    total = 0.0
                    for e in range(d + 1, 50):
                        seven[6] = rest[e]
                        ke = kd + keys[rest[e]]
                        value = value_of(seven, 7, own + ke, v7, o7, w, fl)
                        if value_of(seven[2:], 5, 0x3333 + ke, v5, o5, w, fl) == value:
                            value = best_with_own(seven, ke, k0, k1, r0, r1, keys, v5, o5, w, fl)
                        x = net[value >> 16]
                        total += x
                        e3 = c3[e]
                        mine[ab + e3] += x
                        mine[ac + e3] += x
                        mine[ad + e3] += x
                        mine[bc + e3] += x
                        mine[bd + e3] += x
                        mine[cd + e3] += x
                    mine[ab + c3[c]] += total
                    mine[ab + c3[d]] += total
                    mine[ac + c3[d]] += total
                    mine[bc + c3[d]] += total
    return sums.sum(axis=0)
