"""`tablectl settle FILE|-`: replay a scenario file and print its settlements (DESIGN.md section 6)."""

from __future__ import annotations

import argparse

from controller.commands.common import UsageError, print_json, read_text
from controller.scenario import ScenarioError, load_scenario, parse_json, settle


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("settle", help="replay a scenario file and print every settlement as JSON",
                                   description="Replay a scenario file (or - for stdin) through its game and print "
                                               "one JSON document with each round's outcome and settlements.")
    parser.add_argument("file", help="scenario JSON file, or - for standard input")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        scenario = load_scenario(parse_json(text))
    except ScenarioError as exc:
        raise UsageError(f"{name}: {exc}") from None
    print_json(settle(scenario))
    return 0
