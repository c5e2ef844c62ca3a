"""Daemon figures (docs/performance.md, "## Daemon"); prints one JSON document.

    python bench/daemon.py [--cards 10000] [--rounds 400] [--idle-seconds 10]

- latency: from the simulated shoe's post of a card (on its thread) to the
  journal commit of that card's record, and to the moment every output had
  the new state (the listeners run right after the commit); median and 99th
  percentile over --cards cards of a simulated Punto Banco DE session, journal
  on disk (SQLite WAL, synchronous=FULL);
- replay: every round of that journal rebuilt through the game, events/s;
- verify: the hash chain and meters of that journal, records/s;
- settle: the exported rounds as one scenario through `scenario.settle`, events/s;
- rss: the daemon's peak resident memory while it plays (`tablectl run --simulate`);
- idle_cpu: the daemon's CPU over --idle-seconds with its devices up and nobody playing;
- run_rounds_s: start to exit of ``run --simulate --fast --rounds N`` (the idle phase not included);
- ready: from process start to the "ready:" line;
- fsync_ms: the disk alone (append + fsync), the floor under every commit.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

from controller import config as table_config, scenario  # noqa: E402
from controller.events import event_from_json  # noqa: E402
from controller.runtime import daemon as daemon_module  # noqa: E402
from controller.runtime.audit import export_round, verify  # noqa: E402
from controller.runtime.journal import Journal  # noqa: E402


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def latency(tmp: Path, cards: int) -> dict:
    config = table_config.from_mapping(table_config.simulated_defaults("punto-banco", "de", str(tmp / "j.sqlite")), "bench")
    commit_ns: list[int] = []
    display_ns: list[int] = []
    committed_at: list[int] = []
    original_append = Journal.append

    def timed_append(self, entries, meters=None):  # type: ignore[no-untyped-def]
        out = original_append(self, entries, meters)
        committed_at.append(time.perf_counter_ns())
        return out

    d = daemon_module.Daemon(config, simulate=True, seed=7, fast=True, rounds=None, stream=io.StringIO())
    original_receive = daemon_module.Running._receive

    def timed_receive(self: daemon_module.Running, name: str, raw: object, t0_ns: int) -> None:
        committed_at.clear()
        original_receive(self, name, raw, t0_ns)
        done = time.perf_counter_ns()
        if name == "shoe" and type(raw).__name__ == "CardDealt" and committed_at:
            commit_ns.append(committed_at[0] - t0_ns)
            display_ns.append(done - t0_ns)
            if len(commit_ns) >= cards and d.stopped is not None:
                d.stopped.set()

    daemon_module.Running._receive = timed_receive  # type: ignore[method-assign]
    Journal.append = timed_append  # type: ignore[method-assign]
    t = time.perf_counter()
    try:
        asyncio.run(d.run())
    finally:
        Journal.append = original_append  # type: ignore[method-assign]
        daemon_module.Running._receive = original_receive  # type: ignore[method-assign]
    elapsed = time.perf_counter() - t
    ms = lambda v: round(v / 1e6, 3)  # noqa: E731
    return {"cards": len(commit_ns), "rounds": d.table.round_no - 1 if d.table else 0, "seconds": round(elapsed, 1),
            "commit_ms": {"median": ms(statistics.median(commit_ns)), "p99": ms(percentile(commit_ns, 99)),
                          "max": ms(max(commit_ns))},
            "display_ms": {"median": ms(statistics.median(display_ns)), "p99": ms(percentile(display_ns, 99)),
                           "max": ms(max(display_ns))}}


def replay_and_settle(path: Path) -> dict:
    journal = Journal(path, readonly=True)
    from controller import games
    t = time.perf_counter()
    events = 0
    rounds = 0
    opens = list(journal.records(kinds=("round_open",)))
    configs: dict[str, tuple] = {}  # one resolve per distinct configuration, as a long replay would do
    for opening in opens:
        key = json.dumps([opening.body["game"], opening.body["variant"], opening.body["options"]], sort_keys=True)
        if key not in configs:
            spec = games.load_game(opening.body["game"])
            configs[key] = (spec, spec.resolve(opening.body["variant"], opening.body["options"], games.paytable_of(spec)))
        spec, config = configs[key]
        round_ = spec.new_round(config, tuple(event_from_json(b) for b in opening.body["carried"]))
        for record in journal.records(since=opening.seq, kinds=("event",), round_=opening.round):
            round_.apply(event_from_json(record.body["event"]))
            events += 1
        rounds += 1
    replay_s = time.perf_counter() - t
    t = time.perf_counter()
    report = verify(journal)
    verify_s = time.perf_counter() - t
    exported = [export_round(journal, n) for n in range(1, len(opens))]
    document = {"game": exported[0]["game"], "variant": exported[0]["variant"], "options": exported[0]["options"],
                "rounds": [r["rounds"][0] for r in exported]}
    settle_events = sum(len(r["events"]) for r in document["rounds"])
    t = time.perf_counter()
    scenario.settle(scenario.load_scenario(document))
    settle_s = time.perf_counter() - t
    return {"replay_events_per_s": round(events / replay_s), "replay_events": events,
            "verify_records_per_s": round(report["records"] / verify_s), "verify_ok": report["ok"],
            "settle_events_per_s": round(settle_events / settle_s), "settle_events": settle_events}


def fsync_ms(tmp: Path, n: int = 200) -> dict:
    """The disk alone: append 100 bytes and fsync, as a WAL commit at synchronous=FULL must."""
    samples = []
    with open(tmp / "fsync.bin", "ab") as handle:
        for _ in range(n):
            t = time.perf_counter_ns()
            handle.write(b"x" * 100)
            handle.flush()
            os.fsync(handle.fileno())
            samples.append(time.perf_counter_ns() - t)
    return {"median": round(statistics.median(samples) / 1e6, 3), "p99": round(percentile(samples, 99) / 1e6, 3)}


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "controller.cli", *args]


def spawn(args: list[str], out: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], float]:
    """Start the daemon with its terminal output going to a file; return it once it printed "ready:"."""
    handle = open(out, "wb")
    t = time.perf_counter()
    proc = subprocess.Popen(cli(*args), cwd=ROOT, env=env, stdout=handle, stderr=subprocess.DEVNULL)
    while b"ready:" not in out.read_bytes():
        if proc.poll() is not None or time.perf_counter() - t > 60:
            raise RuntimeError("the daemon never became ready")
        time.sleep(0.002)
    return proc, time.perf_counter() - t


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_figures(tmp: Path, rounds: int = 400, idle_seconds: float = 10.0) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc, ready = spawn(["run", "--simulate", "--game", "punto-banco", "--fast", "--rounds", str(rounds),
                         "--journal", str(tmp / "rss.sqlite")], tmp / "rss.out", env)
    peak = 0
    while proc.poll() is None:
        try:
            peak = max(peak, rss_kb(proc.pid))
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.05)
    proc.wait()
    run_s = time.perf_counter() - start  # start to exit of the rounds, without the idle phase below
    idle, _ = spawn(["run", "--simulate", "--game", "punto-banco", "--idle", "--journal", str(tmp / "idle.sqlite")],
                    tmp / "idle.out", env)
    time.sleep(min(2.0, idle_seconds))
    c0, t0 = cpu_s(idle.pid), time.perf_counter()
    time.sleep(idle_seconds)
    c1, t1 = cpu_s(idle.pid), time.perf_counter()
    idle_rss = rss_kb(idle.pid)
    idle.terminate()
    idle.wait(timeout=10)
    return {"ready_s": round(ready, 3), "rss_peak_mb_playing": round(peak / 1024, 1),
            "rss_mb_idle": round(idle_rss / 1024, 1), "idle_cpu_percent_of_one_core": round(100 * (c1 - c0) / (t1 - t0), 2),
            "rounds": rounds, "run_rounds_s": round(run_s, 1), "rounds_per_s": round(rounds / run_s, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=400, help="rounds of the run --simulate --fast process")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="how long the idle CPU is measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=ROOT / "bench") as tmp_name:
        tmp = Path(tmp_name)  # on the repository's disk, not a tmpfs: the fsyncs are real
        out: dict[str, object] = {"fsync_ms": fsync_ms(tmp), "latency": latency(tmp, args.cards)}
        out.update(replay_and_settle(tmp / "j.sqlite"))
        out.update(process_figures(tmp, args.rounds, args.idle_seconds))
    out["python"] = sys.version.split()[0]
    out["cpus"] = os.cpu_count()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
