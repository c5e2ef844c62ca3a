"""Vision benchmark: synthetic dice throws and roulette spins, the real dice photos, speed, latency, memory.

Prints one JSON document.  Counts are flags (the full run, 10,000 throws and
1,000 spins, takes a long time on a small shared machine):

    python bench/vision.py --dice 10000 --dice-seed 500000 --spins 1000 --spin-seed 600000 --no-photos --jobs 2
    (the held-out run docs/performance.md records: about 34 minutes on the shared 2-core machine)
    python bench/vision.py --dice 2000 --dice-seed 500000 --spins 0 --no-face-model   # pip count alone

Distortion strength runs evenly over 0..1 across the synthetic scenes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]  # bench/serial.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # would shadow pyserial: the checkout instead
sys.path.append(str(ROOT / "bench"))  # speed_frames, also when this file is loaded as a module


# The blind label audit of the photos' test half (tools/vision_model/label_audit.py; its README).
LABEL_AUDIT = ROOT / "bench" / "data" / "photo_label_audit"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_scenes(fn, count: int, base: int, jobs: int) -> list[dict]:
    """fn(i, base) for i in 0..count-1, in order; over ``jobs`` processes when jobs > 1.

    Every scene is seeded by its own index, so the records (and the figures) do not depend on jobs.
    """
    from functools import partial

    from drivers.vision.scoring import worker_init
    if jobs <= 1 or count < 2:
        return [fn(i, base) for i in range(count)]
    import multiprocessing
    # spawn, not fork: a forked child of a process whose OpenCV thread pool is running can hang.
    with multiprocessing.get_context("spawn").Pool(jobs, initializer=worker_init) as pool:
        return list(pool.imap(partial(fn, base=base), range(count), chunksize=4))


def _tally(records: list[dict]) -> dict:
    from drivers.vision.scoring import summarise
    by_kind: dict[str, list[str]] = defaultdict(list)
    by_strength: dict[str, list[str]] = defaultdict(list)
    for r in records:
        by_kind[r["kind"]].append(r["verdict"])
        by_strength[str(r["strength"])].append(r["verdict"])
    return {"all": summarise([r["verdict"] for r in records]),
            "by_kind": {k: summarise(v) for k, v in by_kind.items()},
            "by_strength": {k: summarise(v) for k, v in sorted(by_strength.items())},
            "wrong_examples": [r["example"] for r in records if "example" in r][:40]}


def bench_dice(count: int, base: int = 100_000, jobs: int = 1, face_model: bool = True) -> dict:
    from functools import partial

    from drivers.vision.scoring import score_throw
    return _tally(run_scenes(partial(score_throw, face_model=face_model), count, base, jobs))


def bench_styled_dice(count: int, base: int, jobs: int = 1) -> dict:
    """Styled throws (synth_styles): by kind, by camera tilt (the "by_strength" key), by cloth and by dice."""
    from drivers.vision.scoring import score_styled_throw, summarise
    records = run_scenes(score_styled_throw, count, base, jobs)
    out = _tally(records)
    out["by_tilt"] = out.pop("by_strength")
    for key in ("cloth", "dice"):
        groups: dict[str, list[str]] = defaultdict(list)
        for r in records:
            groups[r[key]].append(r["verdict"])
        out[f"by_{key}"] = {k: summarise(v) for k, v in sorted(groups.items())}
    return out


def bench_spins(count: int, base: int = 200_000, jobs: int = 1, varied: bool = False) -> dict:
    from functools import partial

    from drivers.vision.scoring import score_spin
    records = run_scenes(partial(score_spin, varied=varied), count, base, jobs)
    out = _tally(records)
    reasons = Counter(r["reason"].split(":")[0] for r in records if r.get("reason"))
    out["unsure_reasons_where_truth_is_a_result"] = dict(reasons.most_common(6))
    timed = sorted((r for r in records if "latency" in r), key=lambda r: r["latency"])
    lat = [r["latency"] for r in timed]
    wrong = out.pop("wrong_examples")
    out["rest_to_result_ms_at_30fps"] = {
        "median": round(lat[len(lat) // 2] * 1000 / 30, 1) if lat else None,
        "max": round(lat[-1] * 1000 / 30, 1) if lat else None,
        "slowest": [{"seed": r["seed"], "kind": r["kind"], "strength": r["strength"],
                     "ms": round(r["latency"] * 1000 / 30, 1)} for r in timed[-3:][::-1]]}
    out["wrong_examples"] = wrong
    return out


def bench_real(root: Path, face_model: bool = True, detector: bool = True, photo_face: bool = True,
               half: str | None = None) -> dict:
    """Every labelled photo (or one ``half``), per set, per half of the fixed train/test split
    (labels.photo_split), and in all, with the mean time of a read (one thread).

    A learned model is trained on the 'train' half only: its honest figures are the 'test' half's.
    ``detector=False`` reads with the classical finder alone (photo mode before the learned detector);
    ``photo_face=False`` reads with the table's grey face model (photo mode before its own model).
    Beside the figures against the labels as shipped, "test, audited labels" scores the test half's
    reads against its labels with the corrections of the blind label audit (LABEL_AUDIT).
    """
    import cv2
    import numpy as np
    from drivers.vision.detector import MODEL_PATH
    from drivers.vision.dice import DiceReader
    from drivers.vision.labels import (Score, audited, iter_labelled_images, label_path_for, load_audit,
                                       photo_split, read_yolo_labels)
    cv2.setNumThreads(1)
    corrections = load_audit(LABEL_AUDIT)
    applied: set = set()
    read_photos: set[str] = set()
    scores: dict[str, Score] = defaultdict(Score)
    seconds: dict[str, float] = defaultdict(float)
    # One reader for every photo: its models load once (photo mode keeps nothing from one read to the next).
    reader = DiceReader(face_model=face_model, detector_model=MODEL_PATH if detector else None,
                        photo_face_model=None if photo_face else False)
    reader.read(np.zeros((480, 640, 3), np.uint8))  # the photo-mode models load here, not in the first timing
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in iter_labelled_images(sub, half):
            image = cv2.imread(str(path))
            if image is None:
                continue
            labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
            t = time.perf_counter()
            result = reader.read(image)
            took = time.perf_counter() - t
            dice = [(d.value, d.box) for d in result.dice if d.value is not None]
            split = photo_split(path)
            for key in (sub.name, f"{sub.name}/{split}", split, "all"):
                scores[key].add(labels, result.status, dice)
                seconds[key] += took
            try:
                fixed = audited(path.name, labels, corrections)
            except ValueError as exc:
                raise SystemExit(f"{LABEL_AUDIT}: {exc}") from None
            read_photos.add(path.name)
            applied |= {(path.name, lab.box) for lab in labels if (path.name, lab.box) in corrections}
            if split == "test":  # the audit read test-half dice only
                scores["test, audited labels"].add(fixed, result.status, dice)
    if unused := {c for c in corrections if c[0] in read_photos} - applied:
        raise SystemExit(f"{LABEL_AUDIT}: {len(unused)} correction(s) name no labelled die: {sorted(unused)}")
    return {k: {**scores[k].as_dict(), **({} if k.endswith("audited labels") else
                                          {"ms_per_photo": round(seconds[k] * 1000 / max(1, scores[k].images), 1)})}
            for k in sorted(scores)} | {"label_audit": {"corrections": len(corrections), "applied": len(applied),
                                                        "folder": str(LABEL_AUDIT.relative_to(ROOT))}}


def bench_speed(frames: int) -> dict:
    import cv2
    from drivers.vision import synth_roulette as S
    from drivers.vision.dice import DiceReader
    from drivers.vision.roulette import RouletteReader
    from drivers.vision.still import StillGate
    from drivers.vision.synth_dice import calibration
    from speed_frames import sized_calibration, speed_images, table_options
    cv2.setNumThreads(1)
    images = speed_images()
    reader = DiceReader(calibration(), table_options())
    pips_only = DiceReader(calibration(), table_options(), face_model=False)
    # As a table calibrated with per-colour die sizes reads (the size checks, and the colour footprint
    # they need, run only then).
    sized = DiceReader(sized_calibration(), table_options(), face_model=reader.face_model or False)
    gate = StillGate()
    reader.read(images[0])
    pips_only.read(images[0])
    sized.read(images[0])
    # The reader with and without the face model (and with per-colour sizes), in alternate passes of
    # frames/3 reads (a shared machine's load then weighs on all alike): the mean over all passes of each.
    times: dict[str, list[float]] = {"model": [], "pips": [], "sizes": []}
    per_pass = max(1, frames // 3)
    for _ in range(3):
        for key, r in (("model", reader), ("pips", pips_only), ("sizes", sized)):
            t = time.perf_counter()
            for i in range(per_pass):
                r.read(images[i % len(images)])
            times[key].append((time.perf_counter() - t) * 1000 / per_pass)
    dice_ms = sum(times["model"]) / 3
    pips_ms = sum(times["pips"]) / 3
    sizes_ms = sum(times["sizes"]) / 3
    # The face model's own share, timed alone (less at the mercy of the load than a difference of two
    # reader timings): classifying the dice of one frame, preprocessing included.
    patches = [patch for patch, _, i in reader.last_patches if i is not None]
    model_ms = 0.0
    if reader.face_model is not None and patches:
        t = time.perf_counter()
        for _ in range(frames):
            reader.face_model.classify(patches)
        model_ms = (time.perf_counter() - t) * 1000 / frames
    t = time.perf_counter()
    for i in range(frames):
        gate.update(images[i % len(images)])
    gate_ms = (time.perf_counter() - t) * 1000 / frames
    spin = list(S.frames(300_000, "ok", 0.3))
    rr = RouletteReader(S.calibration())
    t = time.perf_counter()
    n = 0
    while n < frames:
        for i, f in enumerate(spin):
            rr.update(i, f)
            n += 1
        rr.reset()
    roulette_ms = (time.perf_counter() - t) * 1000 / n
    rest_frames = gate.frames
    return {"threads": 1, "frame": "640x480", "dice_ms_per_frame": round(dice_ms, 2),
            "dice_ms_per_frame_without_face_model": round(pips_ms, 2),
            "dice_ms_per_frame_with_die_sizes": round(sizes_ms, 2),
            "face_model_ms_per_frame": round(model_ms, 3), "face_model_dice_per_frame": len(patches),
            "face_model": reader.face_model_problem or "loaded",
            "still_gate_ms_per_frame": round(gate_ms, 2), "roulette_ms_per_frame": round(roulette_ms, 2),
            "dice_rest_to_result_ms_at_30fps": round(rest_frames * 1000 / 30 + dice_ms, 1)}


def bench_detector(runs: int = 30) -> dict:
    """Photo mode only (no calibration): the learned dice detector on 640x480 frames, one thread, and
    the memory it adds (run after the readers' memory is taken, so that figure stays comparable)."""
    import cv2
    from drivers.vision.detector import DiceDetector
    from drivers.vision.synth_dice import scene
    cv2.setNumThreads(1)
    images = [scene(300_000 + i, "clean", 0.3)[0] for i in range(10)]
    before = rss_mb()
    detector, why = DiceDetector.load()
    if detector is None:
        return {"error": why}
    detector.detect(images[0])
    t = time.perf_counter()
    for i in range(runs):
        detector.detect(images[i % len(images)])
    return {"threads": 1, "frame": "640x480", "ms_per_image": round((time.perf_counter() - t) * 1000 / runs, 2),
            "adds_mb": round(rss_mb() - before, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", type=int, default=10_000, help="synthetic dice throws")
    parser.add_argument("--spins", type=int, default=1_000, help="synthetic roulette spins")
    parser.add_argument("--dice-seed", type=int, default=100_000, help="first seed of the dice throws")
    parser.add_argument("--spin-seed", type=int, default=200_000, help="first seed of the spins")
    parser.add_argument("--styled-dice", type=int, default=0,
                        help="styled dice throws (synth_styles: cloths, dice, light, blur, clutter, tilt to 35 degrees)")
    parser.add_argument("--styled-seed", type=int, default=2_200_000, help="first seed of the styled throws")
    parser.add_argument("--varied-spins", action="store_true",
                        help="spins of varied wheel designs, with the ball hidden mid-spin (synth_roulette.ALL_KINDS)")
    parser.add_argument("--no-photos", action="store_true", help="skip the real photos")
    parser.add_argument("--no-detector", action="store_true",
                        help="photos read by the classical finder alone (no learned detector)")
    parser.add_argument("--speed-frames", type=int, default=300)
    parser.add_argument("--no-face-model", action="store_true",
                        help="read dice by pip count alone (the reader before the face model), for comparison")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the synthetic scenes (the figures do not depend on it)")
    parser.add_argument("--photo-half", choices=("train", "test"), help="only this half of the photos")
    parser.add_argument("--table-face-model-in-photos", action="store_true",
                        help="photos read with the table's grey face model (photo mode before dice_face_photo.onnx)")
    parser.add_argument("--photos", type=Path, help="dice-photos folder (default: ../shared/data/dice-photos)")
    args = parser.parse_args()
    if min(args.dice, args.spins, args.speed_frames, args.jobs - 1) < 0:
        parser.error("--dice, --spins and --speed-frames must be 0 or more, --jobs 1 or more")
    base = rss_mb()
    import cv2  # noqa: F401
    import numpy  # noqa: F401
    after_import = rss_mb()
    started = time.time()
    report: dict = {"counts": {"dice": args.dice, "spins": args.spins}}
    # Alone, before any worker runs: timings stay clean.  --speed-frames 0 skips the pass.
    report["speed"] = bench_speed(args.speed_frames) if args.speed_frames > 0 else "skipped"
    # What a table's process holds: the speed pass built every reader a table runs (dice reader with its
    # face model, still gate, roulette reader) and nothing of photo mode, which a table never loads.
    after_table_readers = rss_mb()
    report["face_model"] = not args.no_face_model
    report["synthetic_dice"] = bench_dice(args.dice, args.dice_seed, args.jobs, not args.no_face_model)
    if args.styled_dice:
        report["styled_dice"] = bench_styled_dice(args.styled_dice, args.styled_seed, args.jobs)
    report["synthetic_spins"] = bench_spins(args.spins, args.spin_seed, args.jobs, args.varied_spins)
    photos = args.photos
    if photos is None:
        for cand in (ROOT.parent / "shared/data/dice-photos", ROOT.parent.parent / "shared/data/dice-photos"):
            if cand.is_dir():
                photos = cand
                break
    report["real_photos"] = ("skipped" if args.no_photos else
                             bench_real(photos, not args.no_face_model, not args.no_detector,
                                        not args.table_face_model_in_photos, args.photo_half)
                             if photos and photos.is_dir() else "not found")
    report["memory_mb"] = {"python_baseline": round(base, 1), "after_cv2_numpy_import": round(after_import, 1),
                           "table_readers_add_over_import": (round(after_table_readers - after_import, 1)
                                                             if args.speed_frames > 0 else "skipped"),
                           "after_readers": round(rss_mb(), 1),
                           "readers_add_over_import": round(rss_mb() - after_import, 1)}
    report["photo_detector"] = bench_detector()
    report["seconds"] = round(time.time() - started, 1)
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
