"""`tablectl digest`: print, store or check the digest of the installed code (the power-up self-check)."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.commands.common import UsageError
from controller.runtime.selfcheck import check_code, code_digest, write_digest


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("digest", help="digest of the installed code: print, --write or --check",
                                   description="The power-up self-check compares the installed code with a "
                                               "digest stored at installation.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", help="store the digest (at installation or upgrade)")
    group.add_argument("--check", metavar="FILE", help="compare with a stored digest; exit 1 on a mismatch")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.write:
        try:
            print(write_digest(Path(args.write)))
        except OSError as exc:
            raise UsageError(f"digest: cannot write {args.write}: {exc.strerror or exc}") from None
        return 0
    if args.check:
        result = check_code(Path(args.check))
        print(result.message if result.ok else f"{result.message} (now {result.actual})")
        return 0 if result.ok else 1
    print(code_digest())
    return 0
