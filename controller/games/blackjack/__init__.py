"""Blackjack: SE Black Jack, Black Jack Burn, Two Decks, Ö/U 13, bakomspel (seed 000) and the FI rule
sets (seed 002 "Kortspelet Blackjack", versions A and B).

``rules.py`` holds the rules as pure functions, ``round.py`` the Round that
takes one event at a time (with ``betting.py``, ``settling.py`` and ``words.py``),
``state.py`` its hands and boxes. The totals are in
``controller/hands/blackjack.py``. docs/games/blackjack.md explains every
reading.
"""

from __future__ import annotations

from controller.games.blackjack.round import BlackjackRound
from controller.games.blackjack.rules import VARIANT_FACTS, parse_double_totals, rules_of
from controller.games.contract import ActionSpec, GameSpec, OptionSpec, RoundConfig, SpotSpec, VariantSpec
from controller.games.contract import ReaderSpec
from controller.money import fraction_of

_SE_OPTIONS = ("decks", "boxes", "limits", "price_base_amount", "dealer_hits_soft_17", "original_bets_only")
_FI_OPTIONS = ("decks", "boxes", "limits", "blackjack_pays", "dealer_hits_soft_17", "double_totals",
               "double_after_split", "max_hands", "surrender", "surrender_vs_ace")


def _decisions(config: RoundConfig) -> tuple[str, ...]:
    """The decisions this table's rules offer (stand, double and split always)."""
    rules = rules_of(config)
    return ("stand", "double", "split") + (("insurance",) if rules.insurance_offered else ()) + \
        (("even_money",) if rules.even_money is not None else ()) + (("surrender",) if rules.surrender else ()) + \
        (("burn",) if rules.burn else ())


def _validate(config: RoundConfig) -> None:
    """Table set-ups the seeds forbid are configuration errors (RULES-NOTES.md: not warnings)."""
    variant = config.variant
    spots = SPEC.variant(variant).spots or ()
    for spot, (_low, high) in config["limits"].items():
        if spot not in spots + ("insurance",):
            raise ValueError(f"limits: no spot {spot!r} in blackjack {variant} (spots: {', '.join(spots)})")
        if variant.startswith("se") and high is not None:
            legal = fraction_of(config["price_base_amount"], 1, 600)
            if high > legal:
                raise ValueError(f"limits.{spot}: maximum {high} is above the legal 1/600 of the price base "
                                 f"amount ({legal}; seed 000 Black Jack rule 6)")
    decks = config["decks"]
    if variant == "se-two-decks" and decks != 2:
        raise ValueError("decks: Two Decks Black Jack is always played with 2 decks (seed 000 rule 4a)")
    if variant in ("se", "se-burn") and not 2 <= decks <= 8:
        raise ValueError(f"decks: {decks} is not allowed; Black Jack uses at least 2 decks with a shuffling "
                         "machine, 4 to 6 shuffled by hand (seed 000 rule 4)")
    if variant.startswith("se") and config["boxes"] > 11:
        raise ValueError(f"boxes: {config['boxes']} is too many; a Black Jack table has at most 11 boxes "
                         "(seed 000 rule 5)")
    if "double_totals" in config.options:
        parse_double_totals(config["double_totals"])
    if "blackjack_pays" in config.options:
        allowed = config.paytable.get(variant, {}).get("blackjack_choices", ())
        if config["blackjack_pays"] not in allowed:
            raise ValueError(f"blackjack_pays: {config['blackjack_pays']} is not offered in {variant} "
                             f"(seed 002: {', '.join(allowed)})")


_SE_SPOTS = ("main", "over13", "under13", "insurance")
_LEGAL = "SE: at most 1/600 of the price base amount (000 rule 6)"

