"""The roulette camera as an input device: every frame to the real roulette reader (drivers/vision/roulette.py).

``RouletteCamera`` is the dice camera's ``CameraDevice`` (camera.py) with
another per-frame step: no still gate (the reader follows the ball and the
rotor through the motion itself); every frame goes to a ``SpinWatcher`` on the
capture thread, and when a spin ends one frozen ``SpinRead`` record is posted
(the reader's status ``ok``/``void``/``unsure``, the number, the reason, the
ball's and the rotor's directions). Only that record crosses to the event
loop; controller/runtime/translate.py decides what it means at the table.

The wheel's geometry comes from ``[devices.camera] calibration`` (the file
``tablectl vision calibrate --roulette`` writes, checked at start), or, without
one, from ``find_wheel`` on the first frames the camera delivers. A camera that
shows no wheel it can use is not ok (``health()`` says why, the daemon latches
``device_silent.camera`` with that line).

``EmulatedRouletteCamera`` is ``--simulate``: when the virtual croupier
launches the ball (a ``Wheel`` event with the seeded number), a synthetic
spin (drivers/vision/synth_roulette.py) landing on that number is rendered
and read by the same ``SpinWatcher`` on the emulator's own thread.
"""

from __future__ import annotations

import queue
import random
import threading
from typing import Any, Callable, Iterator, Mapping

from controller.runtime.camera import CameraDevice, load_calibration
from controller.runtime.simulate import SimulatedPanel
from controller.events import Wheel
from drivers.vision.events import SpinRead

FIND_FRAMES = 30
"""Frames (1 s at 30 fps) on which ``find_wheel`` may find the wheel before the camera is declared unusable."""


def spin_read(result: Any) -> SpinRead:
    """A ``drivers.vision.roulette.SpinResult`` as the frozen record the runtime translates."""
    number = result.number if result.status == "ok" else None
    return SpinRead(str(result.status), None if number is None else int(number), str(result.reason),
                    result.ball_direction, result.rotor_direction)


class SpinWatcher:
    """Frames in order -> a ``SpinRead`` when a spin ends; the reader is made once the wheel's geometry is known.

    ``problem`` is set (and nothing is read any more) when the camera cannot be
    used: a calibration made for another frame size, or no wheel found in the
    first ``FIND_FRAMES`` frames.
    """

    def __init__(self, calibration: Any = None, options: Any = None) -> None:
        from drivers.vision.roulette import RouletteOptions, RouletteReader

        self.options = options or RouletteOptions()
        self.given = calibration is not None
        self.reader: Any = RouletteReader(calibration, self.options) if calibration is not None else None
        self.looked = 0  # frames find_wheel has been tried on
        self.size_checked = False
        self.problem: str | None = None

    @property
    def calibration(self) -> Any:
        return None if self.reader is None else self.reader.cal

    def update(self, index: int, frame: Any) -> SpinRead | None:
        if self.problem is not None:
            return None
        if self.reader is None and not self._find(frame):
            return None
        if self.given and not self.size_checked:
            self.size_checked = True
            size = self.reader.cal.size
            if (frame.shape[1], frame.shape[0]) != tuple(size):
                self.problem = (f"the calibration is for {size[0]}x{size[1]} frames, the camera gives "
                                f"{frame.shape[1]}x{frame.shape[0]}: recalibrate with 'tablectl vision calibrate "
                                f"--roulette'")
                return None
        try:
            result = self.reader.update(index, frame)
        except Exception as exc:  # a reader bug must not stop the camera: the spin is the croupier's to confirm
            self.reader.reset()
            return SpinRead("unsure", None, f"the reader failed: {exc!r}")
        return None if result is None else spin_read(result)

    def finish(self) -> SpinRead | None:
        """The frames ended (a file source): a spin still going is unsure."""
        result = None if self.reader is None or self.problem is not None else self.reader.finish()
        return None if result is None else spin_read(result)

    def _find(self, frame: Any) -> bool:
        from drivers.vision.roulette import RouletteReader, find_wheel

        self.looked += 1
        found = find_wheel(frame)
        if found is not None and not found.check(frame):
            self.reader = RouletteReader(found, self.options)
            return True
        if self.looked >= FIND_FRAMES:
            self.problem = (f"no roulette wheel found in the first {FIND_FRAMES} frames: point the camera at the "
                            f"wheel, or name a calibration from 'tablectl vision calibrate --roulette'")
        return False


class _WithEnd:
    """A frame source that says when it ended: ``(-1, None)`` after its last frame (a folder, a video file)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.name = source.name

    def frames(self) -> Iterator[tuple[int, Any]]:
        yield from self.source.frames()
        yield -1, None


class RouletteCamera(CameraDevice):
    """The camera over the wheel: every frame to a ``SpinWatcher``; one ``SpinRead`` per spin."""

    fits_words = "wheel centre and ball track"

    def __init__(self, name: str, open_source: Callable[[], Any], watcher: SpinWatcher, ends: bool = False) -> None:
        super().__init__(name, (lambda: _WithEnd(open_source())) if ends else open_source, watcher, 0, ends)

    def _process(self, index: int, frame: Any) -> Any:
        if frame is None:  # the file source ended
            return self._posted(self.reader.finish())
        read = super()._process(index, frame)
        if self.reader.problem is not None and self.error is None:
            self.error = self.reader.problem
            if self._thread is not None:
                self._thread.stop()  # nothing more can be read: stop reading frames
        return read

    def _read(self, index: int, frame: Any) -> SpinRead | None:
        return self.reader.update(index, frame)

    def calibration(self) -> Any:
        return self.reader.calibration

    def calibrate(self) -> list[str]:
        """The console's ``calibrate camera``: the wheel geometry in use against the latest frame."""
        if self.reader.problem is not None:
            return [f"{self.name}: {self.reader.problem}"]
        if self.calibration() is None and self._last_frame is not None:
            return [f"{self.name}: the wheel has not been found yet (looked at {self.reader.looked} frames); name a "
                    f"calibration from 'tablectl vision calibrate --roulette' in [devices.{self.name}] calibration"]
        return super().calibrate()


