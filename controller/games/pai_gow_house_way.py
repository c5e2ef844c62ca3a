"""The Pai Gow Poker house way as data: a table of rules, and the engine that sets a hand by it.

A house way is a TOML table (the seed's is ``[house_way]`` in
``controller/paytables/pai-gow-poker.toml``; a casino's own is a file a table
configuration names) with a list of rules, tried in order; the first rule that
holds for the seven cards and gives a legal split (the front weaker than the
back) sets the hand. A rule is::

    [[house_way.rules]]
    id = "two-pair-low"            # its name in the outcome and the docs
    seed = "002 TVÅ PAR (1)"       # where the rule comes from
    hand = ["two_pair"]            # the shapes it is for (SHAPES)
    pairs_max = 6                  # conditions (CONDITIONS), all must hold
    front = ["single:1", "single:2"]   # the play: the two front cards ...
    # back = ["straight_flush", "flush", "straight"]   # ... or a made hand kept in the back

Cards group by rank with the joker counted as an ace (seed 002: the joker is
an ace unless it completes a straight, flush or straight flush), so four aces
and the joker are ``five_aces``. A made hand (``made``, ``back``) uses the
joker as the Pai Gow rule lets it. ``front`` selectors name cards by the
groups: ``pair:N`` (the N-th highest pair), ``single:N`` (the N-th highest card
outside every group), ``trips:N`` (two cards of the N-th highest three of a
kind), ``one_of_trips:N`` (one of them), ``quads`` (two of the four of a kind),
``aces`` (two of the five aces). ``back`` keeps a five of one of the named
categories in the back and puts the other two in front, choosing, of every
such five, the one that leaves the best front (then the best back).
``front_min`` (``["pair", 10]``, ``["high", 14, 11]``) is the least front the
play must reach for the rule to hold.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Mapping, Sequence

from controller.cards import Card, card_from_index, parse_card
from controller.hands.joker import pai_gow_value
from controller.hands.small import pai_gow_front
from controller.hands.values import (FLUSH, HIGH_CARD, PAIR, STRAIGHT, STRAIGHT_FLUSH, make_value, value_category,
                                     value_ranks)

SHAPES = ("no_pair", "pair", "two_pair", "three_pair", "trips", "two_trips", "full_house", "quads", "quads_pair",
          "quads_trips", "five_aces")
"""The rank shapes of seven cards (the joker counted as an ace), lowest first."""

MADE = {"straight": STRAIGHT, "flush": FLUSH, "straight_flush": STRAIGHT_FLUSH, "royal_flush": STRAIGHT_FLUSH}
CONDITIONS = ("pairs_max", "pairs_min", "high_pair", "low_pair", "any_pair", "single_ace", "trips", "quads", "made",
              "front_min")
RULE_KEYS = ("id", "seed", "hand", "front", "back", "note") + CONDITIONS
SELECTORS = ("pair", "single", "trips", "one_of_trips", "quads", "aces")


class HouseWayError(ValueError):
    """A house way that cannot be used: ``place`` names the rule and key."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__(f"{place}: {problem}")
        self.place = place
        self.problem = problem


# --------------------------------------------------------------------------- the seven cards


def rank_of(card: Card) -> int:
    """The rank a card groups by: the joker is an ace."""
    return 14 if card.is_joker else card.rank


@dataclass(frozen=True)
class Groups:
    """Seven cards by rank: the groups, highest first, and the cards outside them."""

    shape: str
    fives: tuple[int, ...]
    quads: tuple[int, ...]
    trips: tuple[int, ...]
    pairs: tuple[int, ...]
    singles: tuple[Card, ...]
    by_rank: Mapping[int, tuple[Card, ...]]


def group(cards: Sequence[Card]) -> Groups:
    counts = Counter(rank_of(c) for c in cards)
    by_rank = {r: tuple(sorted((c for c in cards if rank_of(c) == r), key=lambda c: (c.is_joker, c.suit)))
               for r in counts}

    def ranks(n: int) -> tuple[int, ...]:
        return tuple(sorted((r for r, k in counts.items() if k == n), reverse=True))

    fives, quads, trips, pairs = ranks(5), ranks(4), ranks(3), ranks(2)
    singles = tuple(sorted((c for c in cards if counts[rank_of(c)] == 1), key=lambda c: (rank_of(c), c.is_joker),
                           reverse=True))
    if fives:
        shape = "five_aces"
    elif quads:
        shape = "quads_trips" if trips else "quads_pair" if pairs else "quads"
    elif len(trips) == 2:
        shape = "two_trips"
    elif trips:
        shape = "full_house" if pairs else "trips"
    else:
        shape = ("no_pair", "pair", "two_pair", "three_pair")[len(pairs)]
    return Groups(shape, fives, quads, trips, pairs, singles, by_rank)


