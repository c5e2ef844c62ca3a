"""Sic Bo (seed 004, "Tärningsspel": the odds table under "Vinstutbetalning").

Three dice; the bets are small and big (both lose on any triple), a single
number (paid 1, 2 or 12 to 1 as one, two or three dice show it), a two-dice
combination, a specific double, any triple, a specific triple and the totals
4 to 17. ``SicBoRules.spot_result`` settles one spot against the three dice;
the round and ``house_edge/sic_bo.py`` both use it.
"""

from __future__ import annotations

from typing import Any, Mapping

from controller.events import TYPE_NAMES, Dice, Event
from controller.games.contract import GameSpec, OptionSpec, Reject, RoundConfig, SpotSpec, VariantSpec
from controller.games.contract import BoardSpec, ReaderSpec, ResultMark
from controller.games.grid import BetTable, Shape, spot_name
from controller.games.layout_game import LayoutRound, LayoutRules, SpotResult, validate_layout_config
from controller.money import Odds

FACES = range(1, 7)
DICE: tuple[int, tuple[str, ...]] = (3, ())
"""The dice a throw has: three, of any colour; the camera reader expects the same."""
KINDS = ("small", "big", "single", "combo", "double", "any_triple", "triple", "total")
LISTING = "small, big, single:1..6, combo:A,B (A below B), double:1..6, any_triple, triple:1..6, total:4..17"


class SicBoExplainer:
    """Why a spot is no Sic Bo bet, in the croupier's words."""

    def __init__(self, totals: tuple[int, ...]) -> None:
        self.totals = totals

    def __call__(self, kind: str, numbers: tuple[int, ...], same: list[str]) -> str:
        name = spot_name(kind, numbers)
        if kind not in KINDS:
            return f"there is no {name!r} bet at this table (bets: {LISTING})"
        if kind == "total":
            return f"{name}: the totals on the layout are {self.totals[0]} to {self.totals[-1]}"
        if kind == "combo" and len(numbers) == 2 and numbers[0] == numbers[1]:
            return f"{name}: a combination is two different numbers; for {numbers[0]}-{numbers[0]} bet double:{numbers[0]}"
        if any(n not in FACES for n in numbers):
            return f"{name}: a die shows 1 to 6"
        wanted = {"single": 1, "double": 1, "triple": 1, "combo": 2}.get(kind, 0)
        if len(numbers) != wanted:
            shown = f"{kind}:N" if wanted == 1 else "combo:A,B" if wanted == 2 else kind
            return f"{name}: write this bet as {shown}"
        return f"{name}: not a bet at this table (bets: {LISTING})"


class SicBoRules(LayoutRules):
    """The bets of one Sic Bo table and how each settles against three dice."""

    game_name = "sic-bo"
    again = "Shake the dice again"
    result_words = "the three dice"
    result_event = "dice"

    @property
    def paytable(self) -> Any:
        return self.config.paytable[self.config.variant]

    def build_table(self) -> BetTable:
        totals = tuple(sorted(int(t) for t in self.paytable["total"]))
        shapes = [Shape("small"), Shape("big")]
        shapes += [Shape("single", (n,)) for n in FACES]
        shapes += [Shape("combo", (a, b)) for a in FACES for b in FACES if a < b]
        shapes += [Shape("double", (n,)) for n in FACES]
        shapes += [Shape("any_triple")]
        shapes += [Shape("triple", (n,)) for n in FACES]
        shapes += [Shape("total", (t,)) for t in totals]
        return BetTable(shapes, SicBoExplainer(totals))

    def read_result(self, event: Event) -> tuple[int, int, int]:
        if not isinstance(event, Dice):
            raise Reject(f"Sic Bo is settled by the dice: a {TYPE_NAMES[type(event)]} event has no place here")
        if len(event.values) != DICE[0]:
            raise Reject(f"Sic Bo is played with three dice; this throw has {len(event.values)}")
        for value in event.values:
            if not 1 <= value <= 6:
                raise Reject(f"a die shows 1 to 6, not {value}")
        a, b, c = event.values
        return a, b, c

    @staticmethod
    def _odds(pair: Any) -> Odds:
        paid, per = pair
        return Odds(int(paid), int(per))

    def spot_result(self, shape: Shape, result: tuple[int, int, int]) -> SpotResult:
        table = self.paytable
        total = sum(result)
        triple = result[0] == result[1] == result[2]
        kind, numbers = shape.kind, shape.numbers
        odds: Odds | None = None
        if kind in ("small", "big"):
            low, high = table[f"{kind}_totals"]
            if low <= total <= high and not (triple and table["small_big_lose_on_triple"]):
                odds = self._odds(table[kind])
        elif kind == "single":
            count = result.count(numbers[0])
            if count:
                odds = self._odds(table["single"][count - 1])
        elif kind == "combo":
            if numbers[0] in result and numbers[1] in result:
                odds = self._odds(table["combo"])
        elif kind == "double":
            if result.count(numbers[0]) >= 2:
                odds = self._odds(table["double"])
        elif kind == "any_triple":
            if triple:
                odds = self._odds(table["any_triple"])
        elif kind == "triple":
            if triple and result[0] == numbers[0]:
                odds = self._odds(table["triple"])
        elif kind == "total":
            if total == numbers[0]:
                odds = self._odds(table["total"][str(total)])
        else:
            raise AssertionError(kind)
        return ("win", odds, None) if odds is not None else ("lose", None, None)

    def outcome_data(self, result: tuple[int, int, int]) -> dict[str, Any]:
        total = sum(result)
        triple = result[0] == result[1] == result[2]
        small = self.spot_result(Shape("small"), result)[0] == "win"
        big = self.spot_result(Shape("big"), result)[0] == "win"
        return {"dice": list(result), "total": total, "triple": triple, "small": small, "big": big}


