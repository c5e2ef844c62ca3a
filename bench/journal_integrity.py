"""Benchmark of the journal's signatures and of the start-up check; prints one JSON document.

- ``sign_us`` / ``verify_us``: one Ed25519 signature and one check (CPU and wall clock), over 500 calls;
- ``state_write_ms``: the sealed state file rewritten without fsync (CPU and wall clock);
- ``commit_ms_signed_sealed`` / ``commit_ms_plain``: one single-record committed batch, signed with the
  state file following synchronously (``Table.open``'s journal), against the plain journal, over 200 each;
- ``check_records_per_s``: ``integrity.check_rows`` (hash, link, signature, JSON body) over a signed journal
  of ``--records`` records, wall clock and CPU.

Run: ``.venv/bin/python bench/journal_integrity.py [--records 20000] [--folder /tmp/jbench]`` (a new folder on
the machine's disk, not tmpfs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.runtime.integrity import TableKey, check_rows, sealed_journal  # noqa: E402
from controller.runtime.journal import GENESIS, Journal  # noqa: E402
from controller.runtime.statefile import SealedState  # noqa: E402

BODY = {"source": "shoe", "event": {"type": "card", "card": "Ah"},
        "effects": [{"prompt": "Card 2 to Banco", "expects": ["card"]}], "complete": False}


def timed(job, count: int) -> tuple[float, float]:
    """(wall, cpu) seconds a call."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        job()
    return (time.perf_counter() - wall) / count, (time.process_time() - cpu) / count


def main(records: int, folder: Path) -> dict[str, object]:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    key = TableKey.create(folder / "k.key")
    signature = key.sign_record("a" * 64)
    sign = timed(lambda: key.sign_record("a" * 64), 500)
    verify = timed(lambda: _check(key, signature), 500)
    state = SealedState(folder / "s.state", key.sign_state, key.check_state)
    state.data = {"table": "bench", "public_key": key.public_hex, "head": {"seq": 1, "hash": "a" * 64},
                  "verified": {"seq": 1, "hash": "a" * 64}}
    state_write = timed(lambda: state.write(flush=False), 300)
    path = folder / "journal.sqlite"
    journal = sealed_journal(path, "bench")
    for _ in range(records // 100):
        journal.append([("event", 1, BODY)] * 100)
    signed = timed(lambda: journal.append([("event", 1, BODY)]), 200)
    journal.close()
    plain_journal = Journal(folder / "plain.sqlite")
    plain = timed(lambda: plain_journal.append([("event", 1, BODY)]), 200)
    plain_journal.close()
    reader = Journal(path, readonly=True)
    wall, cpu = time.perf_counter(), time.process_time()
    result = check_rows(reader.signed_rows(), 0, GENESIS, TableKey.load(TableKey.where(path)).public)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert result.problem is None, result.problem
    return {"records": result.checked,
            "sign_us": {"wall": round(sign[0] * 1e6, 1), "cpu": round(sign[1] * 1e6, 1)},
            "verify_us": {"wall": round(verify[0] * 1e6, 1), "cpu": round(verify[1] * 1e6, 1)},
            "state_write_ms": {"wall": round(state_write[0] * 1e3, 3), "cpu": round(state_write[1] * 1e3, 3)},
            "commit_ms_signed_sealed": round(signed[0] * 1e3, 2), "commit_ms_plain": round(plain[0] * 1e3, 2),
            "check_records_per_s": {"wall": round(result.checked / wall), "cpu": round(result.checked / cpu)}}


def _check(key: TableKey, signature: str) -> None:
    key.public.verify(bytes.fromhex(signature), b"tablectl journal record v1\n" + b"a" * 64)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/jbench"))
    args = parser.parse_args()
    print(json.dumps(main(args.records, args.folder), indent=2))
