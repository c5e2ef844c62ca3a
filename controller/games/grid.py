"""Geometry of roulette-style layouts: which sets of numbers are a legal bet, computed once from the grid.

A layout is numbers 1..rows*columns laid out row by row (row 1 is 1, 2, 3;
row 2 is 4, 5, 6; ...), with an optional zero above the first row. Every
legal inside bet is derived from that grid and nothing else:

- straight: one number;
- split: two neighbours in a row or in a column (and zero with 1, 2 or 3);
- street: one row; trio: zero with 1-2 or 2-3;
- corner: a 2x2 block; first four: 0, 1, 2, 3;
- line: two adjacent rows (``line_step`` 2 keeps only rows 1-2, 3-4, ...,
  the red-die sections of Tärning).

A spot is named ``kind:n,n,...`` with the numbers ascending (DESIGN.md
section 7). ``BetTable.shape`` turns a spot name into the ``Shape`` it covers
or raises ``Reject`` saying why the chips cannot stand there.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping

from controller.games.contract import Reject

INSIDE_KINDS = ("straight", "split", "street", "trio", "corner", "first_four", "line")


@dataclass(frozen=True, slots=True)
class Shape:
    """One bet on the layout: its kind and what it covers (numbers, or a game's parameters)."""

    kind: str
    numbers: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        return spot_name(self.kind, self.numbers)


def spot_name(kind: str, numbers: Iterable[int] = ()) -> str:
    """``split`` and ``(17, 20)`` -> ``split:17,20``; a bet without numbers is its kind alone."""
    numbers = tuple(numbers)
    return f"{kind}:{','.join(str(n) for n in numbers)}" if numbers else kind


@dataclass(frozen=True)
class Grid:
    """``rows`` x ``columns`` numbers, row by row, and whether a zero sits above row 1."""

    rows: int
    columns: int
    zero: bool = False

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(range(0 if self.zero else 1, self.rows * self.columns + 1))

    def row_of(self, n: int) -> int:
        return (n - 1) // self.columns + 1

    def column_of(self, n: int) -> int:
        return (n - 1) % self.columns + 1

    def at(self, row: int, column: int) -> int:
        return (row - 1) * self.columns + column

    def row(self, row: int) -> tuple[int, ...]:
        return tuple(self.at(row, c) for c in range(1, self.columns + 1))

    def inside_bets(self, *, zero_bets: bool = False, trio: bool = False, first_four: bool = False,
                    line_step: int = 1) -> list[Shape]:
        """Every legal inside bet of this grid (with the zero bets the table offers)."""
        shapes: list[Shape] = []
        if self.zero and zero_bets:
            shapes.append(Shape("straight", (0,)))
            shapes.extend(Shape("split", (0, n)) for n in self.row(1))
            if trio:
                first = self.row(1)
                shapes.extend(Shape("trio", (0, a, b)) for a, b in zip(first, first[1:]))
            if first_four:
                shapes.append(Shape("first_four", (0, *self.row(1))))
        shapes.extend(Shape("straight", (n,)) for n in range(1, self.rows * self.columns + 1))
        for r in range(1, self.rows + 1):
            for c in range(1, self.columns + 1):
                n = self.at(r, c)
                if c < self.columns:
                    shapes.append(Shape("split", (n, n + 1)))
                if r < self.rows:
                    shapes.append(Shape("split", (n, n + self.columns)))
                if c < self.columns and r < self.rows:
                    shapes.append(Shape("corner", (n, n + 1, n + self.columns, n + self.columns + 1)))
            shapes.append(Shape("street", self.row(r)))
        for r in range(1, self.rows, line_step):
            shapes.append(Shape("line", self.row(r) + self.row(r + 1)))
        return shapes

    def why_not(self, kind: str, numbers: tuple[int, ...], line_step: int = 1,
                zero_kinds: tuple[str, ...] = ()) -> str:
        """Why ``kind:numbers`` is no legal bet on this grid, in the croupier's words.

        ``zero_kinds`` are the kinds of the zero bets the table offers (straight, split, trio, first_four).
        """
        name = spot_name(kind, numbers)
        low = 0 if self.zero else 1
        high = self.rows * self.columns
        for n in numbers:
            if not low <= n <= high:
                return f"{name}: {n} is not on the layout ({low}-{high})"
        if 0 in numbers or kind in ("trio", "first_four"):
            if kind in ("street", "corner", "line"):
                hint = {"street": " (zero with two numbers is a trio)",
                        "corner": " (zero and the first row is the first four)"}.get(kind, "")
                return f"{name}: a {kind} cannot include zero{hint}"
            if kind not in zero_kinds:
                option = "zero_bets" if kind in ("straight", "split") or not zero_kinds else kind
                return f"{name}: this table does not offer {kind.replace('_', ' ')} bets with zero (option {option})"
            first = self.row(1)
            if kind == "split":
                return f"{name}: zero's neighbours are {', '.join(map(str, first))}"
            if kind == "trio":
                return f"{name}: a trio is {' or '.join(spot_name('trio', (0, a, b)) for a, b in zip(first, first[1:]))}"
            if kind == "first_four":
                return f"{name}: the first four is {spot_name('first_four', (0, *first))}"
        expected = {"straight": 1, "split": 2, "street": 3, "trio": 3, "corner": 4, "first_four": 4, "line": 6}
        size = expected.get(kind)
        if size is not None and len(numbers) != size:
            return f"{name}: a {kind.replace('_', ' ')} covers {size} number{'s' if size > 1 else ''}, not {len(numbers)}"
        if kind == "split":
            return f"{name}: {numbers[0]} and {numbers[1]} are not neighbours on the layout"
        if kind == "street":
            return f"{name}: a street is one row of the layout, such as {','.join(map(str, self.row(2)))}"
        if kind == "corner":
            example = (5, 6, 8, 9) if self.columns == 3 else (1, 2, 1 + self.columns, 2 + self.columns)
            return f"{name}: a corner is a 2x2 block of the layout, such as {','.join(map(str, example))}"
        if kind == "line":
            if line_step == 2:
                return (f"{name}: a six-line is one red-die section "
                        f"({', '.join(f'{self.at(r, 1)}-{self.at(r + 1, self.columns)}' for r in range(1, self.rows, 2))})")
            return f"{name}: a line is two adjacent rows, such as {','.join(map(str, self.row(2) + self.row(3)))}"
        return f"{name}: not a bet on this layout"


def parse_spot(spot: str) -> tuple[str, tuple[int, ...]]:
    """``"split:17,20"`` -> ``("split", (17, 20))``; refuses numbers that are not whole numbers."""
    kind, sep, rest = spot.partition(":")
    if not sep:
        return spot, ()
    parts = rest.split(",")
    if not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise Reject(f"{spot}: the numbers of a bet are whole numbers separated by commas, such as split:17,20")
    return kind, tuple(int(p) for p in parts)


class BetTable:
    """Every legal spot of one table, by name. Immutable, so rounds share it instead of copying it."""

    def __init__(self, shapes: Iterable[Shape], explain: Callable[[str, tuple[int, ...], list[str]], str]) -> None:
        self._shapes: Mapping[str, Shape] = MappingProxyType({s.name: s for s in shapes})
        self._explain = explain

    def __deepcopy__(self, memo: dict[int, Any]) -> "BetTable":
        return self

    def __contains__(self, spot: str) -> bool:
        return spot in self._shapes

    def __iter__(self) -> Iterator[Shape]:
        return iter(self._shapes.values())

    def __len__(self) -> int:
        return len(self._shapes)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.kind for s in self._shapes.values()))

    def shape(self, spot: str) -> Shape:
        """The shape ``spot`` covers, or ``Reject`` saying why it is not a bet here."""
        found = self._shapes.get(spot)
        if found is not None:
            return found
        kind, numbers = parse_spot(spot)
        canonical = spot_name(kind, sorted(numbers))
        if len(set(numbers)) == len(numbers) and canonical != spot and canonical in self._shapes:
            raise Reject(f"{spot}: write the numbers ascending: {canonical}")
        same = [name for name, shape in self._shapes.items() if shape.kind == kind]
        raise Reject(self._explain(kind, numbers, same))