def _validate(config: RoundConfig) -> None:
    validate_layout_config(SicBoRules(config))


def board_mark(outcome: Mapping[str, Any]) -> ResultMark | None:
    """The three dice on the results board."""
    dice = outcome.get("dice")
    return (" ".join(str(d) for d in dice), None) if isinstance(dice, list) else None


SPEC = GameSpec(
    id="sic-bo",
    name="Sic Bo",
    seeds=("004 Tärningsspel: Sic Bo, the odds table",),
    variants=(
        VariantSpec("fi", "Finnish casino Sic Bo: single numbers 1/2/12 to 1, totals 60 down to 6 to 1",
                    "004 Sic Bo"),
    ),
    options=(
        OptionSpec("seats", 10, "player positions at the table (a bet's seat)", minimum=1, maximum=20),
        OptionSpec("limits", {}, "[minimum, maximum] of one player's stake on one spot, in minor units, keyed by "
                   "spot (total:4) or kind (total, triple, small)", kind="limits"),
        OptionSpec("chip_values", (), "the values of the table's chips in minor units; a stake must be made of them",
                   kind="amounts"),
    ),
    spots=(
        SpotSpec("small", "total 4-10, loses on any triple", "table limits"),
        SpotSpec("big", "total 11-17, loses on any triple", "table limits"),
        SpotSpec("single:N", "the number N on one, two or three dice: 1, 2 or 12 to 1", "table limits"),
        SpotSpec("combo:A,B", "two different numbers both showing (TWO DIE)", "table limits"),
        SpotSpec("double:N", "at least two dice show N", "table limits"),
        SpotSpec("any_triple", "all three dice the same", "table limits"),
        SpotSpec("triple:N", "all three dice show N", "table limits"),
        SpotSpec("total:T", "the three dice add up to T, 4 to 17", "table limits"),
    ),
    actions=(),
    devices=("camera",),
    reader=ReaderSpec("dice", DICE[0], DICE[1]),
    result_mark=board_mark,
    strategy="layout",
    new_round=lambda config, carried: LayoutRound(config, SicBoRules(config), carried),
    paytable_file="sic-bo.toml",
    interpretations=(
        "The seed's single-number odds are 1, 2 and 12 to 1 (not the common 1, 2, 3): the figures follow the seed.",
        "A specific double wins once when a triple of its number shows (the seed: the third die does not matter).",
        "The totals win on a triple too (only small and big lose on a triple, as the seed says).",
        "The seed's totals 6 and 15 pay 18 to 1 (many tables pay 17 or 18); the paytable follows the seed.",
        "A dice event may name colours; Sic Bo ignores them. The order of the dice is kept in the outcome.",
        "A void (a die off the table or not flat) is taken at any time before the result; the bets stay.",
    ),
    validate=lambda config: _validate(config),
    board=BoardSpec("dice", lambda o: {"dice": list(o["dice"]), "total": o.get("total"), "triple": o.get("triple"),
                                     "big": o.get("big"), "small": o.get("small")} if "dice" in o else None),
)
