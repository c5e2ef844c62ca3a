"""The single-hand fast path: the value of the best five of 5 to 7 cards, pure Python.

Each card contributes one integer, read from a small table by its suit and
rank, and the hand's key is their sum:

- bits 0..15: a 4-bit counter per suit, started at 3, so that bit 3 of a
  nibble says "five or more of this suit" (a flush) for up to 12 cards;
- bits 16..32: base-5 digits counting the ranks 2..8 (the "low" ranks);
- bits 33..: base-5 digits counting the ranks 9..A (the "high" ranks).

A non-flush hand's value depends only on its rank multiset. Splitting the
multiset into its low and high parts keeps every table small and dense (no
hashing): ``OFFSET[n][low digits]`` is where the block of the low part starts,
``WITHIN[high digits]`` is the high part's place among high parts of its size,
and ``VALUES[n][offset + within]`` is the value: 49,205 values for seven cards,
18,395 for six, 6,175 for five. A flush looks up the flush suit's rank bit mask.

Seven cards, the common case, take one table read instead of three: each card
also carries a second term (``Card.key7``, ``cards.seven_key``) whose rank part
is a number chosen so that every multiset of seven ranks has its own sum
(``cards.SEVEN_RANK_TERMS``, at most 7,825,759), and ``SEVEN[sum]`` is the
value. That table (31 MB of 4-byte values, mostly empty) is spread out in
memory from the 49,205 sums kept beside ``VALUES[7]`` (``sums7``), when the
tables are filled; it is never built from the ranking rules again.

The tables are filled on the first call (about half a second) and never change
afterwards: ``high_value`` finds its value array empty, fills the tables in
place and tries again. Until then importing costs nothing.
"""

from __future__ import annotations

import threading
from array import array
from itertools import combinations
from typing import Iterator, Mapping, Sequence

from controller.cards import SEVEN_RANK_TERMS, Card, hand_key
from controller.hands.values import flush_value, value_from_counts

LOW_RANKS = range(2, 9)
HIGH_RANKS = range(9, 15)
_LOW_SHIFT, _HIGH_SHIFT = 16, 33
_LOW_MASK = (1 << (_HIGH_SHIFT - _LOW_SHIFT)) - 1
_SUIT_START = 0x3333
_FLUSH_BITS = 0x8888
_NIBBLE_SUIT = {3: "c", 7: "d", 11: "h", 15: "s"}
_LOW_SPAN, _HIGH_SPAN = 5 ** len(LOW_RANKS), 5 ** len(HIGH_RANKS)
_SEVEN_SPAN = 4 * SEVEN_RANK_TERMS[-1] + 3 * SEVEN_RANK_TERMS[-2] + 1  # the largest seven-rank sum, and one


CARD_KEY: dict[str, tuple[int, ...]] = {s: (0, 0) + tuple(hand_key(r, s) for r in range(2, 15)) for s in "cdhs"}
"""``CARD_KEY[suit][rank]``: one card's contribution to the hand key (``Card.key``, ``cards.hand_key``)."""

# Filled in place on first use (see _fill); allocated empty so that the hot
# path can bind them as default arguments.
_OFFSET = {n: array("i", bytes(4 * _LOW_SPAN)) for n in (5, 6, 7)}
_WITHIN = array("i", bytes(4 * _HIGH_SPAN))
_VALUES: dict[int, array[int]] = {n: array("i") for n in (5, 6, 7)}
_FLUSH = array("i")
_SUMS7 = array("i")
_SEVEN = array("i")  # SEVEN[sum of the seven cards' SEVEN_RANK_TERMS]: the value (0 where no multiset sums to it)


def _multisets(ranks: Sequence[int], size: int, most: int = 4) -> Iterator[tuple[int, ...]]:
    """Multisets of ``size`` ranks from ``ranks`` (ascending), each rank at most ``most`` times."""
    if size == 0:
        yield ()
        return
    if not ranks:
        return
    first, rest = ranks[0], ranks[1:]
    for n in range(min(most, size), -1, -1):
        for tail in _multisets(rest, size - n, most):
            yield (first,) * n + tail


def _digits(multiset: Sequence[int], base_rank: int) -> int:
    return sum(5 ** (r - base_rank) for r in multiset)


_FILL_LOCK = threading.Lock()


def _fill() -> None:
    """Fill the tables (once; later calls do nothing; safe if two threads race)."""
    with _FILL_LOCK:
        if not len(_FLUSH):
            _fill_locked()


def _fill_locked() -> None:
    """Build every table; the caller holds the lock and has seen them empty."""
    _install_locked(build_tables())


def build_tables() -> dict[str, list[int]]:
    """Every table of the fast path, by name (pure: what ``install`` takes and a cache may keep)."""
    out: dict[str, list[int]] = {}
    highs = {s: list(_multisets(HIGH_RANKS, s)) for s in range(8)}
    lows = {s: list(_multisets(LOW_RANKS, s)) for s in range(8)}
    within = [0] * _HIGH_SPAN
    for size, group in highs.items():
        for i, m in enumerate(group):
            within[_digits(m, 9)] = i
    out["within"] = within
    counts = [0] * 15
    for n in (5, 6, 7):
        values: list[int] = []
        offset = [0] * _LOW_SPAN
        sums: list[int] = []
        for s in range(n + 1):
            for low in lows[s]:
                offset[_digits(low, 2)] = len(values)
                for high in highs[n - s]:
                    for r in range(2, 15):
                        counts[r] = 0
                    for r in low + high:
                        counts[r] += 1
                    values.append(value_from_counts(counts))
                    if n == 7:
                        sums.append(sum(SEVEN_RANK_TERMS[r - 2] for r in low + high))
        out[f"offset{n}"], out[f"values{n}"] = offset, values
        if n == 7:
            out["sums7"] = sums
    flush = [0] * (1 << 15)
    for size in (5, 6, 7):
        for ranks in combinations(range(2, 15), size):
            mask = sum(1 << r for r in ranks)
            flush[mask] = flush_value(mask)
    out["flush"] = flush
    return out


