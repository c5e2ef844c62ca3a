"""`tablectl`: one entry point, a subcommand per job (DESIGN.md section 8).

Each subcommand lives in ``controller/commands/<name>.py``. Errors are one
line on stderr: exit 2 for bad usage or input, 1 for a failure at run time.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from controller import __version__
from controller.commands.common import UsageError

COMMANDS = ("settle", "games", "math", "console", "digest", "emulate", "selftest", "run", "config", "journal", "dice", "roulette", "vision")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablectl", description="Casino table controller.")
    parser.add_argument("--version", action="version", version=f"tablectl {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"controller.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except UsageError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:
        print(f"tablectl: {getattr(args, 'command', None) or 'tablectl'}: the input is nested too deeply", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug must still be one line for the operator, never a traceback
        print(f"tablectl: unexpected error ({type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''})"
              f"; this is a bug: please report it with the input", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
