"""Basic strategy for a blackjack table, derived from the game's rule functions (nothing typed in).

For every dealer card (version B: every two-card dealer hand) the dealer's final-total
distribution comes from ``rules.dealer_must_draw``, the value of standing from
``rules.hand_result``, hitting by recursion, doubling with ``rules.double_locks_aces``,
splitting (one split, each hand played on with what ``rules.double_refusal`` allows) and
surrender; without a hole card a dealer Black Jack takes a double or split too. The best
action the rule functions allow is kept. Card probabilities are infinite-deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from controller.cards import SUITS, Card
from controller.games.blackjack import rules as R
from controller.hands.blackjack import best_total
from controller.money import Odds

STAND, HIT, DOUBLE, SPLIT, SURRENDER = "stand", "hit", "double", "split", "surrender"
RANKS = tuple(range(1, 14))  # 1 ace, 2..10, 11 J, 12 Q, 13 K
P_RANK = 1 / 13


def value_of(rank: int) -> int:
    return min(rank, 10)


def card_of(rank: int, n: int = 0) -> Card:
    """A real card for a rank code (for playing through the Round)."""
    return Card(14 if rank == 1 else rank, SUITS[n % 4])


def _payoff(odds: tuple[str, Odds | None]) -> float:
    result, o = odds
    if result == "win":
        assert o is not None
        return o.paid / o.per
    return -1.0 if result == "lose" else 0.0


# --------------------------------------------------------------------------- derivation


@dataclass
class Strategy:
    """Best actions per dealer key: first two cards by rank pair, later states by (hard, free ace)."""

    rules: R.Rules
    first: dict[tuple[int, int, int, bool], str] = field(default_factory=dict)
    later: dict[tuple[int, int, bool], str] = field(default_factory=dict)
    expected: float = 0.0  # the derivation's own (infinite-deck) expected return per unit


class Deriver:
    """Expected values under the rules, with infinite-deck card probabilities."""

    def __init__(self, rules: R.Rules) -> None:
        self.rules = rules
        self._dealer: dict[int, tuple[dict[int, float], float]] = {}

    # dealer keys: 1..10 the dealer's card (no hole card, or hole card before the peek);
    # 100 + 2 * hard + free for two cards face up (002 version B)
    def dealer_keys(self) -> list[int]:
        if self.rules.dealer_cards == "two_up":
            return [100 + 2 * h + f for h in range(2, 21) for f in (0, 1) if not (f and h > 11)]
        return list(range(1, 11))

    def dealer_outcomes(self, key: int) -> tuple[dict[int, float], float]:
        """({final total (22 = bust): probability}, P(dealer Black Jack)), the totals given no Black Jack."""
        if key in self._dealer:
            return self._dealer[key]
        finals: dict[int, float] = {}

        def walk(hard: int, aces: int, n: int, p: float) -> None:
            if n == 2 and aces and hard == 11 and self.rules.dealer_cards != "two_up":
                finals[-1] = finals.get(-1, 0.0) + p  # Black Jack
                return
            if R.dealer_must_draw(self.rules, hard, aces):
                for rank in RANKS:
                    v = value_of(rank)
                    walk(hard + v, aces + (v == 1), n + 1, p * P_RANK)
                return
            total = best_total(hard, aces)[0]
            finals[min(total, 22)] = finals.get(min(total, 22), 0.0) + p

        if key >= 100:
            hard, free = divmod(key - 100, 2)
            walk(hard, free, 2, 1.0)
        else:
            walk(key, int(key == 1), 1, 1.0)
        p_bj = finals.pop(-1, 0.0)
        given = {t: p / (1 - p_bj) for t, p in finals.items()}
        self._dealer[key] = (given, p_bj)
        return given, p_bj

    @lru_cache(maxsize=None)
    def stand(self, key: int, total: int) -> float:
        given, _ = self.dealer_outcomes(key)
        if total > 21:
            return -1.0
        return sum(p * _payoff(R.hand_result(self.rules, total, False, d, False)) for d, p in given.items())

    @lru_cache(maxsize=None)
    def hit_or_stand(self, key: int, hard: int, free: int) -> tuple[float, str]:
        total = best_total(hard, free)[0]
        if total > 21:
            return -1.0, STAND
        stand = self.stand(key, total)
        if total == 21:
            return stand, STAND
        hit = 0.0
        for rank in RANKS:
            v = value_of(rank)
            hit += P_RANK * self.hit_or_stand(key, hard + v, free + (v == 1))[0]
        return (hit, HIT) if hit > stand else (stand, STAND)

    def double(self, key: int, hard: int, free: int) -> float:
        locked = R.double_locks_aces(self.rules, hard, free)
        ev = 0.0
        for rank in RANKS:
            v = value_of(rank)
            ev += P_RANK * self.stand(key, best_total(hard + v, (0 if locked else free) + (v == 1))[0])
        return 2 * ev

    def options(self, key: int, r1: int, r2: int, from_split: bool, n_hands: int,
                may_split: bool = True) -> dict[str, float]:
        """Expected value (given no dealer Black Jack) of each action the rules allow on two cards."""
        v1, v2 = value_of(r1), value_of(r2)
        hard, free = v1 + v2, (v1 == 1) + (v2 == 1)
        split_aces = from_split and v1 == 1
        if split_aces:
            return {STAND: self.stand(key, best_total(hard, free)[0])}
        ev, _ = self.hit_or_stand(key, hard, free)
        out = {STAND: self.stand(key, best_total(hard, free)[0]), HIT: ev}
        up = key if key < 100 else 0
        if R.double_refusal(self.rules, hard, free, 2, from_split, False) is None:
            out[DOUBLE] = self.double(key, hard, free)
        if may_split and R.split_refusal(self.rules, self._rank(r1), self._rank(r2), v1, v2, 2, n_hands,
                                         False) is None:
            out[SPLIT] = 2 * self.split_hand(key, r1)
        if not from_split and up and R.surrender_refusal(self.rules, 2, False, up) is None:
            out[SURRENDER] = -0.5
        elif not from_split and key >= 100 and R.surrender_refusal(self.rules, 2, False, 0) is None:
            out[SURRENDER] = -0.5
        return out

    @staticmethod
    def _rank(rank: int) -> int:
        return 14 if rank == 1 else rank

    @lru_cache(maxsize=None)
    def split_hand(self, key: int, rank: int) -> float:
        """One hand of a split pair: it takes its second card and plays on (no further split counted)."""
        ev = 0.0
        for r2 in RANKS:
            opts = self.options(key, rank, r2, True, 2, may_split=False)
            ev += P_RANK * max(opts.values())
        return ev

    def loss_to_blackjack(self, action: str) -> float:
        """No hole card: what the dealer's Black Jack takes, per action (original_bets_only returns the rest)."""
        if action == SURRENDER:
            return -0.5
        if action in (DOUBLE, SPLIT):
            return -1.0 if self.rules.original_bets_only else -2.0
        return -1.0

    def best(self, key: int, r1: int, r2: int, from_split: bool, n_hands: int) -> tuple[str, float]:
        opts = self.options(key, r1, r2, from_split, n_hands)
        if self.rules.dealer_cards == "one" and key < 100 and not from_split:
            _, p_bj = self.dealer_outcomes(key)
            opts = {a: (1 - p_bj) * ev + p_bj * self.loss_to_blackjack(a) for a, ev in opts.items()}
        action = max(opts, key=lambda a: (opts[a], a == STAND))
        return action, opts[action]


