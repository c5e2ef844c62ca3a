"""`tablectl console`: attach to a running daemon's console socket; `tablectl console hash-pin` makes a PIN hash."""

from __future__ import annotations

import argparse
import getpass
import os
import selectors
import socket
import sys

from controller.commands.common import UsageError
from controller.runtime.auth import hash_pin

DEFAULT_SOCKET = "/run/tablectl/console.sock"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("console", help="attach to the daemon's console, or make a PIN hash",
                                   description="attach (default): talk to a running daemon's console over its "
                                               "Unix socket. hash-pin: read a PIN twice without echo and print "
                                               "the scrypt hash to put in the table configuration.")
    parser.add_argument("what", nargs="?", choices=("attach", "hash-pin"), default="attach")
    parser.add_argument("--socket", default=os.environ.get("TABLECTL_CONSOLE", DEFAULT_SOCKET),
                        help=f"the daemon's console socket (default {DEFAULT_SOCKET} or $TABLECTL_CONSOLE)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.what == "hash-pin":
        return _hash_pin()
    return _attach(args.socket)


def _hash_pin() -> int:
    if sys.stdin.isatty():
        pin = getpass.getpass("PIN (4-12 digits): ")
        if getpass.getpass("PIN again: ") != pin:
            raise UsageError("console hash-pin: the two PINs differ")
    else:  # piped: the PIN, and optionally the same PIN again on the next line
        pin, again = sys.stdin.readline().strip(), sys.stdin.readline().strip()
        if again and again != pin:
            raise UsageError("console hash-pin: the two PINs differ")
    try:
        print(hash_pin(pin))
    except ValueError as exc:
        raise UsageError(f"console hash-pin: {exc}") from None
    return 0


def _attach(path: str) -> int:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as exc:
        raise UsageError(f"console: cannot reach the daemon at {path}: {exc.strerror or exc}") from None
    selector = selectors.DefaultSelector()
    selector.register(conn, selectors.EVENT_READ)
    selector.register(sys.stdin, selectors.EVENT_READ)
    shown = ""
    interactive = sys.stdin.isatty()
    try:
        while True:
            for key, _ in selector.select():
                if key.fileobj is conn:
                    data = conn.recv(4096)
                    if not data:
                        return 0
                    text = data.decode("utf-8", "replace")
                    sys.stdout.write(text)
                    sys.stdout.flush()
                    shown = (shown + text)[-16:]
                    if interactive and shown.endswith("PIN: "):
                        conn.sendall((getpass.getpass("") + "\n").encode())
                        shown = ""
                else:
                    line = sys.stdin.readline()
                    if not line:
                        return 0
                    conn.sendall(line.encode())
    except KeyboardInterrupt:
        return 0
    finally:
        conn.close()
