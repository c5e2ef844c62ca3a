"""`tablectl journal verify|tail|export`: read a table's journal back (DESIGN.md section 3)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from controller.commands.common import UsageError, print_json
from controller.progress import Progress
from controller.runtime.audit import export_round, verify
from controller.runtime.journal import Journal, JournalError
from controller.runtime.outputs import Terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("journal", help="verify, tail or export a table's journal",
                                   description="Read a table's SQLite journal (read-only).")
    sub = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    v = sub.add_parser("verify", help="check the hash chain and recompute the meters from the records")
    t = sub.add_parser("tail", help="the last records")
    t.add_argument("-n", type=int, default=20, help="how many records (default 20)")
    e = sub.add_parser("export", help="a round as a scenario file that 'tablectl settle' replays")
    e.add_argument("--round", type=int, required=True, metavar="N", help="the round number")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    e.add_argument("--format", choices=("scenario", "phh"), default="scenario",
                   help="scenario (default) or phh: a poker-room hand in the PHH hand-history format")
    for p in (v, t, e):
        p.add_argument("journal", help="the journal file (journal.path of the table configuration)")
    for p in (v, t):
        p.add_argument("--json", action="store_true", help="print JSON")
    v.add_argument("--quiet", action="store_true", help="no progress line on stderr (none when not a terminal)")
    v.set_defaults(run=run_verify)
    t.set_defaults(run=run_tail)
    e.set_defaults(run=run_export)


def _open(path: str) -> Journal:
    try:
        return Journal(path, readonly=True)
    except JournalError as exc:
        raise UsageError(str(exc)) from None


def run_verify(args: argparse.Namespace) -> int:
    journal = _open(args.journal)
    progress = Progress(f"verify {args.journal}", journal.last_seq, "records", quiet=args.quiet)
    try:
        report = verify(journal, progress)
    finally:
        progress.close()
    if args.json:
        print_json(report)
    elif report["ok"]:
        meters = ", ".join(f"{n} {m['value']}" for n, m in report["meters"].items()) or "no meters"
        print(f"{args.journal}: ok: {report['records']} records, chain intact, {report['rounds_settled']} rounds "
              f"settled, meters agree ({meters})")
    else:
        for problem in report["problems"]:
            print(f"{args.journal}: {problem}", file=sys.stderr)
    return 0 if report["ok"] else 1


def run_tail(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise UsageError(f"journal tail: -n {args.n}: give how many records, 1 or more")
    journal = _open(args.journal)
    since = max(0, journal.last_seq - args.n)
    for record in journal.records(since=since):
        if args.json:
            print(json.dumps(record.to_json(), ensure_ascii=False))
        else:
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(record.wall_ns / 1e9))
            print(f"#{record.seq} {when} UTC r{record.round} {Terminal.line(record)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    journal = _open(args.journal)
    try:
        scenario = export_round(journal, args.round)
    except LookupError as exc:
        raise UsageError(f"{args.journal}: {exc}") from None
    if args.format == "phh":
        from controller.games.poker_room.history import phh_of_round
        try:
            text = phh_of_round(scenario, args.round, journal.table_id if hasattr(journal, "table_id") else None)
        except ValueError as exc:
            raise UsageError(f"{args.journal}: round {args.round}: {exc}") from None
        if args.output:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            json.dump(scenario, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    else:
        print_json(scenario)
    return 0