def build_roulette_camera(name: str, driver: str, settings: Mapping[str, Any]) -> RouletteCamera:
    """``[devices.camera]`` of a roulette table: ``opencv`` (a camera index or a video) or ``files``."""
    from drivers.vision.sources import CaptureSource, open_source

    source = settings["source"]
    calibration = settings.get("calibration")
    watcher = SpinWatcher(load_calibration(str(calibration), "roulette") if calibration else None)
    if driver == "opencv" and isinstance(source, int):
        size = (int(settings["width"]), int(settings["height"])) if "width" in settings and "height" in settings \
            else None
        return RouletteCamera(name, lambda: CaptureSource(source, size), watcher)
    return RouletteCamera(name, lambda: open_source(str(source)), watcher, ends=True)


KINDS = (("ok", 0.8), ("same_direction", 0.84), ("few_turns", 0.87), ("left_wheel", 0.9), ("no_rest", 1.0))
"""The emulated spins: kind and cumulative share (ok 80 %, three voids 10 %, the ball never at rest 10 %: unsure)."""


class EmulatedRouletteCamera(SimulatedPanel):
    """``--simulate``: the camera over the seeded spins the virtual croupier launches, read by the real reader.

    ``send(Wheel)`` queues one spin; the emulator's thread renders it with
    drivers/vision/synth_roulette (landing on the seeded number; now and then
    launched the rotor's way, with too few turns, leaving the wheel, or never
    coming to rest), feeds the frames to a ``SpinWatcher`` until it answers and
    posts the ``SpinRead``. Each spin starts on a reset reader (the croupier
    took the ball out: on a real wheel that is 90 quiet frames, not worth
    rendering). ``truth`` is the number launched: the virtual croupier
    confirms an unsure result with it.
    """

    settle_s = 60.0  # the virtual croupier waits this long for the read (a spin is about 200 frames)
    looked_at = "the wheel"

    def __init__(self, name: str, seed: int) -> None:
        from drivers.vision import synth_roulette

        super().__init__(name)
        self.watcher = SpinWatcher(synth_roulette.calibration())
        self.rng = random.Random(f"camera:{seed}")
        self.truth: int | None = None
        self.reads = self.frames = self.wrong = 0
        self.counts: dict[str, int] = {"ok": 0, "void": 0, "unsure": 0}
        self._spins: queue.Queue[tuple[int, str, int] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self, post: Callable[[object], None]) -> None:
        super().start(post)
        self._thread = threading.Thread(target=self._run, name=f"emulated-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        super().stop()
        self._stopping.set()  # a spin being rendered ends at its next frame
        self._spins.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def health(self) -> Mapping[str, Any]:
        alive = self._thread is not None and self._thread.is_alive()
        return {**super().health(), "ok": self._post is not None and alive, "emulated": "synthetic spins",
                "frames": self.frames, "results": dict(self.counts), "wrong": self.wrong}

    def confirmation(self) -> dict[str, Any]:
        """What the croupier confirms an unsure spin with: the number the ball was launched to land on."""
        return {"number": self.truth}

    def send(self, raw: object) -> None:
        """The virtual croupier launches the ball for ``raw`` (a ``Wheel``); anything else is posted as it is."""
        if not isinstance(raw, Wheel):
            super().send(raw)
            return
        number = int(getattr(raw, "number"))
        self.truth = number
        draw = self.rng.random()
        kind = next(k for k, share in KINDS if draw < share)
        self._spins.put((self.rng.randrange(1 << 30), kind, number))

    def read(self, seed: int, kind: str, number: int) -> SpinRead:
        """Render one spin and read it (on the calling thread)."""
        from drivers.vision import synth_roulette

        assert self.watcher.reader is not None
        self.watcher.reader.reset()
        answer = None
        for index, frame in enumerate(synth_roulette.frames(seed, kind, number=number)):
            if self._stopping.is_set():
                break
            self.frames += 1
            answer = self.watcher.update(index, frame)
            if answer is not None:
                break
        answer = answer or self.watcher.finish()
        return answer or SpinRead("unsure", None, "the camera saw no spin")

    def _run(self) -> None:
        while True:
            spin = self._spins.get()
            if spin is None:
                return
            read = self.read(*spin)
            post = self._post  # None once stopped: a spin read while the daemon stops is not posted
            if post is None:
                return
            self.reads += 1
            self.counts[read.status] = self.counts.get(read.status, 0) + 1
            self.wrong += int(read.status == "ok" and read.number != spin[2])  # a confident wrong number
            self.posted += 1
            post(read)
