"""Blackjack house edge: basic strategy derived from the rules, then simulated through the rules.

1. ``derive_strategy`` (blackjack_strategy.py) computes, for the table's rules, the expected value of
   stand / hit / double / split / surrender for every first two cards against
   every dealer card (infinite-deck probabilities, one split), and keeps the best
   action the rule functions allow. Nothing of the strategy is typed in.
2. ``simulate`` plays N rounds of one box, one unit, from a shuffled shoe of the
   table's decks (reshuffled at 75 % penetration) with that strategy.

The fast path does not build a ``BlackjackRound`` per round (that costs about
180 µs per event). Instead it tabulates the game's own pure functions once —
``rules.dealer_must_draw``, ``rules.hand_result``, ``rules.double_refusal``,
``rules.double_locks_aces``, ``rules.split_refusal``, ``rules.surrender_refusal``,
``rules.blackjack_paid_at_once`` and ``hands.blackjack.best_total`` — and plays
from those tables. ``play_through_round`` plays the same shoe with the same
strategy through ``BlackjackRound`` itself; tests/controller/house_edge checks
that both give the same result round by round.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from fractions import Fraction
from typing import Any, Callable

from controller.events import Action, Bet, CardOut, CloseBets, Puck
from controller.games.blackjack import rules as R
from controller.games.blackjack.round import BlackjackRound
from controller.games.contract import GameSpec, RoundConfig
from controller.progress import nothing
from controller.hands.blackjack import best_total
from controller.house_edge.blackjack_strategy import (  # noqa: F401  (re-exported for tests and bench)
    DOUBLE, HIT, RANKS, SPLIT, STAND, SURRENDER, Strategy, _payoff, card_of, derive_strategy, value_of,
)

# --------------------------------------------------------------------------- the fast path


class FastTable:
    """The rule functions tabulated once for one table; ``play`` runs one round of one box, one unit."""

    def __init__(self, rules: R.Rules, strategy: Strategy) -> None:
        self.rules = rules
        self.one = rules.dealer_cards == "one"
        self.two_up = rules.dealer_cards == "two_up"
        # dealer_must_draw over (hard, free aces)
        self.draw = {(h, a): R.dealer_must_draw(rules, h, a) for h in range(1, 32) for a in range(0, 12)}
        self.total = {(h, a): best_total(h, a)[0] for h in range(1, 40) for a in range(0, 12)}
        # hand_result over (player total, player BJ, dealer total, dealer BJ) -> payoff per unit
        self.pay: dict[tuple[int, bool, int, bool], float] = {}
        for pt in range(4, 32):
            for dt in range(4, 32):
                for pbj in (False, True):
                    for dbj in (False, True):
                        self.pay[(pt, pbj, dt, dbj)] = _payoff(R.hand_result(rules, pt, pbj, dt, dbj))
        self.bj_at_once = {v: R.blackjack_paid_at_once(rules, v) for v in range(1, 11)}
        self.bj_pay = rules.blackjack.paid / rules.blackjack.per
        self.first = strategy.first
        self.later = strategy.later
        self.allowed: dict[tuple[int, int, bool, bool, int], tuple[bool, bool, bool]] = {}

    def _allowed(self, r1: int, r2: int, from_split: bool, split_aces: bool, n_hands: int,
                 up: int) -> tuple[bool, bool, bool]:
        """(double, split, surrender) as the rule functions allow them."""
        key = (r1, r2, from_split, split_aces, n_hands * 16 + up)
        got = self.allowed.get(key)
        if got is None:
            v1, v2 = value_of(r1), value_of(r2)
            hard, free = v1 + v2, (v1 == 1) + (v2 == 1)
            got = (R.double_refusal(self.rules, hard, free, 2, from_split, split_aces) is None,
                   R.split_refusal(self.rules, 14 if r1 == 1 else r1, 14 if r2 == 1 else r2, v1, v2, 2, n_hands,
                                   split_aces) is None,
                   not from_split and R.surrender_refusal(self.rules, 2, False, up) is None)
            self.allowed[key] = got
        return got

    def decide_two(self, dkey: int, a: int, b: int, from_split: bool, n_hands: int, upv: int) -> str:
        """The strategy's action on two cards, limited to what the rule functions allow here."""
        if from_split and a == 1:
            return STAND  # split aces take one card
        hard = value_of(a) + value_of(b)
        free = int(a == 1) + int(b == 1)
        if self.total[(hard, free)] == 21:
            return STAND
        action = self.first[(dkey, a, b, from_split)]
        may_double, may_split, may_surrender = self._allowed(a, b, from_split, False, n_hands, upv)
        if (action == SPLIT and not may_split) or (action == DOUBLE and not may_double) or (
                action == SURRENDER and not may_surrender):
            return self.later[(dkey, hard, bool(free))]
        return action

    def decide_more(self, dkey: int, hard: int, free: int) -> str:
        if self.total[(hard, free)] >= 21:
            return STAND
        return self.later[(dkey, hard, bool(free) and hard <= 11)]

    def dealer_key(self, up: int, hole: int | None) -> int:
        upv = value_of(up)
        if not self.two_up:
            return upv
        hard = upv + value_of(hole or 0)
        aces = (upv == 1) + (value_of(hole or 0) == 1)
        return 100 + 2 * hard + (1 if aces and hard <= 11 else 0)

    def play(self, cards: list[int], pos: int) -> tuple[float, int]:
        """One round from ``cards[pos:]`` (one box, one unit): (net per unit, the next position)."""
        r1, up, r2 = cards[pos], cards[pos + 1], cards[pos + 2]
        pos += 3
        upv = value_of(up)
        d_hard, d_aces = upv, int(upv == 1)
        hole = None
        if not self.one:
            hole = cards[pos]
            pos += 1
            hv = value_of(hole)
            d_hard += hv
            d_aces += hv == 1
            if d_hard == 11 and d_aces:  # the peek (version A), both cards up (version B): ends at once
                v1, v2 = value_of(r1), value_of(r2)
                return (0.0 if v1 + v2 == 11 and (v1 == 1 or v2 == 1) else -1.0), pos
        dkey = self.dealer_key(up, hole)
        v1, v2 = value_of(r1), value_of(r2)
        player_bj = v1 + v2 == 11 and (v1 == 1 or v2 == 1)
        if player_bj and self.bj_at_once[upv]:
            return self.bj_pay, pos
        hands: list[tuple[int, int, int, bool, bool, int]] = []  # hard, free, stake, from_split, bj, index
        net = 0.0
        if player_bj:
            hands.append((11, 1, 1, False, True, 0))
        else:
            pending: list[tuple[int, int, bool]] = [(r1, r2, False)]
            n_hands = 1
            index = 0
            while pending:
                a, b, from_split = pending.pop(0)
                if b == 0:
                    b = cards[pos]
                    pos += 1
                action = self.decide_two(dkey, a, b, from_split, n_hands, upv)
                if action == SPLIT:
                    n_hands += 1
                    pending[0:0] = [(a, 0, True), (b, 0, True)]
                    continue
                hard = value_of(a) + value_of(b)
                free = int(a == 1) + int(b == 1)
                if action == SURRENDER:
                    net -= 0.5
                elif action == DOUBLE:
                    if R.double_locks_aces(self.rules, hard, free):
                        free = 0
                    v = value_of(cards[pos])
                    pos += 1
                    hands.append((hard + v, free + (v == 1), 2, from_split, False, index))
                else:
                    while action == HIT:
                        v = value_of(cards[pos])
                        pos += 1
                        hard += v
                        free += v == 1
                        if hard > 21:
                            break
                        action = self.decide_more(dkey, hard, free)
                    hands.append((hard, free, 1, from_split, False, index))
                index += 1
        total = self.total
        live = []
        for h in hands:
            if total[(h[0], h[1])] > 21:
                net -= h[2]
            else:
                live.append(h)
        if not live:
            return net, pos
        only_bj = all(h[4] for h in live)
        dealer_bj = False
        if self.one:
            c = value_of(cards[pos])
            pos += 1
            d_hard += c
            d_aces += c == 1
            dealer_bj = d_hard == 11 and d_aces > 0
        if not dealer_bj and not only_bj:
            draw = self.draw
            while draw[(d_hard, d_aces)]:
                c = value_of(cards[pos])
                pos += 1
                d_hard += c
                d_aces += c == 1
        dt = total[(d_hard, d_aces)]
        obo = self.rules.original_bets_only
        pay = self.pay
        for h in live:
            result = pay[(total[(h[0], h[1])], h[4], dt, dealer_bj)]
            if dealer_bj and result < 0 and obo:
                net -= 0 if h[5] > 0 else 1
            else:
                net += result * h[2]
        return net, pos