class Explainer:
    """Builds the reason a spot is refused; a callable so a BetTable stays plain data."""

    def __init__(self, grid: Grid | None, kinds: Iterable[str], line_step: int = 1, others: str = "",
                 totals: tuple[int, ...] = (), zero_kinds: tuple[str, ...] = ()) -> None:
        self.grid = grid
        self.zero_kinds = zero_kinds
        self.totals = totals
        self.kinds = tuple(kinds)
        self.line_step = line_step
        self.others = others

    def __call__(self, kind: str, numbers: tuple[int, ...], same: list[str]) -> str:
        name = spot_name(kind, numbers)
        if kind not in self.kinds:
            return f"there is no {name!r} bet at this table (bets: {self.others})"
        if kind == "total" and self.totals:
            return f"{name}: the totals on the layout are {min(self.totals)} to {max(self.totals)}"
        if self.grid is not None and kind in INSIDE_KINDS:
            return self.grid.why_not(kind, numbers, self.line_step, self.zero_kinds)
        if same:
            return f"{name}: the {kind.replace('_', ' ')} bets here are {', '.join(same)}"
        return f"{name}: not a bet at this table (bets: {self.others})"


# --------------------------------------------------------------------------- chips


def chips_make(amount: int, values: Iterable[int]) -> bool:
    """True when ``amount`` is a sum of chips of the given values (any number of each)."""
    chips = sorted(set(v for v in values if v > 0))
    if not chips:
        return True
    if amount == 0:
        return True
    g = 0
    for v in chips:
        g = gcd(g, v)
    if amount % g:
        return False
    scaled = [v // g for v in chips]
    target = amount // g
    # Above (smallest - 1) * (largest - 1) every multiple of the gcd is a sum of chips (Schur's bound).
    if target > (scaled[0] - 1) * (scaled[-1] - 1):
        return True
    reach = [False] * (target + 1)
    reach[0] = True
    for total in range(1, target + 1):
        reach[total] = any(v <= total and reach[total - v] for v in scaled)
    return reach[target]
