"""`tablectl vision calibrate|check|generate`: set up the camera view and make synthetic test sets."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from controller.commands.common import UsageError, print_json
from controller.progress import Progress


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("vision", help="calibrate the camera view, check it, generate synthetic scenes")
    sub = parser.add_subparsers(dest="vision_command", metavar="ACTION")
    cal = sub.add_parser("calibrate", help="store the throw area and die size from one frame",
                         description="Store a dice calibration from one frame: the throw area polygon "
                                     "(--area, else the whole frame), the die size in pixels (--die-px, else "
                                     "estimated from the dice in the frame), with --empty the frame itself "
                                     "as the empty felt, and the die size per colour measured from the dice in "
                                     "the frame (or in --sizes-from FRAME): lay one flat die of each colour "
                                     "the table uses, apart, inside the area.")
    cal.add_argument("image", help="one frame from the table camera")
    cal.add_argument("--out", required=True, help="calibration file to write (JSON)")
    cal.add_argument("--area", nargs="+", metavar="X,Y", help="throw area corners in pixels")
    cal.add_argument("--table", nargs="+", metavar="X,Y", help="where to look at all (the felt), in pixels")
    cal.add_argument("--die-px", type=float, help="die side in pixels")
    cal.add_argument("--empty", action="store_true", help="the frame shows the empty felt: store it")
    cal.add_argument("--sizes-from", metavar="FRAME",
                     help="measure the die size per colour in this frame (flat dice, one of each colour)")
    cal.add_argument("--roulette", action="store_true",
                     help="calibrate a roulette wheel instead: find the wheel in the frame")
    cal.set_defaults(run=calibrate)
    chk = sub.add_parser("check", help="check that a frame still fits a calibration")
    chk.add_argument("calibration")
    chk.add_argument("image")
    chk.set_defaults(run=check)
    gen = sub.add_parser("generate", help="write seeded synthetic dice throws or roulette spins with truth JSON")
    gen.add_argument("what", choices=["dice", "roulette"], help="scene family")
    gen.add_argument("--frames", action="store_true", help="roulette: a folder of PNG frames per spin, not a video")
    gen.add_argument("--out", required=True, help="folder to write images and truth into")
    gen.add_argument("--count", type=int, default=20)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--strength", type=float, default=0.5, help="distortion strength 0..1")
    gen.add_argument("--quiet", action="store_true", help="no progress line on stderr (none when not a terminal)")
    gen.add_argument("--kind", help="one scene kind only (default: all kinds in turn)")
    gen.add_argument("--varied", action="store_true",
                     help="roulette: each wheel's design drawn from its seed, and the kinds with the ball hidden "
                          "mid-spin among those in turn")
    gen.set_defaults(run=generate)
    parser.set_defaults(run=lambda args: (parser.print_help(), 2)[1])


def _points(items: list[str] | None, flag: str) -> tuple[tuple[float, float], ...] | None:
    if not items:
        return None
    out = []
    for item in items:
        try:
            x, y = (float(v) for v in item.split(","))
        except ValueError:
            raise UsageError(f"{flag} {item!r}: expected X,Y in pixels") from None
        out.append((x, y))
    if len(out) < 3:
        raise UsageError(f"{flag}: needs at least 3 corners")
    return tuple(out)


def _image(path: str):
    import cv2
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UsageError(f"{path}: cannot read as an image")
    return image


def calibrate(args: argparse.Namespace) -> int:
    from drivers.vision import calibration as cal_mod
    from drivers.vision.dice import DiceReader
    image = _image(args.image)
    if args.roulette:
        from drivers.vision.roulette import find_wheel
        wheel = find_wheel(image)
        if wheel is None:
            raise UsageError(f"{args.image}: no wheel found")
        cal_mod.save(Path(args.out), wheel)
        print_json(wheel.to_json())
        return 0
    h, w = image.shape[:2]
    area = _points(args.area, "--area") or ((0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0))
    die = args.die_px
    if die is None:
        if args.empty:
            raise UsageError("--empty frame has no dice to measure: give --die-px")
        die = DiceReader()._die_size(image)
    if not 4 <= die <= min(w, h) / 2:
        raise UsageError(f"die size {die:.1f} px is not plausible for a {w}x{h} frame; give --die-px")
    calibration = cal_mod.DiceCalibration(area, float(die), (w, h), image if args.empty else None,
                                          _points(args.table, "--table"))
    sizes_frame = _image(args.sizes_from) if args.sizes_from else None if args.empty else image
    if sizes_frame is not None:
        if sizes_frame.shape != image.shape:
            raise UsageError(f"{args.sizes_from}: frame size differs from {args.image}")
        calibration.die_sizes = DiceReader(calibration).measure_die_sizes(sizes_frame)
    cal_mod.save(Path(args.out), calibration)
    print_json(calibration.to_json(Path(args.out).with_suffix(".felt.png").name if args.empty else None))
    return 0


def check(args: argparse.Namespace) -> int:
    from drivers.vision import calibration as cal_mod
    try:
        calibration = cal_mod.load(Path(args.calibration))
    except cal_mod.CalibrationError as exc:
        raise UsageError(str(exc)) from None
    problem = calibration.check(_image(args.image))
    if problem:
        print(problem)
        return 1
    if getattr(calibration, "felt", True) is None:
        print("ok: the frame has the calibrated size and shows a scene (the calibration has no felt reference, "
              "so the view itself was not compared: calibrate with --empty for that)")
    else:
        print("ok: the frame fits the calibration")
    return 0


def generate(args: argparse.Namespace) -> int:
    import cv2
    from drivers.vision import synth_dice
    from drivers.vision.calibration import DiceCalibration
    from drivers.vision.dice import DiceReader
    if args.what == "roulette":
        return _generate_roulette(args)
    if args.kind is not None and args.kind not in synth_dice.KINDS:
        raise UsageError(f"--kind {args.kind!r}: one of {', '.join(synth_dice.KINDS)}")
    if not 0 <= args.strength <= 1:
        raise UsageError(f"--strength {args.strength}: expected 0..1")
    if args.count < 1:
        raise UsageError("--count must be at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    progress = Progress("vision generate dice", args.count, "scenes", quiet=args.quiet)
    for i in range(args.count):
        progress(i)
        kind = args.kind or synth_dice.KINDS[i % len(synth_dice.KINDS)]
        seed = args.seed + i
        image, truth, frame = synth_dice.scene_with_calibration_frame(seed, kind, args.strength)
        name = f"dice_{seed:06d}_{kind}"
        cv2.imwrite(str(out / f"{name}.png"), image)
        (out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        # the calibration a technician makes of that table: its geometry and the die size per colour, measured
        # from a frame with one flat die of each colour (as the benchmark reads the same scene)
        cd = truth["calibration"]
        calibration = DiceCalibration(tuple(tuple(p) for p in cd["area"]), cd["die_px"], tuple(cd["size"]), None,
                                      tuple(tuple(p) for p in cd["table"]))
        calibration.die_sizes = DiceReader(calibration, face_model=False).measure_die_sizes(frame)
        (out / f"{name}.cal.json").write_text(json.dumps(calibration.to_json(None), indent=1) + "\n",
                                              encoding="utf-8")
    progress(args.count)
    print(f"wrote {args.count} dice scenes to {out}")
    return 0


def _generate_roulette(args: argparse.Namespace) -> int:
    import cv2
    from drivers.vision import synth_roulette
    kinds = synth_roulette.ALL_KINDS if args.varied else synth_roulette.KINDS
    if args.kind is not None and args.kind not in synth_roulette.ALL_KINDS:
        raise UsageError(f"--kind {args.kind!r}: one of {', '.join(synth_roulette.ALL_KINDS)}")
    if not 0 <= args.strength <= 1 or args.count < 1:
        raise UsageError("--strength must be 0..1 and --count at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    progress = Progress("vision generate roulette", args.count, "spins", quiet=args.quiet)
    for i in range(args.count):
        progress(i)
        kind = args.kind or kinds[i % len(kinds)]
        seed = args.seed + i
        name = f"spin_{seed:06d}_{kind}"
        if args.frames:
            folder = out / name
            folder.mkdir(exist_ok=True)
            for f, frame in enumerate(synth_roulette.frames(seed, kind, args.strength, varied=args.varied)):
                cv2.imwrite(str(folder / f"{f:05d}.png"), frame)
        else:
            fourcc = cv2.VideoWriter_fourcc(*"MJPG")  # type: ignore[attr-defined]  # not in OpenCV's stubs
            writer = cv2.VideoWriter(str(out / f"{name}.avi"), fourcc, synth_roulette.FPS, synth_roulette.SIZE)
            for frame in synth_roulette.frames(seed, kind, args.strength, varied=args.varied):
                writer.write(frame)
            writer.release()
        (out / f"{name}.json").write_text(json.dumps(synth_roulette.truth(seed, kind, args.strength), indent=1)
                                          + "\n", encoding="utf-8")
    (out / "roulette.cal.json").write_text(json.dumps(synth_roulette.calibration().to_json(), indent=1) + "\n",
                                           encoding="utf-8")
    progress(args.count)
    print(f"wrote {args.count} roulette spins to {out}")
    return 0