def new_shoe(decks: int) -> list[int]:
    return [rank for rank in RANKS for _ in range(4 * decks)]


def simulate(table: FastTable, decks: int, rounds: int, seed: int,
             progress: Callable[[int], None] = nothing) -> dict[str, float]:
    """Play ``rounds`` rounds; reshuffle at 75 % penetration. Mean and spread of the net per round.

    Rounds from one shoe are not independent (they share its composition), so the 95 %
    interval comes from the spread of whole shoes (the ratio estimator over shoes), which is
    wider than the round-by-round formula; both half-widths are returned.
    """
    rng = random.Random(seed)
    shoe = new_shoe(decks)
    rng.shuffle(shoe)
    cut = int(len(shoe) * 0.75)
    pos = 0
    total = 0.0
    squares = 0.0
    shoes: list[tuple[float, int]] = []
    shoe_net, shoe_rounds = 0.0, 0
    play = table.play
    for n in range(rounds):
        if not n % 20000:
            progress(n)
        if pos >= cut:
            shoes.append((shoe_net, shoe_rounds))
            shoe_net, shoe_rounds = 0.0, 0
            rng.shuffle(shoe)
            pos = 0
        net, pos = play(shoe, pos)
        total += net
        squares += net * net
        shoe_net += net
        shoe_rounds += 1
    if shoe_rounds:
        shoes.append((shoe_net, shoe_rounds))
    progress(rounds)
    mean = total / rounds
    sd = math.sqrt(max(squares / rounds - mean * mean, 0.0))
    half_rounds = 1.96 * sd / math.sqrt(rounds)
    k = len(shoes)
    if k > 1:
        per_shoe = rounds / k
        spread = sum((x - mean * n) ** 2 for x, n in shoes) / (k * (k - 1) * per_shoe * per_shoe)
        half = max(1.96 * math.sqrt(spread), half_rounds)
    else:
        half = half_rounds
    return {"mean": mean, "sd": sd, "half_width": half, "half_width_iid": half_rounds, "shoes": k}


