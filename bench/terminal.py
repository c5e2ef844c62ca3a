"""Benchmark: the dealer terminal, from a tap to the journal commit and to the pit view (prints JSON).

Usage (from the checkout root): python bench/terminal.py [--decisions 1000] [--dir /tmp/bench-terminal] [--lang sv]

``--lang`` runs the table in that language (``[table] language``): the pages' snapshots then carry the
prompts, reasons and notes translated, and the run times that too.

A Three Card Poker table of 7 boxes runs in a live daemon (tests/controller/runtime/web/harness.py: the
daemon on its own loop in a thread, the shoe and the bet sensors emulated). Each round: 7 antes from the
sensors, no more bets, 24 cards from the shoe, then 7 decisions (play or fold, alternating). The same
rounds are played twice in one run:

- ``reference``: the terminal is on but no page is open, and each decision comes from a device (a
  button's path: ``post`` -> the loop -> ``Table.submit``);
- ``terminal``: a dealer page and a pit view are connected (two server-sent-event streams), and each
  decision is a tap: an HTTP POST to ``/api/act`` on 127.0.0.1.

Timed per decision, with ``perf_counter`` in this process: from the tap (the POST sent; the device's
``post`` call) to the commit (a table listener, right after the journal transaction, on the loop), to the
tap's answer (the POST's response), and to the pit view's update (the first event on the pit stream that
carries the decision's journal position). CPU is the daemon thread's own (utime + stime from
/proc/self/task/TID/stat) per decision round; memory is what tracemalloc sees still allocated by the
terminal's code (starlette, uvicorn, h11, anyio, controller/runtime/web) at the end of a third, shorter
run (tracemalloc slows what it traces), and the process's RSS growth over each run. The client runs in
the same process as the daemon (its own threads), so the terminal's figures
include sharing the interpreter with the page's client.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]  # bench/serial.py is not pyserial
sys.path.insert(0, str(ROOT))

from controller import cards  # noqa: E402
from controller.events import Action, Bet, CloseBets  # noqa: E402
from controller.runtime.interfaces import Command  # noqa: E402
from drivers.events import CardDealt  # noqa: E402
from controller.runtime.simulate import SimulatedPanel  # noqa: E402
from controller.runtime.table import Table  # noqa: E402
from tests.controller.runtime.web.harness import PINS, LiveTable  # noqa: E402

BOXES = 7
TERMINAL_FILES = ("starlette", "uvicorn", "h11", "anyio", os.path.join("controller", "runtime", "web"))
SEQ = re.compile(rb'"seq":(\d+)')


def thread_cpu_s(tid: int) -> float:
    fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Stream(threading.Thread):
    """A page's event stream: records when each journal position first arrived."""

    def __init__(self, url: str, cookie: str) -> None:
        super().__init__(daemon=True)
        import httpx

        self.client = httpx.Client(base_url=url, cookies={"tablectl_session": cookie}, timeout=None)
        self.seen: dict[int, float] = {}
        self.top = 0
        self.events = 0
        self.lock = threading.Condition()
        self.stop = False

    def run(self) -> None:
        with self.client.stream("GET", "/api/events") as response:
            for line in response.iter_lines():
                if self.stop:
                    return
                if line.startswith("data: "):
                    match = SEQ.search(line.encode())
                    if match:
                        seq = int(match.group(1))
                        now = time.perf_counter()
                        with self.lock:
                            self.events += 1
                            if seq > self.top:
                                self.top = seq
                                self.seen[seq] = now
                                self.lock.notify_all()

    def arrival(self, seq: int, timeout: float = 5.0) -> float:
        with self.lock:
            if not self.lock.wait_for(lambda: self.top >= seq, timeout):
                raise RuntimeError(f"the pit view never showed record {seq}")
            return min(t for s, t in self.seen.items() if s >= seq)


