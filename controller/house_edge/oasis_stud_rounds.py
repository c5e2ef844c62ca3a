"""Oasis Stud Poker's ante and bet over many rounds at once: numpy deals, the game's own rules tabulated per hand.

Every decision and property of a five-card hand that a round needs is asked
of the game module once per distinct hand and kept in arrays indexed by the
hand (the combinatorial number of its sorted card indices, the joker 52):
its value (``rank_hand``), whether it opens (``qualifies``) or is a pair or
better (the bought game's test in ``box_results``), the bet's odds when it
wins (``box_results`` against a hand below every hand), the stated strategy
before and after a switch (``strategy``), whether it buys the dealer a game
(``buys``) and the cards the dealer gives up (``replaced``). The rounds are
then dealt and settled in numpy, a chunk at a time: the box's switch, the
dealer's own exchange (version B), the bought game, and the settlement as
``box_results`` gives it. ``tests/controller/house_edge/test_oasis_stud_rounds.py``
holds every round of a seeded sample equal to the game's ``OasisRound``
played on the same cards.
"""

from __future__ import annotations

from math import comb
from typing import Any, Callable

import numpy as np

from controller.cards import Card, card_from_index
from controller.games.contract import RoundConfig
from controller.games.oasis_stud import box_results, buys, qualifies, rank_hand, replaced, strategy
from controller.hands.high import HighHand
from controller.hands.qualifiers import pair_or_better
from controller.house_edge.deals import deal, interval, run_chunks

BELOW = HighHand("high_card", False, -1, (), "below every hand")
"""A dealer's hand below every hand: ``box_results`` against it gives the bet's odds of a winning box."""

DEALT = 14  # five each, one card a switch (the stated strategy switches one), two the dealer exchanges or one bought
CHUNK = 100_000
BITS = np.array([bin(i).count("1") for i in range(32)], dtype=np.int64)


