"""Tärning and High Jack (seed 000 "Tärning" rules 1-9, its payout list, and "Varianten High Jack").

Two dice, a red one for the section and a green one for the number: the
winning number is 6 x (red - 1) + green (rule 1, RULES-NOTES.md), on a
layout of 12 rows of 3 without zero. Besides the roulette-style inside bets
there are the totals of both dice (``total:3`` .. ``total:11``), ``pair``,
``below`` (under 7) and ``above`` (over 7). High Jack differs only in how the
dice are thrown (rule 2a: a shaken cup), so it settles the same way.
"""

from __future__ import annotations

from typing import Any, Mapping

from controller.events import TYPE_NAMES, Dice, Event
from controller.games.contract import GameSpec, OptionSpec, Reject, RoundConfig, SpotSpec, VariantSpec
from controller.games.contract import BoardSpec, ReaderSpec, ResultMark
from controller.games.grid import BetTable, Explainer, Grid, Shape
from controller.games.layout_game import LayoutRound, LayoutRules, SpotResult, validate_layout_config
from controller.money import Odds

DICE: tuple[int, tuple[str, ...]] = (2, ("green", "red"))
"""The dice a throw has: how many, and their colours (sorted); the camera reader expects the same."""
COLOR_NAMES = {"red": "red", "röd": "red", "rod": "red", "green": "green", "grön": "green", "gron": "green"}
EXTRA_KINDS = ("total", "pair", "below", "above")


def number_of(red: int, green: int) -> int:
    """The winning number of a throw: the red die picks the section, the green die the number in it."""
    return 6 * (red - 1) + green


class TarningRules(LayoutRules):
    """The bets of one Tärning table and how each settles against (red, green)."""

    game_name = "tarning"
    result_event = "dice"
    seed_rule = "seed 000 Tärning rule"

    @property
    def again(self) -> str:  # type: ignore[override]
        return "Shake the cup again" if self.config.variant == "se-high-jack" else "Throw the dice again"

    @property
    def result_words(self) -> str:  # type: ignore[override]
        return "the dice (red and green)"

    def build_table(self) -> BetTable:
        layout = self.config.paytable["layout"]
        self.grid = Grid(int(layout["rows"]), int(layout["columns"]), bool(layout["zero"]))
        self.line_step = int(layout["section_rows"]) if self.config["six_lines"] == "section" else 1
        inside = self.grid.inside_bets(line_step=self.line_step)
        totals = sorted(int(t) for t in self.paytable["total"])
        extra = [Shape("total", (t,)) for t in totals] + [Shape("pair"), Shape("below"), Shape("above")]
        kinds = ("straight", "split", "street", "corner", "line") + EXTRA_KINDS
        listing = (f"straight:N, split:A,B, street:A,B,C, corner:A,B,C,D, line:A,...,F, "
                   f"total:{totals[0]}..total:{totals[-1]}, pair, below, above")
        return BetTable(inside + extra, Explainer(self.grid, kinds, self.line_step, listing, tuple(totals)))

    @property
    def paytable(self) -> Any:
        return self.config.paytable[self.config.variant]

    def read_result(self, event: Event) -> tuple[int, int]:
        if not isinstance(event, Dice):
            raise Reject(f"Tärning is settled by the dice: a {TYPE_NAMES[type(event)]} event has no place here")
        if len(event.values) != DICE[0]:
            raise Reject(f"Tärning is played with two dice, a red and a green; this throw has {len(event.values)}")
        if event.colors is None:
            raise Reject("say which die is red and which is green (colors): the red die picks the section")
        colors = [COLOR_NAMES.get(c) for c in event.colors]
        if sorted(c or "?" for c in colors) != list(DICE[1]):
            raise Reject(f"the dice must be one red and one green, not {' and '.join(event.colors)}")
        for value in event.values:
            if not 1 <= value <= 6:
                raise Reject(f"a die shows 1 to 6, not {value}")
        by_color = dict(zip(colors, event.values))
        return by_color["red"], by_color["green"]

    def odds(self, shape: Shape) -> Odds:
        if shape.kind == "total":
            paid, per = self.paytable["total"][str(shape.numbers[0])]
        else:
            paid, per = self.paytable[shape.kind]
        return Odds(int(paid), int(per))

    def spot_result(self, shape: Shape, result: tuple[int, int]) -> SpotResult:
        red, green = result
        total = red + green
        kind = shape.kind
        if kind == "total":
            won = total == shape.numbers[0]
        elif kind == "pair":
            won = red == green
        elif kind == "below":
            won = total < 7
        elif kind == "above":
            won = total > 7
        else:
            won = number_of(red, green) in shape.numbers
        return ("win", self.odds(shape), None) if won else ("lose", None, None)

    def outcome_data(self, result: tuple[int, int]) -> dict[str, Any]:
        red, green = result
        n = number_of(red, green)
        total = red + green
        return {
            "number": n,
            "red": red,
            "green": green,
            "total": total,
            "pair": red == green,
            "below_above": "below" if total < 7 else "above" if total > 7 else "seven",
            "row": self.grid.row_of(n),
            "column": self.grid.column_of(n),
        }


