"""The dice camera as an input device: frames from a source, the still gate, the real dice reader (drivers/vision).

``CameraDevice`` runs on a ``drivers.vision.sources.CaptureThread``: every
frame goes through a ``StillGate``; once the scene has been still for
``still_frames`` frames (0: every frame is a still scene, e.g. a folder of
stills, one per throw) the frame is read by ``drivers.vision.dice.DiceReader``
and one frozen ``DiceRead`` record is posted: the reader's status (``ok``,
``void``, ``unsure``), the values and colours it read (``None`` where a face
could not be read) and its reason. Only that small record crosses to the event
loop; what it means at the table (a ``Dice`` event, a ``Void``, a result held
for the croupier's confirmation) is decided in controller/runtime/translate.py.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Mapping

from controller import games
from controller.games.contract import GameSpec
from controller.runtime.simulate import SimulatedPanel
from controller.events import Dice
from drivers.vision.events import DiceRead, SpinRead



def dice_read(result: Any) -> DiceRead:
    """A ``drivers.vision.dice.DiceResult`` as the frozen record the runtime translates."""
    return DiceRead(str(result.status), tuple(d.value for d in result.dice), tuple(str(d.color) for d in result.dice),
                    str(result.reason))


def load_calibration(path: str, kind: str = "dice") -> Any:
    """A calibration file of ``kind``: ``dice`` (``tablectl vision calibrate``) or ``roulette`` (``--roulette``);
    ValueError in one line, for the file missing, unreadable or of the other kind."""
    from pathlib import Path

    from drivers.vision.calibration import CalibrationError, DiceCalibration, RouletteCalibration, load

    wanted, other, flag = (DiceCalibration, "roulette", "") if kind == "dice" else (RouletteCalibration, "dice",
                                                                                     " --roulette")
    try:
        loaded = load(Path(path))
    except CalibrationError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(loaded, wanted):
        raise ValueError(f"{path}: a {other} calibration, not a {kind} one (make one with "
                         f"'tablectl vision calibrate{flag}')")
    return loaded


def make_reader(game: str | GameSpec, calibration: Any = None) -> Any:
    """The real dice reader for ``game`` (the dice count and colours its ``reader`` declares); ``calibration``
    a file path or a calibration."""
    from drivers.vision.dice import DiceOptions, DiceReader

    spec = games.load_game(game) if isinstance(game, str) else game
    reader = spec.reader
    count, colors = (reader.count, reader.colors) if reader is not None and reader.kind == "dice" else (None, ())
    cal = calibration if calibration is not None and not isinstance(calibration, str) else \
        load_calibration(calibration) if calibration else None
    return DiceReader(cal, DiceOptions(count=count, colors=colors))


class CameraDevice:
    """The camera as an ``InputDevice``: one ``DiceRead`` per still throw, read on its own capture thread.

    The roulette camera (controller/runtime/roulette_camera.py) is this device with another ``_read``.
    """

    fits_words = "throw area and die size"

    def __init__(self, name: str, open_source: Callable[[], Any], reader: Any, still_frames: int = 6,
                 ends: bool = False) -> None:
        self.name = name
        self._open = open_source
        self.reader = reader
        self.still_frames = still_frames
        self.ends = ends  # a folder or a video file ends; a camera that stops is a fault
        self.frames = self.reads = 0
        self.last: Any = None  # the last record posted (a DiceRead, a SpinRead)
        self._last_frame: Any = None
        self.error: str | None = None
        self._thread: Any = None
        self._gate: Any = None
        self._lock = threading.Lock()

    def start(self, post: Callable[[object], None]) -> None:
        from drivers.vision.sources import CaptureThread, SourceError
        from drivers.vision.still import StillGate

        self._gate = StillGate(frames=self.still_frames) if self.still_frames > 0 else None
        try:
            source = self._open()
        except (SourceError, OSError) as exc:
            self.error = str(exc)
            return
        self._thread = CaptureThread(source, self._process, post, self._failed)
        self._thread.start()

    def _failed(self, text: str) -> None:
        self.error = text

    def _process(self, index: int, frame: Any) -> Any:
        """On the capture thread: count the frame, keep it for ``calibrate``, post what ``_read`` makes of it."""
        with self._lock:
            self.frames += 1
            self._last_frame = frame
        return self._posted(self._read(index, frame))

    def _posted(self, read: Any) -> Any:
        """Count a record about to be posted (None: nothing to post) and keep it as the last one."""
        if read is not None:
            with self._lock:
                self.reads += 1
                self.last = read
        return read

    def _read(self, index: int, frame: Any) -> DiceRead | SpinRead | None:
        """The dice: gate the frame, read it once it is still."""
        if self._gate is not None and not self._gate.update(frame):
            return None
        try:
            return dice_read(self.reader.read(frame))
        except Exception as exc:  # the reader promises not to raise; if it does, the throw is unsure
            return DiceRead("unsure", (), (), f"the reader failed: {exc!r}")

    def calibration(self) -> Any:
        """The calibration the reader uses (None: none)."""
        return getattr(self.reader, "calibration", None)

    def calibrate(self) -> list[str]:
        """The console's ``calibrate camera`` on a running table: does the stored calibration still fit the view?

        A new calibration needs the empty felt and the throw area (``tablectl vision calibrate``, with the
        table closed); here the camera's latest frame is checked against the one in use.
        """
        with self._lock:
            frame = self._last_frame
        calibration = self.calibration()
        if frame is None:
            raise ValueError(f"{self.name} has not delivered a frame yet")
        if calibration is None:
            return [f"{self.name}: no calibration in use (the whole frame is the throw area); make one with "
                    f"'tablectl vision calibrate' and name it in [devices.{self.name}] calibration"]
        problem = calibration.check(frame)
        if problem:
            return [f"{self.name}: the calibration does NOT fit the current view: {problem}",
                    "Recalibrate with 'tablectl vision calibrate' (table closed) before trusting reads."]
        return [f"{self.name}: the calibration fits the current view ({self.fits_words})."]

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread.join(timeout=2.0)

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def health(self) -> Mapping[str, Any]:
        ok = self.error is None and (self.running() or (self.ends and self._thread is not None))
        out: dict[str, Any] = {"ok": ok, "frames": self.frames, "reads": self.reads,
                               "last": None if self.last is None else self.last.status}
        if self.error is not None:
            out["error"] = self.error
        return out


def build_camera(name: str, driver: str, settings: Mapping[str, Any], game: str | GameSpec) -> CameraDevice:
    """``[devices.camera]`` with driver ``opencv`` (a camera index or a video) or ``files`` (a folder or a video)."""
    from drivers.vision.sources import CaptureSource, open_source

    source = settings["source"]
    reader = make_reader(game, settings.get("calibration"))
    still = int(settings.get("still_frames", 6))
    if driver == "opencv" and isinstance(source, int):
        size = (int(settings["width"]), int(settings["height"])) if "width" in settings and "height" in settings \
            else None
        return CameraDevice(name, lambda: CaptureSource(source, size), reader, still)
    return CameraDevice(name, lambda: open_source(str(source)), reader, still, ends=True)


class EmulatedCamera(SimulatedPanel):
    """``--simulate``: the camera over the seeded dice the virtual croupier throws, read by the real reader.

    ``send(Dice)`` renders the throw with drivers/vision's synthetic scene
    parts (the felt, each die with its colour and face, at seeded places in the
    throw area), now and then with a hand reaching into the throw area (the
    reader is then unsure, ``disturb`` of the throws), reads the image with the
    real ``DiceReader`` and posts the ``DiceRead``. ``truth`` is the last throw
    as thrown: the virtual croupier confirms an unsure result with it.
    """

    def __init__(self, name: str, game: str | GameSpec, seed: int, disturb: float = 0.15) -> None:
        import random

        super().__init__(name)
        self.game = game
        self._reader: Any = None  # the real reader on the synthetic calibration: built after ``ready``
        self._loading: threading.Thread | None = None
        self.rng = random.Random(f"camera:{seed}")
        self.disturb = disturb
        self.truth: tuple[tuple[int, ...], tuple[str, ...]] | None = None
        self.reads = 0
        self.counts: dict[str, int] = {"ok": 0, "void": 0, "unsure": 0}

    def _build_reader(self) -> None:
        from drivers.vision import synth_dice

        self._reader = make_reader(self.game, synth_dice.calibration())

    def after_ready(self) -> None:
        """Once the table is ready: the reader and its modules (OpenCV, numpy) load on a thread of their own,
        off the start's path; the first throw waits for them if it comes sooner."""
        if self._reader is None and self._loading is None:
            self._loading = threading.Thread(target=self._build_reader, name="camera reader", daemon=True)
            self._loading.start()

    @property
    def reader(self) -> Any:
        """The real ``DiceReader`` on the synthetic scenes' calibration (the same whenever it is built)."""
        if self._reader is None:
            if self._loading is not None:
                self._loading.join()
            if self._reader is None:  # not loaded (no ready yet, or the thread failed): built here
                self._build_reader()
        return self._reader

    def health(self) -> Mapping[str, Any]:
        # the counts under their own key: spread out, the count of ok reads would be the device's "ok"
        return {**super().health(), "emulated": "synthetic scenes", "results": dict(self.counts)}

    def render(self, values: tuple[int, ...], colors: tuple[str, ...], hand: bool) -> Any:
        """The throw as the camera would see it (BGR image)."""
        import cv2
        import numpy as np

        from drivers.vision import synth_dice

        image = synth_dice.felt(np.random.default_rng(self.rng.randrange(1 << 30)))
        (x0, y0), (x1, y1) = synth_dice.AREA[0], synth_dice.AREA[2]
        margin = synth_dice.DIE_PX * 1.2
        taken: list[tuple[float, float]] = []
        for value, color in zip(values, colors):
            for _ in range(200):  # a free place, two dice apart from the others
                x, y = self.rng.uniform(x0 + margin, x1 - margin), self.rng.uniform(y0 + margin, y1 - margin)
                if all((x - a) ** 2 + (y - b) ** 2 > (2.2 * synth_dice.DIE_PX) ** 2 for a, b in taken):
                    break
            taken.append((x, y))
            synth_dice.draw_die(image, synth_dice.SynthDie(value, color, x, y, self.rng.uniform(0, 90)))
        if hand:  # the croupier's hand reaching in from the near side
            x = int(self.rng.uniform(150, 500))
            cv2.ellipse(image, (x, 470), (110, 150), 0, 180, 360, (120, 160, 215), -1, cv2.LINE_AA)
        return image

    def send(self, raw: object) -> None:
        """The virtual croupier throws ``raw`` (a ``Dice``); anything else is posted as it is."""
        if not isinstance(raw, Dice):
            if self._post is not None:
                self._post(raw)
            return
        values = tuple(int(v) for v in getattr(raw, "values"))
        colors = tuple(getattr(raw, "colors", None) or ("white",) * len(values))
        self.truth = (values, colors)
        image = self.render(values, colors, hand=self.rng.random() < self.disturb)
        read = dice_read(self.reader.read(image))
        self.reads += 1
        self.counts[read.status] = self.counts.get(read.status, 0) + 1
        super().send(read)
