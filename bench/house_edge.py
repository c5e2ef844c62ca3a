"""Run times and peak memory of `tablectl math` for the poker games against the house; prints JSON.

    python bench/house_edge.py                       # every case below
    python bench/house_edge.py --only caribbean_dk_exact --only holdem_exact

Each case is one `python -m controller.cli math ... --json` process; its wall
time, CPU time and peak resident memory (``wait4``'s ``ru_maxrss``) are
measured here, its house edge read from its JSON and printed beside the
reference figure (an independent exact count) where there is one. Goals: every
exact run under 60 s and 300 MB, every simulation under 300 MB whatever N.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NotRequired, TypedDict

ROOT = Path(__file__).resolve().parent.parent

CASES: dict[str, tuple[list[str], float | None]] = {
    "caribbean_dk_exact": (["caribbean-stud", "--variant", "dk", "--meter", "2000000"], 4.0751),
    "caribbean_classic_exact": (["caribbean-stud", "--variant", "classic"], 5.3163),
    "caribbean_classic_simulate_3m": (["caribbean-stud", "--variant", "classic", "--simulate", "3000000"], 5.3163),
    "holdem_exact": (["restaurant-holdem"], 2.5408),
    "holdem_simulate_2000": (["restaurant-holdem", "--simulate", "2000"], 2.5408),
    "three_card_poker_exact": (["three-card-poker", "--exact"], None),
    "uth_exact_progressive": (["ultimate-texas-holdem", "--exact", "--option", "progressive=true"], None),
    "tiny_caribbean_simulate": (["caribbean-stud", "--variant", "dk", "--simulate", "2000"], None),
}
DEFAULT = [name for name in CASES if not name.startswith("tiny")]
EXACT_S, MEMORY_MB = 60.0, 300.0


class Figures(TypedDict):
    """One case's figures: what ``run`` measures, then what ``main`` sets beside them."""
    command: str
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    method: Any  # as the JSON document has it
    house_edge_percent: dict[str, float | None]
    reference_percent: NotRequired[float | None]
    main_bet_percent: NotRequired[float | None]
    goal: NotRequired[str]
    met: NotRequired[bool]


def run(args: list[str]) -> Figures:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "math", *args, "--json"], cwd=ROOT, env=env,
                                stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own resource use, its peak memory included
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError(f"math {' '.join(args)} failed: {err.read().decode()[-500:]}")
        document = json.loads(out.read())
    edges = {name: bet.get("house_edge_percent") for name, bet in document.get("bets", {}).items()}
    return {"command": "tablectl math " + " ".join(args), "wall_s": round(wall, 2),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "method": document.get("method"), "house_edge_percent": edges}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(CASES), help="run only this case (repeatable)")
    args = parser.parse_args()
    out: dict[str, object] = {"load_average_before": [round(x, 2) for x in os.getloadavg()]}
    for name in args.only or DEFAULT:
        command, reference = CASES[name]
        figures = run(command)
        main_bet = next(iter(v for k, v in figures["house_edge_percent"].items()
                             if k in ("ante_bet", "ante_call")), None)
        figures["reference_percent"] = reference
        figures["main_bet_percent"] = main_bet
        exact = "--simulate" not in command
        figures["goal"] = f"{'under 60 s and ' if exact else ''}under 300 MB"
        figures["met"] = (figures["peak_rss_mb"] < MEMORY_MB
                          and (not exact or figures["wall_s"] < EXACT_S))
        out[name] = figures
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
