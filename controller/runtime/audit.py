"""Reading a journal back: verify the chain and the meters, and export a round as a scenario file.

``verify`` recomputes every record's hash from its stored fields and checks
that each carries the hash of the one before, that sequence numbers have no
gap, that the meters recomputed from their records agree with every record and
with the stored values, that each round opens once and settles at most once.
``export_round`` gives the scenario (DESIGN.md section 6) that replays round N:
the stakes carried into it, then every event the game took or refused, in
journal order; ``tablectl settle`` on it gives the journaled settlements.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from controller.progress import nothing
from controller.runtime.journal import GENESIS, Journal, record_hash
from controller.runtime.meters import recompute


def verify(journal: Journal, progress: Callable[[int], None] = nothing) -> dict[str, Any]:
    """Check the hash chain and the meters; ``progress`` is told the records read so far."""
    problems: list[str] = []
    prev, expected_seq, count = GENESIS, 1, 0
    meter_bodies: list[dict[str, Any]] = []
    opened: dict[int, int] = {}
    settled: dict[int, int] = {}
    for seq, mono, wall, kind, round_, body_text, prev_stored, digest in journal.raw_rows():
        count += 1
        if not count % 5000:
            progress(count)
        if seq != expected_seq:
            problems.append(f"record {seq}: expected sequence number {expected_seq} (records missing)")
        expected_seq = seq + 1
        if prev_stored != prev:
            problems.append(f"record {seq}: does not carry the hash of the record before it")
        if record_hash(seq, mono, wall, kind, round_, body_text, prev_stored) != digest:
            problems.append(f"record {seq}: its hash does not match its contents (edited)")
        prev = digest
        try:
            body = json.loads(body_text)
        except json.JSONDecodeError:
            problems.append(f"record {seq}: body is not JSON")
            continue
        if kind == "meter":
            meter_bodies.append(body)
        elif kind == "round_open":
            if round_ in opened:
                problems.append(f"record {seq}: round {round_} opened twice (first at record {opened[round_]})")
            opened[round_] = seq
        elif kind == "event" and body.get("complete"):
            if round_ in settled:
                problems.append(f"record {seq}: round {round_} settled twice (first at record {settled[round_]})")
            settled[round_] = seq
    progress(count)
    values, meter_problems = recompute(meter_bodies)
    problems.extend(meter_problems)
    stored = journal.stored_meters()
    for name in sorted(set(values) | set(stored)):
        have, want = stored.get(name), values.get(name)
        if have is None or want is None or (have["value"], have["overflow"]) != (want["value"], want["overflow"]):
            problems.append(f"meter {name}: stored {have and have['value']} but the records add up to "
                            f"{want and want['value']}")
    return {"ok": not problems, "records": count, "rounds_opened": len(opened), "rounds_settled": len(settled),
            "meters": values, "problems": problems}


def export_round(journal: Journal, number: int) -> dict[str, Any]:
    """The scenario of round ``number``; ``LookupError`` when the journal never opened it."""
    opening = next(journal.records(kinds=("round_open",), round_=number), None)
    if opening is None:
        raise LookupError(f"round {number} is not in this journal")
    events: list[dict[str, Any]] = []
    carried = list(opening.body.get("carried", []))
    settlements: list[dict[str, Any]] = []
    for record in journal.records(since=opening.seq, kinds=("event", "reject"), round_=number):
        events.append(record.body["event"])
        if record.kind == "event":
            settlements.extend(e["settlement"] for e in record.body["effects"] if "settlement" in e)
    start = journal.last("start")
    table = start.body.get("table") if start else None
    round_doc: dict[str, Any] = {"events": events}
    if carried:
        round_doc = {"carried": carried, "events": events}  # stakes the round before left on the layout
    return {
        "comment": f"table {table} round {number}, exported from the journal (records from {opening.seq})"
                   + (f"; {len(carried)} stakes carried into the round" if carried else ""),
        "game": opening.body["game"],
        "variant": opening.body["variant"],
        "options": opening.body["options"],
        "rounds": [round_doc],
    }


def journal_settlements(journal: Journal, number: int) -> list[dict[str, Any]]:
    """The settlements the table journaled for round ``number``."""
    out: list[dict[str, Any]] = []
    for record in journal.records(kinds=("event",), round_=number):
        out.extend(e["settlement"] for e in record.body["effects"] if "settlement" in e)
    return out
