"""Photo mode offline: the reader's dice and patches of one half of the real photos, cached, and the
face model's effect on them replayed without re-reading the photos (to compare face models quickly).

    /work/venv/bin/python tools/vision_model/photo_eval.py dump train      # the reader without its face model
    /work/venv/bin/python tools/vision_model/photo_eval.py losses train    # where the train half loses dice
    /work/venv/bin/python tools/vision_model/photo_eval.py score train [--model M.onnx | --grey] [--turns 4] [--fold K]
    /work/venv/bin/python tools/vision_model/photo_eval.py floors train --fold 4 --model M.onnx   # unread dice by band
    /work/venv/bin/python tools/vision_model/photo_eval.py speed train     # the face models' time a photo
    ... dump train --cache /tmp/x.pkl --detector D.onnx [--no-split]   # another cache file, detector; split off
    /work/venv/bin/python tools/vision_model/photo_eval.py split-speed train   # whole read, split off and on
    ... score train --fold 4 --model M --more-cuts none --show-floor 0   # the reader before branch photo6
    ... score train --fold 4 --model M --more-cuts s1.1,s1.25 --more-agree 1 --more-floor 0.6   # other more-cut rules

``dump`` runs ``DiceReader(face_model=False)`` (photo mode, detector on) over the half and keeps, per
photo, the status, the dice (pip count value, box, reason) and the patches the face model would see
(``/tmp/photo_eval_<half>.pkl``; nothing of it is committed).  ``score`` applies the face model's rules of
``DiceReader._check_faces`` (photo mode: MODEL_AGREE, MODEL_ONLY_PHOTO, the cocked class dropped) to
those dice and scores the result as bench/vision.py does (labels.Score); with the shipped model it
gives the reader's own figures.  ``losses`` breaks the lost dice down: not found, found but unread
(with a patch the model was not sure enough of, or with no patch at all), read wrong (by the pip count,
by the model), each marked where the die's box holds the centres of two or more labelled dice (dice
read as one: no face model can put that right), per set and per label value.  The replay applies the re-cut
of unread dice (branch photocrop; ``--no-recut``), their more cuts (branch photo6: ``dump`` stores the eight
cuts of ``GRID`` for every unread die, the replay uses those named by ``--more-cuts``, default the reader's
``photo_join.MORE_CUTS``, with ``dice.more_cuts_opinion``) and the show floor of disagreements
(``--show-floor``, default the reader's ``SHOW_FLOOR_PHOTO``), as ``DiceReader._check_faces`` does.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from drivers.vision import facemodel, photo_join  # noqa: E402
from drivers.vision import dice as dice_module  # noqa: E402
from drivers.vision.dice import (MODEL_ONLY_PHOTO, MODEL_ONLY_PHOTO_GREY, DiceReader, more_cuts_opinion,  # noqa: E402
                                 recut_opinion, second_opinion)
from drivers.vision.labels import (LabelledDie, Score, default_photo_root, iter_labelled_images,  # noqa: E402
                                   label_path_for, overlap, read_yolo_labels)

PHOTOS = default_photo_root(ROOT) or Path("shared/data/dice-photos")


@dataclass
class Shot:
    """One photo as the reader without its face model saw it."""

    name: str
    group: str  # the photo set
    labels: list[LabelledDie]
    status: str
    dice: list[tuple[int | None, tuple[int, int, int, int], str]]  # (pip value, box, reason)
    patches: list[tuple[np.ndarray, int]]  # (64 x 64 BGR patch, die index) for the dice the model checks
    recuts: list[tuple[np.ndarray, int]] = field(default_factory=list)  # (re-cut patch, die index): unread dice
    more: list[tuple[list[np.ndarray], int]] = field(default_factory=list)  # (GRID cuts, die index): unread dice


# Branch photo6: the views of the re-cut square the dump cuts of every unread die (scale, dx, dy:
# photo_join.cut_square), by name; the reader cuts those of photo_join.MORE_CUTS, ``--more-cuts`` replays a set.
GRID: dict[str, tuple[float, float, float]] = {
    "s0.8": (0.8, 0.0, 0.0), "s0.9": (0.9, 0.0, 0.0), "s1.1": (1.1, 0.0, 0.0), "s1.25": (1.25, 0.0, 0.0),
    "x-": (1.0, -0.1, 0.0), "x+": (1.0, 0.1, 0.0), "y-": (1.0, 0.0, -0.1), "y+": (1.0, 0.0, 0.1)}


@dataclass(frozen=True)
class Rules:
    """What the replay applies beyond the face model's floor (defaults: the reader's, drivers/vision/dice.py)."""

    recut: bool = True  # the re-cut of unread dice (branch photocrop)
    views: tuple[str, ...] = tuple(n for n, v in GRID.items() if v in photo_join.MORE_CUTS)  # more cuts (photo6)
    agree: int = dice_module.MORE_AGREE
    more_floor: float = dice_module.MORE_FLOOR
    show: float = dice_module.SHOW_FLOOR_PHOTO  # a disagreement shows the model's value only this sure


CACHE: dict[str, Path] = {}  # --cache: another file than /tmp/photo_eval_<half>.pkl (two checkouts side by side)


def cache_path(half: str) -> Path:
    return CACHE.get(half, Path(f"/tmp/photo_eval_{half}.pkl"))


def dump(half: str, photos: Path, detector: Path | None = None, split: bool = True) -> list[Shot]:
    """``detector``: another detector model (train_detector.py --fold K, to judge rules on unseen photos);
    ``split``: False reads without the split of dice read as one (DiceReader.split_merged)."""
    cv2.setNumThreads(1)
    reader = DiceReader(face_model=False) if detector is None else DiceReader(face_model=False, detector_model=detector)
    reader.split_merged = split
    shots: list[Shot] = []
    for sub in sorted(p for p in photos.iterdir() if p.is_dir()):
        for path in iter_labelled_images(sub, half):
            image = cv2.imread(str(path))
            if image is None:
                continue
            labels = read_yolo_labels(label_path_for(path), image.shape[1], image.shape[0])
            result = reader.read(image)
            # read() sorts its dice after the patches were recorded: map patch index -> die by box.
            unsorted_boxes = {i: box for _, box, i in reader.last_patches if i is not None}
            order = {d.box: k for k, d in enumerate(result.dice)}
            patches = [(p, order[unsorted_boxes[i]]) for p, _, i in reader.last_patches
                       if i is not None and unsorted_boxes[i] in order]
            recuts = [(p, order[unsorted_boxes[i]]) for i, p in reader.last_recuts.items()
                      if i in unsorted_boxes and unsorted_boxes[i] in order]
            more = []
            for i, p in reader.last_recuts.items():
                if i in unsorted_boxes and unsorted_boxes[i] in order:
                    square = photo_join.recut_square(reader.last_detections, unsorted_boxes[i])
                    if not np.array_equal(photo_join.cut_square(image, square), p):
                        raise SystemExit(f"{path.name}: die {i}: its re-cut is not the square of its box")
                    more.append(([photo_join.cut_square(image, square, *v) for v in GRID.values()],
                                 order[unsorted_boxes[i]]))
            shots.append(Shot(path.name, sub.name, labels, result.status,
                              [(d.value, d.box, d.reason) for d in result.dice], patches, recuts, more))
    cache_path(half).write_bytes(pickle.dumps([vars(s) for s in shots]))
    return shots


def load(half: str) -> list[Shot]:
    return [Shot(**d) for d in pickle.loads(cache_path(half).read_bytes())]


def replay(shot: Shot, probs: np.ndarray, only: float = MODEL_ONLY_PHOTO,
           rules: Rules = Rules()) -> tuple[str, list[tuple[int | None, tuple, str]]]:
    """The photo's status and dice after the face model's rules (DiceReader._check_faces, photo mode)."""
    dice = list(shot.dice)
    status = shot.status
    probs = np.asarray(probs)
    n, r = len(shot.patches), len(shot.recuts)  # probs: the patches' rows, the re-cuts', the GRID cuts' (model_probs)
    again = dict(zip((i for _, i in shot.recuts), facemodel.guesses(probs[n:n + r], judge_tilt=False))) \
        if rules.recut else {}
    more: dict[int, list[facemodel.FaceGuess]] = {}
    if rules.views:
        rows = facemodel.guesses(probs[n + r:], judge_tilt=False)
        names = list(GRID)
        for k, (_, i) in enumerate(shot.more):
            cut = rows[k * len(GRID):(k + 1) * len(GRID)]
            more[i] = [cut[names.index(v)] for v in rules.views]
    for (_, i), guess in zip(shot.patches, facemodel.guesses(probs[:n], judge_tilt=False)):
        guess = recut_opinion(dice[i][0], guess, again.get(i), only)
        if i in more:
            guess = more_cuts_opinion(dice[i][0], guess, more[i], only, rules.more_floor, rules.agree)
        shown, verdict = second_opinion(dice[i][0], guess, only, rules.show)
        if verdict:
            dice[i] = (shown, dice[i][1], verdict)
            if verdict == "disagree" and status == "ok":
                status = "unsure"
    return status, dice


def score(shots: list[Shot], probs_of, only: float = MODEL_ONLY_PHOTO, rules: Rules = Rules()) -> dict:
    scores: dict[str, Score] = defaultdict(Score)
    for shot in shots:
        status, dice = replay(shot, probs_of(shot), only, rules) if shot.patches else (shot.status, shot.dice)
        read = [(v, b) for v, b, _ in dice if v is not None]
        for key in (shot.group, "all"):
            scores[key].add(shot.labels, status, read)
    return {k: {f: v for f, v in s.as_dict().items() if f in (
        "labelled_dice", "right_dice", "per_die_accuracy", "ok_images", "ok_images_multiset_wrong")}
        for k, s in sorted(scores.items())}


def matched(shot: Shot, dice: list[tuple[int | None, tuple, str]]) -> list[tuple[LabelledDie, int | None]]:
    """Each label and the index of the die the scorer matches to it (labels.Score.add's rule)."""
    used: set[int] = set()
    out = []
    for label in shot.labels:
        best, best_i = 0.3, None
        for i, (v, box, _) in enumerate(dice):
            if v is not None and i not in used and (o := overlap(label.box, box)) > best:
                best, best_i = o, i
        if best_i is not None:
            used.add(best_i)
        out.append((label, best_i))
    return out


def centre_in(box: tuple, outer: tuple) -> bool:
    """The centre of ``box`` lies inside ``outer`` (both x, y, w, h)."""
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    return outer[0] <= cx <= outer[0] + outer[2] and outer[1] <= cy <= outer[1] + outer[3]


def losses(shots: list[Shot], probs_of, only: float = MODEL_ONLY_PHOTO, rules: Rules = Rules()) -> dict:
    out: dict[str, Counter] = defaultdict(Counter)
    for shot in shots:
        _, dice = replay(shot, probs_of(shot), only, rules) if shot.patches else (shot.status, shot.dice)
        for label, i in matched(shot, dice):
            if i is None:
                # a die over it at all (read or not)?
                near = [k for k, (_, b, _) in enumerate(shot.dice) if overlap(label.box, b) > 0.3]
                patched = {k for _, k in shot.patches}
                kind = ("not found" if not near else
                        "unread, patch (model unsure)" if any(k in patched for k in near) else
                        "unread, no patch")
            elif dice[i][0] == label.value:
                kind = "right"
            else:
                kind = "wrong (" + ("model" if dice[i][2] in ("disagree", "model only") else "pips") + ")"
            die_boxes = [shot.dice[k][1] for k in near] if i is None else [dice[i][1]]
            if kind != "right" and any(sum(centre_in(lab.box, b) for lab in shot.labels) >= 2 for b in die_boxes):
                kind += ", one box over 2+ labelled dice"
            out[shot.group][kind] += 1
            out[f"{shot.group} value {label.value}"][kind] += 1
    return {k: dict(v) for k, v in sorted(out.items())}


def model_probs(model: facemodel.FaceModel, more: bool = False):
    """The model's rows for a shot's patches, then its re-cut patches, then (``more``) its GRID cuts."""
    def probs_of(shot: Shot) -> np.ndarray:
        cuts = [p for p, _ in shot.patches + shot.recuts] + ([p for c, _ in shot.more for p in c] if more else [])
        return model.probabilities(np.stack([facemodel.face_pixels(p, model.side, model.colour) for p in cuts]))
    return probs_of


def floors(shots: list[Shot], probs_of) -> dict:
    """Dice the pips could not read: by the model's probability band, how many it names a value for and
    how many of those the label backs (what MODEL_ONLY_PHOTO was chosen from)."""
    bands = ((0.3, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.8), (0.8, 1.01))
    out: dict[str, Counter[str]] = {f"{lo}-{min(hi, 1.0)}": Counter() for lo, hi in bands}
    for shot in shots:
        if not shot.patches:
            continue
        for (_, i), p in zip(shot.patches, probs_of(shot)):
            value, box, _ = shot.dice[i]
            if value is not None:
                continue
            p = p.copy()
            p[facemodel.COCKED_CLASS] = 0.0
            p /= max(float(p.sum()), 1e-12)
            guess, sure = int(p.argmax()), float(p.max())
            best = max(shot.labels, key=lambda lab: overlap(lab.box, box), default=None)
            truth = best.value if best is not None and overlap(best.box, box) >= 0.3 else None
            for lo, hi in bands:
                if lo <= sure < hi and 1 <= guess <= 6:
                    out[f"{lo}-{min(hi, 1.0)}"]["named"] += 1
                    out[f"{lo}-{min(hi, 1.0)}"]["right"] += truth == guess
    return {k: dict(v) for k, v in out.items()}


def speed(shots: list[Shot], passes: int = 3) -> dict:
    """The face model's own time a photo (one thread, preprocessing included), photo mode's model against
    the table's grey one, in alternate passes (a shared machine's load then weighs on both alike)."""
    import time
    cv2.setNumThreads(1)
    photo_model, problem = facemodel.load(facemodel.PHOTO_MODEL, photo=True)
    assert photo_model is not None, problem
    models = {"photo_model": photo_model, "table_model": facemodel.FaceModel()}
    batches = [[p for p, _ in s.patches] for s in shots if s.patches]
    took: dict[str, float] = defaultdict(float)
    for _ in range(passes):
        for name, model in models.items():
            t = time.perf_counter()
            for patches in batches:
                model.classify(patches, judge_tilt=False)
            took[name] += time.perf_counter() - t
    out = {f"{k}_ms_per_photo": round(v * 1000 / passes / len(shots), 2) for k, v in took.items()}
    out["dice_checked_per_photo"] = round(sum(map(len, batches)) / len(shots), 2)
    return out


def split_speed(half: str, photos: Path, passes: int = 2) -> dict:
    """Photo mode's whole read a photo (CPU time, one thread: a loaded machine weighs on wall time), with
    and without the split of dice read as one (DiceReader.split_merged), in alternate passes."""
    import time
    cv2.setNumThreads(1)
    loaded = [cv2.imread(str(p)) for sub in sorted(q for q in photos.iterdir() if q.is_dir())
              for p in iter_labelled_images(sub, half)]
    images = [im for im in loaded if im is not None]
    reader = DiceReader()
    reader.read(images[0])  # loads the models
    took = {False: 0.0, True: 0.0}
    inside = [0.0]  # CPU time spent in the split itself (DetectorJoin._split_merged), split on
    split_merged = photo_join.DetectorJoin._split_merged

    def timed(self, *args):  # noqa: ANN001, ANN202
        started = time.process_time()
        try:
            return split_merged(self, *args)
        finally:
            inside[0] += time.process_time() - started
    # the benchmark wraps the reader's own method to time it; mypy forbids assigning to a method
    reader._split_merged = timed.__get__(reader)  # type: ignore[method-assign]
    for _ in range(passes):
        for split in (False, True):
            reader.split_merged = split
            started = time.process_time()
            for image in images:
                reader.read(image)
            took[split] += time.process_time() - started
    per = 1000 / passes / len(images)
    return {"photos": len(images), "cpu_ms_per_photo_no_split": round(took[False] * per, 2),
            "cpu_ms_per_photo_split": round(took[True] * per, 2), "cpu_ms_per_photo_in_the_split": round(inside[0] * per, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("dump", "score", "losses", "floors", "speed", "split-speed"))
    parser.add_argument("half", choices=("train", "test"))
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--model", type=Path, default=None,
                        help="a photo-mode model (colour; default: the shipped dice_face_photo.onnx)")
    parser.add_argument("--grey", action="store_true", help="the table's grey model instead (dice_face.onnx)")
    parser.add_argument("--turns", type=int, default=None,
                        help="test-time quarter turns averaged (default: the reader's)")
    parser.add_argument("--only", type=float, default=None,
                        help="the floor for a die read by the model alone (default: the reader's, "
                             "MODEL_ONLY_PHOTO or with --grey MODEL_ONLY_PHOTO_GREY)")
    parser.add_argument("--side", type=int, default=None,
                        help="the photo model's input side (default: the reader's PHOTO_SIDE)")
    parser.add_argument("--fold", type=int, default=None,
                        help="only the photos with index %% 5 == FOLD (train_photo_faces.py --fold)")
    parser.add_argument("--detector", type=Path, default=None,
                        help="dump: the photo-mode detector model (default: the shipped one)")
    parser.add_argument("--no-split", action="store_true",
                        help="dump: without photo mode's split of dice read as one (DiceReader.split_merged)")
    parser.add_argument("--no-recut", action="store_true",
                        help="replay without the re-cut of unread dice (DiceReader._recut, branch photocrop)")
    parser.add_argument("--more-cuts", default=None,
                        help="replay more cuts of unread dice (branch photo6): comma-separated names of GRID "
                             f"({', '.join(GRID)}), 'none' for none; default: the reader's (photo_join.MORE_CUTS)")
    parser.add_argument("--more-agree", type=int, default=dice_module.MORE_AGREE,
                        help="more cuts that must read the die's value (default: the reader's MORE_AGREE)")
    parser.add_argument("--more-floor", type=float, default=dice_module.MORE_FLOOR,
                        help="the floor a more cut's read must reach (default: the reader's MORE_FLOOR)")
    parser.add_argument("--show-floor", type=float, default=dice_module.SHOW_FLOOR_PHOTO,
                        help="a disagreement shows the model's value only this sure, else the pip count "
                             "(default: the reader's SHOW_FLOOR_PHOTO)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="the cache file (default /tmp/photo_eval_<half>.pkl)")
    args = parser.parse_args()
    if args.cache is not None:
        CACHE[args.half] = args.cache
    if args.what == "dump":
        shots = dump(args.half, args.photos, args.detector, split=not args.no_split)
        print(f"{len(shots)} photos, {sum(len(s.patches) for s in shots)} patches -> {cache_path(args.half)}")
        return 0
    if args.what == "split-speed":
        print(json.dumps(split_speed(args.half, args.photos)))
        return 0
    shots = load(args.half)
    if args.what == "speed":
        print(json.dumps(speed(shots)))
        return 0
    if args.fold is not None:
        shots = [s for k, s in enumerate(shots) if k % 5 == args.fold]
    if args.grey:
        model = facemodel.FaceModel(args.model or facemodel.DEFAULT_MODEL, turns=args.turns or 1)
    else:
        model = facemodel.FaceModel(args.model or facemodel.PHOTO_MODEL, args.side or facemodel.PHOTO_SIDE, True,
                                    args.turns or facemodel.PHOTO_TURNS)
    # The reader applies the more cuts and the show floor only with photo mode's own (colour) model.
    views = (() if args.grey else Rules().views) if args.more_cuts is None else (
        () if args.more_cuts == "none" else tuple(v for v in args.more_cuts.split(",") if v))
    if unknown := [v for v in views if v not in GRID]:
        parser.error(f"--more-cuts: unknown cut(s) {unknown}; known: {', '.join(GRID)}")
    rules = Rules(recut=not args.no_recut, views=views, agree=args.more_agree, more_floor=args.more_floor,
                  show=0.0 if args.grey and args.show_floor == dice_module.SHOW_FLOOR_PHOTO else args.show_floor)
    if views and any(len(s.more) != len(s.recuts) for s in shots):
        raise SystemExit(f"{cache_path(args.half)}: dumped without the GRID cuts; dump again")
    probs_of = model_probs(model, more=bool(views))
    if args.only is None:
        args.only = MODEL_ONLY_PHOTO_GREY if args.grey else MODEL_ONLY_PHOTO
    if args.what == "floors":
        print(json.dumps(floors(shots, probs_of)))
        return 0
    table = score(shots, probs_of, args.only, rules) if args.what == "score" else losses(shots, probs_of, args.only, rules)
    print(json.dumps(table, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
