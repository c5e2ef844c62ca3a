"""The numba kernels of ``controller.hands.compiled`` (imported only where numba is installed).

They are module-level functions, not closures, so that numba's on-disk cache
finds them again in the next process: a kernel that calls another through a
closure cell is keyed by that cell's pickled contents, which differ per
process, and was compiled again on every run.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def flush_value(t: int, cards: np.ndarray, fl: np.ndarray) -> int:
    """The flush suit's rank mask looked up (called for the 3 % of hands with five cards of a suit)."""
    bits = t & 0x8888
    suit = 3 if bits & 0x8000 else 2 if bits & 0x800 else 1 if bits & 0x80 else 0
    mask = 0
    for i in range(7):
        if cards[i] & 3 == suit:
            mask |= 1 << ((cards[i] >> 2) + 2)
    return int(fl[mask])

@numba.njit(cache=True, nogil=True)
def rank7(cards: np.ndarray, keys: np.ndarray, o7: np.ndarray, v7: np.ndarray, w: np.ndarray,
          fl: np.ndarray) -> np.ndarray:
    out = np.empty(cards.shape[0], dtype=np.int32)
    for i in range(cards.shape[0]):
        t = (0x3333 + keys[cards[i, 0]] + keys[cards[i, 1]] + keys[cards[i, 2]] + keys[cards[i, 3]]
             + keys[cards[i, 4]] + keys[cards[i, 5]] + keys[cards[i, 6]])
        if t & 0x8888 == 0:
            out[i] = v7[o7[(t >> 16) & 0x1FFFF] + w[t >> 33]]
        else:
            out[i] = flush_value(t, cards[i], fl)
    return out

@numba.njit(cache=True, nogil=True)
def all_seven_keys(keys: np.ndarray, o7: np.ndarray, v7: np.ndarray, w: np.ndarray, fl: np.ndarray,
                   royal: int) -> np.ndarray:
    """Hands per category over all 133 784 560 seven-card hands, prefix sums reused in the nested loops; a royal
    flush (value ``royal``) counted apart, in the tenth place (``royal=-1``: none counted apart)."""
    counts = np.zeros(10, dtype=np.int64)
    cards = np.zeros(7, dtype=np.int64)
    for a in range(46):
        ka = 0x3333 + keys[a]
        for b in range(a + 1, 47):
            kb = ka + keys[b]
            for c in range(b + 1, 48):
                kc = kb + keys[c]
                for d in range(c + 1, 49):
                    kd = kc + keys[d]
                    for e in range(d + 1, 50):
                        ke = kd + keys[e]
                        for f in range(e + 1, 51):
                            kf = ke + keys[f]
                            for g in range(f + 1, 52):
                                t = kf + keys[g]
                                if t & 0x8888 == 0:
                                    counts[v7[o7[(t >> 16) & 0x1FFFF] + w[t >> 33]] >> 20] += 1
                                else:
                                    cards[0], cards[1], cards[2], cards[3] = a, b, c, d
                                    cards[4], cards[5], cards[6] = e, f, g
                                    value = flush_value(t, cards, fl)
                                    counts[9 if value == royal else value >> 20] += 1
    return counts
