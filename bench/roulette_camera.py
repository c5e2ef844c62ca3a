"""A roulette table with the camera under `tablectl run --simulate`: resident memory and rounds per second (JSON).

Writes a roulette table configuration with ``[devices.camera]`` (driver
``opencv``, emulated under --simulate: every spin rendered by
drivers/vision/synth_roulette and read by the real reader), starts
``tablectl run`` on it as its own process and reads ``/proc/PID/status``
every 0.2 s: VmHWM (the peak resident set) and VmRSS. Two runs:

- ``paced``: ``run --simulate`` at a real table's pace for ``--seconds`` s,
  then SIGTERM (as the dice camera's memory figure in docs/performance.md);
- ``fast``: ``run --simulate --fast --rounds N`` to its end: wall time and
  rounds per second, and the memory peak over a run that reads many spins.

Then the journal: spins the camera read (``wheel`` events not confirmed),
its voids, the spins held for the croupier and confirmed. And ``spins``: the
emulator's own work in this process (``--spins`` spins rendered and read as
under --simulate): frames per spin, seconds per spin, each kind of spin and
what the reader said of it, confident wrong numbers.

    /work/venv/bin/python bench/roulette_camera.py [--seconds 30] [--rounds 60] [--spins 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

TOML = """[table]
id = "bench-roulette-camera"
game = "roulette"
variant = "se"
currency = "SEK"
minor_unit = 100

[devices.camera]
driver = "opencv"
source = 0

[journal]
path = "{journal}"
"""


def status(pid: int) -> dict[str, float]:
    """VmHWM and VmRSS of a process in MB (empty once it is gone)."""
    out: dict[str, float] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return out


def run(folder: Path, args: list[str], seconds: float | None) -> dict[str, Any]:
    """One ``tablectl run`` on a fresh journal; memory polled until it ends (or SIGTERM after ``seconds``)."""
    journal = folder / f"journal-{len(list(folder.iterdir()))}.sqlite"
    config = folder / "table.toml"
    config.write_text(TOML.format(journal=journal))
    command = [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--simulate", "--quiet",
               *args]
    t0 = time.monotonic()
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak: dict[str, float] = {}
    while proc.poll() is None:
        now = status(proc.pid)
        if now:
            peak = {"VmHWM": now.get("VmHWM", 0.0), "VmRSS": now.get("VmRSS", 0.0)}
        if seconds is not None and time.monotonic() - t0 > seconds:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
            break
        time.sleep(0.2)
    wall = time.monotonic() - t0
    from controller.runtime.journal import Journal
    book = Journal(journal, readonly=True)
    events = [r.body for r in book.records(kinds=("event",))]
    rounds = sum(1 for e in events if e.get("complete"))
    out = {"command": " ".join(["tablectl", *command[3:]]), "returncode": proc.returncode, "wall_s": round(wall, 1),
           "rounds": rounds, "rounds_per_s": round(rounds / wall, 2),
           "camera_ok": sum(1 for e in events if e["event"]["type"] == "wheel" and "confirmed_by" not in e),
           "camera_void": sum(1 for e in events if e["event"]["type"] == "void" and e["event"].get("by") == "camera"),
           "held_and_confirmed": sum(1 for e in events if "confirmed_by" in e),
           "vmhwm_mb": round(peak.get("VmHWM", 0.0), 1), "vmrss_mb": round(peak.get("VmRSS", 0.0), 1)}
    book.close()
    return out


def spins(count: int, seed: int) -> dict[str, Any]:
    """``count`` emulated spins (the --simulate mix of kinds) rendered and read here, one core."""
    import random

    from controller.runtime.roulette_camera import KINDS, EmulatedRouletteCamera

    camera = EmulatedRouletteCamera("camera", seed)
    numbers = random.Random(f"bench:{seed}")
    results: dict[str, int] = {}
    wrong = 0
    t0 = time.perf_counter()
    for _ in range(count):
        draw, number = camera.rng.random(), numbers.randrange(37)
        kind = next(k for k, share in KINDS if draw < share)
        read = camera.read(camera.rng.randrange(1 << 30), kind, number)
        results[f"{kind} -> {read.status}"] = results.get(f"{kind} -> {read.status}", 0) + 1
        wrong += int(read.status == "ok" and read.number != number)
    seconds = time.perf_counter() - t0
    return {"spins": count, "frames_per_spin": round(camera.frames / count, 1), "s_per_spin": round(seconds / count, 3),
            "ms_per_frame": round(1000 * seconds / camera.frames, 2), "results": results, "wrong": wrong}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="the paced run's length (0: no paced run)")
    parser.add_argument("--rounds", type=int, default=60, help="the fast run's rounds (0: no fast run)")
    parser.add_argument("--spins", type=int, default=20, help="spins rendered and read in this process")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-roulette-camera-") as tmp:
        folder = Path(tmp)
        paced = run(folder, ["--seed", str(args.seed)], args.seconds) if args.seconds > 0 else None
        fast = run(folder, ["--fast", "--rounds", str(args.rounds), "--seed", str(args.seed)], None) \
            if args.rounds > 0 else None
    print(json.dumps({"paced": paced, "fast": fast, "spins": spins(args.spins, args.seed)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