def derive_strategy(rules: R.Rules) -> Strategy:
    """Every decision of basic strategy for these rules, and the derivation's expected return."""
    d = Deriver(rules)
    s = Strategy(rules)
    for key in d.dealer_keys():
        for r1 in RANKS:
            for r2 in RANKS:
                for from_split in (False, True):
                    s.first[(key, r1, r2, from_split)] = d.best(key, r1, r2, from_split, 1 if not from_split else 2)[0]
        for hard in range(2, 32):
            for free in (0, 1):
                s.later[(key, hard, bool(free))] = d.hit_or_stand(key, hard, free)[1]
    s.expected = _expected_return(d, s)
    return s


def _expected_return(d: Deriver, s: Strategy) -> float:
    """The strategy's expected return per unit, infinite deck, one split (a cross-check of the simulation)."""
    # (player Black Jack and dealer Black Jack as the Round settles them; everything else through Deriver.best)
    rules = d.rules
    total = 0.0
    bj_pay = rules.blackjack.paid / rules.blackjack.per
    if rules.dealer_cards == "two_up":  # version B: the dealer key is the dealer's two cards
        for u in range(1, 11):
            for h in range(1, 11):
                p_dealer = (P_RANK * (4 if u == 10 else 1)) * (P_RANK * (4 if h == 10 else 1))
                dealer_bj = u + h == 11 and 1 in (u, h)
                key = 100 + 2 * (u + h) + (1 if 1 in (u, h) and u + h <= 11 else 0)
                for r1 in RANKS:
                    for r2 in RANKS:
                        v1, v2 = value_of(r1), value_of(r2)
                        player_bj = {v1, v2} == {1, 10}
                        if dealer_bj:
                            ev = 0.0 if player_bj else -1.0
                        elif player_bj:
                            ev = bj_pay
                        else:
                            ev = d.best(key, r1, r2, False, 1)[1]
                        total += p_dealer * P_RANK * P_RANK * ev
        return total
    for up in range(1, 11):
        p_up = P_RANK * (4 if up == 10 else 1)
        _, p_bj = d.dealer_outcomes(up)
        for r1 in RANKS:
            for r2 in RANKS:
                p = p_up * P_RANK * P_RANK
                v1, v2 = value_of(r1), value_of(r2)
                if {v1, v2} == {1, 10}:
                    if R.blackjack_paid_at_once(rules, up):
                        ev = bj_pay
                    else:
                        ev = (1 - p_bj) * bj_pay
                elif rules.dealer_cards == "hole":
                    ev = (1 - p_bj) * d.best(up, r1, r2, False, 1)[1] - p_bj
                else:
                    ev = d.best(up, r1, r2, False, 1)[1]
                total += p * ev
    return total
