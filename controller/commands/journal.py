"""`tablectl journal verify|tail|export`: read a table's journal back (DESIGN.md section 3)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature

from controller import games
from controller.commands.common import UsageError, print_json
from controller.language import check as check_language, language
from controller.progress import Progress
from controller.runtime.audit import export_round, verify
from controller.runtime.integrity import STATE_DOMAIN, TableKey, find_public_key, public_key_from_hex
from controller.runtime.journal import Journal, JournalError
from controller.runtime.statefile import SealedState, StateError
from controller.runtime.outputs import Terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("journal", help="verify, tail or export a table's journal",
                                   description="Read a table's SQLite journal (read-only).")
    sub = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    v = sub.add_parser("verify", help="check the chain, the signatures and the sealed state; replay every round",
                       description="Check every record's hash, link and Ed25519 signature (with the table's public "
                                   "key, journal.sqlite.key.pub beside the journal, or --key), the sealed state file "
                                   "(a cut tail), recompute the meters and replay every round through the game code. "
                                   "Exit 0 when all agree, 1 naming the first problem.")
    v.add_argument("--key", metavar="PUB", help="the table's public key file (64 hex digits)")
    k = sub.add_parser("keygen", help="make the table's signing key beside its journal (at installation)",
                       description="Write JOURNAL.key (the Ed25519 private key, mode 0600: run this as the service "
                                   "user) and JOURNAL.key.pub (the public key for the floor and the auditors). "
                                   "Refuses to replace a key that is there.")
    k.add_argument("journal", help="the journal file the key signs (journal.path of the table configuration)")
    k.set_defaults(run=run_keygen)
    t = sub.add_parser("tail", help="the last records")
    t.add_argument("-n", type=int, default=20, help="how many records (default 20)")
    t.add_argument("--lang", metavar="CODE", default="en",
                   help="the language of the lines (en, sv, de, fi, da; --json stays as the journal holds it)")
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


def _public_key(args: argparse.Namespace) -> Any:
    if args.key:
        try:
            return public_key_from_hex(Path(args.key).read_text(encoding="ascii"))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise UsageError(f"{args.key}: not a public key (64 hex digits): {exc}") from None
    return find_public_key(Path(args.journal))


def _sealed_head(path: Path, public_key: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The sealed state beside the journal (its head), checked with the public key; or the problem."""
    state_path = SealedState.where(path)

    def check(data: bytes, sig: str) -> bool:
        try:
            public_key.verify(bytes.fromhex(sig), STATE_DOMAIN + data)
        except (InvalidSignature, ValueError):
            return False
        return True
    if not state_path.exists():
        return None, (f"the table's sealed state file {state_path} is missing" if public_key is not None else None)
    if public_key is None:
        return None, f"no public key beside the journal to check {state_path} and the signatures (give --key)"
    try:
        return SealedState(state_path, lambda b: "", check).load()["head"], None
    except StateError as exc:
        return None, str(exc)


def _fail(args: argparse.Namespace, problem: str) -> int:
    print(f"{args.journal}: {problem}", file=sys.stderr)
    return 1


def run_verify(args: argparse.Namespace) -> int:
    path = Path(args.journal)
    public_key = _public_key(args)
    if not path.exists():
        head, problem = _sealed_head(path, public_key)
        if head is None and problem is None or not SealedState.where(path).exists():
            raise UsageError(f"{args.journal}: no journal here")
        return _fail(args, f"the journal is missing; the table was at record {head['seq']}" if head else str(problem))
    if path.is_file() and path.stat().st_size == 0:
        return _fail(args, "the journal is empty (0 bytes)")
    try:
        journal = Journal(path, readonly=True)
    except JournalError as exc:
        return _fail(args, str(exc).removeprefix(f"{path}: "))
    head, problem = _sealed_head(path, public_key)
    progress = Progress(f"verify {args.journal}", journal.last_seq, "records", quiet=args.quiet)
    try:
        report = verify(journal, public_key, games.load_game, progress)
    finally:
        progress.close()
    if problem is not None:
        report["problems"].insert(0, problem)
    elif head is not None and head["seq"] > report["records"]:
        report["problems"].insert(0, f"the journal ends at record {report['records']}, but the table's last known "
                                     f"position is record {head['seq']} (records cut off)")
    report["ok"] = not report["problems"]
    report["signed"] = public_key is not None
    if args.json:
        print_json(report)
    elif report["ok"]:
        meters = ", ".join(f"{n} {m['value']}" for n, m in report["meters"].items()) or "no meters"
        signed = "signatures good" if public_key is not None else "NOT signed (no key beside it)"
        print(f"{args.journal}: ok: {report['records']} records, chain intact, {signed}, "
              f"{report['rounds_settled']} rounds settled and replayed, meters agree ({meters})")
    else:
        more = len(report["problems"]) - 1
        print(f"{args.journal}: {report['problems'][0]}" + (f" (and {more} more)" if more else ""), file=sys.stderr)
    return 0 if report["ok"] else 1


def run_keygen(args: argparse.Namespace) -> int:
    path = TableKey.where(Path(args.journal))
    if path.exists():
        raise UsageError(f"{path}: a key is there already; a table keeps its key (remove it by hand only for a "
                         f"new table)")
    try:
        key = TableKey.create(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the key: {exc.strerror or exc}") from None
    print(f"{path}: written (mode 0600); public key {key.public_hex} in {path}.pub")
    return 0


def run_tail(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise UsageError(f"journal tail: -n {args.n}: give how many records, 1 or more")
    problem = check_language(args.lang)
    if problem is not None:
        raise UsageError(f"journal tail: --lang {args.lang}: {problem}")
    lang = language(args.lang)
    journal = _open(args.journal)
    since = max(0, journal.last_seq - args.n)
    for record in journal.records(since=since):
        if args.json:
            print(json.dumps(record.to_json(), ensure_ascii=False))
        else:
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(record.wall_ns / 1e9))
            print(f"#{record.seq} {when} UTC r{record.round} {Terminal.line(record, lang=lang)}")
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
