"""Frame sources behind one interface, and a capture thread that hands on only small results.

A source yields ``(index, frame)`` pairs: a still image, a folder of frames
(sorted by name), a video file, a V4L2/USB camera through ``cv2.VideoCapture``
or the Pi camera through picamera2 where it is installed.  ``CaptureThread``
reads a source in its own thread, runs a reader on each frame there, and
passes only the reader's small result to a callback (the daemon wraps that
in ``loop.call_soon_threadsafe``): frames never cross threads.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov")


class SourceError(Exception):
    """A source that cannot be opened; the message names it."""


class FrameSource(Protocol):
    name: str

    def frames(self) -> Iterator[tuple[int, np.ndarray]]: ...


class ImageSource:
    """One still image."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self.path = path

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{self.path}: cannot read as an image")
        yield 0, image


class FolderSource:
    """Every image in a folder, in name order (frames of a recording)."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self.files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise SourceError(f"{path}: no image files in this folder")

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        for i, f in enumerate(self.files):
            image = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{f}: cannot read as an image")
            yield i, image


class CaptureSource:
    """A video file or a camera through ``cv2.VideoCapture``."""

    def __init__(self, target: str | int, size: tuple[int, int] | None = None) -> None:
        self.name = str(target)
        self.target = target
        self.size = size

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            raise SourceError(f"{self.name}: cannot open as a video or camera")
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        try:
            i = 0
            while True:
                ok, frame = cap.read()
                if not ok:
                    return
                yield i, frame
                i += 1
        finally:
            cap.release()


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (only where that package is installed)."""

    def __init__(self, size: tuple[int, int] = (640, 480)) -> None:
        self.name = "picamera2"
        self.size = size

    def frames(self) -> Iterator[tuple[int, np.ndarray]]:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise SourceError("picamera2 is not installed on this machine") from None
        cam = Picamera2()
        cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "BGR888"}))
        cam.start()
        try:
            i = 0
            while True:
                yield i, cam.capture_array()
                i += 1
        finally:
            cam.stop()


def open_source(spec: str, size: tuple[int, int] | None = None) -> FrameSource:
    """A source from a command-line word: a file, a folder, ``camera:N`` or ``picamera``; ``size`` (w, h) is
    asked of a camera (the Pi camera's default is 640x480), a file or folder gives its frames as they are."""
    if spec.startswith("camera:"):
        try:
            return CaptureSource(int(spec.split(":", 1)[1]), size)
        except ValueError:
            raise SourceError(f"{spec}: camera index must be a number, e.g. camera:0") from None
    if spec == "picamera":
        return PiCameraSource(size or (640, 480))
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if not path.exists():
        raise SourceError(f"{spec}: no such file or folder")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource(path)
    return CaptureSource(str(path))


class CaptureThread(threading.Thread):
    """Reads a source and runs ``process`` on each frame in this thread; ``emit`` gets the results.

    ``process`` returns None (nothing to say) or a small value (a frozen
    result); only that value crosses to ``emit``.  ``stop()`` ends the loop.
    A source error is handed to ``on_error`` as text.
    """

    def __init__(self, source: FrameSource, process: Callable[[int, np.ndarray], Any],
                 emit: Callable[[Any], None], on_error: Callable[[str], None] | None = None) -> None:
        super().__init__(name=f"capture:{source.name}", daemon=True)
        self.source, self.process, self.emit, self.on_error = source, process, emit, on_error
        self._stop_event = threading.Event()

    def stop(self) -> None:
        self._stop_event.set()

    def run(self) -> None:
        try:
            for index, frame in self.source.frames():
                if self._stop_event.is_set():
                    return
                result = self.process(index, frame)
                if result is not None:
                    self.emit(result)
        except SourceError as exc:
            if self.on_error is not None:
                self.on_error(str(exc))
