"""Record the roulette reader's answers frame by frame on synthetic spins, or compare two records.

A speed change to the roulette reader must not change a single answer. ``record`` reads, with the
code under ``--code`` (default: this checkout), ``--spins`` synthetic spins (every kind and
strength, as bench/vision.py deals them, from ``--seed``) and writes, per frame, what the reader
measured (the rotor's angle, the ball's angle and radius, the occluded arc) and, per spin, its
answers; it also times the reader's frames (``ms_per_frame``, rendering excluded). ``compare``
counts the frames and spins two records share and lists those that differ::

    python bench/roulette_identity.py record --code /tmp/base --out /tmp/before.json
    python bench/roulette_identity.py record --out /tmp/after.json
    python bench/roulette_identity.py compare /tmp/before.json /tmp/after.json

Prints one JSON document (the compare exits 1 when anything differs or is missing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def record(spins: int, base: int) -> dict[str, Any]:
    import cv2

    from drivers.vision import synth_roulette as S
    from drivers.vision.roulette import RouletteReader
    cv2.setNumThreads(1)
    frames_out: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    seconds = 0.0
    frames = 0
    for i in range(spins):
        kind = S.KINDS[i % len(S.KINDS)]
        strength = round((i // len(S.KINDS)) % 11 / 10, 1)
        seed = base + i
        reader = RouletteReader(S.calibration())
        said = []
        for index, frame in enumerate(S.frames(seed, kind, strength)):
            t = time.perf_counter()
            rotor, ball = reader.measure(frame)
            arc = reader.occluded_arc()
            seconds += time.perf_counter() - t
            frames += 1
            frames_out[f"{seed}/{index}"] = [rotor, list(ball) if ball else None, arc]
        reader = RouletteReader(S.calibration())
        for index, frame in enumerate(S.frames(seed, kind, strength)):
            t = time.perf_counter()
            answer = reader.update(index, frame)
            seconds += time.perf_counter() - t
            if answer is not None:
                said.append(answer.as_json())
        answers[f"{seed}/{kind}/{strength}"] = said
    return {"frames": frames_out, "spins": answers, "ms_per_frame": round(seconds * 1000 / max(1, 2 * frames), 3)}


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in ("frames", "spins"):
        a, b = before[part], after[part]
        same = [k for k in a if k in b and a[k] == b[k]]
        out[part] = {"compared": len(a), "identical": len(same),
                     "differ": sorted(k for k in a if k in b and a[k] != b[k])[:20],
                     "missing": sorted(set(a) ^ set(b))[:20]}
    out["ms_per_frame"] = {"before": before.get("ms_per_frame"), "after": after.get("ms_per_frame")}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--code", type=Path, default=ROOT, help="checkout whose reader to run")
    rec.add_argument("--spins", type=int, default=30)
    rec.add_argument("--seed", type=int, default=200_000)
    rec.add_argument("--out", type=Path, required=True)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.what == "record":
        sys.path.insert(0, str(args.code.resolve()))
        document = record(args.spins, args.seed)
        args.out.write_text(json.dumps(document))
        import drivers.vision.roulette as used
        print(json.dumps({"code": str(Path(used.__file__).parents[2]), "frames": len(document["frames"]), "spins": len(document["spins"]),
                          "ms_per_frame": document["ms_per_frame"]}, indent=2))
        return 0
    report = compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()))
    print(json.dumps(report, indent=2))
    ok = all(report[p]["identical"] == report[p]["compared"] and not report[p]["missing"] for p in ("frames", "spins"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
