"""`tablectl floor`: the floor service (every table's stream, chains, state, the floor view) and the link controllers.

``tablectl floor --config FILE`` runs the floor service and every ``[link.NAME]``
of the file; ``--link NAME`` (repeatable) runs only those link controllers
(their own unit, ``tablectl-link@NAME``); ``--no-links`` runs the floor
service without them. ``tablectl floor query --config FILE [--table ID]``
asks a running floor service over the bus.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from controller.commands.common import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "floor", help="the floor service: every table's journal off the bus, chains checked, the floor view",
        description="Run the floor service (tablectl floor --config FILE) and the linked progressives' link "
                    "controllers, or ask a running one (tablectl floor query --config FILE). docs/floor.md.")
    parser.add_argument("action", nargs="?", choices=("run", "query"), default="run",
                        help="run (the default) or query a running floor service")
    parser.add_argument("--config", metavar="FILE", required=True, help="the floor's configuration (TOML)")
    parser.add_argument("--link", action="append", metavar="NAME", default=[],
                        help="run only this link controller (repeatable)")
    parser.add_argument("--no-links", action="store_true", help="the floor service without the link controllers")
    parser.add_argument("--table", metavar="ID", help="with query: one table's state and live round")
    parser.add_argument("--what", default=None, choices=("tables", "table", "links", "alarms"),
                        help="with query: what to ask for")
    parser.add_argument("--measure", metavar="FILE", help=argparse.SUPPRESS)  # bench/floor.py: commit-to-floor latencies
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from controller.floor.settings import FloorConfigError, load_floor

    try:
        config = load_floor(args.config)
    except FloorConfigError as exc:
        for problem in exc.problems:
            print(f"tablectl: {problem}", file=sys.stderr)
        return 2
    unknown = [name for name in args.link if name not in config.links]
    if unknown:
        raise UsageError(f"floor: no [link.{unknown[0]}] in {config.source} (links: {', '.join(config.links) or 'none'})")
    if args.action == "query":
        return asyncio.run(_query(config, args))
    from controller.runtime.logs import start_logging

    listener = start_logging()
    try:
        return asyncio.run(_serve(config, args.link, args.no_links, args.measure))
    finally:
        listener.stop()


async def _serve(config, only_links: list[str], no_links: bool,  # type: ignore[no-untyped-def]
                 measure: str | None = None) -> int:
    from controller.floor.link import LinkController
    from controller.floor.security import BusRefused
    from controller.floor.service import FloorService
    from controller.runtime.journal import JournalError

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    jobs = []
    try:
        if not only_links:
            service = FloorService(config)
            service.keep_latencies = bool(measure)
            if measure:
                gc_pauses = _time_collections()
            jobs.append(service.run(stop))
            print(f"floor {config.id}: consuming from stream record {service.stream_seq + 1}, "
                  f"{len(service.tables)} tables from the checkpoint, view on "
                  f"{'http://%s:%d/' % config.http if config.http else 'none'}", flush=True)
        names = only_links or ([] if no_links else list(config.links))
        for name in names:
            link = LinkController(config.links[name], config.servers, config.security, config.replicas,
                                  config.domain)
            jobs.append(link.run(stop))
            print(f"link {name}: meter {link.meter.value} after stream record {link.meter.link_seq}", flush=True)
    except JournalError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 1
    try:
        await asyncio.gather(*jobs)
    except BusRefused as exc:  # the broker does not take this configuration's login or CA: one line, exit 2
        print(f"tablectl: {config.source}: {exc}", file=sys.stderr)
        return 2
    if measure and not only_links:
        with open(measure, "w") as f:
            json.dump({"latencies_ns": service.latencies_ns, "checkpoints_ns": service.checkpoints_ns, "gc_pauses_ns": gc_pauses,
                       "signed_tables": sum(s.signed for s in service.tables.values()), "records": sum(s.records for s in service.tables.values()),
                       "alarms": len(service.alarms)}, f)
    return 0


def _time_collections() -> list[tuple[int, int, int]]:
    """The benchmark's: every garbage collection of this process (wall time it began, generation, how long)."""
    import gc
    import time

    pauses: list[tuple[int, int, int]] = []
    began = [0, 0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[:] = [time.time_ns(), time.perf_counter_ns()]
        else:
            pauses.append((began[0], info["generation"], time.perf_counter_ns() - began[1]))

    gc.callbacks.append(timed)
    return pauses


async def _query(config, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    from controller.floor import schema
    from controller.floor.bus import connect
    from controller.floor.security import BusRefused

    what = args.what or ("table" if args.table else "tables")
    try:
        nc = await asyncio.wait_for(connect(config.servers, "tablectl floor query", config.security), 5)
    except BusRefused as exc:
        print(f"tablectl: {config.source}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"tablectl: floor query: no broker at {', '.join(config.servers)}: {exc!r}", file=sys.stderr)
        return 1
    try:
        reply = await nc.request(schema.query_subject(config.id), json.dumps({"what": what, "table": args.table}).encode(),
                                 timeout=3)
    except Exception as exc:
        print(f"tablectl: floor query: the floor service {config.id} did not answer: {exc!r}", file=sys.stderr)
        return 1
    finally:
        await nc.close()
    print(json.dumps(json.loads(reply.data), indent=2, sort_keys=True))
    return 0