def play(folder: Path, decisions: int, mode: str, seed: int, lang: str = "en") -> dict[str, Any]:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    table = LiveTable(folder, "three-card-poker", "fi", options={"boxes": BOXES}, language=lang).start()
    buttons = SimulatedPanel("buttons")
    commits: dict[int, float] = {}
    daemon = table.daemon
    assert daemon is not None and table.thread is not None

    def live() -> Table:  # the daemon's table, read at each use (set before start() returned)
        current = daemon.table
        assert current is not None
        return current

    def listen(_table: Any, records: Any) -> None:
        now = time.perf_counter()
        for record in records:
            commits[record.seq] = now

    def hook() -> None:
        assert daemon.running is not None
        live().listeners.insert(0, listen)
        buttons.start(daemon.running.post_for("buttons"))
    table.call(hook)
    import httpx

    client = httpx.Client(base_url=table.url, headers={"X-Tablectl": "1"}, timeout=10)
    streams: list[Stream] = []
    if mode == "terminal":
        cookies = []
        for name in ("carla", "sven"):
            answer = client.post("/api/login", json={"name": name, "pin": PINS[name][1]})
            cookies.append(answer.cookies["tablectl_session"])
        client.cookies.set("tablectl_session", cookies[0])
        streams = [Stream(table.url, c) for c in cookies]
        for stream in streams:
            stream.start()
    rng = random.Random(seed)
    tid = table.thread.native_id
    assert tid is not None  # the thread has started
    rss0 = rss_mb()
    cpu0 = thread_cpu_s(tid)
    tap_commit, tap_answer, tap_pit = [], [], []
    done = rounds = 0
    wall0 = time.perf_counter()
    while done < decisions:
        deck = cards.shuffled(cards.shoe(1), rng)  # a fresh deck each round, as a one-deck table deals
        answer = table.call(lambda: live().command(Command("new_shoe", {}, "bench")))
        if answer != "done":
            raise RuntimeError(f"the new deck was refused: {answer}")
        for seat in range(1, BOXES + 1):
            table.bets.send(Bet(seat, "ante", 1000))
        table.bets.send(CloseBets())
        for card in deck[:3 * BOXES + 3]:
            table.shoe.send(CardDealt(str(card)))
        table.settled()
        waiting = table.call(lambda: live().waiting_for())
        if "decision" not in waiting.lower():
            raise RuntimeError(f"the deal did not reach the decisions: {waiting}")
        for seat in range(1, BOXES + 1):
            action = "play" if (seat + rounds) % 2 else "fold"
            before = table.call(lambda: live().journal.last_seq)
            t0 = time.perf_counter()
            if mode == "terminal":
                answer = client.post("/api/act", json={"seat": seat, "action": action})
                t1 = time.perf_counter()
                body = answer.json()
                if not body.get("ok"):
                    raise RuntimeError(f"the tap was refused: {body}")
                seq = int(body["seq"])
                tap_answer.append((t1 - t0) * 1000)
                tap_pit.append((streams[1].arrival(seq) - t0) * 1000)
            else:
                buttons.send(Action(seat, action))
                seq = before + 1
                for _ in range(100000):
                    if seq in commits:
                        break
                    time.sleep(0.0002)
                record = table.call(lambda: live().journal.last("event"))
                if record is None or record.seq != seq:  # the press was refused: it timed a reject record
                    raise RuntimeError(f"the decision was not taken: {live().waiting_for()}")
            tap_commit.append((commits[seq] - t0) * 1000)
            done += 1
        rounds += 1
    wall = time.perf_counter() - wall0
    cpu = thread_cpu_s(tid) - cpu0
    out: dict[str, Any] = {
        "mode": mode, "decisions": done, "rounds": rounds, "wall_s": round(wall, 2),
        "tap_to_commit_ms": {"p50": round(statistics.median(tap_commit), 2), "p99": round(pct(tap_commit, 0.99), 2),
                             "max": round(max(tap_commit), 2)},
        "daemon_cpu_ms_per_round": round(cpu * 1000 / rounds, 2),
        "rss_growth_mb": round(rss_mb() - rss0, 1),
    }
    if mode == "terminal":
        out["tap_to_answer_ms"] = {"p50": round(statistics.median(tap_answer), 2),
                                   "p99": round(pct(tap_answer, 0.99), 2)}
        out["tap_to_pit_ms"] = {"p50": round(statistics.median(tap_pit), 2), "p99": round(pct(tap_pit, 0.99), 2),
                                "max": round(max(tap_pit), 2)}
        out["pit_events"] = streams[1].events
        snapshot = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
        if snapshot is not None:
            held = sum(stat.size for stat in snapshot.statistics("filename")
                       if any(part in stat.traceback[0].filename for part in TERMINAL_FILES))
            out["terminal_heap_kb"] = round(held / 1024, 1)
        for stream in streams:
            stream.stop = True
    table.stop()
    client.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench-terminal"))
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the heap figure (tracemalloc slows)")
    parser.add_argument("--lang", default="en", help="the table's language (en, sv, de, fi, da)")
    args = parser.parse_args()
    result = {"machine": {"cpus": os.cpu_count(), "load": [round(x, 2) for x in os.getloadavg()]}, "lang": args.lang}
    result["reference"] = play(args.dir / "reference", args.decisions, "reference", seed=1, lang=args.lang)
    result["terminal"] = play(args.dir / "terminal", args.decisions, "terminal", seed=1, lang=args.lang)
    if not args.no_tracemalloc:  # a third, shorter run for the heap: tracemalloc slows everything it traces
        tracemalloc.start(1)
        heap = play(args.dir / "heap", min(args.decisions, 210), "terminal", seed=2, lang=args.lang)
        tracemalloc.stop()
        result["terminal"]["terminal_heap_kb"] = heap.get("terminal_heap_kb")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
