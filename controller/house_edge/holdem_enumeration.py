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
``restaurant_holdem.own_card_values`` does (here by key arithmetic: the board's
key sum with one or two of its cards swapped for own cards). The net of each value comes from
the game's ``main_result``, asked once per (category, top rank), which is all
it reads (checked over every value).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable

import numpy as np

from controller.cards import Card
from controller.hands import fast

SUITS = "cdhs"
# the board's first card, by position: the even ones, then the odd ones, so that each of two threads
# (numba splits the loop in halves) gets about half the boards (an early first card has the most)
ORDER = np.array([*range(0, 50, 2), *range(1, 50, 2)], dtype=np.int64)


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
        from controller.house_edge import holdem_kernels
    except ModuleNotFoundError as exc:
        if exc.name != "numba":
            raise
        raise ValueError("restaurant-holdem: the exact walk needs numba (pip install 'tablectl[math]'); "
                         "or sample it with --simulate N") from None
    return holdem_kernels.flop_sums  # type: ignore[no-any-return]


def call_values(hole: tuple[Card, Card], net: np.ndarray) -> np.ndarray:
    """Per flop of the other 50 cards (colex order of their positions), the value of calling in antes."""
    from math import comb

    kernel = _kernel()
    o7, v7, w, o5, v5, fl = tables()  # the fast path's tables
    own = [c.index for c in hole]
    rest = np.array([c for c in range(52) if c not in own], dtype=np.int64)
    c1, c2, c3 = (np.array([comb(n, k) for n in range(50)], dtype=np.int64) for k in (1, 2, 3))
    sums = kernel(np.array(own, dtype=np.int64), rest, card_keys(), o7, v7, w, o5, v5, fl, net, ORDER, c1, c2, c3)
    return sums / 1081.0
