"""Instructions the calibrated dice reader executes a frame, counted by valgrind (callgrind).

On a shared machine wall and CPU times swing by tens of per cent from minute to minute; an
instruction count does not.  This reads the speed frames of bench/vision.py (seeds 300000-300019,
one OpenCV thread) with the code under ``--code`` (default: this checkout) in two runs under
``valgrind --tool=callgrind``, one that reads nothing after warming up and one that reads
``--frames`` frames, and prints the difference over the frames as JSON.  Valgrind hides AVX-512 from
OpenCV and numpy, so this counts their AVX2 paths: a steady guide for comparing two trees, not a
timing (docs/performance.md, "Dice reader speed, second pass")::

    python bench/vision_instructions.py --reader sized
    python bench/vision_instructions.py --code /tmp/base --reader plain

Needs valgrind on the PATH; takes a minute or two (the two runs go in parallel).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
sys.path.append(sys.argv[4])  # this checkout's bench/, after the tree under test
from drivers.vision.dice import DiceReader
from drivers.vision.synth_dice import calibration
from speed_frames import sized_calibration, speed_images, table_options
frames, which = int(sys.argv[2]), sys.argv[3]
images = speed_images()
reader = DiceReader(sized_calibration() if which == "sized" else calibration(), table_options())
reader.read(images[0])
for i in range(frames):
    reader.read(images[i % len(images)])
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose drivers/vision is read")
    parser.add_argument("--reader", choices=("sized", "plain"), default="sized",
                        help="sized: calibration with per-colour die sizes; plain: the speed pass's reader")
    parser.add_argument("--frames", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for n in (0, args.frames):
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.{n}.out", sys.executable, "-c",
                   CHILD, str(args.code.resolve()), str(n), args.reader, str(ROOT / "bench")]
            runs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                         env={**os.environ, "PYTHONHASHSEED": "0"}))
        counts = []
        for proc in runs:
            _, err = proc.communicate()
            found = re.search(r"Collected : (\d+)", err)
            if proc.returncode != 0 or found is None:
                print(f"valgrind run failed (exit {proc.returncode}): {err.strip().splitlines()[-1:]}", file=sys.stderr)
                return 2
            counts.append(int(found.group(1)))
    per_frame = (counts[1] - counts[0]) / args.frames
    json.dump({"code": str(args.code.resolve()), "reader": args.reader, "frames": args.frames,
               "instructions_per_frame": round(per_frame), "millions_per_frame": round(per_frame / 1e6, 2)},
              sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
