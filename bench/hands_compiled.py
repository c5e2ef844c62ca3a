"""The compiled seven-card ranking against phevaluator's C evaluator called in a C loop, in one run; prints JSON.

    python bench/hands_compiled.py [--hands 2000000] [--rounds 3] [--phevaluator-sdist FILE] [--no-c]

Ours: ``controller.hands.compiled`` (numba) on N random seven-card hands
(uint8 card indices, seed 1), and all 133 784 560 seven-card hands in nested
loops. Theirs: phevaluator's ``evaluate_7cards`` from its C sources, built
here at bench time with gcc (``-O3 -march=native``) against a tiny driver that
reads the same hands from a file and times its own loop, and walks all hands in
the same nested loops. The sources come from phevaluator's source
distribution (``--phevaluator-sdist``, else ``pip download --no-binary``); where
gcc or the sources are missing the figure says why and only ours is timed. The
two sides run in turns, ``--rounds`` times; the ratios are per round. Every
value of ours is checked against ``batch.rank_batch`` and the category counts
of all hands against the known ones. Goal: at least 1.5 times theirs, both.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.hands import batch, compiled  # noqa: E402

COUNTS = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584, 0]
DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <phevaluator/phevaluator.h>
static double now(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char** argv){
  long sum = 0, n = 0; double t;
  if (argc > 2 && strcmp(argv[1], "batch") == 0) {
    FILE* f = fopen(argv[2], "rb"); if (!f) return 1;
    fseek(f, 0, SEEK_END); n = ftell(f) / 7; fseek(f, 0, SEEK_SET);
    unsigned char* h = malloc(n * 7); if (fread(h, 7, n, f) != (size_t)n) return 1; fclose(f);
    t = now();
    for (long i = 0; i < n; i++) { unsigned char* c = h + 7 * i; sum += evaluate_7cards(c[0],c[1],c[2],c[3],c[4],c[5],c[6]); }
  } else {
    t = now();
    for (int a=0;a<46;a++) for (int b=a+1;b<47;b++) for (int c=b+1;c<48;c++) for (int d=c+1;d<49;d++)
    for (int e=d+1;e<50;e++) for (int f=e+1;f<51;f++) for (int g=f+1;g<52;g++) { sum += evaluate_7cards(a,b,c,d,e,f,g); n++; }
  }
  printf("{\"hands\": %ld, \"seconds\": %.6f, \"checksum\": %ld}\n", n, now() - t, sum); return 0;
}
"""
SOURCES = ("evaluator7.c", "hashtable7.c", "dptables.c", "hash.c", "hashtable.c", "tables_bitwise.c")


def build_c(folder: Path, sdist: Path | None) -> tuple[Path | None, str]:
    """(the driver's path, how it was built) or (None, why not)."""
    if shutil.which("gcc") is None:
        return None, "gcc not found"
    if sdist is None:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "phevaluator", "--no-binary", ":all:",
                               "--no-deps", "-d", str(folder)], capture_output=True, text=True)
        found = sorted(folder.glob("phevaluator-*.tar.gz"))
        if done.returncode != 0 or not found:
            return None, "phevaluator's source distribution could not be had: " + done.stderr.strip()[-200:]
        sdist = found[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(folder, filter="data")
    csrc = next(folder.glob("phevaluator-*/_pheval_csrc"), None)
    if csrc is None:
        return None, f"{sdist.name} has no _pheval_csrc"
    (folder / "driver.c").write_text(DRIVER)
    binary = folder / "phe7"
    done = subprocess.run(["gcc", "-O3", "-march=native", "-I", str(csrc / "include"), "-I", str(csrc / "src"),
                           str(folder / "driver.c"), *(str(csrc / "src" / s) for s in SOURCES), "-o", str(binary)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, "gcc failed: " + done.stderr.strip()[-300:]
    version = sdist.name.removeprefix("phevaluator-").removesuffix(".tar.gz")
    return binary, f"phevaluator {version} C sources, gcc -O3 -march=native, built at bench time"


def run_c(binary: Path, *args: str) -> float:
    done = subprocess.run([str(binary), *args], capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    return figures["hands"] / figures["seconds"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--phevaluator-sdist", type=Path)
    parser.add_argument("--no-c", action="store_true", help="time ours only")
    parser.add_argument("--no-all", action="store_true", help="skip the walk over all 133 784 560 hands")
    args = parser.parse_args()
    t = time.perf_counter()
    compiled.warm()
    out: dict[str, object] = {"warm_up_s": round(time.perf_counter() - t, 2)}
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.uint8)
    ours = compiled.rank7(hands)
    out["same_values_as_rank_batch"] = bool(np.array_equal(ours, batch.rank_batch(hands.astype(np.int16))))
    with tempfile.TemporaryDirectory(prefix="bench-phevaluator-") as tmp:
        folder = Path(tmp)
        binary, how = (None, "not asked (--no-c)") if args.no_c else build_c(folder, args.phevaluator_sdist)
        out["phevaluator_c"] = how
        if binary is not None:
            hands.tofile(folder / "hands.bin")
        rounds: list[dict[str, float]] = []
        for _ in range(args.rounds):
            row: dict[str, float] = {}
            t = time.perf_counter()
            compiled.rank7(hands)
            row["ours_batch_mhands_s"] = args.hands / (time.perf_counter() - t) / 1e6
            if binary is not None:
                row["c_batch_mhands_s"] = run_c(binary, "batch", str(folder / "hands.bin")) / 1e6
            if not args.no_all:
                t = time.perf_counter()
                counts = compiled.all_seven_counts()
                row["ours_all_s"] = time.perf_counter() - t
                out["all_counts_right"] = counts.tolist() == COUNTS
                if binary is not None:
                    row["c_all_s"] = 133_784_560 / run_c(binary, "all")
            if binary is not None:
                row["batch_ratio"] = row["ours_batch_mhands_s"] / row["c_batch_mhands_s"]
                if not args.no_all:
                    row["all_ratio"] = row["c_all_s"] / row["ours_all_s"]
            rounds.append({k: round(v, 3) for k, v in row.items()})
    out["rounds"] = rounds
    for key in rounds[0] if rounds else ():
        values = [r[key] for r in rounds]
        out[f"{key}_min_max"] = [min(values), max(values)]
    out["goal_ratio"] = 1.5
    out["hands"] = args.hands
    out["python"] = sys.version.split()[0]
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
