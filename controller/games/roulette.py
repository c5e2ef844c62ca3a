"""Roulette: Swedish restaurant-casino roulette (seed 000 "Roulett" rules 1-9) and the European single-zero table.

The layout (12 rows of 3 and a zero) and the red numbers are data in
``paytables/roulette.toml``; every legal bet is computed from that grid
(``grid.Grid``). ``RouletteRules.spot_result`` settles one spot against a
number; the round and ``house_edge/roulette.py`` both use it.
"""

from __future__ import annotations

from typing import Any, Mapping

from controller.events import TYPE_NAMES, Event, Wheel
from controller.games.contract import GameSpec, OptionSpec, Reject, RoundConfig, SpotSpec, VariantSpec
from controller.games.contract import BoardSpec, ReaderSpec, ResultMark
from controller.games.grid import BetTable, Explainer, Grid, Shape
from controller.games.layout_game import LayoutRound, LayoutRules, SpotResult, validate_layout_config
from controller.money import Odds

EVEN_CHANCES = ("red", "black", "even", "odd", "low", "high")
OUTSIDE_KINDS = ("dozen", "column") + EVEN_CHANCES


def layout_grid(config: RoundConfig) -> Grid:
    layout = config.paytable["layout"]
    return Grid(int(layout["rows"]), int(layout["columns"]), bool(layout["zero"]))


