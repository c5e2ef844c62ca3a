"""The blackjack rules as pure functions on small integers, shared by the Round and the math tool.

``rules_of(config)`` turns a resolved table configuration (variant, options,
paytable) into a frozen ``Rules`` record; every other function here takes
that record and plain numbers (card values 1..10 with the ace as 1, totals,
ranks) and answers one question the croupier would ask: must the dealer
draw, may this hand double or split, how does this hand settle. The Round
calls them on every card; ``controller/house_edge/blackjack.py`` tabulates
the very same functions for its simulator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from controller.games.contract import RoundConfig
from controller.hands.blackjack import ACE, best_total
from controller.money import Odds

# Structural facts of each variant that are not table options (seed references in docs/games/blackjack.md).
_SE: dict[str, Any] = {
    "dealer_cards": "one", "tie": "se", "immediate_blackjack": True, "split_by": "rank", "dark_cards": False,
    "over_under": True, "burn": False, "insurance": True, "ace_stays_one": True, "back_bets": True,
    # fixed by the seed's words (000 rules 15-16), not table options:
    "double_totals": "7-11", "double_after_split": False, "max_hands": None, "surrender": False,
    "blackjack_pays": "3:2",
}
_FI: dict[str, Any] = {
    "dealer_cards": "one", "tie": "push", "immediate_blackjack": False, "split_by": "value", "dark_cards": False,
    "over_under": False, "burn": False, "insurance": True, "ace_stays_one": False, "back_bets": True,
    # defaults of the options the casino sets (002: "Kasinot kan ... begränsa"):
    "double_totals": "any", "double_after_split": True, "max_hands": 4, "surrender": True,
    "blackjack_pays": "3:2",
}
VARIANT_FACTS: Mapping[str, Mapping[str, Any]] = {
    # dealer_cards: "one" = no hole card (one dealer card before the players act), "hole" = a hole card
    # and the peek (002 version A), "two_up" = two dealer cards face up (002 version B).
    "se": _SE,
    # 000 names its add-ons by game: "Tilläggsspel till Black Jack, Ö/U 13" and "Bakomspel vid Black Jack och
    # Two Decks Black Jack". Two Decks is a variant of Black Jack ("Varianten Two Decks Black Jack ... spelas som
    # Black Jack") and takes both; Black Jack Burn is a game of its own ("Black Jack Burn är ett kortspel") and
    # takes neither (docs/games/blackjack.md, "Side bets and back bets by variant").
    "se-burn": {**_SE, "burn": True, "over_under": False, "back_bets": False},
    "se-two-decks": {**_SE, "dark_cards": True},  # 000 Two Decks rules 9a, 11b
    "fi": _FI,
    "fi-a": {**_FI, "dealer_cards": "hole"},
    # 002 version B: ties lose but Black Jack against Black Jack, 1:1, one split, no double after a
    # split, double only on 9 to 11.
    "fi-b": {**_FI, "dealer_cards": "two_up", "tie": "dealer", "insurance": False, "double_totals": "9-11",
             "double_after_split": False, "max_hands": 2, "blackjack_pays": "1:1", "surrender": False},
}


@dataclass(frozen=True)
class Rules:
    """Everything the rule functions need, resolved from variant facts, options and the paytable."""

    variant: str
    decks: int
    dealer_cards: str
    tie: str
    win: Odds
    blackjack: Odds
    insurance_offered: bool
    insurance_odds: Odds | None  # None: SE rule 13 (bet and insurance are kept against a dealer Black Jack)
    even_money: Odds | None
    immediate_blackjack: bool
    double_totals: frozenset[int] | None  # None: any first two cards
    double_ace_as_one: bool
    double_after_split: bool
    split_by: str  # "rank" (SE rule 16) | "value" (002)
    max_hands: int | None
    surrender: bool
    surrender_vs_ace: bool
    original_bets_only: bool
    dealer_hits_soft_17: bool
    dark_cards: bool
    over_under: bool
    burn: bool
    back_bets: bool


def parse_odds(text: str) -> Odds:
    paid, _, per = text.partition(":")
    return Odds(int(paid), int(per))


def parse_double_totals(text: str) -> frozenset[int] | None:
    """``any``, ``9-11`` or ``9,10,11`` -> the totals on which a first-two-card hand may double."""
    text = text.strip().lower()
    if text == "any":
        return None
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"option 'double_totals': {text!r} is not 'any', a range like 9-11 or a list like 9,10,11")
        a, b = int(low), int(high) if dash else int(low)
        if not 2 <= a <= b <= 21:
            raise ValueError(f"option 'double_totals': {part!r} is not a range of totals between 2 and 21")
        out.update(range(a, b + 1))
    return frozenset(out)


def rules_of(config: RoundConfig) -> Rules:
    """The rules of one table: variant facts, its options and its paytable section."""
    facts = VARIANT_FACTS[config.variant]
    table = config.paytable.get(config.variant, {}) if config.paytable else {}

    def odds(key: str, default: tuple[int, int] | None) -> Odds | None:
        value = table.get(key, default)
        if value is None or isinstance(value, str):
            return None
        return Odds(int(value[0]), int(value[1]))

    def option(name: str) -> Any:
        return config.get(name, facts[name])

    blackjack = odds("blackjack", None) or parse_odds(option("blackjack_pays"))
    return Rules(
        variant=config.variant,
        decks=config.get("decks", 6),
        dealer_cards=facts["dealer_cards"],
        tie=facts["tie"],
        win=odds("win", (1, 1)) or Odds(1, 1),
        blackjack=blackjack,
        insurance_offered=facts["insurance"],
        insurance_odds=odds("insurance", (2, 1)),
        even_money=odds("even_money", None) if facts["insurance"] else None,
        immediate_blackjack=facts["immediate_blackjack"],
        double_totals=parse_double_totals(option("double_totals")),
        double_ace_as_one=facts["ace_stays_one"],  # SE rule 15
        double_after_split=option("double_after_split"),
        split_by=facts["split_by"],
        max_hands=option("max_hands"),
        surrender=option("surrender"),
        surrender_vs_ace=config.get("surrender_vs_ace", False),
        original_bets_only=config.get("original_bets_only", False),
        dealer_hits_soft_17=config.get("dealer_hits_soft_17", False),
        dark_cards=facts["dark_cards"],
        over_under=facts["over_under"],
        burn=facts["burn"],
        back_bets=facts["back_bets"],
    )


# --------------------------------------------------------------------------- the dealer


def dealer_must_draw(rules: Rules, hard: int, free_aces: int) -> bool:
    """Draw on 16 or less; an ace counts 11 where that makes 17 to 21 (000 rule 12), so soft 17 stands
    unless the table hits soft 17."""
    total, soft = best_total(hard, free_aces)
    if total < 17:
        return True
    return total == 17 and soft and rules.dealer_hits_soft_17


def blackjack_paid_at_once(rules: Rules, dealer_first_value: int) -> bool:
    """000 rule 10: a player Black Jack against a dealer first card lower than 10 (2 to 9) is paid at once."""
    return rules.immediate_blackjack and 2 <= dealer_first_value <= 9


# --------------------------------------------------------------------------- the player's decisions


def double_refusal(rules: Rules, hard: int, free_aces: int, n_cards: int, from_split: bool,
                   split_aces: bool) -> str | None:
    """Why this hand may not double, or None. SE rule 15: 7 to 11 on the first two cards, an ace may
    count one to get there; 002: any two cards unless the casino restricts the totals (then the hand's
    total as it stands: A-8 is 19, not 9)."""
    if n_cards != 2:
        return "double only on the first two cards"
    if split_aces:
        return "split aces take one card each"
    if from_split and not rules.double_after_split:
        return "no double after a split" + (" (000 rule 15: only the original hand)" if rules.split_by == "rank" else "")
    if rules.double_totals is None:
        return None
    total, soft = best_total(hard, free_aces)
    if total in rules.double_totals or (rules.double_ace_as_one and soft and hard in rules.double_totals):
        return None  # 002 restricts the hand's total; only SE lets an ace count one to get there
    allowed = sorted(rules.double_totals)
    span = f"{allowed[0]} to {allowed[-1]}" if allowed == list(range(allowed[0], allowed[-1] + 1)) else ", ".join(map(str, allowed))
    shown = f"soft {total}" if soft else str(total)
    return f"double only on {span}, not on {shown}"


def double_locks_aces(rules: Rules, hard: int, free_aces: int) -> bool:
    """SE rule 15: where the doubling total was reached with an ace counted as one, the ace stays one."""
    if not rules.double_ace_as_one or free_aces == 0 or rules.double_totals is None:
        return False
    total, soft = best_total(hard, free_aces)
    return soft and total not in rules.double_totals and hard in rules.double_totals


def split_refusal(rules: Rules, rank_a: int, rank_b: int, value_a: int, value_b: int, n_cards: int,
                  n_hands: int, from_split_aces: bool) -> str | None:
    """Why this hand may not split, or None. SE rule 16: equal ranks, as often as wished, split aces
    take one card; 002: equal values, the casino may limit the hands (version B: one split)."""
    if n_cards != 2:
        return "split only a first pair of two cards"
    if from_split_aces:
        return "split aces take one card each and are not split again"
    if rules.split_by == "rank":
        if rank_a != rank_b:
            return "split only two cards of the same rank (000 rule 16)"
    elif value_a != value_b:
        return "split only two cards of the same value"
    if rules.max_hands is not None and n_hands >= rules.max_hands:
        return f"at most {rules.max_hands} hands from splits at this table"
    return None


def surrender_refusal(rules: Rules, n_cards: int, from_split: bool, dealer_first_value: int) -> str | None:
    """Why this hand may not surrender, or None (002: before any extra card; not against an ace as an option)."""
    if not rules.surrender:
        return "surrender is not offered at this table"
    if n_cards != 2 or from_split:
        return "surrender only on the first two cards, before any extra card"
    if dealer_first_value == ACE and not rules.surrender_vs_ace:
        return "no surrender against a dealer ace at this table"
    return None


# --------------------------------------------------------------------------- settlement


def hand_result(rules: Rules, player_total: int, player_blackjack: bool, dealer_total: int,
                dealer_blackjack: bool) -> tuple[str, Odds | None]:
    """(result, odds) of a player hand against the dealer's final hand.

    SE rule 8: equal 17, 18 or 19 lose, equal 20, 21 or Black Jack push, Black Jack beats 21;
    002: equal totals push, Black Jack pushes a dealer Black Jack; 002 version B: equal totals lose
    except Black Jack against Black Jack.
    """
    if player_total > 21:
        return "lose", None
    if player_blackjack:
        return ("push", None) if dealer_blackjack else ("win", rules.blackjack)
    if dealer_blackjack:
        return "lose", None
    if dealer_total > 21 or player_total > dealer_total:
        return "win", rules.win
    if player_total < dealer_total:
        return "lose", None
    if rules.tie == "push":
        return "push", None
    if rules.tie == "dealer":
        return "lose", None
    return ("lose", None) if player_total <= 19 else ("push", None)


def insurance_result(rules: Rules, dealer_blackjack: bool) -> tuple[str, Odds | None]:
    """000 rule 13: against a dealer Black Jack the insurance is kept (push); 002: it pays 2 to 1."""
    if not dealer_blackjack:
        return "lose", None
    if rules.insurance_odds is None:
        return "push", None
    return "win", rules.insurance_odds


def over_under_result(spot: str, value_a: int, value_b: int,
                      table: Mapping[str, Any]) -> tuple[str, Odds | None]:
    """Ö/U 13 rules 5, 7, 9, 12: aces one, 13 loses, under 13 with two aces pays 3 to 2."""
    total = value_a + value_b
    if total == 13:
        return "lose", None
    if spot == "over13":
        return ("win", Odds(*table["over13"])) if total > 13 else ("lose", None)
    if total > 13:
        return "lose", None
    if value_a == ACE and value_b == ACE:
        return "win", Odds(*table["under13_two_aces"])
    return "win", Odds(*table["under13"])
