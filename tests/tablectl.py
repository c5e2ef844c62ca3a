"""Run `tablectl` as a subprocess, the way an operator or CI does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_tablectl(*args: str, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=input, capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=timeout)


def settle_json(path: str | Path) -> dict[str, Any]:
    done = run_tablectl("settle", str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
