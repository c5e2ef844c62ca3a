"""The journal's own append and commit, with SQLite's checkpoint inside a commit or the loop's when idle, in turns.

One card record and the table's meters per commit (``Journal.append``, WAL,
``synchronous=FULL``, as the daemon writes a dealt card), on a journal file in
a temporary folder (on this machine the same ext4 disk as the checkout).
Three ways of checkpointing, timed in turns on fresh journal files:

- ``in_commit``: SQLite's own, inside the commit that brings the WAL to 1,000
  pages (what a table did before the daemon checkpointed when idle);
- ``every_round``: ``Journal.checkpoint()`` between rounds (every ``--round``
  cards, not timed), whatever the WAL holds;
- ``when_due``: as the daemon does: between rounds, once
  ``Journal.checkpoint_due`` (100 commits since the last); SQLite's own stays
  as the fallback in every mode.

Each is timed on a ``fresh`` journal (as after every start: the WAL file is
new and grows) and on a ``warm`` one (``--warm`` commits first, not timed).
The reference, in the same turns (one sample after each commit): the disk
alone, a 100-byte write into a block already on the disk and ``fsync``. The
WAL file's size at the end of each run is kept (its largest over the turns).
Prints JSON.

    python bench/journal_commit.py --cards 2000 --turns 4
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # not bench/: bench/serial.py would shadow pyserial

from controller import config as table_config  # noqa: E402
from controller.runtime.journal import Journal  # noqa: E402
from controller.runtime.table import Table  # noqa: E402

MODES = ("in_commit", "every_round", "when_due")
PHASES = ("fresh", "warm")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_meters(folder: Path) -> dict[str, Any]:
    """The meters a Punto Banco table journals with each commit."""
    data = table_config.simulated_defaults("punto-banco", "fi", str(folder / "meters.sqlite"))
    table = Table.open(table_config.from_mapping(data, "bench"))
    meters = table.meters.to_json()
    table.journal.close()
    return meters


def card(i: int) -> tuple[str, int, dict[str, Any]]:
    ranks, suits = "A23456789TJQK", "CDHS"
    return ("event", 1 + i // 6, {"event": {"type": "card", "card": ranks[i % 13] + suits[i // 13 % 4],
                                            "source": "shoe", "position": i}, "link": {"device": "shoe", "seq": i}})


def idle(journal: Journal, mode: str, i: int, every: int) -> None:
    """Between rounds the loop is idle: the mode's checkpoint, if any (not timed)."""
    if i % every == every - 1 and (mode == "every_round" or (mode == "when_due" and journal.checkpoint_due)):
        journal.checkpoint()


def one_run(folder: Path, mode: str, cards: int, warm: int, every: int, meters: dict[str, Any],
            reference: int) -> tuple[list[float], list[float], int]:
    journal = Journal(folder / "journal.sqlite")
    for i in range(warm):
        journal.append([card(i)], meters)
        idle(journal, mode, i, every)
    commit_ms: list[float] = []
    fsync_ms: list[float] = []
    for i in range(warm, warm + cards):
        t0 = time.perf_counter_ns()
        journal.append([card(i)], meters)
        commit_ms.append((time.perf_counter_ns() - t0) / 1e6)
        t0 = time.perf_counter_ns()
        os.pwrite(reference, b"x" * 100, 0)
        os.fsync(reference)
        fsync_ms.append((time.perf_counter_ns() - t0) / 1e6)
        idle(journal, mode, i, every)
    wal = folder / "journal.sqlite-wal"
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    journal.close()
    return commit_ms, fsync_ms, wal_bytes


def stats(values: list[float]) -> dict[str, float]:
    return {"median": round(pct(values, 0.5), 3), "p90": round(pct(values, 0.9), 3),
            "p99": round(pct(values, 0.99), 3), "max": round(max(values), 3)}


def main(cards: int, turns: int, warm: int, every: int) -> dict[str, Any]:
    per_turn = max(1, cards // turns)
    commits: dict[str, list[float]] = {f"{p}.{m}": [] for p in PHASES for m in MODES}
    refs: dict[str, list[float]] = {key: [] for key in commits}
    wal: dict[str, int] = {key: 0 for key in commits}
    with tempfile.TemporaryDirectory(prefix="tablectl-journal-") as tmp:
        folder = Path(tmp)
        meters = table_meters(folder)
        reference = os.open(folder / "fsync-reference.bin", os.O_RDWR | os.O_CREAT, 0o600)
        os.write(reference, b"\0" * 4096)
        os.fsync(reference)
        try:
            for turn in range(turns):
                for phase in PHASES:
                    for mode in MODES:
                        run = folder / f"{phase}-{mode}-{turn}"
                        run.mkdir()
                        key = f"{phase}.{mode}"
                        got, ref, size = one_run(run, mode, per_turn, warm if phase == "warm" else 0, every,
                                                 meters, reference)
                        commits[key] += got
                        refs[key] += ref
                        wal[key] = max(wal[key], size)
        finally:
            os.close(reference)
    out: dict[str, Any] = {"cards_per_run": per_turn, "turns": turns, "warm_commits": warm, "round_cards": every}
    for key in commits:
        out[key] = {"commits": len(commits[key]), "commit_ms": stats(commits[key]),
                    "reference_fsync_ms": stats(refs[key]), "wal_bytes_at_end": wal[key]}
    for phase in PHASES:
        for mode in MODES[1:]:
            base, this = out[f"{phase}.in_commit"]["commit_ms"], out[f"{phase}.{mode}"]["commit_ms"]
            out[f"{phase}.{mode}_over_in_commit"] = {q: round(this[q] / base[q], 3) if base[q] else None
                                                     for q in ("median", "p99")}
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000, help="timed commits per mode and phase, over the turns")
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--warm", type=int, default=1200, help="commits before the warm phase's timed ones")
    parser.add_argument("--round", type=int, default=6, help="cards between two idle checkpoints")
    args = parser.parse_args()
    load = [round(x, 2) for x in os.getloadavg()]
    result = main(args.cards, args.turns, args.warm, args.round)
    print(json.dumps({"load_average_before": load, **result,
                      "load_average_after": [round(x, 2) for x in os.getloadavg()]}, indent=2))
