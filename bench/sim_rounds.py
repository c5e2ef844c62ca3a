"""Simulated round rates: every game and variant on its example table, flat out (``run --simulate --fast``).

Prints one JSON object: per variant the rounds played, seconds, rounds per
second, bets and moves the virtual players made, jackpot confirmations, and
whether ``journal verify`` was clean. Usage:

    python bench/sim_rounds.py [--rounds N] [--seed S] [--only GAME]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its serial.py would shadow pyserial

from controller import config as table_config  # noqa: E402
from controller import games  # noqa: E402
from controller.runtime.audit import verify  # noqa: E402
from controller.runtime.daemon import Daemon  # noqa: E402
from controller.runtime.journal import Journal  # noqa: E402


def one(game: str, variant: str, rounds: int, seed: int, folder: Path) -> dict[str, object]:
    loaded = table_config.load(ROOT / "hw" / "tables" / f"{game}-{variant}.toml")
    path = folder / f"{game}-{variant}.sqlite"
    config = table_config.TableConfig(**{**loaded.__dict__, "journal_path": path})
    daemon = Daemon(config, simulate=True, seed=seed, fast=True, rounds=rounds, stream=io.StringIO(), quiet=True)
    t0 = time.perf_counter()
    asyncio.run(daemon.run())
    seconds = time.perf_counter() - t0
    report = verify(Journal(path, readonly=True))
    counts = daemon.croupier.counts if daemon.croupier else {}
    return {"rounds": report["rounds_settled"], "seconds": round(seconds, 2),
            "rounds_per_s": round(report["rounds_settled"] / seconds, 1), "records": report["records"],
            **counts, "verify_ok": report["ok"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args()
    out: dict[str, object] = {"rounds_asked": args.rounds, "seed": args.seed, "python": sys.version.split()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in games.all_games():
            if args.only and spec.id != args.only:
                continue
            for v in spec.variants:
                out[f"{spec.id} {v.id}"] = one(spec.id, v.id, args.rounds, args.seed, Path(tmp))
                print(spec.id, v.id, out[f"{spec.id} {v.id}"], file=sys.stderr, flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