def play_through_round(spec: GameSpec, config: RoundConfig, table: FastTable, cards: list[int],
                       pos: int, stake: int = 1000) -> tuple[int, int]:
    """The same round as ``FastTable.play`` but through ``BlackjackRound``: (net in minor units, next position)."""
    round_ = spec.new_round(config, ())
    if not isinstance(round_, BlackjackRound):
        raise TypeError(f"{spec.id} does not deal blackjack rounds")
    round_.apply(Bet(1, "main", stake))
    if table.rules.burn:
        round_.apply(Puck(1))
    round_.apply(CloseBets())
    n = 0

    def deal() -> None:
        nonlocal pos, n
        round_.apply(CardOut(card_of(cards[pos], n)))
        pos += 1
        n += 1

    while not round_.complete:
        view = round_.view()  # the round's public, read-only state
        if view.insurance_open:
            round_.apply(CloseBets())  # no insurance: basic strategy never insures
            continue
        prompt = view.prompt
        if prompt is None or prompt.seat != 1 or prompt.expects == ("card",) or view.phase != "play":
            deal()
            continue
        hands = view.hands[1]
        hand = next(h for h in hands if not h.done)
        ranks = [1 if c.rank == 14 else c.rank for c in hand.cards]
        dealer = view.dealer
        hole = dealer[1] if len(dealer) > 1 else None
        dkey = table.dealer_key(1 if dealer[0].rank == 14 else dealer[0].rank,
                                None if hole is None else (1 if hole.rank == 14 else hole.rank))
        upv = value_of(1 if dealer[0].rank == 14 else dealer[0].rank)
        if len(ranks) == 2:
            action = table.decide_two(dkey, ranks[0], ranks[1], hand.from_split, len(hands), upv)
        else:
            action = table.decide_more(dkey, hand.hard, hand.free_aces)
        if action == HIT:
            deal()
        else:
            answer = round_.apply(Action(1, action))
            assert not hasattr(answer, "reason"), (action, answer)
            if action == DOUBLE:
                deal()
    return sum(s.net or 0 for s in round_.settlements()), pos


