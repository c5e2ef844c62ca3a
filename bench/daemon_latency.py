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
beside the journal, the floor under any commit. The journal is opened as the
daemon opens it: checked, signed, its sealed state file following the head on
the state file's own thread (controller/runtime/statefile.py
``HeadFollower``). Prints JSON.

    python bench/daemon_latency.py --cards 10000 --journal /tmp/bench-journal.sqlite
    python bench/daemon_latency.py --cards 2000 --turns 4 --base main

With ``--turns``/``--base``/``--nice`` the figures are taken by fresh processes
of this script in turns: each turn plays ``cards / turns`` cards at each nice
value (default: the shipped unit's ``Nice=``, systemd/tablectl.service, then
0) on this checkout's code and, with ``--base COMMIT``, on that commit's code
(``git archive`` to a temporary folder, byte-compiled as this checkout is);
the samples of all turns make each figure. ``--code DIR`` runs one process on
the code in DIR.
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if "--code" in sys.argv:  # the code to time (another commit's, extracted by the parent run)
    ROOT = Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
sys.path[0] = str(ROOT)  # not bench/: bench/serial.py would shadow pyserial

from controller import config as table_config  # noqa: E402
from controller.events import Bet, CloseBets  # noqa: E402
from controller.runtime.device_outputs import DeviceView, SignOutput  # noqa: E402
from controller.runtime.interfaces import Command  # noqa: E402
from controller.runtime.table import Table  # noqa: E402


def open_as_the_daemon_does(config: Any, journal: Path) -> tuple[Table, Any]:
    """The table on its checked, signed journal, its sealed state following the head the way the daemon's does
    (controller/runtime/daemon.py ``_open_table``: on the state file's own thread where this code has one)."""
    try:
        from controller.runtime import integrity
        from controller.runtime.statefile import HeadFollower
    except ImportError:  # an older commit (--base): its Table.open is what its daemon did
        return Table.open(config), None
    opened = integrity.open_journal(journal, config.table_id)
    if opened.problem is not None or opened.state is None:
        raise RuntimeError(f"the bench's journal cannot be opened: {opened.problem}")
    table = Table.open(config, journal=opened.journal)
    follower = HeadFollower(opened.state)
    opened.journal.on_commit = follower
    return table, follower


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(cards: int, journal: Path, raw: bool = False) -> dict[str, object]:
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
    table, follower = open_as_the_daemon_does(config, journal)
    view = DeviceView(table)
    sign_dev, _ = simulated_displays(load_device_config(ROOT / "hw" / "dealer-panel.toml"))
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
        if follower is not None:
            follower.close()
        table.journal.close()
    to_commit = [(commit_ns[i] - sent_ns[i]) / 1e6 for i in range(cards)]
    to_display = [(display_ns[i] - sent_ns[i]) / 1e6 for i in display_ns if i < cards]
    if raw:
        return {"to_commit": to_commit, "to_display": to_display, "fsync": fsync_ms,
                "retransmits": link.counters().retransmits}
    return summary(cards, str(journal), link.counters().retransmits, to_commit, to_display, fsync_ms)


def summary(cards: int, journal: str, retransmits: int, to_commit: list[float], to_display: list[float],
            fsync_ms: list[float]) -> dict[str, object]:
    return {"cards": cards, "journal": journal, "retransmits": retransmits,
            "card_to_commit_ms": {"median": round(statistics.median(to_commit), 3), "p99": round(pct(to_commit, 0.99), 3),
                                  "max": round(max(to_commit), 3)},
            "card_to_sign_ms": {"samples": len(to_display), "median": round(statistics.median(to_display), 3),
                                "p99": round(pct(to_display, 0.99), 3)},
            "reference_disk_append_fsync_ms": {"median": round(statistics.median(fsync_ms), 3),
                                               "p99": round(pct(fsync_ms, 0.99), 3)},
            "goal_p99_ms": 5.0,
            "met": pct(to_commit, 0.99) < 5.0 and pct(to_display, 0.99) < 5.0}


