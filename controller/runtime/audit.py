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

import sqlite3

from controller.progress import nothing
from controller.runtime.journal import GENESIS, Journal, record_hash
from controller.runtime.meters import recompute


def replay_rounds(journal: Journal, lookup: Callable[[str], Any], since: int = 0) -> list[str]:
    """Replay every round opened after record ``since`` through the game code; what differs, one line a round.

    Each round starts from its ``round_open`` (game, variant, options, stakes carried in); every ``event`` must
    give exactly its journaled effects (outcome, each settlement, each meter change) and every ``reject`` must
    be refused again.
    """
    from controller import games
    from controller.events import describe, event_from_json
    from controller.games.contract import Accepted
    from controller.runtime.table import effect_json

    problems: list[str] = []
    for opening in list(journal.records(since=since, kinds=("round_open",))):
        number = opening.round
        try:
            spec = lookup(opening.body["game"])
            config = spec.resolve(opening.body["variant"], opening.body["options"], games.paytable_of(spec))
            rnd = spec.new_round(config, tuple(event_from_json(b) for b in opening.body.get("carried", [])))
        except Exception as exc:  # noqa: BLE001 - an unknown game or a malformed opening, in one line
            problems.append(f"round {number}: cannot be reopened from record {opening.seq}: {exc}")
            continue
        for record in journal.records(since=opening.seq, kinds=("event", "reject"), round_=number):
            try:
                event = event_from_json(record.body["event"])
                answer = rnd.apply(event)
                if record.kind == "reject":
                    if isinstance(answer, Accepted):
                        problems.append(f"round {number}: record {record.seq} ({describe(event)}) was refused, "
                                        f"but the game takes it")
                        break
                    continue
                effects = [effect_json(e) for e in answer.effects] if isinstance(answer, Accepted) else None
                if effects != record.body["effects"]:
                    problems.append(f"round {number}: record {record.seq} ({describe(event)}) does not settle as "
                                    f"journaled: the game gives {_first_difference(effects, record.body['effects'])}")
                    break
            except Exception as exc:  # noqa: BLE001 - a malformed record, in one line
                problems.append(f"round {number}: record {record.seq} cannot be replayed: {exc!r}")
                break
    return problems


def _first_difference(got: Any, journaled: Any) -> str:
    if got is None:
        return "a refusal"
    for a, b in zip(got, journaled):
        if a != b:
            return f"{json.dumps(a)[:120]} where the journal has {json.dumps(b)[:120]}"
    return f"{len(got)} effects where the journal has {len(journaled)}"


def verify(journal: Journal, public_key: Any = None, lookup: Callable[[str], Any] | None = None,
           progress: Callable[[int], None] = nothing) -> dict[str, Any]:
    """The whole journal: chain, signatures (with ``public_key``), meters, rounds (replayed with ``lookup``);
    ``progress`` is told the records read so far."""
    try:
        return _verify(journal, public_key, lookup, progress)
    except sqlite3.DatabaseError as exc:
        return {"ok": False, "records": 0, "rounds_opened": 0, "rounds_settled": 0, "meters": {},
                "problems": [f"the journal file is damaged: {exc}"]}


def _verify(journal: Journal, public_key: Any, lookup: Callable[[str], Any] | None,
            progress: Callable[[int], None]) -> dict[str, Any]:
    problems: list[str] = []
    if public_key is not None:
        from controller.runtime.integrity import check_rows

        checked = check_rows(journal.signed_rows(), 0, GENESIS, public_key)
        if checked.problem is not None:
            problems.append(checked.problem)
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
        except (ValueError, RecursionError):
            problems.append(f"record {seq}: body is not JSON")
            continue
        if not isinstance(body, dict):
            problems.append(f"record {seq}: body is not a JSON object")
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
    try:
        values, meter_problems = recompute(meter_bodies)
    except Exception as exc:  # noqa: BLE001 - a malformed meter record, in one line
        values, meter_problems = {}, [f"the meter records cannot be added up: {exc!r}"]
    problems.extend(meter_problems)
    stored = journal.stored_meters()
    for name in sorted(set(values) | set(stored)):
        have, want = stored.get(name), values.get(name)
        if have is None or want is None or (have["value"], have["overflow"]) != (want["value"], want["overflow"]):
            problems.append(f"meter {name}: stored {have and have['value']} but the records add up to "
                            f"{want and want['value']}")
    if lookup is not None and not problems:
        problems.extend(replay_rounds(journal, lookup))
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
