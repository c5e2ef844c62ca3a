"""Cocked dice only: how many synthetic cocked throws the dice reader reads as flat (confident wrong).

A 1-in-1,000 leak needs thousands of cocked throws to be seen; bench/vision.py runs one kind in nine.
Throw i is seed START + i, strength (i % 11) / 10, read as bench/vision.py reads it
(drivers/vision/scoring.read_synthetic_throw).  Tune on seeds 300000-399999 only (docs/performance.md,
"Cocked dice and wrong voids").  Prints JSON: the verdict counts, by strength, and every wrong seed.

    python bench/cocked.py --start 300000 --count 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead

from drivers.vision.scoring import judge_dice, read_synthetic_throw  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=300000, help="first seed (tuning seeds: 300000-399999)")
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args(argv)
    import cv2

    from drivers.vision import facemodel
    cv2.setNumThreads(1)
    model, problem = facemodel.load()
    if model is None:
        print(problem, file=sys.stderr)
        return 2
    verdicts: Counter[str] = Counter()
    by_strength: dict[float, Counter[str]] = {}
    wrong = []
    t0 = time.time()
    for i in range(args.count):
        seed, strength = args.start + i, round(i % 11 / 10, 1)
        truth, answer = read_synthetic_throw(seed, "cocked", strength, model)
        v = judge_dice(truth, answer)
        verdicts[v] += 1
        by_strength.setdefault(strength, Counter())[v] += 1
        if v == "wrong":
            tilted = [d for d in truth["dice"] if not d["flat"]]
            wrong.append({"seed": seed, "strength": strength, "answer": answer["status"],
                          "die": [(d["color"], d["tilt"]) for d in tilted]})
    print(json.dumps({"start": args.start, "count": args.count, "seconds": round(time.time() - t0, 1),
                      "verdicts": {k: verdicts[k] for k in ("right", "void_right", "unsure", "wrong")},
                      "by_strength": {str(s): dict(c) for s, c in sorted(by_strength.items())},
                      "wrong": wrong}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