def shipped_nice() -> int:
    import re

    found = re.search(r"^Nice=(-?\d+)", (Path(__file__).resolve().parents[1] / "systemd" / "tablectl.service").read_text(),
                      re.M)
    return int(found.group(1)) if found else 0


def in_turns(cards: int, turns: int, nices: list[int], base: str | None) -> dict[str, object]:
    """Fresh processes of this script, in turns: (code, nice) after (code, nice), each ``cards // turns`` cards."""
    import subprocess

    here = Path(__file__).resolve()
    report: dict[str, object] = {"cards_per_process": cards // turns, "turns": turns, "shipped_nice": shipped_nice()}
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        trees = {"this": here.parents[1]}
        if base:
            tree = Path(tmp) / "base"
            tree.mkdir()
            archive = subprocess.run(["git", "-C", str(here.parents[1]), "archive", base, "controller", "drivers", "hw"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
            trees["base"] = tree
            report["base_commit"] = base
        for tree in trees.values():  # as pip install leaves the code on the Pi (this machine writes no bytecode)
            subprocess.run([sys.executable, "-m", "compileall", "-q", "controller", "drivers"], cwd=tree, check=True,
                           stdout=subprocess.DEVNULL)
        samples: dict[tuple[str, int], dict[str, list[float]]] = {}
        retransmits: dict[tuple[str, int], int] = {}
        for turn in range(turns):
            for nice in nices:
                if nice < os.getpriority(os.PRIO_PROCESS, 0) and os.geteuid() != 0:
                    report[f"nice {nice}"] = "skipped: a nice value below this process's needs root (CAP_SYS_NICE)"
                    continue
                for side, tree in trees.items():
                    journal = Path(tmp) / f"{side}-{nice}-{turn}" / "journal.sqlite"
                    journal.parent.mkdir()
                    done = subprocess.run([sys.executable, str(here), "--code", str(tree), "--cards", str(cards // turns),
                                           "--journal", str(journal), "--nice", str(nice), "--raw"],
                                          capture_output=True, text=True, check=True)
                    got = json.loads(done.stdout)
                    into = samples.setdefault((side, nice), {"to_commit": [], "to_display": [], "fsync": []})
                    for key in into:
                        into[key] += got[key]
                    retransmits[(side, nice)] = retransmits.get((side, nice), 0) + got["retransmits"]
        for (side, nice), got in samples.items():
            report.setdefault(side, {})[f"nice {nice}"] = summary(  # type: ignore[index]
                len(got["to_commit"]), "(a temporary file)", retransmits[(side, nice)], got["to_commit"],
                got["to_display"], got["fsync"])
    return report


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10000)
    parser.add_argument("--journal", type=Path, default=None)
    parser.add_argument("--code", type=Path, help="time the code in this folder (a commit extracted by --base)")
    parser.add_argument("--nice", type=int, action="append", help="nice value (repeatable; with --turns or --base: "
                        "default the shipped unit's, then 0)")
    parser.add_argument("--turns", type=int, help="fresh processes in turns, the cards split between them")
    parser.add_argument("--base", help="git commit whose code is timed too, in the same turns")
    parser.add_argument("--raw", action="store_true", help="print the samples (for the run in turns)")
    args = parser.parse_args()
    if args.turns or args.base:
        nices = args.nice or sorted({shipped_nice(), 0})
        load = [round(x, 2) for x in os.getloadavg()]
        out = in_turns(args.cards, args.turns or 1, nices, args.base)
        print(json.dumps({"load_average_before": load, **out,
                          "load_average_after": [round(x, 2) for x in os.getloadavg()]}, indent=2))
        sys.exit(0)
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice[0])
    journal = args.journal or Path(tempfile.mkdtemp(prefix="tablectl-bench-")) / "journal.sqlite"
    if journal.exists():
        sys.exit(f"{journal} exists; give a new path")
    print(json.dumps(asyncio.run(main(args.cards, journal, args.raw)), indent=None if args.raw else 2))
