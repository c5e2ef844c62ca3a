"""`tablectl dice IMAGE... [--json]`: read dice from images with the vision reader (DESIGN.md section 8)."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.commands.common import UsageError, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("dice", help="read the dice in images (ok, void or unsure per image)",
                                   description="Read every die in each image: value, colour, box, flat. "
                                               "Status ok, void (a die off the throw area or not flat) or "
                                               "unsure (the reader will not guess; the croupier confirms).")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (or folders of images)")
    parser.add_argument("--json", action="store_true", help="print the JSON form")
    parser.add_argument("--calibration", metavar="FILE",
                        help="calibration file from `tablectl vision calibrate` (throw area, die size)")
    parser.add_argument("--count", type=int, help="how many dice the table throws (2 Tärning, 3 Sic Bo)")
    parser.add_argument("--colors", help="the dice colours the table uses, comma-separated (e.g. red,green)")
    parser.add_argument("--still-frames", type=int, default=6,
                        help="video or camera: frames the scene must be still before it is read (default 6)")
    parser.set_defaults(run=run)


def _files(items: list[str]) -> list[Path | str]:
    """Image files (folders expanded); a video file or camera:N stays a word, read through the still gate."""
    from drivers.vision.sources import IMAGE_SUFFIXES
    out: list[Path | str] = []
    for item in items:
        path = Path(item)
        if item.startswith("camera:") or item == "picamera" or (path.is_file() and
                                                                path.suffix.lower() not in IMAGE_SUFFIXES):
            out.append(item)
        elif path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not found:
                raise UsageError(f"{item}: no image files in this folder")
            out.extend(found)
        elif path.is_file():
            out.append(path)
        else:
            raise UsageError(f"{item}: no such file or folder")
    return out


def run(args: argparse.Namespace) -> int:
    try:
        import cv2
        from drivers.vision import calibration as cal_mod
        from drivers.vision.dice import DiceOptions, DiceReader
    except ImportError as exc:
        raise UsageError(f"the vision extra is not installed ({exc.name}); pip install 'tablectl[vision]'") from None
    calibration: cal_mod.DiceCalibration | None = None
    if args.calibration:
        try:
            loaded = cal_mod.load(Path(args.calibration))
        except cal_mod.CalibrationError as exc:
            raise UsageError(str(exc)) from None
        if not isinstance(loaded, cal_mod.DiceCalibration):
            raise UsageError(f"{args.calibration}: a roulette calibration, not a dice one")
        calibration = loaded
    if args.count is not None and not 1 <= args.count <= 10:
        raise UsageError(f"--count {args.count}: expected 1..10")
    colors = tuple(c.strip().lower() for c in args.colors.split(",") if c.strip()) if args.colors else ()
    reader = DiceReader(calibration, DiceOptions(count=args.count, colors=colors))
    results = []
    for path in _files(args.images):
        if isinstance(path, str):
            results.extend(_read_stream(path, reader, args.still_frames))
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"{path}: cannot read as an image")
        if calibration is not None and (image.shape[1], image.shape[0]) != calibration.size:
            raise UsageError(f"{path}: image is {image.shape[1]}x{image.shape[0]}, calibration is for "
                             f"{calibration.size[0]}x{calibration.size[1]}")
        results.append(reader.read(image).as_json(str(path)))
    if args.json:
        print_json({"images": results})
    else:
        for r in results:
            values = " ".join(f"{d['value'] if d['value'] is not None else '?'}({d['color']})" for d in r["dice"])
            line = f"{r['file']}: {r['status']}" + (f"  {values}" if values else "")
            print(line + (f"  - {r['reason']}" if r["reason"] else ""))
    return 0


def _read_stream(spec: str, reader, still_frames: int) -> list[dict]:
    """A video or camera: read the dice each time the scene has been still for ``still_frames`` frames."""
    from drivers.vision.sources import SourceError, open_source
    from drivers.vision.still import StillGate
    if not 1 <= still_frames <= 300:
        raise UsageError(f"--still-frames {still_frames}: expected 1..300")
    gate = StillGate(frames=still_frames)
    out = []
    try:
        for index, frame in open_source(spec).frames():
            if gate.update(frame):
                out.append(reader.read(frame).as_json(f"{spec}#{index}"))
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    return out