class HandTables:
    """The game's answers for each five-card hand, asked once per hand as the rounds meet it."""

    def __init__(self, config: RoundConfig) -> None:
        self.config = config
        self.table = config.paytable[config.variant]
        self.jokers = int(config["jokers"])
        self.cards = 52 + self.jokers
        size = comb(self.cards, 5)
        self.filled = np.zeros(size, dtype=bool)
        self.value = np.zeros(size, dtype=np.int64)
        self.opens = np.zeros(size, dtype=bool)
        self.pair = np.zeros(size, dtype=bool)
        self.buys = np.zeros(size, dtype=bool)
        self.odds = np.zeros(size, dtype=np.float64)
        self.decision = np.zeros(size, dtype=np.int8)  # 0 fold, 1 bet, 2 switch
        self.gives = np.zeros(size, dtype=np.int8)  # the cards a switch gives up, a bit per sorted position
        self.after = np.full(size, -1, dtype=np.int8)  # the decision after a switch: 0 fold, 1 bet; -1 not asked
        self.exchange = np.zeros(size, dtype=np.int8)  # the dealer's own exchange (replaced), bits
        self.bought = np.zeros(size, dtype=np.int8)  # the bought game's replacement, bits
        self.binom = np.array([[comb(n, k) for k in range(1, 6)] for n in range(self.cards)], dtype=np.int64)

    def index(self, sorted_cards: np.ndarray) -> np.ndarray:
        return sum(self.binom[sorted_cards[:, i], i] for i in range(5))

    def lookup(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hands' sorted cards and indices, the tables filled for every hand not seen before."""
        ordered = np.sort(hands, axis=1)
        index = self.index(ordered)
        new, first = np.unique(index, return_index=True)
        fresh = ~self.filled[new]
        for i, row in zip(new[fresh], first[fresh]):
            self._fill(int(i), [card_from_index(int(c)) for c in ordered[row]])
        return ordered, index

    def after_switch(self, ordered: np.ndarray, index: np.ndarray) -> np.ndarray:
        """The stated strategy's decision (1 bet, 0 fold) for hands a switch gave, asked once per hand."""
        new, first = np.unique(index, return_index=True)
        for i, row in zip(new, first):
            if self.after[i] < 0:
                cards = [card_from_index(int(c)) for c in ordered[row]]
                self.after[i] = strategy(self.table, cards, True, self.jokers)[0] == "bet"
        return self.after[index]

    def _fill(self, i: int, cards: list[Card]) -> None:
        table, hand = self.table, rank_hand(self.config, cards)
        self.value[i] = hand.value
        self.opens[i] = qualifies(table, hand)
        self.pair[i] = pair_or_better(hand, 2)
        self.buys[i] = buys(table, hand)
        odds = box_results(table, hand, BELOW, True, False)["bet"][1]
        assert odds is not None
        self.odds[i] = odds.paid / odds.per
        decision, given = strategy(table, cards, False, self.jokers)
        self.decision[i] = {"fold": 0, "bet": 1, "switch": 2}[decision] if decision != "switch" or given else 1
        self.gives[i] = sum(1 << cards.index(c) for c in given or ())
        self.exchange[i] = sum(1 << p for p in replaced(cards, int(table["dealer_exchanges"])))
        self.bought[i] = sum(1 << p for p in replaced(cards, int(table["dealer_replaces"])))
        self.filled[i] = True


def _swap(hands: np.ndarray, bits: np.ndarray, spare: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Each hand with the cards at ``bits`` (sorted positions) replaced by its next spare cards, in order."""
    out = hands.copy()
    rows = np.arange(len(hands))
    for position in range(5):
        take = (bits >> position & 1).astype(bool)
        out[rows[take], position] = spare[rows[take], used[take]]
        used[take] += 1
    return out


def settle(tables: HandTables, dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Each round's net and stake per ante, and the counts of folds, switches, buys, exchanges, openings."""
    t, table = tables, tables.table
    rows = len(dealt)
    spare, used = dealt[:, 10:], np.zeros(rows, dtype=np.int64)
    box, hb = t.lookup(dealt[:, 0:5])
    dealer, hd = t.lookup(dealt[:, 5:10])
    decision = t.decision[hb].astype(np.int64)
    switching = decision == 2
    fees = np.where(switching, BITS[t.gives[hb]], 0).astype(np.float64)
    box = np.where(switching[:, None], _swap(box, np.where(switching, t.gives[hb], 0), spare, used), box)
    box, hb = t.lookup(box)
    if switching.any():
        decision[switching] = t.after_switch(box[switching], hb[switching])
    betting = decision == 1
    opened = t.opens[hd].copy()
    exchanging = betting & ~opened & bool(table["dealer_exchanges"])
    if exchanging.any():
        new = _swap(dealer, np.where(exchanging, t.exchange[hd], 0), spare, used)
        dealer, hd = t.lookup(np.where(exchanging[:, None], new, dealer))
        opened = t.opens[hd]
    bought = betting & ~opened & bool(table["dealer_replaces"]) & t.buys[hb]
    if bought.any():
        new = _swap(dealer, np.where(bought, t.bought[hd], 0), spare, used)
        dealer, hd = t.lookup(np.where(bought[:, None], new, dealer))
    mine, theirs = t.value[hb], t.value[hd]
    against = np.where(mine > theirs, 1 + 2 * t.odds[hb], np.where(mine == theirs, 0.0, -3.0))
    played = np.where(~opened & ~bought, 1.0, np.where(bought & ~t.pair[hd], 0.0, against))
    net = np.where(betting, played, -1.0) - fees - bought
    stake = 1 + fees + 2 * betting + bought
    counts = {"fold": int((~betting).sum()), "switch": int(switching.sum()), "buy": int(bought.sum()),
              "exchange": int(exchanging.sum()), "dealer_opens": int((betting & opened).sum())}
    return net, stake, counts


def simulate(config: RoundConfig, rounds: int, seed: int, progress: Callable[[int], Any] | None = None,
             chunk: int = CHUNK) -> dict[str, Any]:
    """The ante and bet per ante over ``rounds`` rounds from ``numpy.random.default_rng(seed)``, with its 95 %
    interval (``dealer_opens`` counts the rounds of a box that bet where the dealer's final hand opens)."""
    tables = HandTables(config)
    rng = np.random.default_rng(seed)

    def rounds_of(n: int, done: int) -> dict[str, np.ndarray]:
        net, stake, seen = settle(tables, deal(rng, n, tables.cards, DEALT))
        return {"net": net, "stake": stake, **{k: np.array([v]) for k, v in seen.items()}}

    sums = run_chunks(rounds, chunk, rounds_of, progress)
    total, squares = sums["net"]
    counts = {k: sums[k][0] for k in ("fold", "switch", "buy", "exchange", "dealer_opens")}
    staked = sums["stake"][0]
    return {**interval(total, squares, rounds), "per_total_staked_percent": -100 * total / staked, "rounds": rounds,
            "hands_asked_of_the_game": int(tables.filled.sum()),
            "rates": {k: round(v / rounds, 6) for k, v in counts.items()}}
