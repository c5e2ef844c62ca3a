"""The daemon at rest: CPU with every device up on its emulator and nobody playing, and start to `ready`; JSON.

    python bench/idle.py [--seconds 20] [--table hw/tables/blackjack-se-burn.toml ...] [--base main]

Each table runs as `tablectl run --config TABLE --simulate --idle` in its own
process (the shoe, the shuffler or the wheel on a pty through the real serial
driver, the GPIO panel on mock pins, the sign and jackpot display on luma's
dummy device, the dice camera on its synthetic source, the dealer terminal on
a free port). Its CPU (user + system, from /proc) is read over ``--seconds``
after a settling time of 2 s, from the kernel's 10 ms ticks
(``idle_cpu_percent_of_one_core``: one tick is 0.1 % of a 10 s window) and
in nanoseconds from each thread's ``schedstat``
(``idle_cpu_percent_schedstat``, which ``met`` uses where the kernel has it).
Goal: at most 0.5 % of one core; start to
`ready` under 0.5 s (``ready_s``, wall from the process's start;
``ready_cpu_s`` is the CPU the process used until then, 10 ms ticks).

The default tables between them have every device kind of the registry
(``kinds_missing`` says if one is not covered): the three example tables, the
Caribbean Stud table again with a shuffler on its own line (a generated copy),
and the Tärning table with its camera.

The code is byte-compiled first (``compileall``), as ``pip install`` does on
the table's Pi: this machine's shells set ``PYTHONDONTWRITEBYTECODE=1`` and the
checkout is an editable install, so without it every start compiles every
module (``--no-compile`` measures that). Each table runs at each ``--nice``
(default: the shipped unit's ``Nice=`` from systemd/tablectl.service, then 0),
and with ``--base COMMIT`` also on that commit's code (``git archive`` to a
temporary folder), in turns, in the same run.

With ``--unwired-reference`` the Caribbean Stud table runs once more on a
copy of its pin map (``hw/progressive-7.toml``) whose expander ``b`` has no
INT line: the reference for what wiring it saves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("hw/tables/blackjack-se-burn.toml", "hw/tables/roulette-se.toml", "hw/tables/caribbean-stud-dk.toml",
          "shuffler", "hw/tables/tarning-se.toml")
"""``shuffler``: the Caribbean Stud table with a shuffler added (written by ``shuffler_copy``)."""
GOAL_PERCENT, GOAL_READY_S = 0.5, 0.5


def shipped_nice() -> int:
    """The ``Nice=`` of the shipped unit (0 when it sets none)."""
    found = re.search(r"^Nice=(-?\d+)", (ROOT / "systemd" / "tablectl.service").read_text(), re.M)
    return int(found.group(1)) if found else 0


NOT_PERMITTED = "a nice value below this process's needs root (CAP_SYS_NICE)"


def may_nice(nice: int) -> bool:
    """Whether a child may be started at ``nice`` (raising the priority needs root)."""
    return nice >= os.getpriority(os.PRIO_PROCESS, 0) or os.geteuid() == 0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_ns(pid: int) -> dict[str, int]:
    """Each thread's CPU in nanoseconds (``/proc/PID/task/TID/schedstat``, its first field): the resolution the
    10 ms ticks of ``/proc/PID/stat`` lack over a short window. Empty where the kernel has no schedstat."""
    out: dict[str, int] = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            out[tid] = int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def with_port(table: Path, folder: Path, code: Path) -> Path:
    """A copy of ``table`` whose terminal listens on a free port (other runs on this machine use 8080), its
    relative paths made absolute."""
    text = table.read_text(encoding="utf-8")
    text = re.sub(r'"\.\./', f'"{code / "hw"}/', text)
    text = re.sub(r"^port = 8080", f"port = {free_port()}", text, flags=re.M)
    out = folder / f"{table.stem}-{code.name}.toml"
    out.write_text(text, encoding="utf-8")
    return out


def kinds_of(table: Path) -> list[str]:
    return sorted(tomllib.loads(table.read_text(encoding="utf-8")).get("devices", {}))


def idle(table: Path, seconds: float, folder: Path, code: Path, nice: int) -> dict[str, object]:
    out = folder / (table.stem + ".out")
    journal = folder / (table.stem + f"-{nice}.sqlite")
    for old in folder.glob(journal.name + "*"):
        old.unlink()
    env = dict(os.environ, PYTHONPATH=str(code))

    def niced() -> None:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    with open(out, "wb") as handle:
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(table), "--simulate",
                                 "--idle", "--journal", str(journal)],
                                cwd=code, env=env, stdout=handle, stderr=subprocess.STDOUT, preexec_fn=niced)
        try:
            while b"ready:" not in out.read_bytes():
                if proc.poll() is not None or time.perf_counter() - t > 60:
                    raise RuntimeError(f"{table}: the daemon never became ready: {out.read_text()[-500:]}")
                time.sleep(0.002)
            ready = time.perf_counter() - t
            ready_cpu = cpu_s(proc.pid)  # the CPU the start took: what a loaded machine's wall time hides
            time.sleep(min(2.0, seconds))
            c0, n0, t0 = cpu_s(proc.pid), thread_cpu_ns(proc.pid), time.perf_counter()
            time.sleep(seconds)
            c1, n1, t1 = cpu_s(proc.pid), thread_cpu_ns(proc.pid), time.perf_counter()
            threads = len(os.listdir(f"/proc/{proc.pid}/task"))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    said = re.search(rb"start-to-ready ([\d.]+) s", out.read_bytes())
    percent = 100 * (c1 - c0) / (t1 - t0)
    # the same window in nanoseconds: every thread alive at both ends (a thread that came or went in between
    # is left out, and said in threads_changed)
    common = set(n0) & set(n1)
    percent_ns = 100 * sum(n1[t] - n0[t] for t in common) / 1e9 / (t1 - t0) if common else None
    return {"ready_s": round(ready, 3), "ready_cpu_s": round(ready_cpu, 3),
            "daemon_start_to_ready_s": float(said.group(1)) if said else None,
            "idle_cpu_percent_of_one_core": round(percent, 3),
            "idle_cpu_percent_schedstat": None if percent_ns is None else round(percent_ns, 3),
            "threads_changed": len(set(n0) ^ set(n1)),
            "cpu_s": round(c1 - c0, 3), "seconds": round(t1 - t0, 1), "threads": threads,
            "met": (percent if percent_ns is None else percent_ns) <= GOAL_PERCENT}


def shuffler_copy(code: Path, folder: Path) -> Path:
    """The Caribbean Stud table with a shuffler on its own serial line: the one example with every card device."""
    text = (code / "hw" / "tables" / "caribbean-stud-dk.toml").read_text(encoding="utf-8")
    text += '\n[devices.shuffler]\ndriver = "serial"\nport = "/dev/tablectl/shuffler"\n'
    out = folder / "caribbean-stud-dk-shuffler.toml"
    out.write_text(text, encoding="utf-8")
    return out


def unwired_copy(code: Path, folder: Path) -> Path:
    """A copy of the Caribbean Stud table whose pin map has no INT line on expander b (the build before it was wired)."""
    pins = (code / "hw" / "progressive-7.toml").read_text(encoding="utf-8")
    unwired, found = re.subn(r"(\[expanders\.b\][^\[]*?)\nint_pin = 26[^\n]*", r"\1", pins)
    if not found:
        raise RuntimeError("hw/progressive-7.toml: expander b's int_pin line not found")
    (folder / "progressive-7-unwired.toml").write_text(unwired, encoding="utf-8")
    table = (code / "hw" / "tables" / "caribbean-stud-dk.toml").read_text(encoding="utf-8")
    table = table.replace('pin_map = "../progressive-7.toml"', f'pin_map = "{folder / "progressive-7-unwired.toml"}"')
    (folder / "caribbean-stud-dk-unwired.toml").write_text(table, encoding="utf-8")
    return folder / "caribbean-stud-dk-unwired.toml"


def base_tree(commit: str, folder: Path) -> Path:
    tree = folder / "base"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "controller", "drivers", "hw"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--table", action="append", help="table configuration (repeatable; default: five tables)")
    parser.add_argument("--nice", type=int, action="append",
                        help="the daemon's nice value (repeatable; default: the shipped unit's, then 0)")
    parser.add_argument("--base", help="git commit whose code runs the same tables, in turns")
    parser.add_argument("--no-compile", action="store_true", help="do not byte-compile the code first")
    parser.add_argument("--unwired-reference", action="store_true",
                        help="also run the Caribbean Stud table with expander b's INT line unwired, in turns")
    args = parser.parse_args()
    nices = args.nice or sorted({shipped_nice(), 0})
    report: dict[str, object] = {"load_average_before": [round(x, 2) for x in os.getloadavg()],
                                 "goal_percent": GOAL_PERCENT, "goal_ready_s": GOAL_READY_S,
                                 "bytecode_compiled_first": not args.no_compile, "shipped_nice": shipped_nice()}
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        folder = Path(tmp)
        trees = {"this": ROOT}
        if args.base:
            trees["base"] = base_tree(args.base, folder)
            report["base_commit"] = args.base
        if not args.no_compile:
            for tree in trees.values():
                subprocess.run([sys.executable, "-m", "compileall", "-q", "controller", "drivers"], cwd=tree,
                               check=True, stdout=subprocess.DEVNULL)
        names = list(args.table or TABLES)
        if args.unwired_reference:
            names.append("unwired")
        covered: set[str] = set()
        results: dict[str, dict[str, dict[str, object]]] = {side: {} for side in trees}
        for name in names:
            for nice in nices:
                for side, code in trees.items():
                    side_folder = folder / side
                    side_folder.mkdir(exist_ok=True)
                    if name == "shuffler":
                        source = shuffler_copy(code, side_folder)
                    elif name == "unwired":
                        source = unwired_copy(code, side_folder)
                    else:
                        source = (code / name) if not Path(name).is_absolute() else Path(name)
                    table = with_port(source, side_folder, code)
                    covered |= set(kinds_of(table))
                    if not may_nice(nice):
                        results[side].setdefault(f"nice {nice}", {})[source.stem] = {"skipped": NOT_PERMITTED}
                        continue
                    row = idle(table, args.seconds, side_folder, code, nice)
                    row["kinds"] = kinds_of(table)
                    results[side].setdefault(f"nice {nice}", {})[source.stem] = row
        sys.path[0] = str(ROOT)  # not bench/: bench/serial.py would shadow pyserial
        from controller.runtime.devices import registry

        report["kinds_covered"] = sorted(covered)
        report["kinds_missing"] = sorted(set(registry.by_name()) - covered)
        report.update(results)
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
