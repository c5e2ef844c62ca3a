"""The games: one pure module (or small package) per game family, found by the registry.

Every module in this package that defines ``SPEC`` (a ``GameSpec``) is a game,
and a package of several games declares them as ``SPECS``; ``load_game`` and
``all_games`` find them, so adding a game touches no list.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from controller import paytables
from controller.games.contract import GameSpec, Round, RoundConfig
from controller.events import Bet


def all_games() -> list[GameSpec]:
    """Every game spec, sorted by id."""
    specs: list[GameSpec] = []
    for info in pkgutil.iter_modules(__path__, __name__ + "."):
        if info.name.endswith(".contract"):
            continue
        module = importlib.import_module(info.name)
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            specs.append(spec)
        specs.extend(s for s in getattr(module, "SPECS", ()) if isinstance(s, GameSpec))
    return sorted(specs, key=lambda s: s.id)


def load_game(game_id: str) -> GameSpec:
    """The spec of ``game_id``, or ``ValueError`` naming the known ids.

    The module named like the id (``caribbean-stud``: ``caribbean_stud``) is tried first, so that a table
    of one game does not import every game (the poker room's modules load PokerKit: a second of a start);
    any other id is looked for among all games.
    """
    name = f"{__name__}.{game_id.replace('-', '_')}"
    if game_id.replace("-", "_").isidentifier() and any(info.name == name for info in
                                                       pkgutil.iter_modules(__path__, __name__ + ".")):
        module = importlib.import_module(name)
        for spec in (getattr(module, "SPEC", None), *getattr(module, "SPECS", ())):
            if isinstance(spec, GameSpec) and spec.id == game_id:
                return spec
    specs = all_games()
    for spec in specs:
        if spec.id == game_id:
            return spec
    raise ValueError(f"unknown game {game_id!r} (known: {', '.join(s.id for s in specs)})")


def paytable_of(spec: GameSpec) -> Mapping[str, Any]:
    return paytables.load(spec.paytable_file) if spec.paytable_file else {}


def configure(game_id: str, variant: str, options: Mapping[str, Any] | None = None) -> tuple[GameSpec, RoundConfig]:
    """Resolve a game, its variant and options (with its paytable) to a round configuration."""
    spec = load_game(game_id)
    return spec, spec.resolve(variant, options, paytable_of(spec))


def new_round(spec: GameSpec, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> Round:
    return spec.new_round(config, carried)
