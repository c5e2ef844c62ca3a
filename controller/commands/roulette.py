"""`tablectl roulette VIDEO_OR_FOLDER [--json]`: read roulette spins from a video or frames (DESIGN.md section 8)."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.commands.common import UsageError, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("roulette", help="read the winning numbers from an overhead wheel video",
                                   description="Track rotor and ball in a video, a folder of frames or a camera "
                                               "(camera:N, picamera) and print each spin: number once the ball "
                                               "rests, or void/unsure with the reason.")
    parser.add_argument("source", metavar="VIDEO_OR_FOLDER", help="video file, folder of frames, camera:N, picamera")
    parser.add_argument("--json", action="store_true", help="print the JSON form")
    parser.add_argument("--calibration", metavar="FILE", help="roulette calibration (else found in the first frame)")
    parser.add_argument("--min-turns", type=float, default=3.0, help="ball turns below which a spin is void")
    parser.add_argument("--rest-frames", type=int, default=8, help="frames the ball must keep its pocket")
    parser.add_argument("--counterclockwise", action="store_true",
                        help="the pocket order runs counter-clockwise as the camera sees the wheel")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from drivers.vision import calibration as cal_mod
        from drivers.vision.roulette import RouletteOptions, RouletteReader, find_wheel, read_spins
        from drivers.vision.sources import SourceError, open_source
    except ImportError as exc:
        raise UsageError(f"the vision extra is not installed ({exc.name}); pip install 'tablectl[vision]'") from None
    if args.min_turns < 0 or not 1 <= args.rest_frames <= 300:
        raise UsageError("--min-turns must be >= 0 and --rest-frames 1..300")
    try:
        source = open_source(args.source)
        frames = source.frames()
        first = next(frames, None)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    if first is None:
        raise UsageError(f"{args.source}: no frames")
    if args.calibration:
        try:
            loaded = cal_mod.load(Path(args.calibration))
        except cal_mod.CalibrationError as exc:
            raise UsageError(str(exc)) from None
        if not isinstance(loaded, cal_mod.RouletteCalibration):
            raise UsageError(f"{args.calibration}: a dice calibration, not a roulette one")
        calibration: cal_mod.RouletteCalibration = loaded
    else:
        found = find_wheel(first[1])
        if found is None:
            raise UsageError(f"{args.source}: no wheel found in the first frame; give --calibration")
        calibration = found
    reader = RouletteReader(calibration, RouletteOptions(min_turns=args.min_turns, rest_frames=args.rest_frames,
                                                         clockwise=not args.counterclockwise))

    def chain():
        yield first
        yield from frames

    try:
        spins = [s.as_json() for s in read_spins(chain(), reader)]
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json({"spins": spins})
    else:
        if not spins:
            print(f"{args.source}: no spin seen")
        for s in spins:
            what = str(s["number"]) if s["status"] == "ok" else s["status"]
            print(f"frame {s['frame']}: {what}  ball {s['ball_direction']}, rotor {s['rotor_direction']}"
                  + (f"  - {s['reason']}" if s["reason"] else ""))
    return 0