def _validate(config: RoundConfig) -> None:
    validate_layout_config(TarningRules(config))


_SE_LIMIT = "at most 1/6000 of the price base amount per player (seed 000 Tärning rule 6)"
_OPTIONS = ("seats", "limits", "price_base_amount", "chip_values", "six_lines")

def board_mark(outcome: Mapping[str, Any]) -> ResultMark | None:
    """The throw on the results board: the red die, then the green."""
    red, green = outcome.get("red"), outcome.get("green")
    return (f"{red} {green}", None) if isinstance(red, int) and isinstance(green, int) else None


SPEC = GameSpec(
    id="tarning",
    name="Tärning",
    seeds=("000 Tärning rules 1-9 and the payout list", "000 Varianten High Jack"),
    variants=(
        VariantSpec("se", "Tärning: red and green die thrown against the short side of the table",
                    "000 Tärning rules 1-9", options=_OPTIONS),
        VariantSpec("se-high-jack", "High Jack: Tärning with the dice shaken in a cup (rule 2a)",
                    "000 Varianten High Jack", options=_OPTIONS),
    ),
    options=(
        OptionSpec("seats", 10, "player positions at the table (a bet's seat)", minimum=1, maximum=20),
        OptionSpec("limits", {}, "[minimum, maximum] of one player's stake on one spot, in minor units, keyed by "
                   "spot (straight:17, total:7) or kind (straight, total, pair)", kind="limits"),
        OptionSpec("price_base_amount", 5_920_000, "the year's prisbasbelopp in öre (59 200 SEK for 2026)",
                   kind="amount", minimum=1),
        OptionSpec("chip_values", (), "the values of the table's chips in minor units; a stake must be made of "
                   "them (each at most 1/6000 of the price base amount, rule 5)", kind="amounts"),
        OptionSpec("six_lines", "section", "which six-lines are offered: 'section' (one red-die section, "
                   "RULES-NOTES.md) or 'any' (any two adjacent rows)", kind="choice", choices=("section", "any")),
    ),
    spots=(
        SpotSpec("straight:N", "one number, 1-36", _SE_LIMIT),
        SpotSpec("split:A,B", "two neighbours on the layout", _SE_LIMIT),
        SpotSpec("street:A,B,C", "one row of three", _SE_LIMIT),
        SpotSpec("corner:A,B,C,D", "a 2x2 block", _SE_LIMIT),
        SpotSpec("line:A,...,F", "six-line: one red-die section (or two adjacent rows, option six_lines)", _SE_LIMIT),
        SpotSpec("total:T", "the two dice add up to T, 3 to 11", _SE_LIMIT),
        SpotSpec("pair", "both dice equal (all pair)", _SE_LIMIT),
        SpotSpec("below", "the total is under 7", _SE_LIMIT),
        SpotSpec("above", "the total is over 7", _SE_LIMIT),
    ),
    actions=(),
    devices=("camera",),
    reader=ReaderSpec("dice", DICE[0], DICE[1]),
    result_mark=board_mark,
    strategy="layout",
    new_round=lambda config, carried: LayoutRound(config, TarningRules(config), carried),
    paytable_file="tarning.toml",
    interpretations=(
        "The winning number is 6 x (red - 1) + green on 12 rows of 3 without zero (RULES-NOTES.md).",
        "A six-line is one red-die section (1-6, 7-12, ..., 31-36) by default, as RULES-NOTES.md reads the "
        "seed; the option six_lines = any offers every two adjacent rows (the same odds and edge).",
        "'3 eller 11' and the other pairs of totals are two separate spots at the same odds; totals 2 and 12 "
        "have no spot. Below and above lose on 7.",
        "A dice event must name the red and the green die (colors); otherwise it is refused, since the red die "
        "picks the section.",
        "A void (omslag, rule 4: a die off the table or not flat) is taken at any time before the result; the "
        "bets stay and the next throw settles them.",
        "Every bet names its chip colour as 'player' (rule 7); one colour plays at one seat only; the 1/6000 "
        "maximum (rule 6) applies to one colour's stakes on one spot together.",
    ),
    validate=lambda config: _validate(config),
    board=BoardSpec("dice", lambda o: {"dice": [o.get("red"), o.get("green")], "colors": ["red", "green"],
                                     "number": o["number"], "total": o.get("total"),
                                     "below_above": o.get("below_above")} if "number" in o else None),
)
