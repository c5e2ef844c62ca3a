"""Latency from the last byte of a card frame on the shoe's pty to the journal commit and to the sign's new state.

A Punto Banco table (journal on disk, WAL, synchronous=FULL) is fed by the
real ``ShoeLink`` reading a ``ShoeEmulator`` on a pty; the emulator's
transmit is timed (``perf_counter_ns`` after the frame's last byte was
written), the table's listener stamps the commit, the sign output stamps the
moment the new ``SignContent`` reached the (luma dummy) sign. Bets and no more
bets go straight to the table between rounds (not timed). The sign changes
only when a round ends (its last results), so the display figure is over the
cards that end a round: the sign's time is when the frame for the new content
was drawn (the output hands the content over in the listener and draws on the
loop's next turn). The reference, in the same run and in turns (one sample
after each card): the disk alone, a 100-byte append and ``fsync`` to a file
beside the journal, the floor under any commit. Prints JSON.

    python bench/daemon_latency.py --cards 10000 --journal /tmp/bench-journal.sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # not bench/: bench/serial.py would shadow pyserial

from controller import config as table_config  # noqa: E402
from controller.events import Bet, CloseBets  # noqa: E402
from controller.runtime.device_outputs import DeviceView, SignOutput  # noqa: E402
from controller.runtime.interfaces import Command  # noqa: E402
from controller.runtime.table import Table  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(cards: int, journal: Path) -> dict[str, object]:
    from drivers.gpio.config import load_device_config
    from drivers.gpio.devices import simulated_displays
    from drivers.displays.sign import Sign
    from drivers.shoe import events
    from drivers.shoe.emulator import ShoeEmulator, seeded_shoe
    from drivers.seriallink import acknowledging
    from drivers.shoe.link import ShoeLink

    loop = asyncio.get_running_loop()
    data = table_config.simulated_defaults("punto-banco", "fi", str(journal))
    config = table_config.from_mapping(data, "bench")
    table = Table.open(config)
    view = DeviceView(table)
    sign_dev, _ = simulated_displays(load_device_config(Path(__file__).resolve().parents[1] / "hw" / "dealer-panel.toml"))
    sign = SignOutput(Sign(sign_dev), loop, ticked=True)
    emu = ShoeEmulator("shoe", retransmit_timeout=0.5)
    sent_ns: list[int] = []
    transmit = emu._line.transmit  # the emulator's line: every transmission is written to the pty here

    def timed(raw: bytes) -> None:
        transmit(raw)
        if b"CRD" in raw:
            sent_ns.append(time.perf_counter_ns())
    emu._line.transmit = timed  # type: ignore[method-assign]
    commit_ns: dict[int, int] = {}
    display_ns: dict[int, int] = {}
    card_index = {"n": 0}
    shown = {"content": None}

    pending: list[int] = []  # cards whose new sign content is not drawn yet
    update = sign.driver.update

    def drawn(now: float) -> None:
        update(now)
        stamp = time.perf_counter_ns()
        for i in pending:
            display_ns[i] = stamp
        pending.clear()
    sign.driver.update = drawn  # type: ignore[method-assign]

    def listener(t: Table, records: object) -> None:
        for r in records:  # type: ignore[attr-defined]
            if r.kind == "event" and r.body["event"]["type"] == "card":
                commit_ns[card_index["n"]] = time.perf_counter_ns()
                content = view.sign_content(t)
                if content != shown["content"]:
                    sign.show({"content": content})
                    shown["content"] = content
                    pending.append(card_index["n"])
                card_index["n"] += 1
    table.listeners.append(listener)
    disk = os.open(journal.parent / "fsync-reference.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    fsync_ms: list[float] = []
    arrived = asyncio.Event()

    def post(raw: object) -> None:
        def on_loop() -> None:
            table.submit("shoe", raw)
            arrived.set()
        loop.call_soon_threadsafe(on_loop)
    path = emu.start()
    link = ShoeLink(path, acknowledging(post), read_timeout=0.002)
    link.start()
    shoe = seeded_shoe(8, 2026)
    position = 0
    try:
        for _ in range(50):
            if link.counters().connected:
                break
            await asyncio.sleep(0.05)
        while card_index["n"] < cards:
            if position >= len(shoe) - 16 and table.round_events == 0:  # between rounds: a new shoe, announced
                answer = table.command(Command("new_shoe", {}, "bench"))
                if answer != "done":
                    raise RuntimeError(f"the table refused a new shoe: {answer}")
                shoe, position = seeded_shoe(8, 2026 + len(sent_ns)), 0
            if table.round_events == 0:
                table.submit("bets", Bet(1, "punto", 1000))
                table.submit("bets", Bet(2, "banco", 1000))
                table.submit("gpio", CloseBets())
            before = card_index["n"]
            arrived.clear()
            emu.send(events.CardDealt(shoe[position]))
            position += 1
            while card_index["n"] == before:
                await arrived.wait()
                arrived.clear()
            await asyncio.sleep(0)  # the sign's draw (call_soon) runs before the next card
            t0 = time.perf_counter_ns()  # the reference, in turns: the disk alone
            os.write(disk, b"x" * 100)
            os.fsync(disk)
            fsync_ms.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        os.close(disk)
        link.stop()
        emu.stop()
        table.journal.close()
    to_commit = [(commit_ns[i] - sent_ns[i]) / 1e6 for i in range(cards)]
    to_display = [(display_ns[i] - sent_ns[i]) / 1e6 for i in display_ns if i < cards]
    return {"cards": cards, "journal": str(journal), "retransmits": link.counters().retransmits,
            "card_to_commit_ms": {"median": round(statistics.median(to_commit), 3), "p99": round(pct(to_commit, 0.99), 3),
                                  "max": round(max(to_commit), 3)},
            "card_to_sign_ms": {"samples": len(to_display), "median": round(statistics.median(to_display), 3),
                                "p99": round(pct(to_display, 0.99), 3)},
            "reference_disk_append_fsync_ms": {"median": round(statistics.median(fsync_ms), 3),
                                               "p99": round(pct(fsync_ms, 0.99), 3)},
            "goal_p99_ms": 5.0,
            "met": pct(to_commit, 0.99) < 5.0 and pct(to_display, 0.99) < 5.0}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10000)
    parser.add_argument("--journal", type=Path, default=None)
    args = parser.parse_args()
    journal = args.journal or Path(tempfile.mkdtemp(prefix="tablectl-bench-")) / "journal.sqlite"
    if journal.exists():
        sys.exit(f"{journal} exists; give a new path")
    print(json.dumps(asyncio.run(main(args.cards, journal)), indent=2))
