"""Keep docs/performance.md's figures equal to what the benchmarks printed: record a bench's JSON, write the tables.

    python tools/perf_doc.py record NAME -- python bench/gpio_tick.py     # run it, keep docs/perf/NAME.json
    python tools/perf_doc.py                                             # rewrite every figures block
    python tools/perf_doc.py --check                                     # exit 1 if a block is out of date

A record (docs/perf/NAME.json) holds the command as it was typed, when it ran
(UTC), the machine (architecture, cores, Python), the load average before and
after, and the JSON document the bench printed, untouched. docs/performance.md
marks where a record's figures go::

    <!-- figures: NAME -->
    (written by this tool: the command, when, the machine, then one row per figure)
    <!-- /figures -->

Several runs of the same bench are kept as NAME-1, NAME-2 ... and shown each in
its own block. The prose around the blocks is written by hand and says what the
figures mean; the figures themselves are never typed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
RECORDS = ROOT / "docs" / "perf"
BLOCK = re.compile(r"<!-- figures: (?P<name>[\w.-]+) -->\n.*?<!-- /figures -->", re.S)


def flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted key, shown value) of every leaf; a list of plain values is one row."""
    if isinstance(value, dict):
        rows: list[tuple[str, str]] = []
        for key, inner in value.items():
            rows.extend(flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        rows = []
        for i, inner in enumerate(value):
            rows.extend(flatten(inner, f"{prefix}[{i}]"))
        return rows
    if isinstance(value, list):
        return [(prefix, ", ".join(_show(v) for v in value))]
    return [(prefix, _show(value))]


def _show(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e15 else repr(value)
    return str(value).replace("|", "\\|")


def block(name: str, record: dict[str, Any]) -> str:
    machine = record["machine"]
    lines = [f"<!-- figures: {name} -->",
             f"`{record['command']}` at {record['when']} UTC ({machine['arch']}, {machine['cpus']} cores, Python "
             f"{machine['python']}; load average {record['load_before']} before, {record['load_after']} after; "
             f"docs/perf/{name}.json):", "", "| figure | value |", "|---|---|"]
    lines += [f"| `{key}` | {value} |" for key, value in flatten(record["output"])]
    lines.append("<!-- /figures -->")
    return "\n".join(lines)


def render(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group("name")
        path = RECORDS / f"{name}.json"
        if not path.exists():
            raise SystemExit(f"docs/performance.md: a figures block names {name}, but {path.relative_to(ROOT)} is missing")
        return block(name, json.loads(path.read_text()))
    return BLOCK.sub(one, text)


def parse_output(stdout: str) -> Any:
    try:
        return json.loads(stdout)
    except json.JSONDecodeError:
        start = max(stdout.rfind("\n{"), stdout.rfind("\n["))
        return json.loads(stdout[start + 1:] if start >= 0 else stdout.strip().splitlines()[-1])


def without_temporary_paths(value: Any) -> Any:
    """The bench's JSON with the paths of its temporary files named as such (they mean nothing later)."""
    if isinstance(value, dict):
        return {k: without_temporary_paths(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_temporary_paths(v) for v in value]
    if isinstance(value, str) and value.startswith(tempfile.gettempdir() + os.sep):
        return "(a temporary file)"
    return value


def record(name: str, command: list[str]) -> Path:
    load_before = [round(x, 2) for x in os.getloadavg()]
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"perf_doc: {shlex.join(command)} exited {done.returncode}")
    shown = [("python" if Path(word).name.startswith("python") else word) for word in command]
    document = {"command": shlex.join(shown), "when": when,
                "machine": {"arch": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()},
                "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()],
                "output": without_temporary_paths(parse_output(done.stdout))}
    RECORDS.mkdir(exist_ok=True)
    path = RECORDS / f"{name}.json"
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/performance.md is not what the records say")
    sub = parser.add_subparsers(dest="what")
    rec = sub.add_parser("record", help="run a bench and keep its JSON as docs/perf/NAME.json")
    rec.add_argument("name")
    rec.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.what == "record":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not command:
            parser.error("record NAME -- COMMAND...")
        print(record(args.name, command).relative_to(ROOT))
    text = DOC.read_text()
    new = render(text)
    if args.check:
        if new != text:
            print("docs/performance.md is out of date: run python tools/perf_doc.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
