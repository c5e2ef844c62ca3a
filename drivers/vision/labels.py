"""Labelled dice photos (YOLO text labels) and scoring a reader against them.

A label line is ``CLASS CX CY W H`` with CLASS the face value minus one and the
box normalised to the image size (the convention of the photo sets in
``shared/data/dice-photos``).  Scoring matches each labelled die to at most one
read die by box overlap, then counts values.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class LabelledDie:
    value: int
    box: Box


def read_yolo_labels(path: Path, width: int, height: int) -> list[LabelledDie]:
    """The labelled dice of one image (pixel boxes); an empty or missing file is no dice."""
    out: list[LabelledDie] = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls = int(float(parts[0]))
        cx, cy, w, h = (float(p) for p in parts[1:])
        box = (round((cx - w / 2) * width), round((cy - h / 2) * height), round(w * width), round(h * height))
        out.append(LabelledDie(cls + 1, box))
    return out


def label_path_for(image: Path) -> Path:
    """``dir/x.jpg`` -> ``dir/x.txt``, or ``.../images/x.jpg`` -> ``.../labels/x.txt``."""
    beside = image.with_suffix(".txt")
    if beside.exists() or image.parent.name != "images":
        return beside
    return image.parent.parent / "labels" / (image.stem + ".txt")


def photo_split(image: Path) -> str:
    """'train' or 'test': which half of the real photo sets an image belongs to.

    A learned model may only be trained on the 'train' half, and its figures
    are the 'test' half's.  The halves are cut so that near-duplicates do not
    straddle them: the Byler set by the day it was shot (2019-12-09 is test),
    the Penlington webcam sequences by frame number (the later half of each
    sequence, numbers above 25, is test).
    """
    name = image.name
    if name.startswith("IMG_2019"):
        return "test" if name.startswith("IMG_20191209") else "train"
    m = re.fullmatch(r"[a-z]+_(\d+)\.(jpg|jpeg|png)", name.lower())
    if m:
        return "test" if int(m.group(1)) > 25 else "train"
    return "test"


# The photo sources (camera and scene), by the folder each set sits in: leave-one-source-out measures
# train and tune on one and test on the whole of the other (bench/vision_loso.py).
SOURCES = ("byler-topdown", "penlington-webcam")


def default_photo_root(repo: Path) -> Path | None:
    """The labelled photo sets beside a clone of the repository: ``shared/data/dice-photos`` in the folder
    holding the clone or the one above it; None if neither has it (give the folder by hand)."""
    for cand in (repo.parent / "shared/data/dice-photos", repo.parent.parent / "shared/data/dice-photos"):
        if cand.is_dir():
            return cand
    return None


def photo_source(image: Path) -> str:
    """The photo source (one of SOURCES) an image belongs to, by its folder; '' if none."""
    for part in image.parts:
        if part in SOURCES:
            return part
    return ""


def iter_labelled_images(root: Path, half: str | None = None, source: str | None = None) -> Iterable[Path]:
    """Every .jpg/.png below ``root`` that has a label file, sorted; only one half of the split if ``half``,
    only one photo source (SOURCES) if ``source``."""
    for image in sorted(root.rglob("*")):
        if image.suffix.lower() in (".jpg", ".jpeg", ".png") and label_path_for(image).exists() \
                and (half is None or photo_split(image) == half) \
                and (source is None or photo_source(image) == source):
            yield image


def audit_corrections(key: Mapping[str, Mapping[str, Any]],
                      readings: Sequence[Mapping[str, Any]]) -> dict[tuple[str, Box], tuple[int, int]]:
    """(photo, label box) -> (label's value, value read) for every audited die that all the blind
    readers read as one same value other than its label's; a '?' from any reader leaves the label.

    ``key`` is a label audit's key (tools/vision_model/label_audit.py: die number -> photo, box,
    label), ``readings`` each reader's die number -> value or '?'.
    """
    out: dict[tuple[str, Box], tuple[int, int]] = {}
    for die, entry in key.items():
        seen = {r.get(die) for r in readings}
        if len(seen) == 1 and isinstance(value := seen.pop(), int) and value != entry["label"]:
            x, y, w, h = (int(v) for v in entry["box"])
            out[(str(entry["photo"]), (x, y, w, h))] = (int(entry["label"]), value)
    return out


def load_audit(folder: Path) -> dict[tuple[str, Box], tuple[int, int]]:
    """A label audit's corrections from its folder: ``key.json`` and every ``readings_*.json``."""
    key = json.loads((folder / "key.json").read_text(encoding="utf-8"))
    readings = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("readings_*.json"))]
    if len(readings) < 2:
        raise ValueError(f"{folder}: a label audit needs the readings of two readers or more")
    return audit_corrections(key, readings)


def audited(photo: str, labels: Sequence[LabelledDie],
            corrections: Mapping[tuple[str, Box], tuple[int, int]]) -> list[LabelledDie]:
    """``labels`` of ``photo`` with the audit's corrections applied (a correction names the label's
    value too: one that no longer matches the label file is an error, not silently skipped)."""
    out = []
    for lab in labels:
        fix = corrections.get((photo, lab.box))
        if fix is not None and fix[0] != lab.value:
            raise ValueError(f"{photo}: the audit corrects a {fix[0]} at {lab.box}, the label says {lab.value}")
        out.append(LabelledDie(fix[1], lab.box) if fix is not None else lab)
    return out


def overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box (a read box may include a die's sides)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    iw = min(ax + aw, bx + bw) - max(ax, bx)
    ih = min(ay + ah, by + bh) - max(ay, by)
    if iw <= 0 or ih <= 0:
        return 0.0
    return iw * ih / max(1, min(aw * ah, bw * bh))


@dataclass
class Score:
    """Running totals over labelled images."""

    labelled: int = 0          # labelled dice
    matched: int = 0           # labelled dice with a read die over them
    right: int = 0             # ... whose read value equals the label
    read: int = 0              # dice the reader reported
    images: int = 0
    ok_images: int = 0
    ok_right: int = 0          # ok images whose multiset of values equals the labels'
    unsure_images: int = 0
    void_images: int = 0

    def add(self, labels: Sequence[LabelledDie], status: str, dice: Sequence[tuple[int, Box]]) -> bool:
        """Add one image; returns whether its multiset of values is right."""
        self.images += 1
        self.labelled += len(labels)
        self.read += len(dice)
        used: set[int] = set()
        for label in labels:
            best, best_i = 0.3, -1
            for i, (_, box) in enumerate(dice):
                if i not in used and (o := overlap(label.box, box)) > best:
                    best, best_i = o, i
            if best_i >= 0:
                used.add(best_i)
                self.matched += 1
                self.right += dice[best_i][0] == label.value
        multiset_right = Counter(v for v, _ in dice) == Counter(lab.value for lab in labels)
        if status == "ok":
            self.ok_images += 1
            self.ok_right += multiset_right
        elif status == "unsure":
            self.unsure_images += 1
        else:
            self.void_images += 1
        return multiset_right

    def as_dict(self) -> dict[str, float | int]:
        return {
            "images": self.images, "labelled_dice": self.labelled, "read_dice": self.read,
            "matched_dice": self.matched, "right_dice": self.right,
            "per_die_accuracy": round(self.right / self.labelled, 4) if self.labelled else 0.0,
            "accuracy_of_matched": round(self.right / self.matched, 4) if self.matched else 0.0,
            "ok_images": self.ok_images, "ok_images_multiset_right": self.ok_right,
            "ok_images_multiset_wrong": self.ok_images - self.ok_right,
            "unsure_images": self.unsure_images, "void_images": self.void_images,
        }
