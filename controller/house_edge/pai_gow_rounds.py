"""Pai Gow Poker over many rounds at once: numpy deals, both hands set by the house way, tabulated where it can be.

The house way is the table's data, read by ``pai_gow_house_way``; this module
never states a rule of it. It only asks the engine (``set_hand``) once for
each hand that stands for many: where no five of the seven cards can make a
flush (no suit with five cards, or four and the joker), the values of the
front and back hands the house way sets depend on the ranks alone (the joker
a rank of its own), so ``set_hand`` is asked once per multiset of ranks (at
most 77,520) and the answer kept in an array. A hand that could make a flush
(about 4 % of them) is set by ``set_hand`` itself, one by one. Each round's
result and nets are the game's ``contest``, ``player_net`` and ``banker_net``,
tabulated over the nine ways two hands compare.
``tests/controller/house_edge/test_pai_gow_rounds.py`` holds every round of a
seeded sample equal to the game module's own settlement of the same cards.
"""

from __future__ import annotations

from math import comb
from typing import Any, Callable

import numpy as np

from controller.cards import card_from_index
from controller.games.contract import RoundConfig
from controller.games.pai_gow_house_way import HouseWay, set_hand
from controller.games.pai_gow_poker import banker_net, contest, house_way_of, player_net, values_of
from controller.house_edge.deals import deal, interval, run_chunks

STAKE = 10_000  # minor units staked a round: the commission rounds as at the table, in whole units of this
JOKER = 52
SYMBOLS = 14  # thirteen ranks and the joker
RESULTS = ("win", "push", "lose")


class SetValues:
    """The house way's (front, back) values of seven-card hands."""

    def __init__(self, way: HouseWay) -> None:
        self.way = way
        size = comb(SYMBOLS + 6, 7)
        self.filled = np.zeros(size, dtype=bool)
        self.front = np.zeros(size, dtype=np.int64)
        self.back = np.zeros(size, dtype=np.int64)
        self.binom = np.array([[comb(s + i, i + 1) for i in range(7)] for s in range(SYMBOLS)], dtype=np.int64)
        self.by_ranks = self.one_by_one = 0

    def _set(self, row: np.ndarray) -> tuple[int, int]:
        played = set_hand(self.way, [card_from_index(int(c)) for c in row])
        values = values_of(played.front, played.back)
        assert values is not None  # the house way never fouls (set_hand keeps to legal splits)
        return values

    def values(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The front and back values of each row of seven card indices."""
        natural = hands < JOKER
        joker = (~natural).any(axis=1)
        suits = np.stack([(natural & ((hands & 3) == s)).sum(axis=1) for s in range(4)], axis=1)
        flushing = suits.max(axis=1) + joker >= 5
        symbols = np.sort(np.where(natural, hands >> 2, SYMBOLS - 1), axis=1)
        key = sum(self.binom[symbols[:, i], i] for i in range(7))
        front, back = np.zeros(len(hands), dtype=np.int64), np.zeros(len(hands), dtype=np.int64)
        plain = np.flatnonzero(~flushing)
        new, first = np.unique(key[plain], return_index=True)
        for k, row in zip(new[~self.filled[new]], plain[first[~self.filled[new]]]):
            self.front[k], self.back[k] = self._set(hands[row])
            self.filled[k] = True
        front[plain], back[plain] = self.front[key[plain]], self.back[key[plain]]
        for row in np.flatnonzero(flushing):
            front[row], back[row] = self._set(hands[row])
        self.by_ranks += len(plain)
        self.one_by_one += int(flushing.sum())
        return front, back


def compare(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sign(a - b).astype(np.int64) + 1  # 0 worse, 1 equal, 2 better


def settlement_tables(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By (front compared, back compared) of the player's hand with the dealer's, each 0 worse, 1 equal,
    2 better: the result's index in ``RESULTS`` (``contest``), the bet's net (``player_net``) and the net of a
    player banking against the dealer's hand (``contest`` the other way, ``banker_net``)."""
    result = np.zeros((3, 3), dtype=np.int64)
    bet = np.zeros((3, 3), dtype=np.int64)
    bank = np.zeros((3, 3), dtype=np.int64)
    for f in range(3):
        for b in range(3):
            hand, dealer = (1, 1), (2 - f, 2 - b)
            outcome = contest(hand, dealer)
            result[f, b] = RESULTS.index(outcome)
            bet[f, b] = player_net(table, outcome, STAKE)
            against = contest(dealer, hand)
            bank[f, b] = banker_net(table, {"win": -STAKE, "lose": STAKE}.get(against, 0))
    return result, bet, bank


def settle(values: SetValues, table: Any, dealt: np.ndarray) -> dict[str, np.ndarray]:
    """Each round's result index, copies and nets (the box's bet and a player's bank) in minor units."""
    pf, pb = values.values(dealt[:, :7])
    df, db = values.values(dealt[:, 7:14])
    result, bet, bank = settlement_tables(table)
    f, b = compare(pf, df), compare(pb, db)
    return {"result": result[f, b], "front_copy": f == 1, "back_copy": b == 1, "bet": bet[f, b],
            "bank": bank[f, b], "values": np.stack([pf, pb, df, db], axis=1)}


def simulate(config: RoundConfig, rounds: int, seed: int, progress: Callable[[int], Any] | None = None,
             chunk: int = 50_000) -> dict[str, Any]:
    """``rounds`` rounds from ``numpy.random.default_rng(seed)``, seven cards to the box and seven to the dealer
    from each shuffled 53-card deck: the bet, the bank, and banking every other round, with 95 % intervals."""
    table = config.paytable[config.variant]
    values = SetValues(house_way_of(config))
    rng = np.random.default_rng(seed)

    def rounds_of(n: int, done: int) -> dict[str, np.ndarray]:
        got = settle(values, table, deal(rng, n, 53, 14))
        half = np.where((np.arange(done, done + n) % 2) == 0, got["bet"], got["bank"])
        return {"bet": got["bet"], "bank": got["bank"], "half_banking": half,
                **{name: got["result"] == i for i, name in enumerate(RESULTS)}, "front_copy": got["front_copy"],
                "back_copy": got["back_copy"], "both_copies": got["front_copy"] & got["back_copy"]}

    sums = run_chunks(rounds, chunk, rounds_of, progress)
    counts = {k: sums[k][0] for k in (*RESULTS, "front_copy", "back_copy", "both_copies")}
    out: dict[str, Any] = {key: {**interval(*sums[key], rounds, STAKE), "rounds": rounds}
                           for key in ("bet", "bank", "half_banking")}
    out["bet"]["rates"] = {k: round(v / rounds, 6) for k, v in counts.items()}
    out["hands"] = {"set_by_rank_table": values.by_ranks, "set_one_by_one": values.one_by_one,
                    "rank_multisets_asked": int(values.filled.sum())}
    return out
