"""Lookup tables built once per machine and kept in a cache folder, checked by digest when read.

The hand evaluators (``controller.hands.fast`` and ``controller.hands.batch``)
build their tables from the ranking rules on first use; that costs about half a
second to a second of every process that ranks hands (each ``tablectl math``
run). ``warm_hand_tables`` reads them from the cache instead, or builds them and
writes them there for the next process. The hands modules stay pure: this module
does the file work and hands them the tables.

Where: ``$TABLECTL_CACHE_DIR``, else ``$XDG_CACHE_HOME/tablectl``, else
``~/.cache/tablectl``. A file's name carries the digest of the code that builds
the tables (a code change makes a new file); inside, next to the tables, is the
SHA-256 of their bytes, checked on every read. A file that is missing,
unreadable, damaged or from other code is ignored and built again; a folder that
cannot be written only means the tables are built in memory, every time.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Callable, Mapping, Sequence

import numpy as np


def cache_dir() -> Path:
    explicit = os.environ.get("TABLECTL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablectl"


def code_digest(modules: Sequence[ModuleType]) -> str:
    digest = hashlib.sha256(np.__version__.encode())
    for module in modules:
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


def _content_digest(arrays: Mapping[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(name.encode() + b"\0" + str(array.dtype).encode() + b"\0" + str(array.shape).encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def cached(name: str, build: Callable[[], Mapping[str, np.ndarray]], modules: Sequence[ModuleType],
           folder: Path | None = None) -> tuple[dict[str, np.ndarray], str]:
    """(the tables, where they came from: ``cache``, ``built`` or ``built, not cached: why``)."""
    folder = folder or cache_dir()
    path = folder / f"{name}-{code_digest(modules)}.npz"
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files if key != "_sha256"}
            if str(stored["_sha256"]) == _content_digest(arrays):
                return arrays, "cache"
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        pass
    arrays = {key: np.asarray(value) for key, value in build().items()}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".npz")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, _sha256=np.array(_content_digest(arrays)), **arrays)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    except OSError as exc:
        return arrays, f"built, not cached: {exc.strerror or exc}"
    return arrays, "built"


def warm_hand_tables(folder: Path | None = None) -> dict[str, str]:
    """Give the fast and the batch evaluator their tables from the cache (building what is missing)."""
    from controller.hands import batch, fast, values

    def fast_tables() -> dict[str, np.ndarray]:
        return {key: np.array(v, dtype=np.int32) for key, v in fast.build_tables().items()}

    def batch_tables() -> dict[str, np.ndarray]:
        return {f"noflush{k}": batch.build_noflush(k) for k in range(batch.MIN_CARDS, batch.MAX_CARDS + 1)}

    tables, fast_from = cached("hands-fast", fast_tables, (fast, values), folder)
    fast.install({key: array.tolist() for key, array in tables.items()})
    tables, batch_from = cached("hands-batch", batch_tables, (batch, values), folder)
    batch.install(tables)
    return {"fast": fast_from, "batch": batch_from}
