"""Every five-card hand value once, shown to the game as a ``HighHand`` (for the batch house-edge tools).

``controller.hands.batch`` ranks all 2 598 960 five-card hands; one hand of
each of the 7 462 distinct values is wrapped by ``high.high_hand_from``, so a
tool can ask the game's own functions (qualifiers, paytable keys, settlement)
once per value and then settle millions of batch-ranked hands by table lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from controller.cards import card_from_index
from controller.hands.batch import all_hands, rank_batch
from controller.hands.high import HighHand, high_hand_from


@dataclass(frozen=True)
class ValueTable:
    values: np.ndarray  # the distinct values, ascending
    hands: tuple[HighHand, ...]  # one hand per value
    hands_per_value: np.ndarray  # how many of the 2 598 960 five-card hands have each value

    def index(self, values: np.ndarray) -> np.ndarray:
        """Positions of ``values`` (any shape) in ``self.values``."""
        return np.searchsorted(self.values, values)


@cache
def value_table() -> ValueTable:
    rows = np.concatenate(list(all_hands(5)))
    ranked = np.empty(len(rows), dtype=np.int32)
    for start in range(0, len(rows), 1 << 18):  # in slices: ranking all at once took 120 MB of temporaries
        ranked[start:start + (1 << 18)] = rank_batch(rows[start:start + (1 << 18)], presorted=True)
    distinct, first, counts = np.unique(ranked, return_index=True, return_counts=True)
    hands = tuple(high_hand_from([card_from_index(int(c)) for c in rows[i]], int(v)) for v, i in zip(distinct, first))
    return ValueTable(distinct, hands, counts)
