"""Bulldog (seed 002 "Bulldog"): Red Dog with the deciding third card dealt to every spot with a bet.

Two base cards face up; on a spread every player may raise up to the bet;
then a third card to every spot with a bet, from spot 1 upward, decides that
spot's bets. A pair: no raise, a third card to every spot at once, three of a
kind 11 to 1 or a push. Consecutive base cards: no third card, every stake
pushes. Red Dog's rules of one stake (``red_dog.stake_result``) settle each spot.
"""

from __future__ import annotations

from controller.games.contract import ActionSpec, GameSpec, ReaderSpec, VariantSpec
from controller.games.red_dog import RedDogRound, options, spots, validate


class BulldogRound(RedDogRound):
    game_name = "Bulldog"

    def third_targets(self) -> list[int]:
        return self.spots_in_play()


SPEC = GameSpec(
    id="bulldog",
    name="Bulldog",
    seeds=("002 Bulldog",),
    variants=(VariantSpec("fi", "Finnish casino rules: six decks, a third card to every spot, 11/5/4/2/1",
                          "002 Bulldog"),),
    options=options(),
    spots=spots(),
    actions=(ActionSpec("raise", "after a spread is announced: raise up to the bet (amount; none: the whole bet)"),),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="red_dog",
    new_round=lambda config, carried: BulldogRound(config, carried),
    paytable_file="bulldog.toml",
    interpretations=(
        "The spread is the number of ranks strictly between the two base cards, ace high (RULES-NOTES.md).",
        "The third cards go to the spots with a bet from spot 1 upward, one card a spot, after every raise "
        "(002 A: 'När alla spelare har tagit sina höjningsbeslut'); each spot's card settles every bet on it.",
        "A pair of base cards: no raise, a third card to every spot with a bet at once; three of a kind pays "
        "11 to 1, any other card pushes (002 C).",
        "Consecutive base cards: no third card, every stake pushes (002 B).",
        "Up to three players on one spot, each deciding alone (002: 'Bakomspelare är inte bundna'); a named player "
        "plays one spot only.",
        "A third card equal in rank to either base card loses.",
    ),
    validate=validate,
)
