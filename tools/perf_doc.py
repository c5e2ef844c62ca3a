"""Keep docs/performance.md's figures equal to what the benchmarks printed: record a bench's JSON, write the tables.

    python tools/perf_doc.py record NAME -- python bench/gpio_tick.py     # run it, keep docs/perf/NAME.json
    python tools/perf_doc.py                                             # rewrite every figures block
    python tools/perf_doc.py --check                                     # exit 1 if a block is out of date
    python tools/perf_doc.py keep --output OUT.json --time TIME.txt --when "2026-12-02 05:17" NAME -- COMMAND...
                                         # keep a long run made outside the tool (under /usr/bin/time -v)

A record (docs/perf/NAME.json) holds the command as it was typed, when it ran
(UTC), the machine (architecture, cores, Python), the load average before and
after, and the JSON document the bench printed, untouched. docs/performance.md
marks where a record's figures go::

    <!-- figures: NAME -->
    (written by this tool: the command, when, the machine, then one row per figure)
    <!-- /figures -->

A run too long to make under the tool (a simulation of hours, started at a
low priority and left) is kept with ``keep``: its JSON output file untouched,
the command and start time as given, and the wall time, CPU time and peak
memory that ``/usr/bin/time -v`` printed for it where it ran under it (of a
run that prints JSON lines, the last line); no load average is known for
such a run, and its block says so.

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
    if record.get("load_before") is None:
        load = "load average not recorded: a long run kept with `perf_doc.py keep`"
    else:
        load = f"load average {record['load_before']} before, {record['load_after']} after"
    lines = [f"<!-- figures: {name} -->",
             f"`{record['command']}` at {record['when']} UTC ({machine['arch']}, {machine['cpus']} cores, Python "
             f"{machine['python']}; {load}; docs/perf/{name}.json):", "", "| figure | value |", "|---|---|"]
    lines += [f"| `{key}` | {value} |" for key, value in flatten(record["output"])]
    if "resources" in record:
        lines += [f"| `{key}` | {value} |" for key, value in flatten(record["resources"], "resources")]
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


TIME_FIELDS = {"Elapsed (wall clock) time (h:mm:ss or m:ss)": "wall_s", "User time (seconds)": "user_cpu_s",
               "System time (seconds)": "system_cpu_s", "Maximum resident set size (kbytes)": "max_rss_mb"}


def time_resources(text: str) -> dict[str, float]:
    """Wall, CPU and peak memory from the report of ``/usr/bin/time -v``.

    >>> time_resources("\\tUser time (seconds): 184.28\\n\\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:23:31.5\\n"
    ...                "\\tMaximum resident set size (kbytes): 214040\\n")
    {'user_cpu_s': 184.28, 'wall_s': 5011.5, 'max_rss_mb': 209.0}
    """
    found: dict[str, float] = {}
    for line in text.splitlines():
        label, _, value = line.strip().rpartition(": ")
        key = TIME_FIELDS.get(label)
        if key == "wall_s":
            seconds = 0.0
            for part in value.split(":"):
                seconds = seconds * 60 + float(part)
            found[key] = round(seconds, 1)
        elif key == "max_rss_mb":
            found[key] = round(int(value) / 1024, 1)
        elif key:
            found[key] = float(value)
    return found


def keep(name: str, command: list[str], when: str, output: Path, time_report: Path | None) -> Path:
    resources = time_resources(time_report.read_text()) if time_report is not None else {}
    if time_report is not None and "wall_s" not in resources:
        raise SystemExit(f"perf_doc: {time_report}: no /usr/bin/time -v report in it")
    shown = [("python" if Path(word).name.startswith("python") else word) for word in command]
    document = {"command": shlex.join(shown), "when": when,
                "machine": {"arch": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version()},
                "load_before": None, "load_after": None,
                "output": without_temporary_paths(parse_output(output.read_text()))}
    if resources:
        document["resources"] = resources
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
    kept = sub.add_parser("keep", help="keep the JSON of a long run made outside the tool as docs/perf/NAME.json")
    kept.add_argument("name")
    kept.add_argument("--output", type=Path, required=True, help="the file the run's JSON went to")
    kept.add_argument("--time", type=Path, help="the file /usr/bin/time -v wrote its report to (if it ran under it)")
    kept.add_argument("--when", required=True, help="when the run started, UTC, as YYYY-MM-DD HH:MM")
    kept.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.what == "keep":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not command:
            parser.error("keep --output F --time F --when W NAME -- COMMAND...")
        print(keep(args.name, command, args.when, args.output, args.time).relative_to(ROOT))
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
