"""Benchmark of the serial drivers; prints one JSON document.

- ``parser_frames_per_s``: card frames per second through ``FrameParser`` (4 KiB reads);
- ``link_frames_per_s``: the same through the whole link logic (parse, sequence check,
  event, ACK encoding) without a port;
- ``wheel_lines_per_s``: wheel status lines through the splitter, parser and tracker;
- ``pty_latency_us``: from the last byte of a card frame written to a real pty to the
  event being handed to the callback by the real ``ShoeLink`` thread, median, p99 and
  max over ``--frames`` frames (each frame's other bytes are written first, then a pause,
  then its line end: the CR completes a frame, so only the last byte's way is timed);
- ``wire_time_us_115200``: how long the same frame takes on the wire at 115,200 baud, for comparison.

Run: ``/work/venv/bin/python bench/serial.py [--frames 10000]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time

# This file is named serial.py: take its own folder off the path so that ``import serial`` finds pyserial.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

from drivers.ptydevice import PtyPort  # noqa: E402
from drivers.shoe.events import CardDealt  # noqa: E402
from drivers.shoe.link import ShoeLink  # noqa: E402
from drivers.shoe.protocol import FrameParser, encode  # noqa: E402
from drivers.wheel.protocol import LineSplitter, WheelStatus, format_line, parse_line  # noqa: E402
from drivers.wheel.tracker import WheelTracker  # noqa: E402

CARDS = ["Ah", "10d", "Ks", "2c", "9h", "Qd", "7s", "Tc"]


def card_stream(n: int) -> bytes:
    return b"".join(encode(i % 256, "CRD", CARDS[i % len(CARDS)]) for i in range(n))


def bench_parser(n: int) -> float:
    raw = card_stream(n)
    parser = FrameParser()
    t0 = time.perf_counter()
    count = 0
    for i in range(0, len(raw), 4096):
        count += len(parser.feed(raw[i:i + 4096]))
    elapsed = time.perf_counter() - t0
    assert count == n, count
    return n / elapsed


def bench_link(n: int) -> float:
    got: list[object] = []
    link = ShoeLink("bench://", got.append)
    link.on_open(0.0)
    link.on_data(encode(0, "HEL", "ver=1 kind=shoe id=B fw=1 boot=1"), 0.0)
    raw = card_stream(n)
    t0 = time.perf_counter()
    for i in range(0, len(raw), 4096):
        link.on_data(raw[i:i + 4096], 0.0)
    elapsed = time.perf_counter() - t0
    assert sum(isinstance(e, CardDealt) for e in got) == n
    return n / elapsed


def bench_wheel(n: int) -> float:
    raw = b"".join(format_line(WheelStatus(1 + i % 5, i // 5, i % 37, 0, 400, 1)) for i in range(n))
    splitter, tracker = LineSplitter(), WheelTracker()
    t0 = time.perf_counter()
    lines = 0
    for i in range(0, len(raw), 4096):
        for line in splitter.feed(raw[i:i + 4096]):
            tracker.update(parse_line(line))
            lines += 1
    elapsed = time.perf_counter() - t0
    assert lines == n
    return n / elapsed


def bench_pty_latency(frames: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        pty = PtyPort(os.path.join(tmp, "shoe"))
        path = pty.plug()
        arrived = threading.Event()
        stamp = [0]

        def callback(event: object) -> None:
            if isinstance(event, CardDealt):
                stamp[0] = time.perf_counter_ns()
                arrived.set()

        link = ShoeLink(path, callback, heartbeat_interval=60.0)
        link.start()
        try:
            deadline = time.monotonic() + 5
            while b"HEL" not in pty.read():
                if time.monotonic() > deadline:
                    raise RuntimeError("the link never said hello")
                pty.wait(0.05)
            pty.write(encode(0, "HEL", "ver=1 kind=shoe id=BENCH fw=1 boot=1"))
            time.sleep(0.2)
            samples: list[float] = []
            for i in range(frames + 100):
                raw = encode((i + 1) % 256, "CRD", CARDS[i % len(CARDS)])
                arrived.clear()
                pty.write(raw[:-2])
                time.sleep(0.0003)  # the link reads and parses the frame so far, then waits for its end
                t0 = time.perf_counter_ns()
                pty.write(raw[-2:])  # the CR that completes the frame (and its LF)
                if not arrived.wait(2.0):
                    raise RuntimeError(f"frame {i} never arrived")
                if i >= 100:  # the first 100 warm up
                    samples.append((stamp[0] - t0) / 1000.0)
                pty.read()  # take the ACKs off the line
        finally:
            link.stop()
            pty.unplug()
    samples.sort()
    return {"median": round(statistics.median(samples), 1),
            "p99": round(samples[int(len(samples) * 0.99) - 1], 1),
            "max": round(samples[-1], 1), "frames": len(samples)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000, help="frames for the pty latency (default: 10000)")
    parser.add_argument("--lines", type=int, default=100_000,
                        help="frames or lines of the throughput figures (the parser's: twice as many)")
    args = parser.parse_args()
    frame = encode(7, "CRD", "Ah")
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "parser_frames_per_s": round(bench_parser(2 * args.lines)),
        "link_frames_per_s": round(bench_link(args.lines)),
        "wheel_lines_per_s": round(bench_wheel(args.lines)),
        "pty_latency_us": bench_pty_latency(args.frames),
        "card_frame_bytes": len(frame),
        "wire_time_us_115200": round(len(frame) * 10 / 115200 * 1e6, 1),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
