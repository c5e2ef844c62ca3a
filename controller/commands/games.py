"""`tablectl games [--json]`: the catalog of games, variants, options, spots and actions (DESIGN.md section 7)."""

from __future__ import annotations

import argparse
from typing import Any

from controller import games
from controller.commands.common import print_json
from controller.games.contract import GameSpec


def catalog_entry(spec: GameSpec) -> dict[str, Any]:
    """One game as the JSON catalog gives it; the docs pages are checked against this."""
    paytable = games.paytable_of(spec)
    variants = []
    for variant in spec.variants:
        config = spec.resolve(variant.id, {}, paytable)
        variants.append({
            "id": variant.id,
            "name": variant.name,
            "seed": variant.seed,
            "options": {name: _jsonable(value) for name, value in config.options.items()},
            "spots": [s.name for s in spec.spots_for(variant.id)],
        })
    return {
        "id": spec.id,
        "name": spec.name,
        "seed": list(spec.seeds),
        "variants": variants,
        "options": [{"name": o.name, "default": _jsonable(o.default), "kind": o.kind, "help": o.help,
                     **({"choices": list(o.choices)} if o.choices else {})} for o in spec.options],
        "spots": [{"name": s.name, "description": s.description, "limit": s.limit} for s in spec.spots],
        "actions": [{"name": a.name, "description": a.description} for a in spec.actions],
        "devices": list(spec.devices),
        "paytables": _jsonable(paytable),
        "interpretations": list(spec.interpretations),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list every game and variant",
                                   description="List every game, its variants, spots, actions and devices.")
    parser.add_argument("--json", action="store_true", help="the full catalog as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    specs = games.all_games()
    if args.json:
        print_json({"games": [catalog_entry(s) for s in specs]})
        return 0
    for spec in specs:
        print(f"{spec.id}: {spec.name}  [seed {'; '.join(spec.seeds)}]")
        for variant in spec.variants:
            print(f"  {variant.id:<20} {variant.name}")
    return 0
