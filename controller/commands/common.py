"""Small helpers shared by the subcommands: one-line errors and reading inputs."""

from __future__ import annotations

import json
import sys
from typing import Any


class UsageError(Exception):
    """Bad usage or bad input: printed as one line, exit status 2."""


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` is stdin), or ``UsageError`` naming the file."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"{path}: cannot read: {reason}") from None


def print_json(document: Any) -> None:
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def parse_option_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; the value is read as JSON where it can be, else as text."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option {pair!r}: expected NAME=VALUE")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out
