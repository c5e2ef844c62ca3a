"""Batch API: exhaustive five-card counts, agreement with the single-hand API."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

import numpy as np
import pytest

from controller.cards import card_from_index, deck
from controller.hands.batch import (SORTING_NETWORKS, all_hands, category_counts, rank_batch,
                                    royal_count)
from controller.hands.high import CATEGORIES, high_value

FIVE_CARD_COUNTS = {"straight_flush": 40, "four_of_a_kind": 624, "full_house": 3744,
                    "flush": 5108, "straight": 10200, "three_of_a_kind": 54912,
                    "two_pair": 123552, "pair": 1098240, "high_card": 1302540,
                    "five_of_a_kind": 0}
SEVEN_CARD_COUNTS = {"straight_flush": 41584, "four_of_a_kind": 224848,
                     "full_house": 3473184, "flush": 4047644, "straight": 6180020,
                     "three_of_a_kind": 6461620, "two_pair": 31433400, "pair": 58627800,
                     "high_card": 23294460, "five_of_a_kind": 0}


@pytest.mark.parametrize("k", sorted(SORTING_NETWORKS))
def test_sorting_networks_sort_every_zero_one_input(k: int) -> None:
    for bits in product((0, 1), repeat=k):
        values = list(bits)
        for i, j in SORTING_NETWORKS[k]:
            if values[i] > values[j]:
                values[i], values[j] = values[j], values[i]
        assert values == sorted(values)


def test_all_five_card_hands_batch() -> None:
    values = np.concatenate([rank_batch(rows, presorted=True) for rows in all_hands(5)])
    assert len(values) == 2_598_960
    assert category_counts(values) == FIVE_CARD_COUNTS
    assert royal_count(values) == 4
    assert len(np.unique(values)) == 7462


def test_all_five_card_hands_single() -> None:
    values = np.fromiter((high_value(h) for h in combinations(deck(), 5)), dtype=np.int32,
                         count=2_598_960)
    counts = np.bincount(values >> 20, minlength=len(CATEGORIES))
    assert {name: int(counts[i]) for i, name in enumerate(CATEGORIES)} == FIVE_CARD_COUNTS
    assert len(np.unique(values)) == 7462


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_single(k: int) -> None:
    rng = np.random.default_rng(k)
    hands = np.argpartition(rng.random((20_000, 52)), k, axis=1)[:, :k]
    values = rank_batch(hands)
    for row, value in zip(hands.tolist(), values.tolist()):
        assert value == high_value([card_from_index(i) for i in row])


def test_presorted_matches_sorted() -> None:
    rows = next(all_hands(7))[:50_000]
    shuffled = np.random.default_rng(3).permuted(rows, axis=1)
    assert np.array_equal(rank_batch(rows, presorted=True), rank_batch(shuffled))


def test_all_hands_walks_each_hand_once() -> None:
    total = 0
    last_prefix = -1
    for chunk in all_hands(6):
        total += len(chunk)
        prefix = int(chunk[0, 0])
        assert prefix > last_prefix and np.all(chunk[:, 0] == prefix)
        assert np.all(chunk[:, 1] > prefix)
        last_prefix = prefix
    assert total == 20_358_520
    first = next(all_hands(6))
    assert np.all(np.diff(first, axis=1) > 0)
    assert len(np.unique(first.astype(np.int64) @ (52 ** np.arange(6)))) == len(first)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        rank_batch(np.zeros((3, 4), dtype=int))
    with pytest.raises(ValueError, match="0..51"):
        rank_batch(np.full((2, 5), 52))


def test_all_seven_card_hands() -> None:  # about 10 s: in the default run, as issue 5 allows under two minutes
    counts: Counter[str] = Counter()
    seen = np.zeros(1 << 24, dtype=bool)
    royals = total = 0
    for rows in all_hands(7):
        values = rank_batch(rows, presorted=True)
        counts.update(category_counts(values))
        royals += royal_count(values)
        seen[values] = True
        total += len(values)
    assert total == 133_784_560
    assert dict(counts) == SEVEN_CARD_COUNTS
    assert royals == 4324
    assert int(seen.sum()) == 4824
