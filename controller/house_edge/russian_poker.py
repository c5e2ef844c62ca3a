"""House edge of Russian Poker: the bonus exact, the game under the stated strategy simulated.

Bonus (``--exact``): every five-card hand of the 52-card deck is ranked in batch (``controller.hands.batch``) and
counted by paytable key; the counts settle through the game's ``bonus_result``. The bonus is figured for a box that
plays its first five cards (a fold, a bought or an exchanged card loses it: the box's choice, priced below).

The game (``--simulate N``): N rounds of one box against the dealer, each from a freshly shuffled deck, the box
playing the stated strategy of ``controller.games.russian_poker`` (``strategy``, ``insures``, ``buys_dealer``) and
settled by its rules (``raise_line``, ``box_results``, ``insurance_result``). So that 50 million rounds take
minutes, the rounds are played by a compiled kernel (numba) that implements the same rules on card numbers; the
kernel reads the game's paytable, and ``check`` (run by the tests and before every simulation) plays rounds through the
game's own round (``RussianRound``, event by event, with its ``suggested`` decisions) on the same decks and holds
the kernel's net to the round's settlements, round by round. Figures per ante: the ante, raise and fees
(``game``), the insurance per unit insured (``insurance``) and both together (``with_insurance``), each with a
95 % interval.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
from numba import njit

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets
from controller.games.contract import Accepted, GameSpec, RoundConfig, Settlement
from controller.games.russian_poker import RussianRound, bonus_result, buys_dealer, insures
from controller.hands.high import HighHand, best_high
from controller.hands.russian import RUSSIAN_CLASSES
from controller.house_edge.ultimate_texas_holdem import KEYS, key_counts

CHUNK = 1 << 20
SUITS = "shdc"


def card_of(number: int) -> Card:
    """The kernel's card number (rank 2..14 as ``number // 4 + 2``, suit ``SUITS[number % 4]``) as a Card."""
    return Card(number // 4 + 2, SUITS[number % 4])


# --------------------------------------------------------------------------- the paytable as arrays


def tables(config: RoundConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """The raise's single lines by class (``RUSSIAN_CLASSES`` order), the two-combination lines as a matrix of
    classes (lower first) and the three pairs' line, as odds (paid per one)."""
    paytable = config.paytable
    single = np.zeros(len(RUSSIAN_CLASSES), dtype=np.float64)
    for i, key in enumerate(RUSSIAN_CLASSES):
        paid, per = paytable["raise"][key]
        single[i] = paid / per
    pairs = np.zeros((len(RUSSIAN_CLASSES), len(RUSSIAN_CLASSES)), dtype=np.float64)
    lines = dict(paytable["two_combinations"])
    if config["lost_line"]:
        lines.update(paytable["lost_lines"])
    three = 0.0
    for key, (paid, per) in lines.items():
        if key == "three_pairs":
            three = paid / per
            continue
        low, high = key.split("+")
        pairs[RUSSIAN_CLASSES.index(low), RUSSIAN_CLASSES.index(high)] = paid / per
    return single, pairs, three


# --------------------------------------------------------------------------- the kernel


@njit(cache=True)
def _value5(ranks: np.ndarray, suits: np.ndarray) -> int:
    """A five-card hand's value: category << 20 then the tie-break ranks, 4 bits each (higher wins, equal ties)."""
    counts = np.zeros(15, dtype=np.int64)
    for i in range(5):
        counts[ranks[i]] += 1
    flush = True
    for i in range(1, 5):
        if suits[i] != suits[0]:
            flush = False
    distinct = 0
    top = 0
    low = 15
    for r in range(2, 15):
        if counts[r] > 0:
            distinct += 1
            top = max(top, r)
            low = min(low, r)
    straight = 0
    if distinct == 5:
        if top - low == 4:
            straight = top
        elif counts[14] == 1 and counts[2] == 1 and counts[3] == 1 and counts[4] == 1 and counts[5] == 1:
            straight = 5
    if straight and flush:
        return 8 << 20 | straight << 16
    packed = 0
    shape0 = 0
    shape1 = 0
    for n in range(4, 0, -1):
        for r in range(14, 1, -1):
            if counts[r] == n:
                packed = packed << 4 | r
                if shape0 == 0:
                    shape0 = n
                elif shape1 == 0:
                    shape1 = n
    if shape0 == 4:
        category = 7
    elif shape0 == 3 and shape1 == 2:
        category = 6
    elif flush:
        category = 5
    elif straight:
        return 4 << 20 | straight << 16
    elif shape0 == 3:
        category = 3
    elif shape0 == 2 and shape1 == 2:
        category = 2
    elif shape0 == 2:
        category = 1
    else:
        category = 0
    return category << 20 | packed


@njit(cache=True)
def _best(ranks: np.ndarray, suits: np.ndarray, n: int) -> int:
    """The best five of ``n`` (5 or 6) cards."""
    if n == 5:
        return _value5(ranks[:5], suits[:5])
    best = 0
    r5 = np.empty(5, dtype=np.int64)
    s5 = np.empty(5, dtype=np.int64)
    for skip in range(n):
        k = 0
        for i in range(n):
            if i != skip:
                r5[k] = ranks[i]
                s5[k] = suits[i]
                k += 1
        best = max(best, _value5(r5, s5))
    return best


@njit(cache=True)
def _class_of_value(value: int, ranks_top: int, second: int) -> int:
    """The class index (``RUSSIAN_CLASSES``) of a best-five value: ace-king 0 .. royal flush 9; -1 below ace-king."""
    category = value >> 20
    if category == 8:
        return 9 if (value >> 16) & 15 == 14 else 8
    if category == 0:
        return 0 if ranks_top == 14 and second == 13 else -1
    return category


@njit(cache=True)
def _single(value: int) -> int:
    """The class of a best-five value (ace-king from its two top ranks)."""
    return _class_of_value(value, (value >> 16) & 15, (value >> 12) & 15)


@njit(cache=True)
def _subset_class(ranks: np.ndarray, suits: np.ndarray, mask: int, n: int) -> int:
    """The class a set of cards (a bit mask over the hand) forms by itself, as ``controller.hands.russian``."""
    size = 0
    r5 = np.empty(5, dtype=np.int64)
    s5 = np.empty(5, dtype=np.int64)
    for i in range(n):
        if mask >> i & 1:
            if size == 5:
                return -1
            r5[size] = ranks[i]
            s5[size] = suits[i]
            size += 1
    if size == 2:
        if r5[0] == r5[1]:
            return 1
        return 0 if (r5[0] == 14 and r5[1] == 13) or (r5[0] == 13 and r5[1] == 14) else -1
    if size == 3:
        return 3 if r5[0] == r5[1] and r5[1] == r5[2] else -1
    if size == 4:
        a = min(min(r5[0], r5[1]), min(r5[2], r5[3]))
        same = 0
        for i in range(4):
            if r5[i] == a:
                same += 1
        if same == 4:
            return 7
        if same != 2:
            return -1
        b = -1
        for i in range(4):
            if r5[i] != a:
                if b == -1:
                    b = r5[i]
                elif r5[i] != b:
                    return -1
        return 2
    if size == 5:
        value = _value5(r5, s5)
        category = value >> 20
        if category == 8:
            return 9 if (value >> 16) & 15 == 14 else 8
        if category == 4 or category == 5 or category == 6:
            return category
    return -1


@njit(cache=True)
def _line(ranks: np.ndarray, suits: np.ndarray, n: int, single: np.ndarray, pairs: np.ndarray, three: float) -> float:
    """What a winning raise is paid per unit: the best of the hand's own line and its two-combination lines."""
    best = 0.0
    own = _single(_best(ranks, suits, n))
    if own >= 0:
        best = single[own]
    masks = np.empty(64, dtype=np.int64)
    classes = np.empty(64, dtype=np.int64)
    found = 0
    for mask in range(1, 1 << n):
        bits = 0
        for i in range(n):
            bits += mask >> i & 1
        if bits < 2 or bits > 5:
            continue
        c = _subset_class(ranks, suits, mask, n)
        if c >= 0:
            masks[found] = mask
            classes[found] = c
            found += 1
    for i in range(found):
        for j in range(i + 1, found):
            if masks[i] & ~masks[j] and masks[j] & ~masks[i]:
                lo = min(classes[i], classes[j])
                hi = max(classes[i], classes[j])
                best = max(best, pairs[lo, hi])
    counts = np.zeros(15, dtype=np.int64)
    for i in range(n):
        counts[ranks[i]] += 1
    doubles = 0
    for r in range(2, 15):
        if counts[r] == 2:
            doubles += 1
    if doubles == 3:
        best = max(best, three)
    return best


@njit(cache=True)
def _qualifies(value: int) -> bool:
    return value >> 20 > 0 or ((value >> 16) & 15 == 14 and (value >> 12) & 15 == 13)


@njit(cache=True)
def _play(order: np.ndarray, most: int, single: np.ndarray, pairs: np.ndarray, three: float,
          out: np.ndarray) -> None:
    """One round from the deck ``order`` (box: 0, 2, 4, 6, 8; dealer: 1, 3, 5, 7, 9; then the cards drawn, then the
    dealer's new card). ``out``: game net, staked, insurance net, insured, decision (0 fold 1 raise), drew (0 none
    1 buy 2 exchange), dealer opened, bought the dealer a game; nets per ante."""
    ranks = np.empty(6, dtype=np.int64)
    suits = np.empty(6, dtype=np.int64)
    for i in range(5):
        ranks[i] = order[2 * i] // 4 + 2
        suits[i] = order[2 * i] % 4
    dranks = np.empty(5, dtype=np.int64)
    dsuits = np.empty(5, dtype=np.int64)
    for i in range(5):
        dranks[i] = order[2 * i + 1] // 4 + 2
        dsuits[i] = order[2 * i + 1] % 4
    nxt = 10
    n = 5
    net = 0.0
    staked = 1.0
    drew = 0
    value = _value5(ranks[:5], suits[:5])
    raised = value >> 20 > 0
    if not raised:
        flush4 = False
        for s in range(4):
            k = 0
            for i in range(5):
                if suits[i] == s:
                    k += 1
            if k == 4:
                flush4 = True
        present = np.zeros(15, dtype=np.int64)
        for i in range(5):
            present[ranks[i]] = 1
            if ranks[i] == 14:
                present[1] = 1
        run4 = False
        for low in range(1, 12):
            if present[low] and present[low + 1] and present[low + 2] and present[low + 3]:
                run4 = True
        if not (flush4 or run4) and most < 3:  # no exchange of two: a fold
            out[0] = -1.0
            out[1] = 1.0
            out[2] = 0.0
            out[3] = 0.0
            out[4] = 0.0
            out[5] = 0.0
            out[6] = 1.0 if _qualifies(_value5(dranks, dsuits)) else 0.0
            out[7] = 0.0
            return
        net -= 1.0
        staked += 1.0
        if flush4 or run4:
            drew = 1
            ranks[5] = order[nxt] // 4 + 2
            suits[5] = order[nxt] % 4
            nxt += 1
            n = 6
        else:
            drew = 2
            given = 0
            for r in range(2, 12):  # the cards below a queen, lowest first (five ranks: no two equal)
                for i in range(5):
                    if ranks[i] == r and given < most:
                        ranks[i] = order[nxt] // 4 + 2
                        suits[i] = order[nxt] % 4
                        nxt += 1
                        given += 1
                        ranks[i] = -ranks[i]  # not looked at again in this pass
            for i in range(5):
                ranks[i] = abs(ranks[i])
        value = _best(ranks, suits, n)
        raised = value >> 20 > 0
    out[4] = 1.0 if raised else 0.0
    out[5] = drew
    dealer = _value5(dranks, dsuits)
    out[6] = 1.0 if _qualifies(dealer) else 0.0
    out[7] = 0.0
    out[2] = 0.0
    out[3] = 0.0
    if not raised:
        out[0] = net - 1.0
        out[1] = staked
        return
    staked += 2.0
    if value >> 20 >= 3:  # insurance of the ante against the dealer's hand as opened
        out[3] = 1.0
        if not _qualifies(dealer):
            out[2] = 1.0
        elif dealer < value:
            out[2] = -1.0
    if _qualifies(dealer):
        if value > dealer:
            net += 2.0 * _line(ranks, suits, n, single, pairs, three)
        elif value < dealer:
            net -= 3.0
    else:
        line = _line(ranks, suits, n, single, pairs, three)
        if line >= 4.0:  # buys the dealer a game: he replaces his highest card
            out[7] = 1.0
            net -= 1.0
            staked += 1.0
            high = 0
            for i in range(5):
                if dranks[i] > dranks[high]:
                    high = i
            dranks[high] = order[nxt] // 4 + 2
            dsuits[high] = order[nxt] % 4
            nxt += 1
            dealer = _value5(dranks, dsuits)
            if _qualifies(dealer):
                if value > dealer:
                    net += 2.0 * line
                elif value < dealer:
                    net -= 3.0
        else:
            net += 1.0
    out[0] = net
    out[1] = staked


@njit(cache=True)
def _run(rounds: int, seed: int, most: int, single: np.ndarray, pairs: np.ndarray, three: float) -> np.ndarray:
    """``rounds`` rounds from shuffled decks: sums of game net, its square, staked, insurance net, its square,
    insured, folds, buys, exchanges, dealer opened, bought the dealer a game."""
    np.random.seed(seed)
    deck = np.arange(52)
    out = np.zeros(8)
    sums = np.zeros(11)
    for _ in range(rounds):
        for i in range(17):
            j = np.random.randint(i, 52)
            deck[i], deck[j] = deck[j], deck[i]
        _play(deck, most, single, pairs, three, out)
        sums[0] += out[0]
        sums[1] += out[0] * out[0]
        sums[2] += out[1]
        sums[3] += out[2]
        sums[4] += out[2] * out[2]
        sums[5] += out[3]
        sums[6] += 1.0 - out[4]
        sums[7] += 1.0 if out[5] == 1 else 0.0
        sums[8] += 1.0 if out[5] == 2 else 0.0
        sums[9] += out[6]
        sums[10] += out[7]
    return sums


@njit(cache=True)
def _play_many(orders: np.ndarray, most: int, single: np.ndarray, pairs: np.ndarray, three: float) -> np.ndarray:
    results = np.zeros((len(orders), 8))
    for k in range(len(orders)):
        _play(orders[k], most, single, pairs, three, results[k])
    return results


@njit(cache=True)
def _lines(hands: np.ndarray, n: int, single: np.ndarray, pairs: np.ndarray, three: float) -> np.ndarray:
    """The raise's line (per unit) of each row of ``hands`` (card numbers, ``n`` a row)."""
    out = np.zeros(len(hands))
    ranks = np.empty(6, dtype=np.int64)
    suits = np.empty(6, dtype=np.int64)
    for k in range(len(hands)):
        for i in range(n):
            ranks[i] = hands[k, i] // 4 + 2
            suits[i] = hands[k, i] % 4
        out[k] = _line(ranks, suits, n, single, pairs, three)
    return out


def kernel_lines(config: RoundConfig, hands: np.ndarray) -> np.ndarray:
    """The kernel's raise line for each row of card numbers (for the tests against ``raise_line``)."""
    single, pairs, three = tables(config)
    return _lines(np.asarray(hands, dtype=np.int64), hands.shape[1], single, pairs, three)


# --------------------------------------------------------------------------- the kernel held to the game's round


def play_round(config: RoundConfig, order: np.ndarray) -> tuple[float, float]:
    """One round of one box (ante 100) played through ``RussianRound`` on the deck ``order``, every decision the
    stated strategy's: (game net, insurance net) per ante, from the round's settlements."""
    round_ = RussianRound(config)
    cards = iter(card_of(int(c)) for c in order)
    opening: list[Any] = [Bet(1, "ante", 100), CloseBets()] + [CardOut(next(cards)) for _ in range(10)]
    for first in opening:
        assert isinstance(round_.apply(first), Accepted), first
    while not round_.complete:
        if round_.owed:
            event: Any = CardOut(next(cards))
        elif round_.phase == "decide":
            event = round_.suggested(1)
        elif round_.phase == "insure":
            event = Action(1, "insurance") if insures(best_high(round_.hands[1])) else CloseBets()
        elif round_.phase == "buy":
            event = Action(1, "buy_dealer") if buys_dealer(round_.line_of(1)) and 1 not in round_.buyers \
                else CloseBets()
        else:
            raise AssertionError(round_.waiting_for())
        answer = round_.apply(event)
        assert isinstance(answer, Accepted), (event, answer)
    settlements: tuple[Settlement, ...] = tuple(round_.settlements())
    game = sum(s.net or 0 for s in settlements if s.spot != "insurance") / 100
    insurance = sum(s.net or 0 for s in settlements if s.spot == "insurance") / 100
    return game, insurance


def check(config: RoundConfig, rounds: int, seed: int) -> int:
    """Play ``rounds`` decks through the kernel and through the game's round; raise on the first round where the
    nets differ. Returns the rounds checked."""
    rng = np.random.default_rng(seed)
    orders = np.array([rng.permutation(52)[:17] for _ in range(rounds)], dtype=np.int64)
    single, pairs, three = tables(config)
    results = _play_many(orders, int(config.paytable[config.variant]["exchange_cards"]), single, pairs, three)
    for k in range(rounds):
        game, insurance = play_round(config, orders[k])
        if abs(game - results[k, 0]) > 1e-9 or abs(insurance - results[k, 2]) > 1e-9:
            raise AssertionError(f"round {k}: the kernel says {results[k, 0]}, {results[k, 2]}, the round "
                                 f"{game}, {insurance} ({' '.join(str(card_of(int(c))) for c in orders[k])})")
    return rounds


# --------------------------------------------------------------------------- the figures


def _stand_in(key: str) -> HighHand:
    if key == "royal_flush":
        return HighHand("straight_flush", True, 0, (), "")
    return HighHand(key, False, 0, (), "")


def bonus_exact(config: RoundConfig) -> dict[str, Any]:
    table = config.paytable["bonus"]
    counts = dict(zip(KEYS, key_counts(5)))
    total = sum(counts.values())
    ev = 0.0
    for key, n in counts.items():
        result, odds = bonus_result(table, _stand_in(key))
        ev += n * (odds.paid / odds.per if result == "win" and odds else -1.0)
    return {"house_edge_percent": -100 * ev / total, "hands": total,
            "note": "a box that plays its first five cards (a fold, a bought or exchanged card loses the bonus)"}


def simulate(config: RoundConfig, rounds: int, seed: int, progress: Any = None) -> dict[str, Any]:
    single, pairs, three = tables(config)
    most = int(config.paytable[config.variant]["exchange_cards"])
    totals = np.zeros(11)
    done = 0
    while done < rounds:
        n = min(CHUNK, rounds - done)
        totals += _run(n, seed * 1_000_003 + done // CHUNK, most, single, pairs, three)
        done += n
        if progress is not None:
            progress(done)
    sums = [float(x) for x in totals]
    mean = sums[0] / rounds
    half = 1.96 * math.sqrt(max(0.0, sums[1] / rounds - mean * mean) / rounds)
    insured = sums[5]
    ins_mean = sums[3] / insured if insured else 0.0
    ins_half = 1.96 * math.sqrt(max(0.0, sums[4] / insured - ins_mean * ins_mean) / insured) if insured else 0.0
    both = (sums[0] + sums[3]) / rounds
    # the interval of the two together: the game's and the insurance's variances with their covariance bounded
    both_half = half + 1.96 * math.sqrt(max(0.0, sums[4] / rounds - (sums[3] / rounds) ** 2) / rounds)
    return {
        "game": {"house_edge_percent": -100 * mean, "ci95_percent": [-100 * (mean + half), -100 * (mean - half)],
                 "per_total_staked_percent": -100 * sums[0] / sums[2], "rounds": rounds,
                 "note": "ante, raise and fees per ante"},
        "insurance": {"house_edge_percent": -100 * ins_mean,
                      "ci95_percent": [-100 * (ins_mean + ins_half), -100 * (ins_mean - ins_half)],
                      "insured": int(insured), "note": "per unit insured (the ante, from three of a kind up)"},
        "with_insurance": {"house_edge_percent": -100 * both,
                           "ci95_percent": [-100 * (both + both_half), -100 * (both - both_half)],
                           "note": "ante, raise, fees and insurance per ante"},
        "rates": {"fold": sums[6] / rounds, "buy": sums[7] / rounds, "exchange": sums[8] / rounds,
                  "insured": insured / rounds, "dealer_opens": sums[9] / rounds, "buy_dealer": sums[10] / rounds},
    }


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if not rounds and not getattr(args, "exact", False):
        raise ValueError("russian-poker: --exact for the bonus, --simulate N for the game")
    out: dict[str, Any] = {"game": spec.id, "variant": config.variant, "bets": {}}
    methods = []
    if getattr(args, "exact", False):
        started = time.perf_counter()
        out["bets"]["bonus"] = bonus_exact(config)
        out["exact_seconds"] = round(time.perf_counter() - started, 2)
        methods.append("exact bonus")
    if rounds:
        if rounds < 1000:
            raise ValueError("--simulate needs at least 1000 rounds")
        started = time.perf_counter()
        checked = check(config, 200, getattr(args, "seed", 1))  # the kernel held to the game's round first
        figures = simulate(config, rounds, getattr(args, "seed", 1), getattr(args, "progress", None))
        out["bets"].update({k: figures[k] for k in ("game", "insurance", "with_insurance")})
        out["rates"] = figures["rates"]
        out["checked_rounds"] = checked
        out["simulation_seconds"] = round(time.perf_counter() - started, 1)
        methods.append(f"simulated game ({rounds} rounds, the stated strategy; {checked} rounds checked against "
                       "the game's round)")
    out["method"] = "; ".join(methods)
    return out


__all__ = ["bonus_exact", "check", "kernel_lines", "report", "simulate"]
