"""Scoring a reader's answer against synthetic truth: right, honestly unsure, or confidently wrong."""

from __future__ import annotations

from collections import Counter
from typing import Any


def judge_dice(truth: dict[str, Any], answer: dict[str, Any]) -> str:
    """'right', 'void_right', 'unsure' or 'wrong' for one throw."""
    status = answer["status"]
    if status == "unsure":
        return "right" if truth["status"] == "unsure" else "unsure"
    if truth["status"] == "unsure":
        return "wrong"
    if truth["status"] == "void":
        return "void_right" if status == "void" else "wrong"
    if status != "ok":
        return "wrong"
    want = Counter((d["value"], d["color"]) for d in truth["dice"])
    got = Counter((d["value"], d["color"]) for d in answer["dice"])
    if want == got:
        return "right"
    # Colours the table does not name (white, blue, yellow) are judged by value only.
    if Counter(v for v, _ in want.elements()) == Counter(v for v, _ in got.elements()) \
            and truth["kind"] in ("sicbo", "colours"):
        return "right"
    return "wrong"


def read_synthetic_throw(seed: int, kind: str, strength: float = 0.0,
                         face_model: Any = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """(truth, answer) for one synthetic throw, read with the calibration its table would have.

    The calibration is what a technician sets: the throw area and table (from the scene's
    geometry), the nominal die size, and the die size per colour measured from a frame of that
    table showing one flat die of each colour (synth_dice.scene_with_calibration_frame).  The one
    way the benchmark and the tests read a synthetic throw, so their figures agree.  ``face_model``
    is DiceReader's: True (load the shipped model), False, or a loaded FaceModel (loaded once for many throws).
    """
    from drivers.vision import calibration as cal_mod
    from drivers.vision.dice import DiceOptions, DiceReader
    from drivers.vision.synth_dice import reader_options, scene_with_calibration_frame
    image, truth, frame = scene_with_calibration_frame(seed, kind, strength)
    cd = truth["calibration"]
    cal = cal_mod.DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                                  tuple(tuple(p) for p in cd["table"]))
    cal.die_sizes = DiceReader(cal, face_model=False).measure_die_sizes(frame)
    return truth, DiceReader(cal, DiceOptions(**reader_options(kind)), face_model=face_model).read(image).as_json()


def judge_spin(truth: dict[str, Any], answer: dict[str, Any] | None) -> str:
    """The same for one roulette spin."""
    if answer is None or answer["status"] == "unsure":
        return "right" if truth["status"] == "unsure" else "unsure"
    if truth["status"] == "void":
        return "void_right" if answer["status"] == "void" else "wrong"
    if truth["status"] == "unsure":
        return "wrong"
    if answer["status"] == "ok" and answer["number"] == truth["number"]:
        return "right"
    return "wrong"


def summarise(verdicts: list[str]) -> dict[str, Any]:
    n = len(verdicts) or 1
    c = Counter(verdicts)
    return {"count": len(verdicts), "right": c["right"], "void_right": c["void_right"], "unsure": c["unsure"],
            "confident_wrong": c["wrong"], "share_right": round(c["right"] / n, 4),
            "share_void_right": round(c["void_right"] / n, 4), "share_unsure": round(c["unsure"] / n, 4),
            "share_right_or_honestly_unsure": round((n - c["wrong"]) / n, 5)}


def score_throw(i: int, base: int, face_model: bool = True) -> dict:
    """One synthetic throw (the i-th of a bench/vision.py run): its kind, strength, verdict and, when wrong, the example."""
    from drivers.vision.synth_dice import KINDS
    kind = KINDS[i % len(KINDS)]
    strength = round((i // len(KINDS)) % 11 / 10, 1)
    seed = base + i
    truth, answer = read_synthetic_throw(seed, kind, strength, face_model)
    v = judge_dice(truth, answer)
    out = {"kind": kind, "strength": strength, "verdict": v}
    if v == "wrong":
        out["example"] = {"seed": seed, "kind": kind, "strength": strength, "truth": truth["status"],
                          "answer": answer["status"], "reason": answer["reason"]}
    return out


def score_styled_throw(i: int, base: int) -> dict:
    """One styled synthetic throw (synth_styles: other cloths, dice, light, blur, clutter, a tilted camera): its
    kind, style, verdict and, when wrong, the example."""
    from drivers.vision import synth_styles
    kind = synth_styles.KINDS[i % len(synth_styles.KINDS)]
    seed = base + i
    truth, answer = synth_styles.read_throw(seed, kind)
    v = judge_dice(truth, answer)
    st = truth["style"]
    out = {"kind": kind, "strength": f"tilt {int(st['tilt'] // 10) * 10}-{int(st['tilt'] // 10) * 10 + 10}",
           "cloth": st["cloth"], "dice": st["dice"], "verdict": v}
    if v == "wrong":
        out["example"] = {"seed": seed, "kind": kind, "style": st, "truth": truth["status"],
                          "answer": answer["status"], "reason": answer["reason"]}
    return out


def score_spin(i: int, base: int, varied: bool = False) -> dict:
    """One synthetic spin: kind, strength, verdict, frames from rest to result, and the example when wrong.
    ``varied``: the kinds include the ball hidden mid-spin (synth_roulette.ALL_KINDS) and each wheel's design
    is drawn from its seed."""
    from drivers.vision import synth_roulette as S
    from drivers.vision.roulette import RouletteReader, read_spins
    kinds = S.ALL_KINDS if varied else S.KINDS
    kind = kinds[i % len(kinds)]
    strength = round((i // len(kinds)) % 11 / 10, 1)
    seed = base + i
    truth = S.truth(seed, kind, strength)
    spins = read_spins(enumerate(S.frames(seed, kind, strength, varied=varied)), RouletteReader(S.calibration()))
    answer = spins[0].as_json() if spins else None
    v = judge_spin(truth, answer)
    out: dict = {"seed": seed, "kind": kind, "strength": strength, "verdict": v}
    if v == "unsure" and answer is not None:
        out["reason"] = answer["reason"]
    if v == "right" and truth["status"] == "ok" and answer is not None:
        out["latency"] = answer["frame"] - truth["rest_frame"]
    if v == "wrong":
        out["example"] = {"seed": seed, "kind": kind, "strength": strength, "truth": truth["status"],
                          "number": truth["number"], "answer": answer}
    return out


def worker_init() -> None:
    """A benchmark worker process: one OpenCV thread (the processes share the cores)."""
    import cv2
    cv2.setNumThreads(1)