def front_value(front: Sequence[Card]) -> int:
    return pai_gow_front(front).value


def back_value(back: Sequence[Card]) -> int:
    return pai_gow_value(back)


def legal(front: Sequence[Card], back: Sequence[Card]) -> bool:
    """The front (two cards) weaker than the back (five): seed 002, 'Tvåkortshanden ... måste vara sämre'."""
    return front_value(front) < back_value(back)


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rule:
    id: str
    seed: str
    hands: tuple[str, ...]
    conditions: Mapping[str, Any]
    front: tuple[tuple[str, int], ...]
    back: tuple[str, ...]

    @property
    def unconditional(self) -> bool:
        return not self.conditions


def _int(place: str, value: Any, low: int = 2, high: int = 14) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HouseWayError(place, f"a rank from {low} to {high} (jack 11, queen 12, king 13, ace 14), not {value!r}")
    return value


def _range(place: str, value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise HouseWayError(place, f"[lowest, highest] ranks, such as [11, 13] for jacks to kings, not {value!r}")
    low, high = _int(f"{place}[0]", value[0]), _int(f"{place}[1]", value[1])
    if high < low:
        raise HouseWayError(place, f"the highest rank {high} is below the lowest {low}")
    return low, high


def _front_min(place: str, value: Any) -> int:
    if not isinstance(value, list) or not value or value[0] not in ("pair", "high"):
        raise HouseWayError(place, f"['pair', rank] or ['high', rank, rank] (the least front), not {value!r}")
    ranks = [_int(f"{place}[{i + 1}]", r) for i, r in enumerate(value[1:])]
    if value[0] == "pair" and len(ranks) != 1 or value[0] == "high" and not 1 <= len(ranks) <= 2:
        raise HouseWayError(place, "['pair', rank] or ['high', rank] or ['high', rank, rank]")
    return make_value(PAIR if value[0] == "pair" else HIGH_CARD, ranks)


def _selector(place: str, text: Any) -> tuple[str, int]:
    if not isinstance(text, str):
        raise HouseWayError(place, f"a selector such as 'pair:1' or 'single:2', not {text!r}")
    name, _, number = text.partition(":")
    if name not in SELECTORS:
        raise HouseWayError(place, f"{text!r}: a selector is one of {', '.join(SELECTORS)} (with ':N' where it counts)")
    if name in ("quads", "aces"):
        if number:
            raise HouseWayError(place, f"{text!r}: '{name}' takes no number")
        return name, 1
    if not number.isdigit() or not 1 <= int(number) <= 7:
        raise HouseWayError(place, f"{text!r}: '{name}' needs a number from 1, such as '{name}:1'")
    return name, int(number)


def parse_rule(place: str, data: Any) -> Rule:
    if not isinstance(data, Mapping):
        raise HouseWayError(place, "a rule is a table with id, hand and front (or back)")
    for key in data:
        if key not in RULE_KEYS:
            raise HouseWayError(f"{place}.{key}", f"not a key of a rule (keys: {', '.join(RULE_KEYS)})")
    rule_id = data.get("id")
    if not isinstance(rule_id, str) or not rule_id:
        raise HouseWayError(f"{place}.id", "every rule needs an id (text)")
    hands = data.get("hand")
    if isinstance(hands, str):
        hands = [hands]
    if not isinstance(hands, list) or not hands or any(h not in SHAPES for h in hands):
        raise HouseWayError(f"{place}.hand", f"a list of shapes from: {', '.join(SHAPES)}")
    conditions: dict[str, Any] = {}
    for key in ("pairs_max", "pairs_min"):
        if key in data:
            conditions[key] = _int(f"{place}.{key}", data[key])
    for key in ("high_pair", "low_pair", "any_pair", "trips", "quads"):
        if key in data:
            conditions[key] = _range(f"{place}.{key}", data[key])
    if "single_ace" in data:
        if not isinstance(data["single_ace"], bool):
            raise HouseWayError(f"{place}.single_ace", "true or false (an ace, or the joker, outside every group)")
        conditions["single_ace"] = data["single_ace"]
    if "made" in data:
        made = data["made"]
        if isinstance(made, str):
            made = [made]
        if not isinstance(made, list) or not made or any(m not in MADE for m in made):
            raise HouseWayError(f"{place}.made", f"a list from: {', '.join(MADE)}")
        conditions["made"] = tuple(made)
    if "front_min" in data:
        conditions["front_min"] = _front_min(f"{place}.front_min", data["front_min"])
    front: tuple[tuple[str, int], ...] = ()
    back: tuple[str, ...] = ()
    if ("front" in data) == ("back" in data):
        raise HouseWayError(place, "a rule plays either 'front' (the two front cards) or 'back' (a made hand)")
    if "front" in data:
        if not isinstance(data["front"], list) or not data["front"]:
            raise HouseWayError(f"{place}.front", "a list of selectors naming the two front cards")
        front = tuple(_selector(f"{place}.front[{i}]", s) for i, s in enumerate(data["front"]))
        size = sum(1 if name in ("single", "one_of_trips") else 2 for name, _ in front)
        if size != 2:
            raise HouseWayError(f"{place}.front", f"the selectors name {size} cards; the front hand has two")
    else:
        names = data["back"]
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names or any(n not in MADE or n == "royal_flush" for n in names):
            raise HouseWayError(f"{place}.back", "a list from: straight_flush, flush, straight")
        back = tuple(names)
    return Rule(rule_id, str(data.get("seed", "")), tuple(hands), conditions, front, back)


@dataclass(frozen=True)
class HouseWay:
    name: str
    rules: tuple[Rule, ...]

    def rule(self, rule_id: str) -> Rule:
        return next(r for r in self.rules if r.id == rule_id)


def parse_house_way(data: Any, place: str = "house_way", check: bool = False) -> HouseWay:
    """The house way of a TOML table, checked: every key known, every shape covered; with ``check`` every
    sample hand (``SAMPLE_HANDS``) must be set legally by it too."""
    if not isinstance(data, Mapping):
        raise HouseWayError(place, "a house way is a table with 'name' and a list of 'rules'")
    for key in data:
        if key not in ("name", "seed", "rules", "note"):
            raise HouseWayError(f"{place}.{key}", "not a key of a house way (name, seed, rules, note)")
    rules_data = data.get("rules")
    if not isinstance(rules_data, list) or not rules_data:
        raise HouseWayError(f"{place}.rules", "a list of rules ([[house_way.rules]] tables)")
    rules = tuple(parse_rule(f"{place}.rules[{i}]", r) for i, r in enumerate(rules_data))
    seen: set[str] = set()
    for i, rule in enumerate(rules):
        if rule.id in seen:
            raise HouseWayError(f"{place}.rules[{i}].id", f"{rule.id!r} is the id of an earlier rule too")
        seen.add(rule.id)
    for shape in SHAPES:
        if not any(shape in r.hands and r.unconditional for r in rules):
            raise HouseWayError(f"{place}.rules", f"no rule without conditions for the shape {shape!r}: a hand of "
                                                  "that shape could be left unset")
    way = HouseWay(str(data.get("name", "house way")), rules)
    for hand in SAMPLE_HANDS if check else ():
        try:
            set_hand(way, hand)
        except HouseWayError as exc:
            raise HouseWayError(place, exc.problem) from None
    return way


# --------------------------------------------------------------------------- the engine


def _could_make(cards: Sequence[Card]) -> bool:
    """Whether five of the cards could make a straight or a flush at all (a quick look before the fives)."""
    joker = any(c.is_joker for c in cards)
    need = 4 if joker else 5
    if max(Counter(c.suit for c in cards if not c.is_joker).values()) >= need:
        return True
    ranks = {c.rank for c in cards if not c.is_joker}
    if 14 in ranks:
        ranks.add(1)
    return any(len(ranks & set(range(low, low + 5))) >= need for low in range(1, 11))


def made_fives(cards: Sequence[Card]) -> tuple[tuple[tuple[Card, ...], int, str], ...]:
    """Every five of ``cards`` that is a straight, flush or straight flush: (five, back value, made name);
    a royal flush is named ``royal_flush``."""
    if not _could_make(cards):
        return ()
    out = []
    for five in combinations(cards, 5):
        value = pai_gow_value(five)
        category = value_category(value)
        if category in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            name = {STRAIGHT: "straight", FLUSH: "flush"}.get(category, "straight_flush")
            royal = category == STRAIGHT_FLUSH and value_ranks(value)[0] == 15
            out.append((five, value, "royal_flush" if royal else name))
    return tuple(out)


def _made_fives(made: Sequence[tuple[tuple[Card, ...], int, str]],
                names: Sequence[str]) -> list[tuple[tuple[Card, ...], int]]:
    """The fives of ``made`` of the named categories (a royal flush is a straight flush too)."""
    return [(five, value) for five, value, name in made
            if name in names or name == "royal_flush" and "straight_flush" in names]


def _holds(rule: Rule, g: Groups, made: Sequence[tuple[tuple[Card, ...], int, str]]) -> bool:
    c = rule.conditions
    pairs = g.pairs
    if "pairs_max" in c and not (pairs and max(pairs) <= c["pairs_max"]):
        return False
    if "pairs_min" in c and not (pairs and min(pairs) >= c["pairs_min"]):
        return False
    for key, rank in (("high_pair", pairs[0] if pairs else None), ("low_pair", pairs[-1] if pairs else None)):
        if key in c and (rank is None or not c[key][0] <= rank <= c[key][1]):
            return False
    if "any_pair" in c and not any(c["any_pair"][0] <= p <= c["any_pair"][1] for p in pairs):
        return False
    if "single_ace" in c and c["single_ace"] != any(rank_of(s) == 14 for s in g.singles):
        return False
    if "trips" in c and not (g.trips and c["trips"][0] <= g.trips[0] <= c["trips"][1]):
        return False
    if "quads" in c and not (g.quads and c["quads"][0] <= g.quads[0] <= c["quads"][1]):
        return False
    if "made" in c and not _made_fives(made, c["made"]):
        return False
    return True


def _front_cards(rule: Rule, g: Groups) -> list[Card] | None:
    chosen: list[Card] = []
    for name, n in rule.front:
        if name == "single":
            picked = g.singles[n - 1:n]
        elif name == "pair":
            picked = g.by_rank[g.pairs[n - 1]] if len(g.pairs) >= n else ()
        elif name in ("trips", "one_of_trips"):
            picked = g.by_rank[g.trips[n - 1]][:2 if name == "trips" else 1] if len(g.trips) >= n else ()
        elif name == "quads":
            picked = g.by_rank[g.quads[0]][:2] if g.quads else ()
        else:  # aces
            picked = g.by_rank[g.fives[0]][:2] if g.fives else ()
        want = 1 if name in ("single", "one_of_trips") else 2
        if len(picked) < want or any(c in chosen for c in picked):
            return None
        chosen.extend(picked)
    return chosen


@dataclass(frozen=True)
class SetHand:
    """A hand set by the house way: the front two, the back five and the rule that set them."""

    front: tuple[Card, ...]
    back: tuple[Card, ...]
    rule: str


def _play(rule: Rule, g: Groups, cards: Sequence[Card],
          made: Sequence[tuple[tuple[Card, ...], int, str]]) -> SetHand | None:
    if not _holds(rule, g, made):
        return None
    least = rule.conditions.get("front_min")
    if rule.front:
        chosen = _front_cards(rule, g)
        if chosen is None:
            return None
        back = [c for c in cards if c not in chosen]
        if not legal(chosen, back) or least is not None and front_value(chosen) < least:
            return None
        return SetHand(tuple(chosen), tuple(back), rule.id)
    best: tuple[int, int, tuple[Card, ...], tuple[Card, ...]] | None = None
    for five, value in _made_fives(made, rule.back):
        front = tuple(c for c in cards if c not in five)
        key = (front_value(front), value)
        if legal(front, five) and (best is None or key > best[:2]):
            best = (key[0], key[1], front, five)
    if best is None or least is not None and best[0] < least:
        return None
    return SetHand(best[2], best[3], rule.id)


def set_hand(way: HouseWay, cards: Sequence[Card]) -> SetHand:
    """Set seven cards by the house way: the first rule that holds and gives a legal split."""
    cards = tuple(cards)
    g = group(cards)
    made = made_fives(cards)
    for rule in way.rules:
        if g.shape in rule.hands:
            played = _play(rule, g, cards, made)
            if played is not None:
                return played
    raise HouseWayError("house_way.rules", f"no rule sets {' '.join(map(str, cards))} (a {g.shape.replace('_', ' ')})"
                                           " legally: add a rule for it")


def _samples() -> tuple[tuple[Card, ...], ...]:
    """A fixed spread of seven-card hands of the 53-card deck (every shape, with and without the joker)."""
    out = []
    for start in range(0, 53 * 9, 7):
        indices = sorted({(start + step * k * k + k) % 53 for k, step in zip(range(7), (1, 13, 4, 17, 9, 26, 5))})
        if len(indices) == 7:
            out.append(tuple(card_from_index(i) for i in indices))
    for text in ("Ac Ad Ah As JK Kc Kd", "Ac Ad Ah As JK 2c 3d", "7c 7d 7h 7s 9c 9d 9h", "2c 2d 2h 2s Kc Kd 5h",
                 "Kc Kd Kh Ks 3c 3d 3h", "Ac Kc Qc Jc Tc 2d 2h", "9h 9d 9s 5c 5d 2h 2s", "Ac Ah Ad Ks Qd 7c 2h"):
        out.append(tuple(parse_card(t) for t in text.split()))
    return tuple(out)


SAMPLE_HANDS = _samples()
