"""A tiny test game with a progressive side bet, to drive the runtime's meters (no real game emits them yet).

One card decides: red wins ``main`` at 1 to 1, black loses. Every ``progressive``
bet contributes to meter ``main`` (the configured amount per bet); an ace is a
hit of the whole meter for each progressive bet, a king a hit of 1/10, paid in
the order the bets were placed, each from what the meter then holds.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from controller.events import Bet, CardOut, CloseBets, Event
from controller.games.contract import (
    GameSpec, MeterChange, OptionSpec, Outcome, Prompt, Reject, Round, RoundConfig, Settlement, SpotSpec, VariantSpec,
    check_stake, settle_fixed,
)
from controller.money import Odds


class ProgressiveRound(Round):
    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = []
        self.open = True
        self.card: str | None = None
        self.done = False
        self._settlements: list[Settlement] = []

    def _apply(self, event: Event) -> Iterable[Any]:
        if isinstance(event, Bet):
            if not self.open:
                raise Reject("no more bets")
            if event.spot not in ("main", "progressive"):
                raise Reject(f"no {event.spot!r} bet here")
            if not 1 <= event.seat <= self.config["boxes"]:
                raise Reject(f"no box {event.seat}")
            if event.spot == "progressive" and any(b.seat == event.seat and b.spot == "progressive" for b in self.bets):
                raise Reject("one progressive bet per box")
            check_stake(event.spot, event.amount, 100, 100_000)
            self.bets.append(event)
            if event.spot == "progressive":
                return (MeterChange("main", "contribution", seat=event.seat),)
            return ()
        if isinstance(event, CloseBets):
            if not self.open:
                raise Reject("the bets are already closed")
            self.open = False
            return (Prompt("Deal the card", expects=("card",)),)
        if isinstance(event, CardOut):
            if event.card.is_joker:
                raise Reject("no joker in this shoe")
            self.open = False
            self.card = str(event.card)
            self.done = True
            red = event.card.suit in "dh"
            effects: list[Any] = [Outcome({"card": self.card, "red": red})]
            for bet in self.bets:
                if bet.spot == "main":
                    s = settle_fixed(bet, "win" if red else "lose", Odds(1, 1) if red else None)
                else:
                    s = settle_fixed(bet, "lose")
                self._settlements.append(s)
                effects.append(s)
            for bet in self.bets:
                if bet.spot == "progressive" and event.card.rank in (13, 14):
                    share = (1, 1) if event.card.rank == 14 else (1, 10)
                    effects.append(MeterChange("main", "hit", seat=bet.seat, share=share, hand=self.card))
            return effects
        raise Reject(f"a {type(event).__name__} has no place here")

    @property
    def complete(self) -> bool:
        return self.done

    def waiting_for(self) -> str:
        return "bets" if self.open else "nothing" if self.done else "the card"

    def outcome(self) -> Mapping[str, Any] | None:
        return {"card": self.card} if self.done else None

    def settlements(self) -> tuple[Settlement, ...]:
        return tuple(self._settlements)


SPEC = GameSpec(
    id="progressive-test", name="Progressive test game", seeds=("tests only",),
    variants=(VariantSpec("std", "the only variant", "tests only"),),
    options=(OptionSpec("boxes", 5, "boxes", minimum=1, maximum=7),
             OptionSpec("decks", 1, "decks", minimum=1, maximum=8)),
    spots=(SpotSpec("main", "red wins"), SpotSpec("progressive", "the progressive side bet")),
    actions=(), devices=("shoe",),
    progressive_spots=("progressive",),
    new_round=lambda config, carried: ProgressiveRound(config, carried),
)


def lookup(game_id: str) -> GameSpec:
    from controller import games
    return SPEC if game_id == SPEC.id else games.load_game(game_id)
