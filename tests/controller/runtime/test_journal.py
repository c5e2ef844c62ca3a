"""The journal: hash chain, verify finds edits, write-ahead on a read-only journal, export replays through settle."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from controller.cards import parse_card
from controller.events import Bet, CardOut, CloseBets
from controller.runtime.audit import export_round, journal_settlements, verify
from controller.runtime.journal import Journal
from controller.runtime.table import Table
from tests.controller.runtime.helpers import open_table, progressive_config, punto_config
from tests.tablectl import run_tablectl, settle_json

COUP = ["9h", "5s", "3c", "Kd"]  # Punto 9+3 = 2... tableau decides; any four-plus cards settle a coup


def play_coups(table: Table, shoe: list[str], coups: int) -> None:
    cards = iter(shoe)
    for n in range(coups):
        table.submit("bets", Bet(1, "banco", 1000 + 100 * n))
        table.submit("bets", Bet(2, "punto", 500))
        table.submit("bets", Bet(3, "tie", 500))
        table.submit("bets", Bet(2, "dragon", 500))  # refused by the game, journaled as a rejection
        table.submit("buttons", CloseBets())
        number = table.round_no
        while table.round_no == number:
            assert table.submit("shoe", CardOut(parse_card(next(cards)))) == "accepted"


SHOE = "9h 5s 3c Kd 2h 2d 7s 4c Ac Qs 6h 6d 8c 3d Td Js 5h 4h 9s 2c Kc 7d 8s Ah 3h 6s 5c Jd 2s 9c".split() * 4


def test_records_chain_and_verify_clean(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path))
    play_coups(table, SHOE, 4)
    report = verify(table.journal)
    assert report["ok"], report["problems"]
    assert report["rounds_settled"] == 4 and report["rounds_opened"] == 5
    prev = "0" * 64
    for record in table.journal.records():
        assert record.prev == prev
        prev = record.hash
    kinds = [r.kind for r in table.journal.records()]
    assert kinds[:2] == ["start", "round_open"] and "reject" in kinds


def test_verify_finds_an_edited_record_and_a_deleted_one(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path))
    play_coups(table, SHOE, 2)
    table.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE records SET body = replace(body, '1000', '9000') WHERE seq = 3")
    db.commit()
    problems = verify(Journal(tmp_path / "journal.sqlite", readonly=True))["problems"]
    assert any("record 3" in p and "hash" in p for p in problems)
    db.execute("DELETE FROM records WHERE seq = 5")
    db.commit()
    problems = verify(Journal(tmp_path / "journal.sqlite", readonly=True))["problems"]
    assert any("missing" in p for p in problems)


def test_verify_finds_a_meter_that_disagrees_with_its_records(tmp_path: Path) -> None:
    table = open_table(progressive_config(tmp_path))
    table.submit("bets", Bet(1, "progressive", 500))
    table.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE meters SET state = json_set(state, '$.value', 999999)")
    db.commit()
    report = verify(Journal(tmp_path / "journal.sqlite", readonly=True))
    assert not report["ok"] and any("meter main" in p for p in report["problems"])


def test_a_read_only_journal_stops_input_and_nothing_unjournaled_is_shown(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path))
    shown: list[int] = []
    table.listeners.append(lambda t, records: shown.extend(r.seq for r in records))
    table.submit("bets", Bet(1, "banco", 1000))
    table.submit("buttons", CloseBets())
    before = (table.round.waiting_for(), table.journal.last_seq, table.view())
    table.journal.set_query_only(True)  # the disk turns read-only
    assert table.submit("shoe", CardOut(parse_card("9h"))) == "dropped"
    assert "journal" in table.faults and not table.summary()["accepting"]
    assert table.round.waiting_for() == before[0]  # the card was not taken: the round is as it was
    assert table.view()["tower"]["pattern"] == "latched_fault" and table.view()["tower"]["red"] == "flash" \
        and table.view()["tower"]["buzzer"] == "on"
    assert table.submit("shoe", CardOut(parse_card("5s"))) == "dropped"
    assert table.submit("bets", Bet(2, "banco", 1000)) == "dropped"
    table.journal.set_query_only(False)
    assert table.submit("shoe", CardOut(parse_card("5s"))) == "dropped"  # latched until a restart
    assert max(shown) == before[1]
    journaled = {r.seq for r in Journal(tmp_path / "journal.sqlite", readonly=True).records()}
    assert set(shown) <= journaled
    table.journal.close()
    again = Table.open(punto_config(tmp_path))  # the restart on a writable disk resumes the round
    assert "journal" not in again.faults
    assert again.submit("shoe", CardOut(parse_card("9h"))) == "accepted"


def test_export_replays_through_settle_to_the_same_settlements(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path, "se"))
    # SE: chip unit 10 kr; ties on 0-5 or 9 stand off and the stake carries into the next coup
    shoe = ("Kh Qs 9c 9d " + "Kh Qs 2c 2d 5h 4s 9c 8d Ac 2h 3d 5c 7s 7d 4h Jc 6s 3c 8h 9d " * 6).split()  # 9-9: stand-off
    cards = iter(shoe)
    for n in range(6):
        table.submit("bets", Bet(1, "banco", 2000, "anna"))
        table.submit("bets", Bet(2, "punto", 3000, "bo"))
        table.submit("buttons", CloseBets())
        number = table.round_no
        while table.round_no == number:
            table.submit("shoe", CardOut(parse_card(next(cards))))
    table.journal.close()
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    for number in range(1, 7):
        path = tmp_path / f"round{number}.json"
        path.write_text(json.dumps(export_round(journal, number)))
        via_cli = tmp_path / f"cli{number}.json"
        done = run_tablectl("journal", "export", "--round", str(number), str(tmp_path / "journal.sqlite"), "-o", str(via_cli))
        assert done.returncode == 0, done.stderr
        assert json.loads(via_cli.read_text()) == json.loads(path.read_text())
        settled = settle_json(via_cli)["rounds"][0]
        assert settled["complete"]
        assert settled["settlements"] == journal_settlements(journal, number)
    carried = [r for r in journal.records(kinds=("round_open",)) if r.body["carried"]]
    assert carried, "the shoe was chosen to give a stand-off, so a round opens with a carried stake"


def test_journal_cli_verify_tail_and_errors(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path))
    play_coups(table, SHOE, 1)
    table.journal.close()
    path = str(tmp_path / "journal.sqlite")
    done = run_tablectl("journal", "verify", path)
    assert done.returncode == 0 and "chain intact" in done.stdout
    done = run_tablectl("journal", "tail", path, "-n", "3")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3
    done = run_tablectl("journal", "export", "--round", "99", path)
    assert done.returncode == 2 and "round 99 is not in this journal" in done.stderr
    done = run_tablectl("journal", "verify", str(tmp_path / "none.sqlite"))
    assert done.returncode == 2 and "no journal here" in done.stderr


def test_a_checkpoint_lets_the_next_commits_reuse_the_wal_from_its_start(tmp_path: Path) -> None:
    table = Table.open(punto_config(tmp_path))
    journal, wal = table.journal, Path(str(table.journal.path) + "-wal")
    play_coups(table, SHOE, 3)
    assert journal.checkpoint() == 0  # every committed frame copied into the file
    size = wal.stat().st_size
    play_coups(table, SHOE, 3)  # as many commits again: written over the WAL's start, the file no longer
    assert wal.stat().st_size <= size
    assert journal.checkpoint() == 0
    seq, head = journal.last_seq, journal.last_hash
    report = verify(journal)
    assert report["ok"], report["problems"]
    journal.close()
    again = Journal(journal.path, readonly=True)  # nothing lost: every commit was already in the WAL
    assert (again.last_seq, again.last_hash) == (seq, head)
    assert [r.seq for r in again.records()] == list(range(1, seq + 1))
    assert again.checkpoint() is None  # a reader does not write
    again.close()


def test_a_checkpoint_on_a_closed_or_broken_journal_does_nothing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    journal.append([("start", 0, {"pid": 1})])
    journal.close()
    assert journal.checkpoint() is None
    broken = Journal(tmp_path / "k.sqlite")
    broken.broken = "k.sqlite: cannot commit: disk I/O error"
    assert broken.checkpoint() is None
    broken.close()
