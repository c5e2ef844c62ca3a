"""The journal checks itself: 30 kinds of tampering, each named by `journal verify` and refused by `run`.

A base journal is made once by the daemon itself (a simulated Punto Banco
table, 6 coups, signed records, the sealed state file and the key beside it).
Each test copies it, tampers with it in one way, and then:

- ``tablectl journal verify`` exits 1 with one line naming the problem;
- ``run`` on it latches ``integrity.*`` naming the first bad record (or the
  missing file), shows it on the sign and the tower, takes no game input
  (the journal file is not written to), and stays up: the console answers.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Callable

import pytest

from controller import cli
from controller import config as table_config
from controller.runtime.daemon import Daemon
from controller.runtime.integrity import TableKey, canonical_bytes, find_public_key, verify_record
from controller.runtime.journal import GENESIS, Journal, record_hash
from controller.runtime.statefile import SealedState

NAMES = ("journal.sqlite", "journal.sqlite.key", "journal.sqlite.key.pub", "journal.sqlite.state")


def config_for(folder: Path) -> table_config.TableConfig:
    data = table_config.simulated_defaults("punto-banco", "se", str(folder / "journal.sqlite"))
    return table_config.from_mapping(data, "test")


def run_briefly(folder: Path, rounds: int | None = None, seconds: float = 0.4) -> Daemon:
    daemon = Daemon(config_for(folder), simulate=True, fast=True, rounds=rounds, stream=io.StringIO(), quiet=True)

    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        if rounds is None:
            while daemon.ready_s is None and not task.done():
                await asyncio.sleep(0.02)
            await asyncio.sleep(seconds)
            daemon.stopped.set()  # type: ignore[union-attr]
        await asyncio.wait_for(task, 60)
    asyncio.run(main())
    return daemon


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("base")
    run_briefly(folder, rounds=6)
    return folder


def db(folder: Path) -> sqlite3.Connection:
    return sqlite3.connect(folder / "journal.sqlite", isolation_level=None)


def rows(folder: Path) -> list[list]:
    with db(folder) as conn:
        return [list(r) for r in conn.execute(
            "SELECT seq, mono_ns, wall_ns, kind, round, body, prev, hash, sig FROM records ORDER BY seq")]


def rewrite(folder: Path, new_rows: list[list], sign: Callable[[str], str] | None = None) -> None:
    """Put ``new_rows`` back with the chain re-hashed from the first record (and re-signed with ``sign``)."""
    prev = GENESIS
    for row in new_rows:
        row[6] = prev
        row[7] = record_hash(row[0], row[1], row[2], row[3], row[4], row[5], prev)
        if sign is not None:
            row[8] = sign(row[7])
        prev = row[7]
    conn = db(folder)
    conn.execute("DELETE FROM records")
    conn.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", new_rows)
    conn.close()


def first(folder: Path, kind: str, test: Callable[[dict], bool] = lambda b: True) -> int:
    return next(r[0] for r in rows(folder) if r[3] == kind and test(json.loads(r[5])))


def card_seq(folder: Path) -> int:
    return first(folder, "event", lambda b: b["event"]["type"] == "card")


def bet_seq(folder: Path) -> int:
    return first(folder, "event", lambda b: b["event"]["type"] == "bet" and "amount" in b["event"])


def sql(statement: str, *args: object) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        conn = db(folder)
        conn.execute(statement, args)
        conn.close()
    return apply


def edit_body(pick: Callable[[Path], int], change: Callable[[dict], None], rehash: bool = False,
              resign: bool = False) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        all_rows, seq = rows(folder), pick(folder)
        for row in all_rows:
            if row[0] == seq:
                body = json.loads(row[5])
                change(body)
                row[5] = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        if rehash:
            key = TableKey.load(folder / "journal.sqlite.key") if resign else None
            rewrite(folder, all_rows, key.sign_record if key else None)
        else:
            conn = db(folder)
            body = next(r[5] for r in all_rows if r[0] == seq)
            conn.execute("UPDATE records SET body = ? WHERE seq = ?", (body, seq))
            conn.close()
    return apply


def set_stake(body: dict) -> None:
    body["event"]["amount"] = 9000 if body["event"].get("amount") != 9000 else 8000


def set_card(body: dict) -> None:
    body["event"]["card"] = "As" if body["event"]["card"] != "As" else "Ks"


def settlement_to(net: int) -> Callable[[dict], None]:
    def change(body: dict) -> None:
        for effect in body["effects"]:
            if "settlement" in effect:
                effect["settlement"]["net"] = net
                return
        raise AssertionError("no settlement in that record")
    return change


def settled_seq(folder: Path) -> int:
    return first(folder, "event", lambda b: any("settlement" in e for e in b["effects"]))


def insider(folder: Path) -> None:
    """Someone with the table's key: the settlement changed, the chain re-hashed and re-signed, the state re-sealed.
    Only the replay through the game code can tell."""
    edit_body(settled_seq, settlement_to(50000), rehash=True, resign=True)(folder)
    key = TableKey.load(folder / "journal.sqlite.key")
    state = SealedState(folder / "journal.sqlite.state", key.sign_state, key.check_state)
    state.load()
    last = rows(folder)[-1]
    state.data["head"] = {"seq": last[0], "hash": last[7]}
    state.write()


def delete_middle(renumber: bool) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        all_rows = rows(folder)
        del all_rows[len(all_rows) // 2]
        if renumber:
            for i, row in enumerate(all_rows, 1):
                row[0] = i
            rewrite(folder, all_rows)
        else:
            sql("DELETE FROM records WHERE seq = ?", rows(folder)[len(all_rows) // 2][0])(folder)
    return apply


def reorder(folder: Path) -> None:
    all_rows = rows(folder)
    a, b = all_rows[10], all_rows[11]
    conn = db(folder)
    conn.execute("UPDATE records SET seq = -1 WHERE seq = ?", (a[0],))
    conn.execute("UPDATE records SET seq = ? WHERE seq = ?", (a[0], b[0]))
    conn.execute("UPDATE records SET seq = ? WHERE seq = -1", (b[0],))
    conn.close()


def forge_append(kind: str, body: dict) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        last = rows(folder)[-1]
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        seq = last[0] + 1
        digest = record_hash(seq, last[1] + 1, last[2] + 1, kind, last[4], text, last[7])
        other = TableKey.create(folder / "forger.key")
        conn = db(folder)
        conn.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, last[1] + 1, last[2] + 1, kind, last[4], text, last[7], digest, other.sign_record(digest)))
        conn.close()
    return apply


def cut_tail(count: int) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        last = rows(folder)[-1][0]
        sql("DELETE FROM records WHERE seq > ?", last - count)(folder)
    return apply


def truncate(size: int | None) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        path = folder / "journal.sqlite"
        data = path.read_bytes()
        path.write_bytes(b"" if size is None else data[:size])
    return apply


def corrupt_page(folder: Path) -> None:
    path = folder / "journal.sqlite"
    data = bytearray(path.read_bytes())
    page = 4096
    middle = (len(data) // page // 2) * page
    data[middle + 8:middle + page] = bytes((i * 37) % 256 for i in range(page - 8))
    path.write_bytes(bytes(data))


def copy_signature(folder: Path) -> None:
    all_rows = rows(folder)
    sql("UPDATE records SET sig = ? WHERE seq = ?", all_rows[4][8], all_rows[5][0])(folder)


def strip_signatures(folder: Path) -> None:
    sql("UPDATE records SET sig = NULL")(folder)


def duplicate_card(folder: Path) -> None:
    all_rows = rows(folder)
    card = next(r for r in all_rows if r[3] == "event" and '"type":"card"' in r[5])
    copy = list(card)
    copy[0] = all_rows[-1][0] + 1
    copy[6] = all_rows[-1][7]
    copy[7] = record_hash(copy[0], copy[1], copy[2], copy[3], copy[4], copy[5], copy[6])
    conn = db(folder)
    conn.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", copy)
    conn.close()


def remove(name: str) -> Callable[[Path], None]:
    return lambda folder: (folder / name).unlink()


def edit_state(folder: Path) -> None:
    path = folder / "journal.sqlite.state"
    data = json.loads(path.read_text())
    data["head"]["seq"] -= 5
    path.write_text(json.dumps(data))


def other_key(folder: Path) -> None:
    (folder / "journal.sqlite.key").unlink()
    TableKey.create(folder / "journal.sqlite.key")  # replaces the .pub too: the records are not this key's


def edit_links(folder: Path) -> None:
    sql("INSERT OR REPLACE INTO links VALUES ('shoe', '{\"device\":\"shoe\",\"seq\":3}', 4)")(folder)


def stake_edited_in_the_open_round(folder: Path) -> None:
    """A stake edited in the last round played (the round the table reopens or has just settled)."""
    all_rows = rows(folder)
    seq = max(r[0] for r in all_rows if r[3] == "event" and '"type":"bet"' in r[5])
    edit_body(lambda f: seq, set_stake)(folder)


TAMPERS: dict[str, tuple[Callable[[Path], None], bool]] = {
    # name: (tamper, whether `journal verify` sees it: the key file is the daemon's business, not the journal's)
    "edit a stake": (edit_body(bet_seq, set_stake), True),
    "edit a stake in the last round": (stake_edited_in_the_open_round, True),
    "edit a card": (edit_body(card_seq, set_card), True),
    "edit a card and re-hash": (edit_body(card_seq, set_card, rehash=True), True),
    "settlement +50,000 and re-hash": (edit_body(settled_seq, settlement_to(50000), rehash=True), True),
    "settlement changed, re-hashed and re-signed with the key": (
        edit_body(settled_seq, settlement_to(50000), rehash=True, resign=True), True),
    "insider with the key: settlement changed, all re-signed, state re-sealed": (insider, True),
    "delete a middle record": (delete_middle(False), True),
    "delete a middle record and renumber": (delete_middle(True), True),
    "reorder two records": (reorder, True),
    "forge an appended clear": (forge_append("clear", {"names": ["integrity"], "by": "x", "reason": ""}), True),
    "forge an appended card": (forge_append("event", {"source": "shoe", "event": {"type": "card", "card": "As"},
                                                      "effects": [], "complete": False}), True),
    "duplicate a card record at the end": (duplicate_card, True),
    "cut the tail (3 records)": (cut_tail(3), True),
    "cut the last record": (cut_tail(1), True),
    "empty the records table": (sql("DELETE FROM records"), True),
    "truncate the file to 0 bytes": (truncate(None), True),
    "truncate the file to its first 4 KiB": (truncate(4096), True),
    "corrupt a page": (corrupt_page, True),
    "drop the records table": (sql("DROP TABLE records"), True),
    "change a record's kind": (sql("UPDATE records SET kind = 'clear' WHERE seq = 5"), True),
    "change a record's round": (sql("UPDATE records SET round = round + 1 WHERE seq = 6"), True),
    "change a record's time": (sql("UPDATE records SET wall_ns = wall_ns + 1000 WHERE seq = 7"), True),
    "change a record's prev": (sql("UPDATE records SET prev = hash WHERE seq = 8"), True),
    "body not JSON": (sql("UPDATE records SET body = 'not json' WHERE seq = 9"), True),
    "copy a signature from another record": (copy_signature, True),
    "strip the signatures": (strip_signatures, True),
    "delete the journal": (remove("journal.sqlite"), True),
    "delete the sealed state file": (remove("journal.sqlite.state"), True),
    "edit the sealed state file": (edit_state, True),
    "replace the table's key": (other_key, True),
    "delete the table's key": (remove("journal.sqlite.key"), False),
    "edit the links table": (edit_links, False),
}


def snapshot(folder: Path) -> bytes:
    path = folder / "journal.sqlite"
    return hashlib.sha256(path.read_bytes()).digest() if path.exists() else b"none"


def test_the_base_journal_is_clean_and_verifies(base: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["journal", "verify", str(base / "journal.sqlite")]) == 0
    out = capsys.readouterr().out
    assert "signatures good" in out and "6 rounds settled and replayed" in out
    journal = Journal(base / "journal.sqlite", readonly=True)
    records = list(journal.records())
    assert records[-1].kind == "stop"  # a clean stop is journaled
    public = find_public_key(base / "journal.sqlite")
    prev = GENESIS
    for record in records:  # the floor's check, record by record
        assert verify_record(record.to_json(), prev, public) is None
        prev = record.hash
    assert canonical_bytes(records[0].to_json()).startswith(b"1|")
    assert oct((base / "journal.sqlite.key").stat().st_mode & 0o777) == "0o600"


def test_there_are_at_least_25_kinds() -> None:
    assert len(TAMPERS) >= 25


@pytest.mark.parametrize("name", list(TAMPERS))
def test_tampering_is_named_by_verify_and_refused_by_run(name: str, base: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for file in NAMES:
        shutil.copy2(base / file, tmp_path / file)
    tamper, verify_sees = TAMPERS[name]
    tamper(tmp_path)
    if verify_sees:
        code = cli.main(["journal", "verify", str(tmp_path / "journal.sqlite")])
        err = capsys.readouterr().err
        assert code == 1, (name, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    before = snapshot(tmp_path)
    daemon = run_briefly(tmp_path)
    table = daemon.table
    assert table is not None
    names = [n for n in table.faults if n.startswith("integrity")]
    assert names, (name, sorted(table.faults))
    fault = table.faults[names[0]]
    assert snapshot(tmp_path) == before  # no game input taken, nothing written
    tower = table.view()["tower"]
    assert tower["red"] != "off" and tower["green"] == "off"  # the latched-fault pattern
    assert names[0] in table.summary()["faults"]  # the console's status names the first bad record
    assert any("paused" in line for line in table.view()["sign"]["lines"])  # players see no internal name
    assert not table.summary()["accepting"]
    if fault.text.startswith("record "):
        assert names[0] == "integrity.record_" + fault.text.split()[1].rstrip(":")
    print(f"{name}: verify and run: {fault.text}")
