"""`tablectl math GAME`: house edge and return of a configured game, through the game's own code."""

from __future__ import annotations

import argparse
import importlib
import sys

from controller import games
from controller.commands.common import UsageError, parse_option_pairs, print_json
from controller.progress import Progress


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("math", help="house edge of a game's bets (exact or simulated)",
                                   description="Compute the house edge of each bet of GAME, exactly where "
                                               "--exact is given or by simulating N rounds.")
    parser.add_argument("game", help="game id, as 'tablectl games' lists")
    parser.add_argument("--variant", help="variant id (default: the game's first)")
    parser.add_argument("--decks", type=int, help="decks in the shoe, where the game takes that option")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help="any other game option")
    parser.add_argument("--exact", action="store_true", help="exact enumeration")
    parser.add_argument("--simulate", type=int, metavar="N", help="simulate N rounds instead")
    parser.add_argument("--seed", type=int, default=1, help="random seed of a simulation")
    parser.add_argument("--optimal", action="store_true",
                        help="the main game under its optimal strategy, exact (where the tool has it; minutes)")
    parser.add_argument("--all-variants", action="store_true",
                        help="where the tool can: one simulation settles every variant on the same cards")
    parser.add_argument("--meter", type=int, metavar="AMOUNT",
                        help="progressive meter in minor units, for a game with a progressive")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr (none when not a terminal)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        spec = games.load_game(args.game)
        variant = args.variant or spec.variants[0].id
        options = parse_option_pairs(args.option)
        if args.decks is not None:
            options["decks"] = args.decks
        config = spec.resolve(variant, options, games.paytable_of(spec))
    except ValueError as exc:
        raise UsageError(f"math: {exc}") from None
    name = "controller.house_edge." + spec.id.replace("-", "_")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise UsageError(f"math: no house-edge tool for {spec.id} yet") from None
        raise UsageError(f"math: the {spec.id} tool needs {exc.name!r}: pip install 'tablectl[math]'") from None
    if any(m in sys.modules for m in ("controller.hands.fast", "controller.hands.batch")):
        from controller.table_cache import warm_hand_tables

        warm_hand_tables()  # the tool ranks hands: their tables from the cache, not built again
    unit = "flops" if spec.id == "restaurant-holdem" else "rounds"
    total = args.simulate or 0
    if args.optimal and hasattr(module, "OPTIMAL_STEPS"):
        total, unit = module.OPTIMAL_STEPS, "flops up to suits"
    args.progress = Progress(f"math {spec.id} {variant}", total, unit, quiet=args.quiet)
    try:
        document = module.report(spec, config, args)
    except ValueError as exc:
        raise UsageError(f"math: {exc}") from None
    finally:
        args.progress.close()
    if args.json:
        print_json(document)
        return 0
    print(f"{document['game']} {document['variant']}: {document.get('method', '')}")
    for name, figures in document.get("bets", {}).items():
        if "house_edge_percent" not in figures:
            continue
        line = f"  {name:<16} house edge {figures['house_edge_percent']:.4f} %"
        if "ci95_percent" in figures:
            low, high = figures["ci95_percent"]
            line += f"  (95 % interval {low:.4f} to {high:.4f} %)"
        if "house_edge_per_resolved_bet_percent" in figures:
            line += f"  ({figures['house_edge_per_resolved_bet_percent']:.4f} % per resolved bet)"
        print(line)
    if "seconds" in document:
        print(f"  ({document['seconds']} s)")
    return 0
