"""Same order as the reference libraries (pokerkit, treys, phevaluator) on random hands.

The default run uses tens of thousands of hands (thousands where pokerkit takes
a millisecond a hand); ``-m slow`` runs the full 1,000,000 per comparison.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from controller.cards import Card, deck, format_cards
from controller.hands.batch import rank_batch
from controller.hands.high import best_omaha, high_value
from controller.hands.low import best_ace_to_five, best_deuce_to_seven
from controller.hands.three import three_value

from .reference import assert_same_order, random_hands

pokerkit = pytest.importorskip("pokerkit")
treys = pytest.importorskip("treys")

MILLION = 1_000_000
SLOW = [pytest.mark.slow, pytest.mark.timeout(4 * 3600)]


def _pk(cards: tuple[Card, ...]) -> list[object]:
    return list(pokerkit.Card.parse("".join(str(c) for c in cards)))


def _gt(a: int, b: int) -> bool:
    return a > b


def _strength(hand: object) -> int:
    """pokerkit's own strength of a hand: its lookup index, negated for low hands.

    This is exactly what pokerkit's ``Hand.__lt__`` compares, read once per hand
    (pokerkit recomputes it on every comparison).
    """
    index = hand.entry.index  # type: ignore[attr-defined]
    return -index if hand.low else index  # type: ignore[attr-defined]


@pytest.mark.parametrize("n", [20_000, pytest.param(MILLION, marks=SLOW)])
def test_seven_card_high_vs_treys(n: int) -> None:
    hands = random_hands(n, 7, seed=11)
    evaluator = treys.Evaluator()
    theirs = [evaluator.evaluate([treys.Card.new(str(c)) for c in h[:2]],
                                 [treys.Card.new(str(c)) for c in h[2:]]) for h in hands]
    ours = [high_value(h) for h in hands]
    assert_same_order(ours, theirs, lambda a, b: a < b, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n", [20_000, pytest.param(MILLION, marks=SLOW)])
def test_seven_card_high_vs_pokerkit(n: int) -> None:
    hands = random_hands(n, 7, seed=12)
    theirs = [_strength(pokerkit.StandardHighHand.from_game(_pk(h[:2]), _pk(h[2:]))) for h in hands]
    ours = [high_value(h) for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n", [2_000, pytest.param(MILLION, marks=SLOW)])
def test_omaha_vs_pokerkit(n: int) -> None:
    hands = random_hands(n, 9, seed=13)
    theirs = [_strength(pokerkit.OmahaHoldemHand.from_game(_pk(h[:4]), _pk(h[4:]))) for h in hands]
    ours = [best_omaha(h[:4], h[4:]).value for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n", [1_000, pytest.param(MILLION, marks=SLOW)])
def test_omaha_five_hole_vs_pokerkit(n: int) -> None:
    hands = random_hands(n, 10, seed=14)
    theirs = [_strength(pokerkit.OmahaHoldemHand.from_game(_pk(h[:5]), _pk(h[5:]))) for h in hands]
    ours = [best_omaha(h[:5], h[5:]).value for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n, size", [(20_000, 5), (5_000, 7),
                                     pytest.param(MILLION, 7, marks=SLOW)])
def test_ace_to_five_vs_pokerkit(n: int, size: int) -> None:
    hands = random_hands(n, size, seed=15)
    theirs = [_strength(pokerkit.RegularLowHand.from_game(_pk(h[:2]), _pk(h[2:]))) for h in hands]
    ours = [best_ace_to_five(h).value for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n", [20_000, pytest.param(MILLION, marks=SLOW)])
def test_deuce_to_seven_vs_pokerkit(n: int) -> None:
    hands = random_hands(n, 5, seed=16)
    theirs = [_strength(pokerkit.StandardLowHand(_pk(h))) for h in hands]
    ours = [best_deuce_to_seven(h).value for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


def test_three_card_vs_pokerkit_all_22100() -> None:
    hands = list(combinations(deck(), 3))
    theirs = [_strength(pokerkit.RhodeIslandHoldemHand(_pk(h))) for h in hands]
    ours = [three_value(h) for h in hands]
    assert_same_order(ours, theirs, _gt, lambda i: format_cards(hands[i]))


@pytest.mark.parametrize("n", [200_000, pytest.param(MILLION, marks=SLOW)])
def test_batch_seven_card_vs_phevaluator(n: int) -> None:
    pheval = pytest.importorskip("phevaluator")
    rng = np.random.default_rng(17)
    hands = np.argpartition(rng.random((n, 52), dtype=np.float32), 7, axis=1)[:, :7]
    ours = rank_batch(hands)
    theirs = np.array([pheval.evaluate_cards(*row) for row in hands.tolist()])
    order = np.argsort(ours, kind="stable")
    d_ours, d_theirs = np.diff(ours[order]), -np.diff(theirs[order])
    assert np.array_equal(d_ours > 0, d_theirs > 0)
    assert np.array_equal(d_ours == 0, d_theirs == 0)
