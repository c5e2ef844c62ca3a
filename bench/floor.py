"""The floor link at scale: N light simulated tables against one nats-server, then a three-node cluster.

Each simulated table is a small event generator (no game, no SQLite): it
makes journal records with the real hash chain (``journal.record_hash``) and,
where ``cryptography`` is installed, an Ed25519 signature of each record's
hash, at a busy table's rate, and publishes each to its subject with the
message id ``<table>:<seq>``, one JetStream acknowledgement at a time per
table, resending from its last acknowledged record after an outage (as the
daemon's outbox does). The floor service is the real one (``tablectl floor``,
its own process); it checks every chain as it goes.

Printed: commit-to-floor latency p50/p99 (a record's wall time to the floor
having applied it), the broker's and the floor service's CPU (share of one
core) and resident memory, and the catch-up time after a hub outage (the hub
SIGKILLed for ``--outage`` seconds while the tables go on; then the time from
its restart to the floor having every record made before the restart).

    .venv/bin/python bench/floor.py                      # 200 tables, 60 s outage
    .venv/bin/python bench/floor.py --outage 600         # the full run: a 10-minute outage
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.floor import schema  # noqa: E402
from controller.floor.bus import ensure_stream  # noqa: E402
from controller.runtime.integrity import RECORD_DOMAIN  # noqa: E402
from controller.runtime.journal import GENESIS, Record, canonical, record_hash  # noqa: E402

try:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
except ImportError:  # pragma: no cover - the figures say "unsigned"
    Ed25519PrivateKey = None  # type: ignore[assignment,misc]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, folder: Path, name: str, cluster: list[int] | None = None, cport: int | None = None) -> None:
        self.name, self.folder = name, folder
        self.port = free_port()
        lines = [f"server_name: {name}", "host: 127.0.0.1", f"port: {self.port}",
                 f'jetstream {{ store_dir: "{folder / (name + "-js")}" }}']
        if cluster:
            routes = ", ".join(f"nats-route://127.0.0.1:{p}" for p in cluster if p != cport)
            lines.append(f"cluster {{ name: bench, listen: 127.0.0.1:{cport}, routes: [{routes}] }}")
        self.conf = folder / f"{name}.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "Server":
        binary = Path(sys.executable).with_name("nats-server")
        self.proc = subprocess.Popen([str(binary), "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None


def usage(pid: int) -> tuple[float, int]:
    """CPU seconds used so far and resident memory in bytes, from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(stat[11]) + int(stat[12])) / ticks
    rss = next(int(line.split()[1]) * 1024 for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return cpu, rss


class LightTable:
    def __init__(self, n: int, rate: float) -> None:
        self.id = f"bench-{n:03d}"
        self.pit = f"pit-{n // 20 + 1}"
        self.subject = schema.journal_subject("bench", self.pit, self.id)
        self.interval = 1.0 / rate
        self.records: list[Record] = []
        self.acked = 0
        self.key = Ed25519PrivateKey.generate() if Ed25519PrivateKey is not None else None
        self.prev = GENESIS

    def commit(self) -> None:
        seq = len(self.records) + 1
        body = {"source": "bench", "event": {"type": "card", "card": "Ah"}, "effects": [], "complete": False}
        mono, wall = time.monotonic_ns(), time.time_ns()
        digest = record_hash(seq, mono, wall, "event", 1, canonical(body), self.prev)
        signature = self.key.sign(RECORD_DOMAIN + digest.encode("ascii")).hex() if self.key is not None else None
        self.records.append(Record(seq, mono, wall, "event", 1, body, self.prev, digest, signature))
        self.prev = digest

    async def run(self, url: str, stop: asyncio.Event) -> None:
        async def quiet(exc: Exception) -> None:  # the outage is on purpose
            pass

        nc = await nats.connect(url, max_reconnect_attempts=-1, reconnect_time_wait=0.5, pending_size=0,
                                name=self.id, error_cb=quiet)
        js = nc.jetstream(timeout=2)
        next_at = time.monotonic() + self.interval * (hash(self.id) % 100) / 100
        while not stop.is_set():
            now = time.monotonic()
            if now >= next_at:
                self.commit()
                next_at += self.interval
            while self.acked < len(self.records) and not stop.is_set():
                record = self.records[self.acked]
                try:
                    await js.publish(self.subject, schema.record_message("bench", self.pit, self.id, record),
                                     headers={"Nats-Msg-Id": schema.msg_id(self.id, record.seq)})
                    self.acked += 1
                except Exception:
                    await asyncio.sleep(0.5)
                    break
                if time.monotonic() >= next_at:
                    break
            await asyncio.sleep(max(0.0, min(next_at - time.monotonic(), 0.05)))
        await nc.close()


async def floor_records(url: str) -> int:
    nc = await nats.connect(url, connect_timeout=2, allow_reconnect=False)
    try:
        reply = await nc.request(schema.query_subject("bench"), b'{"what": "tables"}', timeout=5)
        return sum(t["records"] for t in json.loads(reply.data)["tables"].values())
    finally:
        await nc.close()


def checkpoint_share(steady: list[tuple[int, int]], checkpoints: list[tuple[int, int]],
                     slow_ns: int = 50_000_000) -> dict[str, Any]:
    """How much of the latency tail the floor's checkpoints explain: a record committed while a checkpoint held
    the floor's loop (from 5 ms before it began to its end) waits for it."""
    import bisect

    starts = [b for b, _ in checkpoints]

    def during(wall: int) -> bool:
        i = bisect.bisect_right(starts, wall + 5_000_000) - 1
        return i >= 0 and wall <= starts[i] + checkpoints[i][1]

    slow = [(w, ns) for w, ns in steady if ns > slow_ns]
    outside = sorted(ns for w, ns in steady if not during(w))
    held = [d for _, d in checkpoints]
    return {"checkpoints": len(checkpoints),
            "checkpoint_ms_mean": round(sum(held) / len(held) / 1e6, 1) if held else None,
            "checkpoint_ms_max": round(max(held) / 1e6, 1) if held else None,
            "records_over_50ms": len(slow),
            "of_them_committed_during_a_checkpoint": sum(1 for w, _ in slow if during(w)),
            "latency_p99_ms_outside_checkpoints": round(outside[int(len(outside) * 0.99)] / 1e6, 2) if outside else None}


async def phase(label: str, servers: list[Server], tables: int, rate: float, seconds: float, outage: float,
                folder: Path, checkpoint_s: float = 5.0) -> dict[str, Any]:
    urls = [f"nats://127.0.0.1:{s.port}" for s in servers]
    url = f"nats://127.0.0.1:{servers[0].port}"
    nc = await nats.connect(url)
    await ensure_stream(nc.jetstream(), schema.JOURNAL_STREAM, [schema.JOURNAL_SUBJECTS], len(servers))
    await nc.close()
    sim = [LightTable(n, rate) for n in range(tables)]
    keys = folder / f"{label}-keys"  # the floor checks every record's signature with its table's public key
    keys.mkdir()
    for t in sim:
        if t.key is not None:
            (keys / f"{t.id}.key.pub").write_text(t.key.public_key().public_bytes_raw().hex() + "\n")
    config = folder / f"{label}-floor.toml"
    config.write_text(f'[floor]\nid = "bench"\nservers = {json.dumps(urls)}\njournal = "{folder / (label + "-floor.sqlite")}"\n'
                      f'http = ""\nreplicas = {len(servers)}\ncheckpoint_s = {checkpoint_s}\nkeys = "{keys}"\n')
    measure = folder / f"{label}-latency.json"
    floor = subprocess.Popen([sys.executable, "-m", "controller.cli", "floor", "--config", str(config), "--measure",
                              str(measure)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.0)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(t.run(url if i % len(servers) == 0 else f"nats://127.0.0.1:{servers[i % len(servers)].port}", stop))
             for i, t in enumerate(sim)]
    await asyncio.sleep(3.0)  # warm up
    pids = {"broker": servers[0].proc.pid, "floor": floor.pid}  # type: ignore[union-attr]
    before = {k: usage(p) for k, p in pids.items()}
    t0, steady_from = time.monotonic(), time.time_ns()
    await asyncio.sleep(seconds)
    after = {k: usage(p) for k, p in pids.items()}
    steady_to = time.time_ns()
    wall = time.monotonic() - t0
    out: dict[str, Any] = {"tables": tables, "rate": rate, "nodes": len(servers),
                           "records_per_s": round(tables * rate, 1),
                           "signed": Ed25519PrivateKey is not None}
    for k in pids:
        out[f"{k}_cpu_pct"] = round(100 * (after[k][0] - before[k][0]) / wall, 1)
        out[f"{k}_rss_mb"] = round(after[k][1] / 1e6, 1)
    if outage > 0:
        servers[0].kill()
        await asyncio.sleep(outage)
        servers[0].start()
        made = sum(len(t.records) for t in sim)
        t1 = time.monotonic()
        while await _safe_records(url) < made:
            await asyncio.sleep(0.5)
        out["outage_s"] = outage
        out["records_made_by_the_restart"] = made  # every record made before the hub came back
        out["catch_up_s"] = round(time.monotonic() - t1, 1)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    floor.send_signal(signal.SIGTERM)
    floor.wait(30)
    data = json.loads(measure.read_text())
    steady = [(wall, ns) for wall, ns in data["latencies_ns"] if steady_from <= wall <= steady_to]  # the steady run
    lat = sorted(ns for _, ns in steady)
    out["latency_p50_ms"] = round(lat[len(lat) // 2] / 1e6, 2)
    out["latency_p99_ms"] = round(lat[int(len(lat) * 0.99)] / 1e6, 2)
    out.update(checkpoint_share(steady, [c for c in data.get("checkpoints_ns", [])
                                         if steady_from - 1_000_000_000 <= c[0] <= steady_to]))
    gcs = [(b, g, d) for b, g, d in data.get("gc_pauses_ns", []) if steady_from <= b <= steady_to]
    out["floor_gc"] = {f"gen{g}": {"count": sum(1 for _, x, _ in gcs if x == g),
                                   "ms_max": round(max((d for _, x, d in gcs if x == g), default=0) / 1e6, 1)}
                       for g in (0, 1, 2)}
    out["floor_records"] = data["records"]
    out["floor_alarms"] = data["alarms"]
    out["floor_signed_tables"] = data.get("signed_tables")
    return out


async def _safe_records(url: str) -> int:
    try:
        return await floor_records(url)
    except Exception:
        return -1


def checkpoint_hold(tables: int, records: int, ticks: int = 40) -> dict[str, Any]:
    """The floor's loop held by its checkpoints, in this process (no bus, no other process): ``tables`` busy
    tables of ``records`` records each (their live round's last 60 events kept, as a busy table's are), then
    the whole floor's state saved at once (what every checkpoint did before) against the share a tick saves
    while every table keeps changing."""
    from controller.floor.service import FloorService
    from controller.floor.settings import floor_from_mapping

    with tempfile.TemporaryDirectory() as tmp:
        config = floor_from_mapping({"floor": {"id": "hold", "servers": ["nats://127.0.0.1:1"], "http": "",
                                               "journal": str(Path(tmp) / "floor.sqlite")}}, "bench", Path(tmp))
        service = FloorService(config)
        sim = [LightTable(n, 2.0) for n in range(tables)]
        sim_seq = 0

        def feed(rounds: int) -> None:
            nonlocal sim_seq
            for _ in range(rounds):
                for t in sim:
                    t.commit()
                    sim_seq += 1
                    service.apply_message(schema.record_message("bench", t.pit, t.id, t.records[-1]), sim_seq)

        feed(records)
        whole = []
        for _ in range(3):
            service.dirty = {t.id: 1 for t in sim}
            t0 = time.perf_counter_ns()
            service.checkpoint(every=True)
            whole.append(time.perf_counter_ns() - t0)
        share = []
        for _ in range(ticks):
            feed(1)  # every table changed since the last tick (a busy floor)
            t0 = time.perf_counter_ns()
            service.checkpoint(every=False)
            share.append(time.perf_counter_ns() - t0)
        service.journal.close()
    return {"tables": tables, "state_bytes": len(canonical({t: s.to_json() for t, s in service.tables.items()})),
            "whole_state_ms_mean": round(sum(whole) / len(whole) / 1e6, 1), "whole_state_ms_max": round(max(whole) / 1e6, 1),
            "share_ms_mean": round(sum(share) / len(share) / 1e6, 1), "share_ms_max": round(max(share) / 1e6, 1),
            "share_tables": int(max(8, -(-tables * 0.5 // config.checkpoint_s)))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=2.0, help="records a second per table (a busy table: 2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured steady run")
    parser.add_argument("--outage", type=float, default=60.0, help="hub outage in seconds (the full run: 600)")
    parser.add_argument("--no-cluster", action="store_true")
    parser.add_argument("--checkpoint-s", type=float, default=5.0, help="the floor's checkpoint_s (its default: 5)")
    parser.add_argument("--hold", action="store_true",
                        help="only the floor's checkpoint: how long it holds the loop (in this process, no bus)")
    args = parser.parse_args()
    if args.hold:
        print(json.dumps({"checkpoint hold": checkpoint_hold(args.tables, 100)}))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        single = [Server(folder, "hub").start()]
        try:
            result = asyncio.run(phase("single", single, args.tables, args.rate, args.seconds, args.outage, folder,
                                       args.checkpoint_s))
        finally:
            for s in single:
                s.kill()
        figures: dict[str, Any] = {"one nats-server": result}
        print(json.dumps(figures), file=sys.stderr, flush=True)  # the first phase, while the second runs
        if not args.no_cluster:
            cports = [free_port() for _ in range(3)]
            nodes = [Server(folder, f"n{i}", cports, cports[i]) for i in range(3)]
            try:
                for n in nodes:
                    n.start()
                time.sleep(3.0)  # the cluster elects its JetStream leader
                result = asyncio.run(phase("cluster", nodes, args.tables, args.rate, args.seconds, 0, folder,
                                       args.checkpoint_s))
            finally:
                for n in nodes:
                    n.kill()
            figures["three-node cluster (R3 streams)"] = result
        print(json.dumps(figures))  # one document: both phases
    return 0


if __name__ == "__main__":
    sys.exit(main())
