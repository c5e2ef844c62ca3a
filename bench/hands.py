"""Hand-evaluation benchmark: prints one JSON document.

    python bench/hands.py [--single 200000] [--batch 1000000] [--seed 1] [--eval7-turns 9]
                                         [--all-seven] [--base REV]

Measured in one run on the same random seven-card hands:
- our single-hand ``high_value`` (pure Python, Card objects) against treys'
  ``Evaluator.evaluate`` (its own int cards, converted before timing), calls/s,
  best of three interleaved rounds each, and the ratio;
- the same against eval7's ``evaluate`` (Cython; its own cards, made before
  timing), in ``--eval7-turns`` turns with the order swapped every turn, the
  ratio per turn (min, median, max) and best against best; with ``--base REV``
  also that commit's ``high_value`` (its ``controller/hands/fast.py``, read
  with ``git show`` and loaded beside ours, on the same cards), as a third side
  of every turn, and ours against it per turn;
- our batch ``rank_batch`` (numpy) over ``--batch`` hands against phevaluator's
  C ``evaluate_7cards`` called once per hand from Python (the raw extension
  function, and its public ``evaluate_cards`` wrapper), best of three;
- that both rankings agree on every batch hand (same order, same ties);
- with ``--all-seven``: all 133,784,560 seven-card hands through the batch API,
  the category counts, royal flushes, distinct values and the time.
"""

from __future__ import annotations

import argparse
import json
import platform
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

from controller.cards import Card, deck  # noqa: E402
from controller.hands import batch  # noqa: E402
from controller.hands.fast import high_value, ready  # noqa: E402


def _version(package: str) -> str:
    """The installed distribution's version (eval7 has no ``__version__``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def _best_of(rounds: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _orders_agree(ours: np.ndarray, theirs_lower_better: np.ndarray) -> bool:
    """True when sorting by our value sorts theirs (reversed) with the same ties."""
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], -theirs_lower_better[order].astype(np.int64)
    da, db = np.diff(a), np.diff(b)
    return bool(np.all((da > 0) == (db > 0)) and np.all((da == 0) == (db == 0)))


def single(n: int, seed: int) -> dict[str, object]:
    from treys import Card as TreysCard
    from treys import Evaluator

    rng = random.Random(seed)
    cards = deck()
    hands: list[tuple[Card, ...]] = [tuple(rng.sample(cards, 7)) for _ in range(n)]
    treys_hands = [[TreysCard.new(str(c)) for c in h] for h in hands]
    treys_split = [(h[:2], h[2:]) for h in treys_hands]  # split before timing, not during
    evaluator = Evaluator()
    ready()  # fill our lookup tables before timing (treys builds its own in Evaluator())

    def ours() -> None:
        for h in hands:
            high_value(h)

    def treys() -> None:
        ev = evaluator.evaluate
        for hole, board in treys_split:
            ev(hole, board)

    ours_t = treys_t = float("inf")
    for _ in range(3):
        ours_t = min(ours_t, _best_of(1, ours))
        treys_t = min(treys_t, _best_of(1, treys))
    ours_ranks = np.array([high_value(h) for h in hands])
    treys_ranks = np.array([evaluator.evaluate(h[:2], h[2:]) for h in treys_hands])
    return {
        "hands": n,
        "ours_calls_per_s": round(n / ours_t),
        "treys_calls_per_s": round(n / treys_t),
        "ratio": round(treys_t / ours_t, 2),
        "same_order_as_treys": _orders_agree(ours_ranks, treys_ranks),
    }


def base_high_value(rev: str) -> Callable[..., int]:
    """``high_value`` as commit ``rev`` has it: its fast.py, loaded beside this checkout's (same cards, values)."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "show", f"{rev}:controller/hands/fast.py"], cwd=root, check=True,
                            capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "base_fast.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location("base_fast", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    module.ready()
    value: Callable[..., int] = module.high_value
    return value


