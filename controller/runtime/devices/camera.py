"""The camera over the dice or the wheel: drivers/vision (docs/devices/vision.md).

Drivers ``opencv`` (a camera index or a video) and ``files`` (a folder of frames or a video): at a dice
table ``controller.runtime.camera.CameraDevice``, the real dice reader of drivers/vision on a capture
thread behind the still gate; at a roulette table ``roulette_camera.RouletteCamera``, every frame to the
real roulette reader. What it reads is the game's declared ``reader``. Under ``--simulate`` (and driver
``synthetic``) an ``EmulatedCamera`` / ``EmulatedRouletteCamera``: the seeded throw or spin rendered as
synthetic frames and read by the same reader. A camera on a game without a camera reader, or beside a
roulette table's wheel reader, is refused.

Its events: a sure read is the game's ``Dice`` or ``Wheel``, a void read voids the throw or spin, an unsure
one is held for the croupier's confirmation, and ``fail_limit`` unsure reads in a row latch
``reader_failing.camera``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from controller import checks
from controller.events import Dice, Void, Wheel
from controller.runtime.devices.base import Context, DeviceKind, StartProblem
from controller.runtime.intents import Handler, Hold, Latch, Noted, Submit, TableView, Translation, one
from drivers import events as ev

if TYPE_CHECKING:
    from controller.config import DeviceConfig, TableConfig

_SOURCE: checks.Check = lambda v: (  # noqa: E731
    None if not isinstance(v, bool) and (isinstance(v, int) and 0 <= v <= 9 or isinstance(v, str) and v.strip())
    else "a camera index (0, 1, ...) or a video file or folder path")
# the reader: frames the scene must be still before it is read (0: every frame), unsure reads in a row that
# latch reader_failing.camera, and an optional calibration file (drivers/vision/calibration.py)
_READER = {"still_frames": checks.int_range(0, 120), "fail_limit": checks.int_range(1, 100),
           "calibration": checks.text}
FAIL_LIMIT = 3  # unsure reads in a row that latch reader_failing.camera, unless the section says otherwise


def reads(spec: Any) -> str | None:
    """What the camera reads at the game's table (its declared ``reader``): ``dice``, ``roulette``, or None."""
    return spec.reader.camera if spec.reader is not None else None


def _camera_games() -> str:
    """The games a camera reads, by what it reads (from the games' declarations), for a refusal's one line."""
    from controller import games

    by_kind: dict[str, list[str]] = {}
    for spec in games.all_games():
        kind = reads(spec)
        if kind is not None:
            by_kind.setdefault(kind, []).append(spec.id)
    return " and ".join(f"the {'dice' if kind == 'dice' else 'wheel'} of {', '.join(ids)}"
                        for kind, ids in sorted(by_kind.items()))


def _refusal(config: "TableConfig") -> str | None:
    where, kind = f"{config.source}: devices.camera", reads(config.spec)
    if kind is None:
        return (f"{where}: {config.spec.id} has no camera reader (the camera reads {_camera_games()}); "
                f"remove the section")
    wheel = config.devices.get("wheel")
    if kind == "roulette" and wheel is not None and wheel.driver == "serial":
        return (f"{where}: the wheel reader ([devices.wheel]) already gives this table its numbers; "
                f"keep one of the two")
    return None


def _set(context: Context, device: "DeviceConfig", camera: Any) -> None:
    context.built.inputs[device.name] = camera
    context.built.simulation.results = camera  # the croupier's throws (or spins) are rendered for it
    context.built.simulation.gives.add("wheel")  # a roulette table needs no stand-in wheel reader beside it


def emulator(context: Context, device: "DeviceConfig") -> None:
    config = context.config
    problem = _refusal(config)
    if problem is not None:
        raise StartProblem(problem)
    if reads(config.spec) == "roulette":
        from controller.runtime.roulette_camera import EmulatedRouletteCamera
        _set(context, device, EmulatedRouletteCamera(device.name, context.seed))
    else:
        from controller.runtime.camera import EmulatedCamera
        _set(context, device, EmulatedCamera(device.name, config.spec, context.seed))


def real(context: Context, device: "DeviceConfig") -> None:
    config = context.config
    problem = _refusal(config)
    if problem is not None:
        raise StartProblem(problem)
    if "source" not in device.settings:
        raise StartProblem(f"{config.source}: devices.camera needs a source (a camera index, a folder or a video)")
    try:
        if reads(config.spec) == "roulette":
            from controller.runtime.roulette_camera import build_roulette_camera
            _set(context, device, build_roulette_camera(device.name, device.driver, device.settings))
        else:
            from controller.runtime.camera import build_camera
            _set(context, device, build_camera(device.name, device.driver, device.settings, config.spec))
    except Exception as exc:  # a calibration file that cannot be read, or not for this reader
        raise StartProblem(f"{config.source}: devices.camera cannot start: {exc}") from None


