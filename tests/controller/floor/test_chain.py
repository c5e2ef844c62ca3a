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

from controller.runtime.integrity import TableKey


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


def signed_records(tmp_path: Path, n: int) -> tuple[TableKey, list[Record]]:
    """Records as the table's daemon writes them: its journal signing with its own key (made by keygen)."""
    key = TableKey.create(TableKey.where(tmp_path / "table" / "journal.sqlite"))
    journal = Journal(tmp_path / "table" / "journal.sqlite", sign=key.sign_record)
    for i in range(n):
        journal.append([("event", 1, {"source": "test", "event": {"type": "card", "card": "Ah"}, "effects": [],
                                      "n": i})])
    out = list(journal.records())
    journal.close()
    return key, out


def test_a_key_copied_as_table_key_pub_and_a_key_arriving_later_both_sign(tmp_path: Path, monkeypatch) -> None:
    from controller.floor import service as service_module

    key, rs = signed_records(tmp_path, 4)
    assert all(r.sig for r in rs)
    keys = tmp_path / "keys"
    keys.mkdir()
    service = floor(tmp_path, keys)
    send(service, rs[0], 1)  # no key on the floor yet: the chain alone
    assert not service.tables["tab"].signed
    (keys / "tab.key.pub").write_text((tmp_path / "table" / "journal.sqlite.key.pub").read_text())
    monkeypatch.setattr(service_module, "KEY_LOOK_S", 0.0)  # the floor looks at its keys folder again
    for i, r in enumerate(rs[1:], start=2):
        send(service, r, i)
    state = service.tables["tab"]
    assert service.alarms == [] and state.signed and state.unsigned == 0
    assert service.answer({"what": "table", "table": "tab"})["signed"] is True


def test_an_unsigned_or_forged_record_of_a_signed_table_is_a_floor_alarm(tmp_path: Path) -> None:
    key, rs = signed_records(tmp_path, 5)
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "tab.pub").write_text(key.public_hex)
    service = floor(tmp_path, keys)
    send(service, rs[0], 1)
    assert service.tables["tab"].signed
    stripped = dataclasses.replace(rs[1], sig=None)  # the signature dropped on the way
    send(service, stripped, 2)
    assert service.alarms[-1]["text"] == "table tab: record 2: not signed"
    other = TableKey.create(tmp_path / "other.key")  # another table's key: the chain is good, the signer is not
    send(service, rs[2], 3, other.sign_record(rs[2].hash))
    assert service.alarms[-1]["text"] == "table tab: record 3: its signature is not the table's (forged or re-hashed)"
    send(service, rs[3], 4)
    send(service, rs[4], 5)
    state = service.tables["tab"]
    assert (state.last_seq, state.unsigned, state.signed, len(service.alarms)) == (5, 2, False, 2)
    tile = service.answer({"what": "tables"})["tables"]["tab"]
    assert (tile["signed"], tile["unsigned"]) == (False, 2)
    journal = Journal(tmp_path / "floor.sqlite", readonly=True)
    assert [r.body["text"] for r in journal.records(kinds=("alarm",))] == [a["text"] for a in service.alarms]
    journal.close()


def test_a_bad_key_file_is_one_alarm_and_a_missing_keys_folder_a_config_error(tmp_path: Path) -> None:
    from controller.floor.settings import FloorConfigError

    with pytest.raises(FloorConfigError, match="floor.keys = 'nokeys': no such folder"):
        floor_from_mapping({"floor": {"id": "t", "servers": ["nats://127.0.0.1:1"], "journal": "f.sqlite",
                                      "keys": "nokeys"}}, "test", tmp_path)
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "tab.pub").write_text("not a key")
    service = floor(tmp_path, keys)
    rs = records(tmp_path, 2)
    send(service, rs[0], 1)
    send(service, rs[1], 2)
    assert [a["text"] for a in service.alarms] == [
        f"table tab: {keys / 'tab.pub'} is not a public key (64 hex digits, the table's journal.sqlite.key.pub); "
        "its records are checked by their chain only"]
    assert not service.tables["tab"].signed


def test_a_floor_restarted_after_any_tick_rebuilds_exactly_the_uninterrupted_state(tmp_path: Path) -> None:
    """Many tables, a record held back for a resend, checkpoints a share of the tables at a time: a floor
    killed after any tick (no final checkpoint) and started again on the same journal, fed the stream from
    where it says, ends with every table exactly as a floor that never stopped."""
    tables = [f"t{i:02d}" for i in range(30)]
    stream: list[bytes] = []
    for t in tables:
        (tmp_path / t).mkdir()
    journals = {t: Journal(tmp_path / t / "j.sqlite") for t in tables}
    for n in range(240):
        t = tables[(n * 7) % len(tables)]
        settled = {"settlement": {"stake": 500 + n, "net": -(n % 3) * 100}}
        record = journals[t].append([("event", 1, {"source": "test", "event": {"type": "card", "card": "Ah"},
                                                   "effects": [settled] if n % 2 else []})])[0]
        stream.append(schema.record_message("s", "p", t, record))
    stream[10], stream[40] = stream[40], stream[10]  # table t10: its next record before this one (held back)
    stream.insert(40, stream[20])  # a resend
    whole = floor(tmp_path / "whole")
    for i, data in enumerate(stream, start=1):
        whole.apply_message(data, i)
    final = {t: s.to_json() for t, s in whole.tables.items()}
    assert whole.tables["t10"].held_back == 1 and whole.alarms == []
    for stop_after in (3, 57, 120, 199, len(stream)):
        folder = tmp_path / f"crash-{stop_after}"
        first = floor(folder)
        for i, data in enumerate(stream[:stop_after], start=1):
            first.apply_message(data, i)
            if i % 9 == 0:
                first.checkpoint(every=False)  # a tick: a share of the changed tables
        first.journal.close()  # killed: no final checkpoint
        again = floor(folder)
        for i in range(again.stream_seq + 1, len(stream) + 1):
            again.apply_message(stream[i - 1], i)
        for t in tables:
            got, want = again.tables[t].to_json(), dict(final[t])
            got.pop("duplicates"), want.pop("duplicates")  # what it had is read again and counted as a resend
            assert got == want, f"after a stop at stream record {stop_after}: table {t} differs"
        again.journal.close()
