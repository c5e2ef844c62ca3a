"""`tablectl run`: the table daemon (DESIGN.md section 3); `--simulate` puts every device on its emulator."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time

from controller import config as table_config
from controller.commands.common import UsageError
from controller.language import check as check_language
from controller.runtime.daemon import Daemon, StartError
from controller.runtime.journal import JournalError
from controller.runtime.logs import start_logging


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the table daemon (--simulate: a whole virtual table)",
        description="Run the table: journal every event, settle every bet, drive the displays. With --simulate "
                    "every device is emulated and a seeded virtual croupier and players play the table; "
                    "without --config, --game picks a game on the embedded defaults.")
    parser.add_argument("--config", metavar="FILE", help="table configuration (TOML, see hw/tables/)")
    parser.add_argument("--simulate", action="store_true", help="every device on its emulator, virtual croupier")
    parser.add_argument("--game", help="with --simulate and no --config: the game (embedded defaults)")
    parser.add_argument("--variant", help="with --game: the variant (default: the game's first)")
    parser.add_argument("--journal", metavar="PATH", help="journal file instead of the configured one")
    parser.add_argument("--rounds", type=int, metavar="N", help="stop once this run has settled N rounds")
    parser.add_argument("--until-round", type=int, metavar="N",
                        help="stop once the journal holds N settled rounds (a restart goes on to the same total)")
    parser.add_argument("--fast", action="store_true", help="no pauses: the simulated table plays flat out")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the simulated shoe and players")
    parser.add_argument("--quiet", action="store_true", help="print only round openings, settlements and faults")
    parser.add_argument("--idle", action="store_true", help="with --simulate: devices up, nobody plays (idle CPU)")
    parser.add_argument("--lang", metavar="CODE",
                        help="the table's language for this run (en, sv, de, fi, da; default: [table] language)")
    parser.set_defaults(run=run)


def load_config(args: argparse.Namespace) -> table_config.TableConfig:
    if args.config:
        if args.game or args.variant:
            raise UsageError("run: give either --config or --game/--variant, not both")
        return table_config.load(args.config)
    if not args.game:
        raise UsageError("run: give --config FILE, or --simulate --game GAME for the embedded defaults")
    if not args.simulate:
        raise UsageError("run: --game (embedded defaults) needs --simulate: real devices need a --config file")
    return table_config.from_mapping(table_config.simulated_defaults(args.game, args.variant,
                                                                                emulated=not args.fast),
                                     f"embedded defaults for {args.game}")


def run(args: argparse.Namespace) -> int:
    t_start = time.monotonic()
    for flag, value in (("--rounds", args.rounds), ("--until-round", args.until_round)):
        if value is not None and value < 1:
            raise UsageError(f"run: {flag} must be 1 or more")
    if args.rounds is not None and args.until_round is not None:
        raise UsageError("run: give --rounds (this run) or --until-round (the journal's total), not both")
    try:
        config = load_config(args)
    except table_config.ConfigError as exc:
        for problem in exc.problems:
            print(f"tablectl: {problem}", file=sys.stderr)
        return 2
    missing = None if args.simulate else table_config.no_devices(config)
    if missing is not None:
        print(f"tablectl: {missing}", file=sys.stderr)
        return 2
    if args.journal:
        config = table_config.TableConfig(**{**config.__dict__, "journal_path": table_config.Path(args.journal)})
    if args.lang is not None:
        unknown = check_language(args.lang)
        if unknown is not None:
            raise UsageError(f"run: --lang {args.lang}: {unknown}")
        config = table_config.TableConfig(**{**config.__dict__, "language": args.lang})
    # the structured log is for journald; on a terminal only warnings and errors join the table's lines
    listener = start_logging(logging.WARNING if sys.stderr.isatty() else logging.INFO)
    daemon = Daemon(config, simulate=args.simulate, seed=args.seed, fast=args.fast, rounds=args.rounds,
                    until_round=args.until_round,
                    quiet=args.quiet, croupier=not args.idle, t_start=t_start)
    try:
        return asyncio.run(daemon.run())
    except (StartError, JournalError) as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 1
    finally:
        listener.stop()
