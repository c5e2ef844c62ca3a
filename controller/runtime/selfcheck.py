"""Power-up self-check of the installed code: a digest of every source file against a stored one.

The digest covers every ``.py`` and ``.toml`` file of the ``controller`` and
``drivers`` packages and every shipped model (``.onnx``: the camera readers' learned dice detector and
face models, which decide what a die reads as much as the code does), by relative path and content,
in path order. It is written
once at installation (``tablectl digest --write``) into the configuration
directory, which the service cannot write; at start the daemon recomputes it
and a mismatch is a latched fault: the table does not open.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import controller
import drivers

SUFFIXES = (".py", ".toml", ".onnx")


def package_roots() -> list[Path]:
    return [Path(controller.__file__).parent, Path(drivers.__file__).parent]


def code_digest(roots: list[Path] | None = None) -> str:
    """``sha256:HEX`` over the relative path and bytes of every source file under ``roots``."""
    digest = hashlib.sha256()
    for root in roots or package_roots():
        files = sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                       and "__pycache__" not in p.parts)
        for path in files:
            rel = f"{root.name}/{path.relative_to(root).as_posix()}"
            digest.update(rel.encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return "sha256:" + digest.hexdigest()


@dataclass(frozen=True)
class CodeCheck:
    ok: bool
    expected: str | None
    actual: str
    message: str


def check_code(stored: Path, roots: list[Path] | None = None) -> CodeCheck:
    """Compare the installed code with the digest stored at ``stored``."""
    actual = code_digest(roots)
    try:
        expected = stored.read_text(encoding="ascii").strip()
    except OSError as exc:
        return CodeCheck(False, None, actual, f"no stored code digest at {stored}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        return CodeCheck(False, None, actual, f"{stored} is not a stored code digest (not plain ASCII text)")
    if expected != actual:
        return CodeCheck(False, expected, actual, f"installed code differs from the digest in {stored}")
    return CodeCheck(True, expected, actual, "installed code matches its digest")


def write_digest(stored: Path, roots: list[Path] | None = None) -> str:
    value = code_digest(roots)
    stored.write_text(value + "\n", encoding="ascii")
    return value
