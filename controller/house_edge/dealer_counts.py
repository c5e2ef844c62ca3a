"""Exact counts of the dealer's five-card hands against every player five-card hand (Caribbean Stud).

For a player hand P, the dealer's hands are the C(47, 5) = 1 533 939 hands of
the other 47 cards. How many of them have a value below x is counted, as the
three-card tool does, by inclusion-exclusion over P's cards: all hands below
x, less those holding each card of P, plus those holding each pair of P's
cards, less each triple, plus each four, less P itself. The counts per set of
cards are tables built once per run from the batch ranking of every hand:

- all hands and each card (52) and each pair (1 326): cumulative counts over
  the 7 462 value indices (``below[x]``: hands with value index < x);
- each triple (22 100, 1 176 hands each) and each four (270 725, 48 hands
  each): the value indices of the hands holding it, sorted, searched per query.

Player hands come by suit pattern: the 2 598 960 hands fall into 134 459
classes that differ only by a renaming of the suits (which changes no count),
each counted once with its number of hands. Values are positions in
``five_card.value_table`` (the hands package's values), so the game's own
functions decide every paytable key and qualification.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, Iterator

import numpy as np

from controller.hands.batch import SORTING_NETWORKS, all_hands, rank_batch
from controller.house_edge.five_card import ValueTable

DEALER_HANDS = comb(47, 5)
PLAYER_HANDS = comb(52, 5)
CHUNK = 200_000


def _colex(cols: list[np.ndarray]) -> np.ndarray:
    """The combinatorial (colex) index of ascending card columns: sum of C(card_i, i + 1)."""
    out = np.zeros(cols[0].shape, dtype=np.int64)
    for i, c in enumerate(cols):
        out += _BINOMIAL[i + 1][c]
    return out


_BINOMIAL = {k: np.array([comb(n, k) for n in range(53)], dtype=np.int64) for k in range(1, 6)}


@dataclass(frozen=True)
class PlayerClasses:
    """One hand per suit pattern (ascending card indices) and how many of the 2 598 960 hands share it."""

    hands: np.ndarray   # (134 459, 5) int16
    weights: np.ndarray  # (134 459,) int64


def player_classes() -> PlayerClasses:
    """The five-card hands up to a renaming of the suits.

    A hand's class is the multiset of its four suits' rank masks: the masks sorted and packed into one key.
    """
    rows = np.concatenate(list(all_hands(5)))
    key = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), CHUNK):
        part = rows[start:start + CHUNK]
        masks = [np.zeros(len(part), dtype=np.int64) for _ in range(4)]
        for i in range(5):
            suit, bit = part[:, i] & 3, np.left_shift(1, part[:, i] >> 2).astype(np.int64)
            for s in range(4):
                masks[s] += np.where(suit == s, bit, 0)
        for i, j in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):  # a sorting network for four
            low = np.minimum(masks[i], masks[j])
            masks[j] = np.maximum(masks[i], masks[j])
            masks[i] = low
        key[start:start + len(part)] = masks[0] << 39 | masks[1] << 26 | masks[2] << 13 | masks[3]
    _, first, weights = np.unique(key, return_index=True, return_counts=True)
    return PlayerClasses(rows[first].astype(np.int16), weights.astype(np.int64))


def _value_index(table: ValueTable, cards: np.ndarray) -> np.ndarray:
    return table.index(rank_batch(cards)).astype(np.int16)


class DealerCounts:
    """The tables of the inclusion-exclusion; ``below(players, x)`` counts the dealer hands under x."""

    def __init__(self, table: ValueTable) -> None:
        self.table = table
        size = len(table.values)
        self.size = size
        card = np.zeros((52, size), dtype=np.int64)
        self._by_colex = np.zeros(PLAYER_HANDS, dtype=np.int16)  # value index of every hand by its colex index
        every = np.concatenate(list(all_hands(5)))
        for start in range(0, len(every), CHUNK):
            rows = every[start:start + CHUNK]
            index = _value_index(table, rows)
            self._by_colex[_colex([rows[:, i] for i in range(5)])] = index
            for i in range(5):
                card += np.bincount(rows[:, i].astype(np.int64) * size + index, minlength=52 * size).reshape(52, size)
        del every
        # every hand holds five cards: the hands below x are a fifth of the card counts below x
        self.card = np.concatenate([np.zeros((52, 1), np.int64), np.cumsum(card, axis=1)], axis=1)
        self.all = self.card.sum(axis=0) // 5
        self.pair = self._cumulative(2)
        self.triple = self._holding(3)
        self.four = self._holding(4)
        del self._by_colex

    def _cumulative(self, k: int) -> np.ndarray:
        """Per k-card set: the count of hands holding it below each value index (int16: at most 19 600 a set)."""
        out = np.zeros((comb(52, k), self.size + 1), dtype=np.int16)
        for start, values in self._holding_parts(k):
            part = values.astype(np.int64)
            ids = np.arange(len(part))[:, None] * self.size + part
            counts = np.bincount(ids.ravel(), minlength=len(part) * self.size).reshape(len(part), self.size)
            out[start:start + len(part), 1:] = np.cumsum(counts, axis=1)
        return out

    def _holding(self, k: int) -> np.ndarray:
        """Per k-card set (colex order): the sorted value indices of the five-card hands holding it."""
        out = np.empty((comb(52, k), comb(52 - k, 5 - k)), dtype=np.int16)
        for start, values in self._holding_parts(k):
            out[start:start + len(values)] = values
        return out

    def _holding_parts(self, k: int) -> Iterator[tuple[int, np.ndarray]]:
        """(first set, sorted value indices of the hands holding each set) for the k-card sets in colex order."""
        sets = np.array(list(combinations(range(52), k)), dtype=np.int16)
        order = np.argsort(_colex([sets[:, i].astype(np.int64) for i in range(k)]))
        sets = sets[order]  # row r is the set of colex index r
        rest = np.array(list(combinations(range(52), 5 - k)), dtype=np.int16)
        per = comb(52 - k, 5 - k)
        step = max(1, CHUNK * 4 // per)
        for start in range(0, len(sets), step):
            chunk = sets[start:start + step]
            clash = np.zeros((len(chunk), len(rest)), dtype=bool)
            for i in range(k):
                for j in range(5 - k):
                    clash |= chunk[:, i, None] == rest[None, :, j]
            owners, picks = np.nonzero(~clash)
            cols = [chunk[owners, i] for i in range(k)] + [rest[picks, j] for j in range(5 - k)]
            for i, j in SORTING_NETWORKS[5]:
                low = np.minimum(cols[i], cols[j])
                cols[j] = np.maximum(cols[i], cols[j])
                cols[i] = low
            values = self._by_colex[_colex(cols)].reshape(len(chunk), per)
            values.sort(axis=1)
            yield start, values

    @staticmethod
    def _count_below(rows: np.ndarray, ids: np.ndarray, x: np.ndarray) -> np.ndarray:
        """How many entries of ``rows[ids]`` (sorted rows) are below ``x`` (vectorised binary search)."""
        width = rows.shape[1]
        lo = np.zeros(ids.shape, dtype=np.int64)
        hi = np.full(ids.shape, width, dtype=np.int64)
        for _ in range(int(width).bit_length() + 1):
            active = lo < hi
            mid = np.minimum((lo + hi) // 2, width - 1)
            go = active & (rows[ids, mid] < x)
            stay = active & ~go
            lo = np.where(go, mid + 1, lo)
            hi = np.where(stay, mid, hi)
        return lo

    def below(self, players: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Per player hand (rows of 5 ascending cards), the dealer hands of the other 47 cards under value index x."""
        p = [players[:, i].astype(np.int64) for i in range(5)]
        x = x.astype(np.int64)
        n = self.all[x].copy()
        for c in p:
            n -= self.card[c, x]
        for i, j in combinations(range(5), 2):
            n += self.pair[_BINOMIAL[1][p[i]] + _BINOMIAL[2][p[j]], x]
        for i, j, k in combinations(range(5), 3):
            ids = _BINOMIAL[1][p[i]] + _BINOMIAL[2][p[j]] + _BINOMIAL[3][p[k]]
            n -= self._count_below(self.triple, ids, x)
        for four in combinations(range(5), 4):
            ids4: Any = sum(_BINOMIAL[m + 1][p[i]] for m, i in enumerate(four))
            n += self._count_below(self.four, ids4, x)
        own = self.table.index(rank_batch(players)).astype(np.int64)
        n -= (own < x).astype(np.int64)
        return n


def release_freed_memory() -> None:
    """Hand the C heap's freed pages back to the system (glibc's ``malloc_trim``; elsewhere nothing).

    The tables are built from many short-lived arrays among small Python objects; without this the heap keeps
    tens of megabytes it no longer uses, and the tool's peak is that much higher.
    """
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