def install(tables: dict[str, Sequence[int]]) -> None:
    """Use ``tables`` (as ``build_tables`` makes them, say from a cache) unless the tables are filled already."""
    with _FILL_LOCK:
        if not len(_FLUSH):
            _install_locked(tables)


def _install_locked(tables: Mapping[str, Sequence[int]]) -> None:
    if len(tables["within"]) != _HIGH_SPAN or any(len(tables[f"offset{n}"]) != _LOW_SPAN for n in (5, 6, 7)):
        raise ValueError("fast hand tables of the wrong size")
    sums7 = tables["sums7"]
    if len(sums7) != len(tables["values7"]) or min(sums7) < 0 or max(sums7) >= _SEVEN_SPAN:
        raise ValueError("fast hand tables of the wrong size")
    _WITHIN[:] = array("i", tables["within"])
    for n in (5, 6, 7):
        _OFFSET[n][:] = array("i", tables[f"offset{n}"])
        del _VALUES[n][:]
        _VALUES[n].extend(array("i", tables[f"values{n}"]))
    del _SUMS7[:]
    _SUMS7.extend(array("i", sums7))
    del _SEVEN[:]  # filled in place: high_value holds this array as a default argument
    _SEVEN.frombytes(bytes(4 * _SEVEN_SPAN))
    for place, value in zip(_SUMS7, _VALUES[7]):
        _SEVEN[place] = value
    _FLUSH.extend(array("i", tables["flush"]))  # last: a filled _FLUSH means every table is filled


def filled_tables() -> dict[str, Sequence[int]]:
    """The tables in use (filled first if they are not yet), by ``build_tables``'s names: for compiled walks."""
    _fill()
    out: dict[str, Sequence[int]] = {"within": _WITHIN, "flush": _FLUSH, "sums7": _SUMS7}
    for n in (5, 6, 7):
        out[f"offset{n}"], out[f"values{n}"] = _OFFSET[n], _VALUES[n]
    return out


def ready() -> None:
    """Fill the tables now (benchmarks call this so that timing excludes the build)."""
    _fill()


def general_value(cards: Sequence[Card]) -> int:
    """Any number of cards (>= 5): the rank-count value or the best flush."""
    counts = [0] * 15
    suit_masks = {"c": 0, "d": 0, "h": 0, "s": 0}
    for c in cards:
        counts[c.rank] += 1
        suit_masks[c.suit] |= 1 << c.rank
    best = value_from_counts(counts)
    for mask in suit_masks.values():
        if mask.bit_count() >= 5:
            best = max(best, flush_value(mask))
    return best


def _filled_then(cards: Sequence[Card]) -> int:
    """First call: fill the tables, then evaluate (a lookup failing later is a bug)."""
    if len(_FLUSH):
        raise IndexError("hand key outside the tables (repeated cards?)")
    _fill()
    return high_value(cards)


def high_value(cards: Sequence[Card], _s7: array[int] = _SEVEN,
               _o5: array[int] = _OFFSET[5], _v5: array[int] = _VALUES[5],
               _w: array[int] = _WITHIN) -> int:
    """The value of the best five of ``cards`` (five or more, no joker, no checks).

    This is the hot path for games and simulations: it does not validate its
    input (``controller.hands.high.best_high`` does, and names the hand).
    """
    try:  # seven cards, the common case: no len() call, one number per card (Card.key7), one table read
        a, b, c, d, e, f, g = cards
    except ValueError:
        n = len(cards)
    else:
        # literals, not the module's names, on this path: 0x3333 _SUIT_START, 0x8888 _FLUSH_BITS,
        # 16 _LOW_SHIFT (tests/controller/hands/test_fast.py holds them equal)
        t = 0x3333 + a.key7 + b.key7 + c.key7 + d.key7 + e.key7 + f.key7 + g.key7
        if not t & 0x8888:
            try:
                return _s7[t >> 16]
            except IndexError:
                return _filled_then(cards)
        return _flush_value(cards, t)
    if n == 5:
        a, b, c, d, e = cards
        t = _SUIT_START + a.key + b.key + c.key + d.key + e.key
        if not t & _FLUSH_BITS:
            try:
                return _v5[_o5[(t >> _LOW_SHIFT) & _LOW_MASK] + _w[t >> _HIGH_SHIFT]]
            except IndexError:
                return _filled_then(cards)
    elif n == 6:
        t = _SUIT_START
        for c in cards:
            t += c.key
        if not t & _FLUSH_BITS:
            _fill()
            return _VALUES[6][_OFFSET[6][(t >> _LOW_SHIFT) & _LOW_MASK] + _w[t >> _HIGH_SHIFT]]
    else:
        return general_value(cards)
    return _flush_value(cards, t)


def _flush_value(cards: Sequence[Card], t: int, _fl: array[int] = _FLUSH) -> int:
    """The flush of ``cards`` whose hand key ``t`` says five or more of one suit."""
    suit = _NIBBLE_SUIT[(t & _FLUSH_BITS).bit_length() - 1]
    mask = 0
    for c in cards:
        if c.suit == suit:
            mask |= 1 << c.rank
    try:
        return _fl[mask]
    except IndexError:
        return _filled_then(cards)