def _spread(ratios: list[float]) -> list[float]:
    ratios = sorted(ratios)
    return [round(ratios[0], 2), round(ratios[len(ratios) // 2], 2), round(ratios[-1], 2)]


def against_eval7(n: int, seed: int, turns: int, base: str | None = None) -> dict[str, object]:
    """Our ``high_value`` and eval7's ``evaluate`` (Cython) on the same hands, in turns; the ratio per turn.

    With ``base`` (a git revision), that commit's ``high_value`` is a third side of every turn."""
    try:
        import eval7
    except ModuleNotFoundError:
        return {"eval7": "not installed (pip install eval7)"}
    rng = random.Random(seed + 7)
    cards = deck()
    hands: list[tuple[Card, ...]] = [tuple(rng.sample(cards, 7)) for _ in range(n)]
    theirs_hands = [[eval7.Card(str(c)) for c in h] for h in hands]  # eval7's own cards, made before timing
    ready()
    evaluate = eval7.evaluate
    base_value = base_high_value(base) if base else None

    def ours() -> None:
        for h in hands:
            high_value(h)

    def theirs() -> None:
        for h in theirs_hands:
            evaluate(h)

    def based() -> None:
        assert base_value is not None
        for h in hands:
            base_value(h)

    sides: list[tuple[str, Callable[[], None]]] = [("ours", ours), ("eval7", theirs)]
    if base_value is not None:
        sides.append(("base", based))
    seconds: dict[str, list[float]] = {name: [] for name, _ in sides}
    cpu: dict[str, list[float]] = {name: [] for name, _ in sides}  # the process's CPU time: waits for a core left out
    for turn in range(turns):  # in turns, the order rotated or swapped every turn, so that load hits all alike
        order = sides[turn % len(sides):] + sides[:turn % len(sides)]
        if turn % 2:
            order.reverse()
        for name, run in order:
            wall, used = time.perf_counter(), time.process_time()
            run()
            seconds[name].append(time.perf_counter() - wall)
            cpu[name].append(time.process_time() - used)
    ours_s, theirs_s = seconds["ours"], seconds["eval7"]
    ours_values = np.array([high_value(h) for h in hands])
    theirs_values = np.array([evaluate(h) for h in theirs_hands])  # eval7: higher is better
    out: dict[str, object] = {
        "hands": n,
        "turns": turns,
        "eval7_version": _version("eval7"),
        "ours_calls_per_s_best": round(n / min(ours_s)),
        "eval7_calls_per_s_best": round(n / min(theirs_s)),
        "ratio_best_to_best": round(min(theirs_s) / min(ours_s), 2),
        "ratio_per_turn_min_median_max": _spread([t / o for o, t in zip(ours_s, theirs_s)]),
        "cpu_ratio_per_turn_min_median_max": _spread([t / o for o, t in zip(cpu["ours"], cpu["eval7"])]),
        "goal_ratio": 1.0,
        "same_order_as_eval7": _orders_agree(ours_values, -theirs_values),
    }
    if base_value is not None:
        base_s = seconds["base"]
        out["base"] = {
            "revision": base,
            "commit": subprocess.run(["git", "rev-parse", "--short", f"{base}^{{commit}}"], capture_output=True,
                                     text=True, cwd=Path(__file__).resolve().parent.parent).stdout.strip(),
            "calls_per_s_best": round(n / min(base_s)),
            "eval7_to_base_per_turn_min_median_max": _spread([t / b for b, t in zip(base_s, theirs_s)]),
            "ours_to_base_per_turn_min_median_max": _spread([b / o for o, b in zip(ours_s, base_s)]),
            "ours_to_base_cpu_per_turn_min_median_max": _spread([b / o for o, b in zip(cpu["ours"], cpu["base"])]),
            "eval7_to_base_cpu_per_turn_min_median_max": _spread([t / b for b, t in zip(cpu["base"],
                                                                                         cpu["eval7"])]),
            "same_values_as_ours": bool(all(base_value(h) == v for h, v in zip(hands, ours_values.tolist()))),
        }
    return out


def batched(n: int, seed: int) -> dict[str, object]:
    from phevaluator import _pheval, evaluate_cards

    rng = np.random.default_rng(seed)
    hands = np.empty((n, 7), dtype=np.int16)
    for start in range(0, n, 200_000):
        stop = min(n, start + 200_000)
        keys = rng.random((stop - start, 52), dtype=np.float32)
        hands[start:stop] = np.argpartition(keys, 7, axis=1)[:, :7]
    batch.rank_batch(hands[:10])  # build tables before timing
    ours_t = _best_of(3, lambda: batch.rank_batch(hands))
    as_lists = hands.tolist()
    raw = _pheval.evaluate_7cards

    def phe_raw() -> None:
        for h in as_lists:
            raw(*h)

    def phe_public() -> None:
        for h in as_lists:
            evaluate_cards(*h)

    raw_t = _best_of(3, phe_raw)
    public_t = _best_of(1, phe_public)
    ours = batch.rank_batch(hands)
    theirs = np.array([raw(*h) for h in as_lists])
    return {
        "hands": n,
        "ours_hands_per_s": round(n / ours_t),
        "phevaluator_c_calls_per_s": round(n / raw_t),
        "phevaluator_evaluate_cards_calls_per_s": round(n / public_t),
        "ratio_to_phevaluator_c": round(raw_t / ours_t, 2),
        "same_order_as_phevaluator": _orders_agree(ours, theirs),
    }


def all_seven(quiet: bool = False) -> dict[str, object]:
    from controller.progress import Progress

    progress = Progress("all seven-card hands", 133_784_560, "hands", quiet=quiet)
    start = time.perf_counter()
    counts = np.zeros(16, dtype=np.int64)
    seen = np.zeros(1 << 24, dtype=bool)
    total = royal = 0
    for rows in batch.all_hands(7):
        values = batch.rank_batch(rows, presorted=True)
        counts += np.bincount(values >> 20, minlength=16)
        seen[values] = True
        royal += batch.royal_count(values)
        total += len(values)
        progress(total)
    progress.close()
    seconds = time.perf_counter() - start
    from controller.hands.high import CATEGORIES
    return {
        "hands": total,
        "seconds": round(seconds, 1),
        "hands_per_s": round(total / seconds),
        "categories": {name: int(counts[i]) for i, name in enumerate(CATEGORIES[:9])},
        "distinct_values": int(seen.sum()),
        "royal_flush_hands": royal,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-seven", action="store_true")
    parser.add_argument("--eval7-turns", type=int, default=9, help="turns of ours and eval7's single-hand runs")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    parser.add_argument("--base", help="also time this git revision's single-hand high_value in the eval7 turns")
    args = parser.parse_args()
    report: dict[str, object] = {
        "command": "python " + " ".join(sys.argv),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "single_hand_7card": single(args.single, args.seed),
        "single_hand_7card_vs_eval7": against_eval7(args.single, args.seed, args.eval7_turns, args.base),
        "batch_7card": batched(args.batch, args.seed),
    }
    if args.all_seven:
        report["all_seven_card_hands"] = all_seven(args.quiet)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
