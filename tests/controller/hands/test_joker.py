"""Joker decks: Pai Gow (straight/flush/straight flush, else an ace) and the Oasis wild joker."""

from __future__ import annotations

import pytest

from controller.cards import JOKER, parse_card, parse_cards
from controller.hands.high import HandError, best_high
from controller.hands.joker import oasis_joker_high, pai_gow_high


def _j(text: str) -> list:  # type: ignore[type-arg]
    return list(parse_cards(text)) + [JOKER]


@pytest.mark.parametrize("text, name, joker_as", [
    ("Ac Ad Ah As", "Five of a kind, aces", None),
    ("Kh Qh 9h 5h", "Flush, ace high", "Ah"),
    ("Ah Qh 9h 5h", "Flush, ace high", "Kh"),
    ("Th Jh Qh Kh", "Royal flush", "Ah"),
    ("9c Tc Jd Qh", "Straight, king high", "Kc"),
    ("Kc Kd 7h 2s", "Pair of kings", "Ac"),       # not three kings: only an ace otherwise
    ("Kc Kd Kh 2s", "Three of a kind, kings", "Ac"),
    ("Ac Ad 7h 2s", "Three of a kind, aces", "Ah"),
    ("Kc Kd 7h 7s", "Two pair, kings and sevens", "Ac"),
])
def test_pai_gow_joker(text: str, name: str, joker_as: str | None) -> None:
    hand = pai_gow_high(_j(text))
    assert hand.name == name
    assert hand.joker_as == (parse_card(joker_as) if joker_as else None)
    assert JOKER in hand.cards


def test_pai_gow_wheel_is_second_best_straight() -> None:
    broadway = pai_gow_high(parse_cards("Ac Kd Qh Js Tc")).value
    wheel = pai_gow_high(parse_cards("Ac 2d 3h 4s 5c")).value
    king = pai_gow_high(parse_cards("Kd Qh Js Tc 9c")).value
    assert broadway > wheel > king
    sf_royal = pai_gow_high(parse_cards("Ac Kc Qc Jc Tc")).value
    sf_wheel = pai_gow_high(parse_cards("Ac 2c 3c 4c 5c")).value
    sf_king = pai_gow_high(parse_cards("Kc Qc Jc Tc 9c")).value
    assert sf_royal > sf_wheel > sf_king
    assert pai_gow_high(_j("Ac Ad Ah As")).value > sf_royal
    # with the joker, 2-3-4-5 prefers the wheel (second-best) to a six-high straight
    assert pai_gow_high(_j("2c 3d 4h 5s")).name == "Straight, five high"


def test_pai_gow_seven_cards() -> None:
    hand = pai_gow_high(_j("2c 3d 4h 5s Kc Kd"))
    assert hand.category == "straight"
    assert len(hand.cards) == 5


@pytest.mark.parametrize("text, name, category", [
    ("7c 7d 7h 7s", "Five of a kind, sevens", "five_of_a_kind"),
    ("Kc Kd 7h 2s", "Three of a kind, kings", "three_of_a_kind"),
    ("Th Jh Qh Kh", "Royal flush", "straight_flush"),
    ("2c 3d 4h 5s", "Straight, six high", "straight"),
    ("Ac Kd 9h 5s", "Pair of aces", "pair"),
])
def test_oasis_wild_joker(text: str, name: str, category: str) -> None:
    hand = oasis_joker_high(_j(text))
    assert hand.name == name and hand.category == category


def test_oasis_five_of_a_kind_beats_royal() -> None:
    assert oasis_joker_high(_j("2c 2d 2h 2s")).value > oasis_joker_high(_j("Th Jh Qh Kh")).value


def test_natural_hands_unchanged() -> None:
    cards = parse_cards("Ac Kd 9h 5s 2c")
    assert oasis_joker_high(cards).value == best_high(cards).value
    assert oasis_joker_high(cards).joker_as is None


def test_two_jokers_rejected() -> None:
    with pytest.raises(HandError, match="one joker"):
        pai_gow_high(_j("Ac Kd 9h") + [JOKER])
    with pytest.raises(HandError, match="no joker"):
        best_high(_j("Ac Kd 9h 5s"))


def _reference_pai_gow(cards: tuple) -> int:  # type: ignore[type-arg]
    """Brute force: every five of the cards, the joker as every card the seed lets it be, on the Pai Gow scale."""
    from itertools import combinations

    from controller.cards import deck
    from controller.hands.fast import high_value
    from controller.hands.joker import pai_gow_scale
    from controller.hands.values import FLUSH, STRAIGHT, STRAIGHT_FLUSH, make_value, value_category

    best = 0
    for five in combinations(cards, 5):
        natural = tuple(c for c in five if not c.is_joker)
        if len(natural) == 5:
            best = max(best, pai_gow_scale(high_value(natural)))
            continue
        if sum(1 for c in natural if c.rank == 14) == 4:
            best = max(best, make_value(9, (14,)))  # four aces and the joker
            continue
        held = set(cards)
        for sub in deck():
            if sub in held:
                continue
            value = high_value(natural + (sub,))
            if sub.rank == 14 or value_category(value) in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
                best = max(best, pai_gow_scale(value))
    return best


def test_pai_gow_high_agrees_with_brute_force_on_random_seven_card_hands() -> None:
    # 4,004 seven-card hands of the 53-card deck (about one in eight holds the joker), plus the wheels that the
    # standard scale used to rank below a six-high straight once a sixth card was there
    import random

    from controller.cards import deck

    rng = random.Random(2026)
    cards = deck(jokers=1)
    hands = [tuple(rng.sample(cards, 7)) for _ in range(4004)]
    hands += [parse_cards("Ac 2d 3h 4s 5c 6d Kh"), parse_cards("Ac 2c 3c 4c 5c 6c Kh"),
              tuple(parse_cards("2d 3h 4s 6d 9c Kh")) + (JOKER,), tuple(parse_cards("Ac 2c 3c 4c 6c 9d")) + (JOKER,)]
    wrong = [h for h in hands if pai_gow_high(h).value != _reference_pai_gow(h)]
    assert not wrong, f"{len(wrong)} hands ranked wrong, the first: {' '.join(map(str, wrong[0]))}"


def test_a_wheel_beside_a_six_high_straight_is_the_wheel() -> None:
    assert pai_gow_high(parse_cards("Ac 2d 3h 4s 5c 6d Kh")).name == "Straight, five high"
    assert pai_gow_high(parse_cards("Ac 2c 3c 4c 5c 6c Kh")).name == "Straight flush, five high"


def test_pai_gow_value_is_the_named_hands_value() -> None:
    import random

    from controller.cards import deck
    from controller.hands.joker import pai_gow_value

    rng = random.Random(7)
    cards = deck(jokers=1)
    hands = [rng.sample(cards, size) for size in (5, 6, 7) for _ in range(300)]
    hands += [[*parse_cards(text), JOKER] for text in ("2h 5h 9h Kh 3c 7d", "Ah 2h 3h 4h 9c 9d", "Th Jh Qh Kh 2c 3c")]
    for hand in hands:
        assert pai_gow_value(hand) == pai_gow_high(hand).value, hand
