"""`tablectl config check FILE`: every problem of a table configuration, one line each."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from controller import config as table_config
from controller.commands.common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="check a table configuration",
                                   description="Table configuration tools.")
    sub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="explain every problem of a table configuration, one line each",
                           description="Read FILE as the daemon would (and the camera's calibration file) and print one "
                                       "line per problem (key, value, what is allowed); exit 2 if there is any.")
    check.add_argument("file", help="table configuration TOML")
    check.add_argument("--json", action="store_true", help="print {ok, problems} as JSON")
    check.add_argument("--simulate", action="store_true",
                       help="check it as a table for 'run --simulate' (a table that names no device is allowed)")
    check.set_defaults(run=run)


def _digest_problems(config: table_config.TableConfig) -> list[str]:
    """The stored code digest must be there and be one: else ``run`` latches code_digest and never plays."""
    if config.code_digest is None:
        return []
    path = table_config.Path(config.code_digest)
    where = f"{config.source}: runtime.code_digest = {str(config.code_digest)!r}"
    try:
        text = path.read_text(encoding="ascii").strip()
    except OSError as exc:
        return [f"{where}: cannot be read ({exc.strerror or exc}); write it with 'tablectl digest --write "
                f"{config.code_digest}'"]
    except UnicodeDecodeError:
        return [f"{where}: is not a stored code digest (not plain ASCII text)"]
    if not (text.startswith("sha256:") and len(text) == 71):
        return [f"{where}: is not a stored code digest (sha256:HEX, from 'tablectl digest --write')"]
    return []


def _warnings(config: table_config.TableConfig) -> list[str]:
    """What the table may play but a casino should know, from the game's own math (``GameSpec.table_warnings``: an
    Oasis Stud progressive's long run)."""
    if config.spec.table_warnings is None:
        return []
    name, function = config.spec.table_warnings.split(":")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        return [f"{config.source}: {config.spec.id}: the long-run check of its math needs {exc.name!r} "
                f"(pip install 'tablectl[math]'); not checked"]
    check = getattr(module, function)
    return [f"{config.source}: {line}" for line in check(config.round_config, {j.name: j for j in config.jackpots})]


def run(args: argparse.Namespace) -> int:
    try:
        config = table_config.load(args.file)
    except table_config.ConfigError as exc:
        found = list(exc.problems)
        if table_config.file_kind(args.file) == "pinmap":
            found = [f"{args.file}: this is a build's pin map (it has [build]), not a table configuration: a table "
                     f"configuration names it in [devices.gpio] pin_map; check the pin map with "
                     f"'tablectl selftest {args.file} --simulate'"]
        if args.json:
            print_json({"ok": False, "problems": found})
        else:
            for problem in found:
                print(f"tablectl: {problem}", file=sys.stderr)
        return 2
    from controller.runtime.devices import check_files  # the runtime's loaders, only when checking

    problems = check_files(config) + _digest_problems(config)
    missing = None if args.simulate else table_config.no_devices(config)
    if missing is not None:
        problems = [*problems, missing]
    if problems:
        if args.json:
            print_json({"ok": False, "problems": problems})
        else:
            for problem in problems:
                print(f"tablectl: {problem}", file=sys.stderr)
        return 2
    summary: dict[str, Any] = {"ok": True, "table": config.table_id, "game": config.spec.id, "variant": config.round_config.variant,
               "devices": sorted(config.devices), "jackpots": [j.name for j in config.jackpots],
               "journal": str(config.journal_path)}
    warnings = _warnings(config)
    summary["warnings"] = warnings
    if args.json:
        print_json(summary)
    else:
        for warning in warnings:  # a warning does not refuse the table: the casino decides (exit 0)
            print(f"tablectl: warning: {warning}", file=sys.stderr)
        print(f"{args.file}: ok: table {config.table_id}, {config.spec.id} {config.round_config.variant}, "
              f"devices {', '.join(summary['devices']) or 'none'}, meters {', '.join(summary['jackpots']) or 'none'}, "
              f"language {config.language}, journal {config.journal_path}")
    return 0
