"""The floor's checks of a table's records as they arrive (no bus needed: the messages are given directly).

A resend is dropped, a record ahead of a missing one waits for it, a missing
record, an edited record and a forged signature are floor alarms naming the
table; the alarms are in the floor's own journal.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from controller.floor import schema
from controller.floor.service import FloorService
from controller.floor.settings import floor_from_mapping
from controller.runtime.journal import Journal, Record

try:
    from controller.runtime.integrity import TableKey
except ImportError:  # a release without record signatures
    TableKey = None  # type: ignore[assignment,misc]


def floor(tmp_path: Path, keys: Path | None = None) -> FloorService:
    section = {"id": "t", "servers": ["nats://127.0.0.1:1"], "journal": str(tmp_path / "floor.sqlite"), "http": ""}
    if keys is not None:
        section["keys"] = str(keys)
    return FloorService(floor_from_mapping({"floor": section}, "test", tmp_path))


def records(tmp_path: Path, n: int) -> list[Record]:
    journal = Journal(tmp_path / "table.sqlite")
    for i in range(n):
        journal.append([("event", 1, {"source": "test", "event": {"type": "card", "card": "Ah"}, "effects": [],
                                      "n": i})])
    out = list(journal.records())
    journal.close()
    return out


def send(service: FloorService, record: Record, stream_seq: int, sig: str | None = None) -> None:
    data = schema.record_message("s", "p", "tab", record)
    if sig is not None:
        data = schema.dumps({**schema.loads(data, "record"), "sig": sig})
    service.apply_message(data, stream_seq)


def test_resends_are_dropped_and_late_records_wait_for_their_place(tmp_path: Path) -> None:
    service = floor(tmp_path)
    rs = records(tmp_path, 5)
    for i, r in enumerate([rs[0], rs[1], rs[0], rs[3], rs[4], rs[2]], start=1):
        send(service, r, i)
    state = service.tables["tab"]
    assert (state.last_seq, state.records, state.duplicates, state.held_back) == (5, 5, 1, 2)
    assert service.alarms == []


def test_a_missing_record_and_an_edited_one_are_alarms_naming_the_table(tmp_path: Path) -> None:
    service = floor(tmp_path)
    rs = records(tmp_path, 6)
    send(service, rs[0], 1)
    send(service, rs[2], 2)  # record 2 never comes
    service.check_gaps(now=10**9)
    assert "table tab: records 2 to 2 are missing" in service.alarms[-1]["text"]
    edited = dataclasses.replace(rs[3], body={**rs[3].body, "n": 99})
    send(service, edited, 3)
    assert "record 4 does not match its own hash (edited)" in service.alarms[-1]["text"]
    journal = Journal(tmp_path / "floor.sqlite", readonly=True)
    assert [r.body["table"] for r in journal.records(kinds=("alarm",))] == ["tab", "tab"]
    journal.close()


@pytest.mark.skipif(TableKey is None, reason="this release has no record signatures")
def test_signatures_are_checked_with_the_tables_public_key(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from controller.runtime.integrity import RECORD_DOMAIN

    key = Ed25519PrivateKey.generate()
    keys = tmp_path / "keys"
    keys.mkdir()
    raw = key.public_key().public_bytes_raw()
    (keys / "tab.pub").write_text(raw.hex())
    service = floor(tmp_path, keys)
    rs = records(tmp_path, 3)
    sign = lambda r: key.sign(RECORD_DOMAIN + r.hash.encode("ascii")).hex()  # noqa: E731
    send(service, rs[0], 1, sign(rs[0]))
    send(service, rs[1], 2, sign(rs[1]))
    assert service.alarms == [] and service.tables["tab"].signed
    forged = Ed25519PrivateKey.generate().sign(RECORD_DOMAIN + rs[2].hash.encode("ascii")).hex()
    send(service, rs[2], 3, forged)
    assert "signature is not the table's" in service.alarms[-1]["text"]
