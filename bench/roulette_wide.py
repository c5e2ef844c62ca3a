"""The roulette reader on spins of synth_wheels: designs, lights, tilt, hands, deflectors, glare, blur.

Spin i of a run has seed ``--seed + i``, condition ``CONDITIONS[i % 6]`` and outcome
``OUTCOMES[(i // 6) % 10]`` (ok six times in ten, void for the direction or too few turns four times):
a fixed mix.  Prints one JSON document: right (``ok`` with the true number, or ``void`` for a void spin),
unsure and confident wrong, in all, per condition, outcome and wheel design; the confidence of each
answer (in bands) and every ``unsure`` reason, counted::

    python bench/roulette_wide.py --spins 240 --seed 4000000 --jobs 2 --out var/r2.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))


def score(i: int, base: int) -> dict:
    from drivers.vision import synth_wheels as W
    from drivers.vision.roulette import RouletteReader, read_spins
    from drivers.vision.scoring import judge_spin
    condition, outcome, seed = W.condition_of(i), W.outcome_of(i), base + i
    truth = W.truth(seed, condition, outcome)
    spins = read_spins(enumerate(W.frames(seed, condition, outcome)),
                       RouletteReader(W.calibration(seed, condition)))
    answer = spins[0] if spins else None
    verdict = judge_spin(truth, answer.as_json() if answer else None)
    return {"seed": seed, "condition": condition, "outcome": outcome, "family": truth["family"],
            "truth": truth["status"], "number": truth["number"], "verdict": verdict,
            "status": answer.status if answer else None, "answer": answer.number if answer else None,
            "confidence": answer.confidence if answer else None, "reason": answer.reason if answer else "",
            "answers": len(spins)}


def band(c: float | None) -> str:
    if c is None:
        return "none"
    for lo in (0.9, 0.7, 0.5, 0.3):
        if c >= lo:
            return f">={lo}"
    return "<0.3"


def tally(rows: list[dict]) -> dict:
    c = Counter(r["verdict"] for r in rows)
    n = len(rows) or 1
    right = c["right"] + c["void_right"]
    return {"spins": len(rows), "right": right, "share_right": round(right / n, 4), "unsure": c["unsure"],
            "confident_wrong": c["wrong"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="one JSON line per spin")
    args = parser.parse_args()
    started = time.time()
    from functools import partial
    if args.jobs > 1:
        import multiprocessing

        from drivers.vision.scoring import worker_init
        with multiprocessing.get_context("spawn").Pool(args.jobs, initializer=worker_init) as pool:
            rows = list(pool.imap(partial(score, base=args.seed), range(args.spins), chunksize=2))
    else:
        import cv2
        cv2.setNumThreads(1)
        rows = [score(i, args.seed) for i in range(args.spins)]
    report: dict = {"seeds": [args.seed, args.seed + args.spins - 1], "all": tally(rows)}
    numbers = [r for r in rows if r["truth"] == "ok"]
    report["numbers"] = tally(numbers)
    report["voids"] = tally([r for r in rows if r["truth"] == "void"])
    for key in ("condition", "outcome", "family"):
        groups: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            groups[r[key]].append(r)
        report[f"by_{key}"] = {k: tally(v) for k, v in sorted(groups.items())}
    conf: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        if r["status"] in ("ok", "void"):
            conf[f"{r['status']} {band(r['confidence'])}"][r["verdict"]] += 1
    report["answers_by_confidence"] = {k: dict(v) for k, v in sorted(conf.items())}
    report["unsure_reasons"] = dict(Counter(r["reason"].split(":")[0] for r in rows
                                            if r["status"] in ("unsure", None)).most_common())
    report["wrong"] = [r for r in rows if r["verdict"] == "wrong"]
    report["seconds"] = round(time.time() - started, 1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