def check_files(config: "TableConfig", device: "DeviceConfig") -> list[str]:
    """The calibration file, read with the loader the camera uses (a dice one at a dice table, a roulette
    one at a roulette table)."""
    calibration = device.settings.get("calibration")
    kind = reads(config.spec)
    if not calibration or kind is None:
        return []  # a camera on a game without a reader is refused at start, and says so
    try:
        from controller.runtime.camera import load_calibration

        load_calibration(str(calibration), kind)
    except ImportError as exc:
        return [f"{config.source}: devices.camera.calibration: cannot be checked: {exc} "
                f"(the camera needs the vision extra: pip install 'tablectl[vision]')"]
    except ValueError as exc:
        return [f"{config.source}: devices.camera.calibration: {exc}"]
    return []


def dice_read(source: str, raw: ev.DiceRead, view: TableView) -> Translation:
    """The dice camera's read: ok -> Dice, void -> Void, unsure (or nonsense) -> held."""
    values, colors = tuple(raw.values), tuple(str(c) for c in raw.colors)
    reason = str(raw.reason) or "no reason given"
    if raw.status == "ok" and values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        dice = Dice(cast(tuple[int, ...], values), colors if len(colors) == len(values) else None)  # ints, checked
        return one(view.memory.counted(source, 0), Submit(dice))
    if raw.status == "void":
        return one(view.memory.counted(source, 0), Submit(Void(f"the {source} voided the throw: {reason}", source)))
    return held(source, view, raw.status, reason, values, colors, "dice")


def spin_read(source: str, raw: ev.SpinRead, view: TableView) -> Translation:
    """The roulette camera's read: ok -> Wheel, void -> Void, unsure (or nonsense) -> held."""
    number, reason = raw.number, str(raw.reason) or "no reason given"
    if raw.status == "ok" and isinstance(number, int) and not isinstance(number, bool):
        return one(view.memory.counted(source, 0), Submit(Wheel(number)))
    if raw.status == "void":
        return one(view.memory.counted(source, 0), Submit(Void(f"the {source} voided the spin: {reason}", source)))
    return held(source, view, raw.status, reason, (number if isinstance(number, int) else None,), (), "wheel")


def held(source: str, view: TableView, status: str, reason: str, values: tuple[Any, ...], colors: tuple[str, ...],
         kind: str) -> Translation:
    """An unsure read (or one that makes no sense): held for the croupier; ``fail_limit`` in a row latch."""
    count = view.memory.unsure.get(source, 0) + 1
    memory = view.memory.counted(source, count)
    hold = Hold(values, colors, reason if status == "unsure" else f"{status or 'no status'}: {reason}", kind)
    if count >= int(view.wiring.setting(source, "fail_limit", FAIL_LIMIT)):
        what, confirm = ("throws", "the dice") if kind == "dice" else ("spins", "the number")
        return one(memory, hold, Latch("reader_failing", f"the {source} was unsure of {count} {what} in a row "
                                                         f"(last: {reason}); confirm {confirm} by hand"))
    return one(memory, hold, Noted(f"{source}: unsure, held for the croupier"))


def refuse(config: "TableConfig", device: "DeviceConfig", simulate: bool) -> str | None:
    """A synthetic camera renders the simulated croupier's throws: only at a simulated table."""
    if device.driver == "synthetic" and not simulate:
        return (f"{config.source}: devices.camera.driver = 'synthetic' renders the simulated "
                f"croupier's throws: run with --simulate, or use opencv or files")
    return None


ROWS: dict[type, Handler] = {ev.DiceRead: dice_read, ev.SpinRead: spin_read}

KIND = DeviceKind(
    name="camera",
    drivers={"opencv": {"source": _SOURCE, "width": checks.int_range(160, 4096), "height": checks.int_range(120, 4096),
                        "fps": checks.int_range(1, 120), **_READER},
             "files": {"source": checks.text, **_READER}, "synthetic": {"fail_limit": checks.int_range(1, 100)},
             "simulated": {}},
    built_as={"opencv": "at a dice table `controller.runtime.camera.CameraDevice` (drivers/vision's "
                        "`DiceReader` behind the `StillGate`), at a roulette table "
                        "`controller.runtime.roulette_camera.RouletteCamera`, on a camera index or a video",
              "files": "the same, on a folder of frames or a video",
              "synthetic": "`--simulate` only: the seeded throws (or spins) rendered as synthetic scenes and "
                           "read by the real reader"},
    builds=frozenset({"synthetic", "opencv", "files"}),
    emulated=lambda device, simulate: simulate or device.driver == "synthetic",
    real=real,
    emulator=emulator,
    order=30,
    translate=ROWS,
    wiring={"fail_limit": FAIL_LIMIT},
    faults=("reader_failing", "device_silent"),
    check_files=check_files,
    refuse=refuse,
    docs="vision.md",
)
