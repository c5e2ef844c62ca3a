"""Dynamic Poker Pro (seed 002 "Dynamic Poker Pro", versions A to G).

Texas Hold'em Bonus's deal and decisions on a blind instead of an ante: a
blind and an optional bonus; fold (blind and bonus lost) or bet twice the
blind on the flop box; bet once the blind on the turn and river boxes or
check; the better hand wins the flop, turn and river bets 1 to 1 and the
blind pushes; the river bet wins 2 to 1 (A to E) or 3 to 1 (F, G) when the
winning hand is the version's hand or better. The seed's bonus odds were
lost: the bonus pays by Texas Hold'em Bonus's table I (RULES-NOTES.md).
"""

from __future__ import annotations

from typing import Any

from controller.games.banked_poker import odds_of
from controller.games.contract import (
    ActionSpec, GameSpec, OptionSpec, ReaderSpec, RoundConfig, SpotSpec, VariantSpec,
)
from controller.games.holdem_streets import Street
from controller.games.texas_holdem_bonus import BETS, HoldemBonusRound, at_least
from controller.money import Odds

# --------------------------------------------------------------------------- the rules as functions


def main_results(config: RoundConfig, hand: Any, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
    """Blind and the flop, turn and river bets of one box: ``{spot: (result, odds)}``; ``versus`` None: folded."""
    if versus is None:
        return {"blind": ("lose", None)}
    if versus == "tie":
        return {spot: ("push", None) for spot in ("blind",) + BETS}
    if versus == "dealer_higher":
        return {spot: ("lose", None) for spot in ("blind",) + BETS}
    table = config.paytable["main"]
    rule = table["river_rule"][config.variant]
    river = odds_of(rule, "odds") if at_least(hand, rule) else odds_of(table, "bets")
    return {"blind": ("push", None), "flop": ("win", odds_of(table, "bets")), "turn": ("win", odds_of(table, "bets")),
            "river": ("win", river)}


# --------------------------------------------------------------------------- the round


class DynamicRound(HoldemBonusRound):
    main_spot = "blind"
    side_spots: tuple[str, ...] = ("bonus",)
    game_name = "Dynamic Poker Pro"
    streets = (
        Street("preflop", (), ("bet", "fold"), "bet twice the blind on the flop box, or fold", "before the flop"),
        Street("flop", (3,), ("bet", "check"), "bet once the blind on the turn box, or check", "on the flop"),
        Street("turn", (1,), ("bet", "check"), "bet once the blind on the river box, or check", "on the turn"),
    )

    def _box_results(self, hand: Any, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
        return main_results(self.config, hand, versus)


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("blind", "bonus"):
            raise ValueError(f"limits: no spot {spot!r} in dynamic-poker-pro (blind, bonus; the flop, turn and river "
                             "bets follow from the blind)")


_VERSIONS = {"a": "a straight or better, 2 to 1", "b": "three aces or better, 2 to 1",
             "c": "three kings or better, 2 to 1", "d": "three queens or better, 2 to 1",
             "e": "three jacks or better, 2 to 1", "f": "a straight or better, 3 to 1",
             "g": "a flush or better, 3 to 1"}

SPEC = GameSpec(
    id="dynamic-poker-pro",
    name="Dynamic Poker Pro",
    seeds=("002 Dynamic Poker Pro, versions A to G",),
    variants=tuple(VariantSpec(v, f"version {v.upper()}: the river bet pays on a win with {words}",
                               f"002 Dynamic Poker Pro, version {v.upper()}") for v, words in _VERSIONS.items()),
    options=(
        OptionSpec("boxes", 6, "boxes at the table (002: six players)", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units (blind, bonus)", kind="limits"),
        OptionSpec("burn_cards", False, "a card is burned before the flop, the turn and the river (002 names none)",
                   kind="bool"),
        OptionSpec("bonus_table", "i", "the bonus table: Texas Hold'em Bonus table I (the seed's odds were lost), "
                   "or II", kind="choice", choices=("i", "ii")),
    ),
    spots=(
        SpotSpec("blind", "the blind, needed to play (002 'Anteinsats'); it pushes on a win", "table limits"),
        SpotSpec("flop", "placed by the bet before the flop: twice the blind (002)", "twice the blind"),
        SpotSpec("turn", "placed by a bet on the flop: the blind (002)", "equal to the blind"),
        SpotSpec("river", "placed by a bet on the turn: the blind (002); 2 or 3 to 1 with the version's hand",
                 "equal to the blind"),
        SpotSpec("bonus", "optional, on the box's own two cards; needs the blind (002)", "table limits"),
    ),
    actions=(
        ActionSpec("bet", "before the flop: twice the blind on the flop box; on the flop and on the turn: the blind "
                   "on the turn or river box"),
        ActionSpec("check", "on the flop and on the turn: no bet now"),
        ActionSpec("fold", "before the flop: blind and bonus are lost"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="holdem_streets",
    new_round=lambda config, carried: DynamicRound(config, carried),
    paytable_file="dynamic-poker-pro.toml",
    interpretations=(
        "The deal, the decisions and the board are Texas Hold'em Bonus's (002 version A); no burn cards unless the "
        "option burn_cards is on; when every box has folded no board is dealt.",
        "The blind neither wins nor loses on a win ('Blind-insatsen varken vinner eller förlorar'); it is lost when "
        "the dealer wins and pushes on a tie.",
        "The river bet's 2 or 3 to 1 needs the box to win with the version's hand or better; without it the river "
        "bet wins 1 to 1. Three aces (or kings, queens, jacks) or better: three of a kind of that rank or higher, or "
        "any better category.",
        "The seed names a bonus but its odds were lost: Texas Hold'em Bonus's table I is the default "
        "(RULES-NOTES.md), table II an option; the bonus is lost on a fold.",
    ),
    validate=lambda config: _validate(config),
)
