"""Batch ranking of many five- to seven-card high hands at once (numpy).

For house-edge tools and simulations, not for games (games call the pure-Python
single-hand API in ``controller.hands.high``).  The values are exactly those of
``high.high_value``: one scale for the whole package.

Input: an integer array of shape (N, k), k in 5..7, of card indices as
``Card.index`` packs them (``(rank - 2) * 4 + suit``, suits ``c d h s``).

How: sorting a row's card indices sorts its ranks; the sorted rank multiset
has a dense index in the combinatorial number system (multisets of k of 13
ranks: 6,188 for five cards, 50,388 for seven), which addresses a table of
non-flush values.  A flush is found by adding a 4-bit counter per suit
started at 3 (bit 3 set means five or more of that suit); those rows look up
the rank set of the flush suit (13 bits) in a second table.  With at most seven
cards a flush rules out quads and full houses, so the flush value is the answer.
Tables are built on first use for each k (well under a second) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Iterator

import numpy as np

from controller.hands.values import CATEGORIES, flush_value, value_from_counts

MIN_CARDS, MAX_CARDS = 5, 7


SORTING_NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    5: ((0, 3), (1, 4), (0, 2), (1, 3), (0, 1), (2, 4), (1, 2), (3, 4), (2, 3)),
    6: ((0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5),
        (1, 2), (3, 4)),
    7: ((0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5), (3, 4), (1, 2),
        (4, 6), (2, 3), (4, 5), (1, 2), (3, 4), (5, 6)),
}
"""Compare-exchange sequences sorting 5, 6, 7 values (tests check all 0/1 inputs)."""


@dataclass(frozen=True)
class _BatchTables:
    by_card: tuple[np.ndarray, ...]  # per sorted position i: C(rank + i, i + 1) by card index
    noflush: np.ndarray   # (C(12 + k, k),) int32 values by multiset index
    flush: np.ndarray     # (8192,) int32 values by 13-bit rank mask, 0 if < 5 ranks


@cache
def _card_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per card index: its suit counter (uint16) and its rank bit (int16)."""
    suit = np.array([1 << 4 * (c & 3) for c in range(52)], dtype=np.uint16)
    rank_bit = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int16)
    return suit, rank_bit


@cache
def _flush_table() -> np.ndarray:
    table = np.zeros(1 << 13, dtype=np.int32)
    for size in range(5, MAX_CARDS + 1):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            table[mask] = flush_value(mask << 2)
    return table


_BUILT: dict[int, _BatchTables] = {}


def _tables(k: int) -> _BatchTables:
    built = _BUILT.get(k)
    if built is None:
        built = _BUILT[k] = _BatchTables(_by_card(k), build_noflush(k), _flush_table())
    return built


def _by_card(k: int) -> tuple[np.ndarray, ...]:
    return tuple(np.array([comb((c >> 2) + i, i + 1) for c in range(52)], dtype=np.int32) for i in range(k))


def install(tables: dict[str, np.ndarray]) -> None:
    """Use the non-flush tables ``noflush5`` .. ``noflush7`` (as ``build_noflush`` makes them, say from a cache)."""
    for k in range(MIN_CARDS, MAX_CARDS + 1):
        noflush = np.asarray(tables[f"noflush{k}"], dtype=np.int32)
        if noflush.shape != (comb(12 + k, k),):
            raise ValueError(f"batch table noflush{k} of the wrong size")
        _BUILT.setdefault(k, _BatchTables(_by_card(k), noflush, _flush_table()))


def build_noflush(k: int) -> np.ndarray:
    """The non-flush values of k cards by the index of their sorted rank multiset (pure)."""
    noflush = np.zeros(comb(12 + k, k), dtype=np.int32)
    counts = [0] * 15
    for multiset in combinations_with_replacement(range(13), k):
        for r in range(2, 15):
            counts[r] = 0
        for r in multiset:
            counts[r + 2] += 1
        if max(counts) > 4:
            continue
        index = sum(comb(r + i, i + 1) for i, r in enumerate(multiset))
        noflush[index] = value_from_counts(counts)
    return noflush


