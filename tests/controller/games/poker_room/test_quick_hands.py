"""The adapter's quick hand types form the same best hands as PokerKit's own classes.

``variants._quick`` forms a player's best hand in one pass over PokerKit's own
lookup table; these tests draw random cards (seeded) and compare it with
PokerKit's ``from_game``: the same cards chosen, the same entry, the same
order between players, the same refusal where no hand can be formed.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import Card as PkCard

from controller.games.poker_room.engine import PK_CARDS
from controller.games.poker_room.variants import QUICK

# (PokerKit's class, hole cards, board cards): hold'em, stud's seven, a draw's five, Omaha's four and five
SHAPES = {
    "StandardHighHand": [(2, 5), (7, 0), (2, 3), (4, 0)],
    "StandardLowHand": [(5, 0), (7, 0)],
    "RegularLowHand": [(5, 0), (7, 0), (2, 5)],
    "EightOrBetterLowHand": [(2, 5), (7, 0), (3, 2)],
    "OmahaHoldemHand": [(4, 5), (5, 5), (4, 3)],
    "OmahaEightOrBetterLowHand": [(4, 5), (5, 5), (4, 3)],
    "_OmahaRegularLowHand": [(4, 5), (5, 4)],
}


def _best_or_error(kind, hole, board):
    try:
        hand = kind.from_game(hole, board)
    except ValueError:
        return None
    return hand


@pytest.mark.parametrize("base", sorted(QUICK, key=lambda t: t.__name__), ids=lambda t: t.__name__)
def test_quick_hands_choose_what_pokerkit_chooses(base):
    quick = QUICK[base]
    rng = random.Random(f"quick:{base.__name__}")
    for hole_n, board_n in SHAPES[base.__name__]:
        for _ in range(60):
            drawn = rng.sample(PK_CARDS, hole_n + board_n)
            hole, board = tuple(drawn[:hole_n]), tuple(drawn[hole_n:])
            theirs = _best_or_error(base, hole, board)
            ours = _best_or_error(quick, hole, board)
            if theirs is None:
                assert ours is None, (hole, board)
                continue
            assert ours is not None and ours.cards == theirs.cards, (hole, board)
            assert ours.entry == theirs.entry
            # the same again from cards that are not the table's own objects (not remembered)
            copied = _best_or_error(quick, [PkCard(c.rank, c.suit) for c in hole], [PkCard(c.rank, c.suit) for c in board])
            assert copied is not None and copied.cards == theirs.cards


@pytest.mark.parametrize("base", sorted(QUICK, key=lambda t: t.__name__), ids=lambda t: t.__name__)
def test_quick_hands_order_players_as_pokerkit_does(base):
    quick = QUICK[base]
    hole_n, board_n = SHAPES[base.__name__][0]
    rng = random.Random(f"order:{base.__name__}")
    compared = 0
    for _ in range(200):
        drawn = rng.sample(PK_CARDS, 2 * hole_n + board_n)
        board = tuple(drawn[2 * hole_n:])
        a, b = tuple(drawn[:hole_n]), tuple(drawn[hole_n:2 * hole_n])
        pa, pb = _best_or_error(base, a, board), _best_or_error(base, b, board)
        qa, qb = _best_or_error(quick, a, board), _best_or_error(quick, b, board)
        if pa is None or pb is None:
            continue
        compared += 1
        assert (qa < qb, qa > qb, qa == qb, qa <= qb, qa >= qb) == (pa < pb, pa > pb, pa == pb, pa <= pb, pa >= pb)
    assert compared > 10