class RouletteRules(LayoutRules):
    """The bets of one roulette table and how each settles against the winning number."""

    game_name = "roulette"
    again = "Spin again"
    result_words = "the winning number"
    result_event = "wheel"
    seed_rule = "seed 000 Roulett rule"

    def build_table(self) -> BetTable:
        config = self.config
        self.grid = layout_grid(config)
        self.red = frozenset(int(n) for n in config.paytable["layout"]["red"])
        last = self.grid.rows * self.grid.columns
        third = last // 3
        inside = self.grid.inside_bets(zero_bets=config["zero_bets"], trio=config["trio"],
                                       first_four=config["first_four"])
        outside = ([Shape("dozen", (d,)) for d in (1, 2, 3)]
                   + [Shape("column", (c,)) for c in range(1, self.grid.columns + 1)]
                   + [Shape(kind) for kind in EVEN_CHANCES])
        covers: dict[str, frozenset[int]] = {s.name: frozenset(s.numbers) for s in inside}
        numbers = range(1, last + 1)
        for d in (1, 2, 3):
            covers[f"dozen:{d}"] = frozenset(range(third * (d - 1) + 1, third * d + 1))
        for c in range(1, self.grid.columns + 1):
            covers[f"column:{c}"] = frozenset(n for n in numbers if self.grid.column_of(n) == c)
        covers["red"] = self.red
        covers["black"] = frozenset(n for n in numbers if n not in self.red)
        covers["even"] = frozenset(n for n in numbers if n % 2 == 0)
        covers["odd"] = frozenset(n for n in numbers if n % 2 == 1)
        covers["low"] = frozenset(n for n in numbers if n <= last // 2)
        covers["high"] = frozenset(n for n in numbers if n > last // 2)
        self.covers = covers
        shapes = inside + outside
        kinds = tuple(dict.fromkeys(["straight", "split", "street", "trio", "corner", "first_four", "line",
                                     *OUTSIDE_KINDS]))
        listing = ("straight:N, split:A,B, street:A,B,C, corner:A,B,C,D, line:A,...,F, "
                   "dozen:1-3, column:1-3, red, black, even, odd, low, high")
        zero_kinds = tuple(dict.fromkeys(s.kind for s in inside if 0 in s.numbers))
        return BetTable(shapes, Explainer(self.grid, kinds, 1, listing, zero_kinds=zero_kinds))

    def read_result(self, event: Event) -> int:
        if not isinstance(event, Wheel):
            raise Reject(f"roulette is settled by the wheel: a {TYPE_NAMES[type(event)]} event has no place here")
        last = self.grid.rows * self.grid.columns
        if not 0 <= event.number <= last:
            raise Reject(f"{event.number} is not a number of the wheel (0-{last})")
        return event.number

    def odds(self, kind: str) -> Odds:
        paid, per = self.config.paytable[self.config.variant][kind]
        return Odds(int(paid), int(per))

    def spot_result(self, shape: Shape, result: int) -> SpotResult:
        if result in self.covers[shape.name]:
            return "win", self.odds(shape.kind), None
        if result == 0 and shape.kind in EVEN_CHANCES and self.config.get("la_partage", False):
            return "surrender", None, "la partage: half the stake back on zero"
        return "lose", None, None

    def outcome_data(self, result: int) -> dict[str, Any]:
        n = result
        if n == 0:
            return {"number": 0, "color": "green", "dozen": None, "column": None, "parity": None, "half": None}
        last = self.grid.rows * self.grid.columns
        return {
            "number": n,
            "color": "red" if n in self.red else "black",
            "dozen": (n - 1) // (last // 3) + 1,
            "column": self.grid.column_of(n),
            "parity": "even" if n % 2 == 0 else "odd",
            "half": "low" if n <= last // 2 else "high",
        }


def _validate(config: RoundConfig) -> None:
    if not config["zero_bets"]:
        for option in ("trio", "first_four"):
            if config[option]:
                raise ValueError(f"{option}: a bet with zero needs the option zero_bets on")
    validate_layout_config(RouletteRules(config))


_SE_LIMIT = "SE: at most 1/6000 of the price base amount per player (seed 000 Roulett rule 6)"

def board_mark(outcome: Mapping[str, Any]) -> ResultMark | None:
    """The winning number on the results board, in its colour."""
    number, colour = outcome.get("number"), outcome.get("color")
    if not isinstance(number, int) or isinstance(number, bool):
        return None
    return str(number), colour if colour in ("red", "black", "green") else None


SPEC = GameSpec(
    id="roulette",
    name="Roulette",
    seeds=("000 Roulett rules 1-9 and the payout list", "the standard European single-zero table"),
    variants=(
        VariantSpec("se", "Swedish restaurant casino: single zero, 30/15/10/7/4/2/1, even chances lose on zero",
                    "000 Roulett rules 1-9",
                    options=("seats", "limits", "price_base_amount", "chip_values", "zero_bets", "trio",
                             "first_four")),
        VariantSpec("european", "European single zero: 35/17/11/8/5/2/1, trio and first four, la partage optional",
                    "the standard single-zero table",
                    defaults={"zero_bets": True, "trio": True, "first_four": True},
                    options=("seats", "limits", "chip_values", "zero_bets", "trio", "first_four", "la_partage")),
    ),
    options=(
        OptionSpec("seats", 10, "player positions at the table (a bet's seat)", minimum=1, maximum=20),
        OptionSpec("limits", {}, "[minimum, maximum] of one player's stake on one spot, in minor units, keyed by "
                   "spot (straight:17) or kind (straight, dozen, red)", kind="limits"),
        OptionSpec("price_base_amount", 5_920_000, "the year's prisbasbelopp in öre (59 200 SEK for 2026)",
                   kind="amount", minimum=1),
        OptionSpec("chip_values", (), "the values of the table's chips in minor units; a stake must be made of "
                   "them (SE: each at most 1/6000 of the price base amount, rule 5)", kind="amounts"),
        OptionSpec("zero_bets", False, "inside bets with zero: straight:0 and split:0,N (RULES-NOTES.md: off in se)",
                   kind="bool"),
        OptionSpec("trio", False, "the trio bets trio:0,1,2 and trio:0,2,3 (needs zero_bets)", kind="bool"),
        OptionSpec("first_four", False, "the first-four bet first_four:0,1,2,3 (needs zero_bets)", kind="bool"),
        OptionSpec("la_partage", False, "even chances lose only half the stake on zero", kind="bool"),
    ),
    spots=(
        SpotSpec("straight:N", "one number, 1-36 (0 with zero_bets)", _SE_LIMIT),
        SpotSpec("split:A,B", "two neighbours on the layout (0 with 1, 2 or 3 with zero_bets)", _SE_LIMIT),
        SpotSpec("street:A,B,C", "one row of three", _SE_LIMIT),
        SpotSpec("trio:0,A,B", "zero with 1-2 or 2-3 (option trio)", _SE_LIMIT),
        SpotSpec("corner:A,B,C,D", "a 2x2 block", _SE_LIMIT),
        SpotSpec("first_four:0,1,2,3", "zero and 1, 2, 3 (option first_four)", _SE_LIMIT),
        SpotSpec("line:A,...,F", "two adjacent rows (six-line)", _SE_LIMIT),
        SpotSpec("dozen:D", "1-12, 13-24 or 25-36", _SE_LIMIT),
        SpotSpec("column:C", "column 1 (1, 4, ..., 34), 2 or 3", _SE_LIMIT),
        *(SpotSpec(kind, f"even chance: {kind}", _SE_LIMIT) for kind in EVEN_CHANCES),
    ),
    actions=(),
    devices=("wheel_reader", "camera"),
    reader=ReaderSpec("wheel"),
    result_mark=board_mark,
    strategy="layout",
    new_round=lambda config, carried: LayoutRound(config, RouletteRules(config), carried),
    paytable_file="roulette.toml",
    interpretations=(
        "se: no bet covers zero unless the option zero_bets is on (RULES-NOTES.md); zero then takes every "
        "bet on the layout. Even chances lose on zero (no la partage).",
        "se: every bet names its chip colour as 'player' (rule 7); one colour plays at one seat only; the "
        "1/6000 maximum (rule 6) applies to one colour's stakes on one spot together.",
        "A 'wheel' result while the bets are open closes them: the ball has landed.",
        "A 'void' (omslag, rule 4) is taken at any time before the result: the bets stay as they are (open "
        "bets stay open) and the next number settles them; the outcome lists every void with who and why.",
        "La partage (european option) settles an even chance on zero as 'surrender': half the stake back, "
        "rounded in the house's favour like every payout.",
        "Trio and first four (zero bets) pay as a street and a corner; in se they are not in the seed and are "
        "off, but if a table turns them on they pay 10 and 7 to 1 like the seed's street and corner.",
    ),
    validate=lambda config: _validate(config),
    board=BoardSpec("numbers", lambda o: {k: o.get(k) for k in ("number", "color", "dozen", "parity", "half")}
                    if "number" in o else None,
                    lambda config: tuple(range(0, layout_grid(config).rows * layout_grid(config).columns + 1)),
                    lambda config, n: "green" if n == 0 else
                    "red" if n in {int(r) for r in config.paytable["layout"]["red"]} else "black"),
)