def rank_batch(cards: np.ndarray, presorted: bool = False) -> np.ndarray:
    """Values (int32, N) of N hands of k = 5..7 distinct card indices 0..51 each.

    ``presorted`` skips the sort when every row is already ascending (as
    ``all_hands`` yields them).  Rows are not checked for repeated cards.
    """
    cards = np.asarray(cards)
    if cards.ndim != 2 or not MIN_CARDS <= cards.shape[1] <= MAX_CARDS:
        raise ValueError(f"expected an (N, 5..7) array of card indices, got shape {cards.shape}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise ValueError("card indices must be 0..51 (no joker in the batch API)")
    k = cards.shape[1]
    t = _tables(k)
    suit_key, rank_bit = _card_tables()
    columns = np.ascontiguousarray(cards.T, dtype=np.int16)
    col = [columns[i] for i in range(k)]
    if not presorted:
        for i, j in SORTING_NETWORKS[k]:
            low = np.minimum(col[i], col[j])
            col[j] = np.maximum(col[i], col[j])
            col[i] = low
    index = t.by_card[0][col[0]]
    counters = suit_key[col[0]] + np.uint16(0x3333)
    for i in range(1, k):
        index += t.by_card[i][col[i]]
        counters += suit_key[col[i]]
    values: np.ndarray = t.noflush[index]
    flushing = counters & np.uint16(0x8888)
    rows = np.flatnonzero(flushing)
    if rows.size:
        bits = flushing[rows]
        suit = (bits > 0x8).astype(np.int16) + (bits > 0x80) + (bits > 0x800)
        masks = np.zeros(rows.size, dtype=np.int16)
        for i in range(k):
            c = col[i][rows]
            masks += np.where((c & 3) == suit, rank_bit[c], np.int16(0))
        values[rows] = t.flush[masks]
    return values


@cache
def _five_subsets() -> np.ndarray:
    """All C(52, 5) ascending five-card rows in lexicographic order (int8)."""
    rows = np.arange(52, dtype=np.int8)[:, None]
    for _ in range(4):  # extend each row by every larger card, in order (so the rows stay lexicographic)
        last = rows[:, -1].astype(np.int64)
        more = 51 - last
        starts = np.repeat(last + 1 - (np.cumsum(more) - more), more)
        rows = np.hstack([np.repeat(rows, more, axis=0),
                          (np.arange(len(starts)) + starts).astype(np.int8)[:, None]])
    assert len(rows) == comb(52, 5)
    return rows


def all_hands(k: int) -> Iterator[np.ndarray]:
    """Every k-card hand (k = 5..7) once, as ascending index rows, in chunks.

    The chunks are the five-card tails after each fixed prefix of k - 5 cards,
    so a seven-card walk yields 1,326 chunks of at most 2,118,760 rows.
    """
    if not MIN_CARDS <= k <= MAX_CARDS:
        raise ValueError(f"k must be 5..7, got {k}")
    fives = _five_subsets()
    # start[c]: first row of ``fives`` whose smallest card is >= c
    start = np.searchsorted(fives[:, 0], np.arange(53), side="left")
    for prefix in combinations(range(52), k - 5):
        first = prefix[-1] + 1 if prefix else 0
        tail = fives[start[first]:]
        if not len(tail):
            continue
        rows = np.empty((len(tail), k), dtype=np.int16)
        rows[:, :k - 5] = prefix
        rows[:, k - 5:] = tail
        yield rows


def categories_of(values: np.ndarray) -> np.ndarray:
    """Category index (``high.CATEGORIES``) of each value."""
    return np.asarray(values) >> 20


def category_counts(values: np.ndarray) -> dict[str, int]:
    """How many values fall in each category, by name (zeros included)."""
    counts = np.bincount(categories_of(values), minlength=len(CATEGORIES))
    return {name: int(counts[i]) for i, name in enumerate(CATEGORIES)}


def royal_count(values: np.ndarray) -> int:
    """How many values are royal flushes."""
    return int(np.count_nonzero(np.asarray(values) == (8 << 20 | 14 << 16)))