SPEC = GameSpec(
    id="blackjack",
    name="Blackjack",
    seeds=("000 Black Jack rules 1-16", "000 Black Jack Burn rules 1-10", "000 Two Decks rules 4a, 9a, 10a, 11b",
           "000 Ö/U 13 rules 1-12", "000 Bakomspel rules 1-5", "002 Kortspelet Blackjack, versions A and B"),
    variants=(
        VariantSpec("se", "Swedish Black Jack: no hole card, ties on 17-19 lose, Black Jack paid at once "
                    "against 2-9", "000 Black Jack rules 1-16, Ö/U 13 rules 1-12, Bakomspel rules 1-5",
                    options=_SE_OPTIONS, spots=_SE_SPOTS),
        VariantSpec("se-burn", "Black Jack Burn: the puck box may burn the dealer's second card",
                    "000 Black Jack Burn rules 1-10 (with Black Jack rules 1-16; no Ö/U 13, no back bets)",
                    options=_SE_OPTIONS + ("puck_sensor", "previous_puck_box"), spots=("main", "insurance")),
        VariantSpec("se-two-decks", "Two Decks Black Jack: 2 decks, dark player cards, a box stands by tucking",
                    "000 Two Decks rules 4a, 9a, 10a, 11b (with Black Jack rules 1-16, Ö/U 13, Bakomspel)",
                    defaults={"decks": 2}, options=_SE_OPTIONS, spots=_SE_SPOTS),
        VariantSpec("fi", "Finnish Blackjack: no hole card, 6 decks, insurance 2 to 1, surrender",
                    "002 Kortspelet Blackjack", options=_FI_OPTIONS + ("original_bets_only",),
                    spots=("main", "insurance")),
        VariantSpec("fi-a", "Finnish Blackjack version A: hole card and the peek for ten or ace",
                    "002 Kortspelet Blackjack, version A", options=_FI_OPTIONS, spots=("main", "insurance")),
        VariantSpec("fi-b", "Finnish Blackjack version B: both dealer cards up, ties lose, Black Jack 1 to 1",
                    "002 Kortspelet Blackjack, version B", defaults={"surrender": False},
                    options=("decks", "boxes", "limits", "dealer_hits_soft_17", "surrender", "surrender_vs_ace"),
                    spots=("main",)),
    ),
    options=(
        OptionSpec("decks", 6, "decks in the shoe (000 rule 4: at least 2 with a shuffler, 4-6 by hand; "
                               "rule 4a: 2; 002: 6)", minimum=1, maximum=8),
        OptionSpec("boxes", 7, "boxes at the table (000 rule 5: at most 11)", minimum=1, maximum=14),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units; the maximum is per box, all "
                                 "players together (bakomspel rule 3)", kind="limits"),
        OptionSpec("price_base_amount", 5_920_000, "the year's prisbasbelopp in öre (59 200 SEK for 2026)",
                   kind="amount", minimum=1),
        OptionSpec("blackjack_pays", "3:2", "Black Jack payout (002: 1:1, 6:5, 7:5 or 3:2)", kind="choice",
                   choices=("3:2", "7:5", "6:5", "1:1")),
        OptionSpec("dealer_hits_soft_17", False, "the dealer draws on soft 17 (the seeds: stands on 17)",
                   kind="bool"),
        OptionSpec("double_totals", "any", "first-two-card totals that may double: any, 9-11, 10,11 ... "
                                           "(002: the casino may restrict)", kind="text"),
        OptionSpec("double_after_split", True, "a split hand may double (002: 'Ett delat spel kan dubbleras')",
                   kind="bool"),
        OptionSpec("max_hands", VARIANT_FACTS["fi"]["max_hands"], "most hands one box may make by splitting "
                   "(002: the casino may limit it)", minimum=2, maximum=8),
        OptionSpec("surrender", True, "surrender on the first two cards for half the stake (002)", kind="bool"),
        OptionSpec("surrender_vs_ace", False, "surrender also against a dealer ace (002: may be forbidden)",
                   kind="bool"),
        OptionSpec("original_bets_only", False, "against a dealer Black Jack only the original bets are lost; "
                                                "doubles and split hands are handed back (no-hole-card tables)",
                   kind="bool"),
        OptionSpec("puck_sensor", True, "the table senses the burn puck and checks its box before the deal",
                   kind="bool"),
        OptionSpec("previous_puck_box", None, "where the burn puck lay in the round before this session's first "
                                              "(empty: this is the first round; later rounds carry it)",
                   minimum=1, maximum=14),
    ),
    spots=(
        SpotSpec("main", "the box's Black Jack bet (each player of the box: bakomspel)", _LEGAL + ", per box"),
        SpotSpec("over13", "Ö/U 13: the box's first two cards total over 13 (aces one)",
                 "at most the box's main bet and 1/600 of the price base amount (Ö/U 13 rule 6)"),
        SpotSpec("under13", "Ö/U 13: the box's first two cards total under 13; two aces pay 3 to 2",
                 "at most the box's main bet and 1/600 of the price base amount (Ö/U 13 rule 6)"),
        SpotSpec("insurance", "created by the insurance action when the dealer shows an ace",
                 "half the original bet (000 rule 13); at most half (002)"),
    ),
    actions=(
        ActionSpec("stand", "the hand stands (Two Decks: the cards are tucked, rule 11b); a hit is the next card"),
        ActionSpec("double", "double the stake for one card (000 rule 15; 002); with `player`: a back bettor "
                             "adds a stake too"),
        ActionSpec("split", "split a pair into two hands (000 rule 16; 002); with `player`: a back bettor adds "
                            "a stake for the new hand"),
        ActionSpec("insurance", "insure against a dealer Black Jack (000 rule 13; 002); `player` and `amount` "
                                "optional", amount=True),
        ActionSpec("even_money", "a Black Jack against a dealer ace is paid 1 to 1 at once (000 rule 14)"),
        ActionSpec("surrender", "give up the hand for half the stake (002)"),
        ActionSpec("burn", "the burn-puck box burns the dealer's second card (Burn rules 5-6)"),
        ActionSpec("puck_override", "supervisor: accept the burn puck where it lies (Burn tables)",
                   who="supervisor"),
    ),
    devices=("shoe", "puck"),
    reader=ReaderSpec("shoe"),
    strategy="blackjack",
    new_round=lambda config, carried: BlackjackRound(config, carried),
    paytable_file="blackjack.toml",
    interpretations=(
        "SE is European no-hole-card: one dealer card before the boxes play (000 rule 9).",
        "000 rule 8: equal 17-19 lose, equal 20, 21 or Black Jack push, Black Jack beats 21.",
        "000 rule 10: a Black Jack against a dealer first card of 2-9 is paid 3 to 2 when its second card "
        "is dealt.",
        "000 rule 13: against a dealer Black Jack an insured box keeps its original bet and its insurance.",
        "000 rule 15: double on 7-11 of the first two cards; an ace counted as one to get there stays one. "
        "No double after a split (only the original hand).",
        "000 rule 16: split equal ranks only; no limit on resplits; split aces take one card each.",
        "A card the rules cannot place is accepted with a misdeal alert and not used.",
        "The burn puck's box carries to the next round as a marker bet on spot 'puck' without money.",
    ),
    validate=_validate,
    decisions=_decisions,
)

__all__ = ["SPEC", "BlackjackRound"]
