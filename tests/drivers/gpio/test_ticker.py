"""The devices on a real asyncio loop: a pin driven from another thread reaches the sink on the loop's thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from drivers.gpio.config import load_device_config
from drivers.gpio.events import ButtonPressed
from drivers.gpio.sim import simulate
from drivers.gpio.ticker import LoopTicker

HW = Path(__file__).resolve().parents[3] / "hw"


def test_edge_on_another_thread_is_handled_on_the_loop():
    async def scenario() -> tuple[list, set, float]:
        loop = asyncio.get_running_loop()
        got: list = []
        threads: set = set()
        arrived = asyncio.Event()

        def sink(event) -> None:
            threads.add(threading.get_ident())
            got.append(event)
            if isinstance(event, ButtonPressed):
                arrived.set()

        ticker = LoopTicker(loop, period=30.0)  # a long tick: only the wake and the deadline can deliver in time
        sim = simulate(load_device_config(HW / "bj-burn-7.toml"), sink, wake=ticker.wake)
        ticker.start(sim.devices)
        start = loop.time()
        worker = threading.Thread(target=sim.hands.button, args=("stand", True))
        worker.start()
        worker.join()
        await asyncio.wait_for(arrived.wait(), timeout=20.0)
        elapsed = loop.time() - start
        ticker.stop()
        sim.close()
        return got, threads, elapsed

    got, threads, elapsed = asyncio.run(scenario())
    assert ButtonPressed("stand") in got
    assert threads == {threading.get_ident()}  # asyncio.run runs the loop on this thread
    assert elapsed < 20.0  # the 20 ms debounce deadline, not the 30 s tick (room for a loaded machine)
