"""`tablectl faults list`: every kind of fault the table can latch, from the one fault table."""

from __future__ import annotations

import argparse

from controller.commands.common import UsageError, print_json
from controller.language import check as check_language, language
from controller.runtime.faults import CLEAR_ROLES, FAULTS, markdown_table


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("faults", help="the faults a table can latch: meaning, what stops, tower, "
                                                  "who clears", description="The faults of controller/runtime/"
                                                                             "faults.py, the one table the tower, "
                                                                             "the daemon and the docs use.")
    sub = parser.add_subparsers(dest="faults_command", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="every fault kind, one block each")
    form = listing.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--markdown", action="store_true", help="the table the docs show (docs/runtime.md)")
    listing.add_argument("--lang", metavar="CODE", default="en",
                         help="the language of the list (en, sv, de, fi, da; --json and --markdown stay in English)")
    listing.set_defaults(run=run_list)


def run_list(args: argparse.Namespace) -> int:
    if args.markdown:
        print(markdown_table(), end="")
        return 0
    if args.json:
        print_json([{"name": k.name, "title": k.title, "meaning": k.meaning, "stops": k.stops, "stops_text": k.stops_text,
                     "tower": k.pattern, "cleared_by": k.clear_role, "cleared_by_text": CLEAR_ROLES[k.clear_role]}
                    for k in FAULTS.values()])
        return 0
    problem = check_language(args.lang)
    if problem is not None:
        raise UsageError(f"faults list: --lang {args.lang}: {problem}")
    t = language(args.lang).t
    for k in FAULTS.values():
        print(f"{k.name} ({t(k.title)}): {t(k.meaning)}\n  " + t("stops: {stops}; tower: {tower}; cleared by {who}",
                                                stops=t(k.stops_text), tower=k.pattern, who=t(CLEAR_ROLES[k.clear_role])))
    return 0
