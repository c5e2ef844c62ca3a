"""The calibrated dice reader's and the roulette reader's speed, this checkout against an older commit, in turns.

On a shared machine the load changes from minute to minute, so one figure from each side says
little.  This extracts ``--base`` (a git commit) to a temporary folder and times the two code
trees in turn, ``--rounds`` times each, in fresh processes: the speed frames of bench/vision.py
(20 synthetic 640x480 throws, seeds 300000-300019, one OpenCV thread), read by the reader with
the face model as the speed pass has it (calibration without per-colour sizes) and as a table
calibrated with per-colour sizes reads, and the roulette reader on a rendered spin's frames (at least
twice ``--frames``, calibrated wheel).  Prints one JSON document (wall ms a frame, and CPU ms of
the process, which the other sessions' load disturbs less; median and all rounds)::

    python bench/vision_speed_ab.py --base main --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
sys.path.append(sys.argv[3])  # this checkout's bench/, after the tree under test
from drivers.vision.dice import DiceReader
from drivers.vision.synth_dice import calibration
from speed_frames import sized_calibration, speed_images, table_options
frames = int(sys.argv[2])
images = speed_images()
plain = DiceReader(calibration(), table_options())
sized = DiceReader(sized_calibration(), table_options(), face_model=plain.face_model or False)
out = {}
for key, reader in (("speed_pass", plain), ("with_die_sizes", sized)):
    reader.read(images[0])
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(frames):
        reader.read(images[i % len(images)])
    out[key] = ((time.perf_counter() - wall) * 1000 / frames, (time.process_time() - cpu) * 1000 / frames)
from drivers.vision import synth_roulette as S
from drivers.vision.roulette import RouletteReader
spin = list(S.frames(300000, "ok", 0.3))  # the one wheel both trees draw alike
rr = RouletteReader(S.calibration())
wall, cpu, n = time.perf_counter(), time.process_time(), 0
while n < 2 * frames:
    for i, f in enumerate(spin):
        rr.update(i, f)
        n += 1
    rr.reset()
out["roulette"] = ((time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n)
print(json.dumps(out))
"""


def run_tree(tree: Path, frames: int) -> dict[str, list[float]]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(frames), str(ROOT / "bench")],
                          capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="git commit to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=int, default=150, help="frames per configuration per round")
    args = parser.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "drivers"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        runs: dict[str, list[dict]] = {"base": [], "this": []}
        for _ in range(args.rounds):
            for side, tree in (("base", base), ("this", ROOT)):
                runs[side].append(run_tree(tree, args.frames))
    report: dict = {"base_commit": args.base, "rounds": args.rounds, "frames": args.frames, "threads": 1}
    for side, rows in runs.items():  # the figures go under "base" and "this": the commit's name stays in base_commit
        report[side] = {}
        for key in rows[0]:
            wall = [r[key][0] for r in rows]
            cpu = [r[key][1] for r in rows]
            report[side][key] = {"wall_ms_median": round(statistics.median(wall), 2),
                                 "cpu_ms_median": round(statistics.median(cpu), 2),
                                 "wall_ms": [round(v, 2) for v in wall]}
    report["this_over_base_wall"] = {
        k: round(report["this"][k]["wall_ms_median"] / report["base"][k]["wall_ms_median"], 3) for k in report["this"]}
    report["seconds"] = round(time.time() - started, 1)
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
