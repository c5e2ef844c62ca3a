"""How long `tablectl` takes before it does anything, and what the hand tables' cache saves; prints JSON.

    python bench/cli_start.py [--runs 5]

Each figure is the best and the worst wall and CPU time of ``--runs`` fresh processes
(``python -m controller.cli ...`` from this checkout), taken in turns with
``python -c pass`` in the same run (the interpreter's own start, the floor).
``math_cold`` runs `tablectl math three-card-poker --exact` with an empty
cache folder (the tables built and written), ``math_warm`` with the folder it
left (the tables read).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 0.1


def wall(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process: on a busy machine the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--math-runs", type=int, help="cold and warm math runs (default: half of --runs, at least 1)")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cli = [sys.executable, "-m", "controller.cli"]
    cases = {"python_pass": [sys.executable, "-c", "pass"], "version": cli + ["--version"], "help": cli + ["--help"],
             "math_help": cli + ["math", "--help"]}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, command in cases.items():
            times[name].append(wall(command, env))
    math = cli + ["math", "three-card-poker", "--exact", "--json"]
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    for _ in range(max(1, args.runs // 2) if args.math_runs is None else args.math_runs):
        with tempfile.TemporaryDirectory() as folder:
            cache_env = dict(env, TABLECTL_CACHE_DIR=folder)
            cold.append(wall(math, cache_env))
            warm.append(wall(math, cache_env))
    times["math_cold"], times["math_warm"] = cold, warm
    out: dict[str, object] = {name: {"wall_best_s": round(min(w for w, _ in v), 3),
                                     "wall_worst_s": round(max(w for w, _ in v), 3),
                                     "cpu_best_s": round(min(c for _, c in v), 3),
                                     "cpu_worst_s": round(max(c for _, c in v), 3)} for name, v in times.items() if v}
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    out["target_s"] = {"version": TARGET_S, "help": TARGET_S}
    out["met_wall_best"] = {name: min(w for w, _ in times[name]) < TARGET_S for name in ("version", "help")}
    out["python"] = sys.version.split()[0]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