def over_under_edges(config: RoundConfig, decks: int) -> dict[str, dict[str, Any]]:
    """Exact house edge of the Ö/U 13 bets: every ordered pair of first cards from a full shoe,
    settled by ``rules.over_under_result``."""
    table = config.paytable[config.variant]
    n = 52 * decks
    out: dict[str, dict[str, Any]] = {}
    for spot in ("over13", "under13"):
        ev = Fraction(0)
        for a in RANKS:
            for b in RANKS:
                ways = 4 * decks * (4 * decks - (a == b))
                result, odds = R.over_under_result(spot, value_of(a), value_of(b), table)
                win = Fraction(odds.paid, odds.per) if result == "win" and odds else Fraction(-1)
                ev += Fraction(ways, n * (n - 1)) * win
        out[spot] = {"house_edge_percent": round(float(-ev * 100), 4), "house_edge_exact": f"{-ev}",
                     "method": "exact: every ordered pair of the box's first two cards"}
    return out


def report(spec: GameSpec, config: RoundConfig, args: argparse.Namespace) -> dict[str, Any]:
    rounds = getattr(args, "simulate", None)
    if getattr(args, "exact", False) or not rounds:
        raise ValueError("blackjack math is a simulation: add --simulate N (for example --simulate 1000000)")
    if rounds < 1:
        raise ValueError("--simulate needs at least 1 round")
    seed = getattr(args, "seed", 1)
    started = time.perf_counter()
    rules = R.rules_of(config)
    strategy = derive_strategy(rules)
    table = FastTable(rules, strategy)
    derived = time.perf_counter()
    figures = simulate(table, rules.decks, rounds, seed, getattr(args, "progress", nothing))
    done = time.perf_counter()
    edge = -figures["mean"] * 100
    half = figures["half_width"] * 100
    bets: dict[str, Any] = {"main": {
        "house_edge_percent": round(edge, 4),
        "ci95_percent": [round(edge - half, 4), round(edge + half, 4)],
        "sd_per_round": round(figures["sd"], 4),
        "derived_infinite_deck_percent": None if math.isnan(strategy.expected)
        else round(-strategy.expected * 100, 4),
    }}
    if rules.over_under:
        bets.update(over_under_edges(config, rules.decks))
    return {
        "game": spec.id,
        "variant": config.variant,
        "decks": rules.decks,
        "options": {k: v for k, v in config.options.items() if k not in ("limits", "price_base_amount")},
        "method": f"simulation of {rounds} rounds (one box, one unit, reshuffle at 75 %), basic strategy "
                  "derived from the rules",
        "seed": seed,
        "bets": bets,
        "rounds_per_second": round(rounds / max(done - derived, 1e-9)),
        "seconds": round(done - started, 3),
    }
