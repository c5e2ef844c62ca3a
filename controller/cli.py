"""`tablectl`: one entry point, a subcommand per job (DESIGN.md section 8).

Each subcommand lives in ``controller/commands/<name>.py``. Errors are one
line on stderr: exit 2 for bad usage or input, 1 for a failure at run time.

The parser imports only the module of the subcommand that is run: ``tablectl
--version`` and ``--help`` import none (each is listed by its one-line summary
in ``COMMANDS``), so they answer in a few hundredths of a second instead of
the third of a second that importing every command took.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from controller import __version__

COMMANDS: dict[str, str] = {
    "settle": "replay a scenario file and print every settlement as JSON",
    "games": "list every game and variant",
    "math": "house edge of a game's bets (exact or simulated)",
    "console": "attach to the daemon's console, or make a PIN hash",
    "digest": "digest of the installed code: print, --write or --check",
    "emulate": "run a shoe, shuffler or wheel-reader emulator on a pseudo-terminal",
    "selftest": "walk the technician through every configured device",
    "run": "run the table daemon (--simulate: a whole virtual table)",
    "config": "check a table configuration",
    "journal": "verify, tail or export a table's journal",
    "faults": "the faults a table can latch: meaning, what stops, tower, who clears",
    "dice": "read the dice in images (ok, void or unsure per image)",
    "roulette": "read the winning numbers from an overhead wheel video",
    "vision": "calibrate the camera view, check it, generate synthetic scenes",
    "floor": "the floor service: every table's journal off the bus, chains checked, the floor view",
}
"""Subcommand -> its one-line summary (the same text its module registers; tests/controller/test_cli.py checks)."""


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word that is not an option (tablectl's own options take no value)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with ``command``'s module imported and registered (``"*"``: every command's)."""
    parser = argparse.ArgumentParser(prog="tablectl", description="Casino table controller.")
    parser.add_argument("--version", action="version", version=f"tablectl {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if command in (name, "*"):
            importlib.import_module(f"controller.commands.{name}").register(subparsers)
        else:
            subparsers.add_parser(name, help=summary)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(chosen_command(words))
    args = parser.parse_args(words)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    from controller.commands.common import UsageError

    try:
        return int(args.run(args) or 0)
    except UsageError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
