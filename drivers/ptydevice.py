"""A pseudo-terminal that stands in for a USB serial adapter, for the device emulators.

``PtyPort`` opens a pty pair, puts it in raw mode, optionally points a stable
symlink at the slave (``/tmp/x/shoe`` -> ``/dev/pts/7``) and can "unplug"
(close the master, so the driver's next read fails, and remove the symlink)
and "replug" (a new pty behind the same symlink). The emulator owns the
master end; the driver opens the slave path like any serial port.
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import select
import struct
import termios
import time
import tty
from dataclasses import dataclass, fields


class PtyPort:
    """The master side of one pty, non-blocking, with an outgoing buffer."""

    def __init__(self, link_path: str | None = None) -> None:
        self.link_path = link_path
        self.master: int | None = None
        self._slave: int | None = None
        self.slave_name: str | None = None
        self._out = bytearray()

    @property
    def path(self) -> str:
        """What the driver opens: the symlink if there is one, else the pty's own name."""
        if self.link_path:
            return self.link_path
        if self.slave_name is None:
            raise RuntimeError("pty not open")
        return self.slave_name

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> str:
        """Open a fresh pty (and point the symlink at it); returns the path to open."""
        if self.master is not None:
            return self.path
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass through untouched
        os.set_blocking(master, False)
        self.master, self._slave = master, slave
        self.slave_name = os.ttyname(slave)
        self._out.clear()
        if self.link_path:
            tmp = f"{self.link_path}.new{os.getpid()}"
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink(self.slave_name, tmp)
            os.replace(tmp, self.link_path)
        return self.path

    def unplug(self) -> None:
        """Close the pty: the driver's next read fails (EIO), as with a pulled USB adapter."""
        if self.link_path:
            try:
                os.unlink(self.link_path)
            except FileNotFoundError:
                pass
        for fd in (self.master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self._slave = None
        self._out.clear()

    def unread(self) -> int:
        """Bytes written to the driver that it has not read yet (the slave's input queue)."""
        if self._slave is None:
            return 0
        try:
            return struct.unpack("i", fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return 0

    def drain(self, timeout: float) -> bool:
        """Wait (up to ``timeout``) until the driver has read everything; a clean stop loses no bytes."""
        deadline = time.monotonic() + timeout
        quiet = 0
        while time.monotonic() < deadline:
            self.flush()
            # The kernel moves bytes from the master to the slave's queue a little later: want two quiet looks.
            quiet = quiet + 1 if not self._out and self.unread() == 0 else 0
            if quiet >= 3:
                return True
            time.sleep(0.01)
        return False

    def write(self, data: bytes) -> None:
        """Queue bytes and write what the pty takes now (never blocks)."""
        if self.master is None:
            return
        self._out += data
        self.flush()

    def flush(self) -> None:
        while self._out and self.master is not None:
            try:
                n = os.write(self.master, self._out)
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EBADF):
                    self._out.clear()  # nobody on the other side; a real line would lose these bytes too
                    return
                raise
            del self._out[:n]

    @property
    def pending_out(self) -> bool:
        return bool(self._out)

    def read(self) -> bytes:
        """Whatever the driver wrote, or b"" (never blocks)."""
        if self.master is None:
            return b""
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise

    def wait(self, timeout: float, wake_fd: int | None = None) -> None:
        """Sleep until the driver wrote something, the pty can take queued bytes, ``wake_fd`` fires, or timeout."""
        rlist = [fd for fd in (self.master, wake_fd) if fd is not None]
        wlist = [self.master] if self.master is not None and self._out else []
        if not rlist and not wlist:
            select.select([], [], [], max(0.0, timeout))
            return
        select.select(rlist, wlist, [], max(0.0, timeout))


@dataclass(frozen=True, slots=True)
class LineFaults:
    """Per-transmission probabilities (0..1) of spoiling what an emulator sends, and their seed."""

    noise: float = 0.0      # a burst of 1..12 random bytes before the transmission
    flip: float = 0.0       # one bit of it flipped
    drop: float = 0.0       # not sent at all
    duplicate: float = 0.0  # sent twice
    seed: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "seed" and not 0.0 <= value <= 1.0:
                raise ValueError(f"fault {f.name}={value}: expected a probability between 0 and 1")


class SpoilingWriter:
    """Writes transmissions to a pty, spoiling them as ``faults`` says (seeded), and counts what it did."""

    def __init__(self, pty: PtyPort, faults: LineFaults, rng: random.Random) -> None:
        self.pty = pty
        self.faults = faults
        self.rng = rng
        self.sent = self.dropped = self.duplicated = self.flipped = self.noise_bursts = 0

    def transmit(self, raw: bytes) -> None:
        f, rng = self.faults, self.rng
        if f.noise and rng.random() < f.noise:
            self.noise_bursts += 1
            self.pty.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 12))))
        if f.drop and rng.random() < f.drop:
            self.dropped += 1
            return
        if f.flip and rng.random() < f.flip:
            self.flipped += 1
            spoiled = bytearray(raw)
            spoiled[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
            raw = bytes(spoiled)
        self.pty.write(raw)
        self.sent += 1
        if f.duplicate and rng.random() < f.duplicate:
            self.duplicated += 1
            self.pty.write(raw)
