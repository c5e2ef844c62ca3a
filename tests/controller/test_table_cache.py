"""The hand tables' cache: the same tables as built, a damaged or foreign file built again, no folder no harm."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np

from controller import table_cache
from controller.cards import Card
from controller.hands import batch, fast


def test_tables_from_the_cache_are_the_tables_built(tmp_path):
    built = fast.build_tables()
    assert table_cache.warm_hand_tables(tmp_path) == {"fast": "built", "batch": "built"}
    tables, source = table_cache.cached("hands-fast", lambda: {}, (fast, sys.modules["controller.hands.values"]),
                                        tmp_path)
    assert source == "cache"
    assert {k: v.tolist() for k, v in tables.items()} == built
    stored, source = table_cache.cached("hands-batch", lambda: {}, (batch, sys.modules["controller.hands.values"]),
                                        tmp_path)
    assert source == "cache"
    for k in (5, 6, 7):
        assert np.array_equal(stored[f"noflush{k}"], batch.build_noflush(k))


def test_a_damaged_file_is_built_again(tmp_path):
    calls = []

    def build():
        calls.append(1)
        return {"a": np.arange(1000, dtype=np.int32)}
    modules = (table_cache,)
    assert table_cache.cached("t", build, modules, tmp_path)[1] == "built"
    assert table_cache.cached("t", build, modules, tmp_path)[1] == "cache"
    (path,) = tmp_path.glob("t-*.npz")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    tables, source = table_cache.cached("t", build, modules, tmp_path)
    assert source == "built" and np.array_equal(tables["a"], np.arange(1000)) and len(calls) == 2
    # tables whose bytes do not match the digest stored beside them
    np.savez(path, _sha256=np.array("0" * 64), a=np.arange(1000, dtype=np.int32))
    assert table_cache.cached("t", build, modules, tmp_path)[1] == "built"
    assert table_cache.cached("t", build, modules, tmp_path)[1] == "cache"


def test_an_unwritable_folder_builds_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    tables, source = table_cache.cached("t", lambda: {"a": np.ones(3)}, (table_cache,), blocker / "cache")
    assert source.startswith("built, not cached") and tables["a"].tolist() == [1, 1, 1]


def test_a_fresh_process_ranks_the_same_with_the_cached_tables(tmp_path):
    rng = random.Random(5)
    deck = [Card(r, s) for r in range(2, 15) for s in "cdhs"]
    hands = [rng.sample(deck, 7) for _ in range(2000)]
    expected = [fast.general_value(h) for h in hands]
    code = ("import sys, json\nfrom pathlib import Path\nfrom controller import table_cache\n"
            "from controller.cards import Card\nfrom controller.hands import fast, batch\n"
            "import numpy as np\n"
            "print(json.dumps(table_cache.warm_hand_tables(Path(sys.argv[1]))))\n"
            "hands = json.loads(sys.stdin.read())\n"
            "cards = [[Card(r, s) for r, s in h] for h in hands]\n"
            "print(json.dumps([fast.high_value(h) for h in cards]))\n"
            "print(json.dumps(batch.rank_batch(np.array([[c.index for c in h] for h in cards])).tolist()))\n")
    import json
    text = json.dumps([[(c.rank, c.suit) for c in h] for h in hands])
    for expected_source in ("built", "cache"):
        done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], input=text, capture_output=True, text=True,
                              check=True)
        source, single, batched = (json.loads(line) for line in done.stdout.splitlines())
        assert source == {"fast": expected_source, "batch": expected_source}
        assert single == expected and batched == expected
