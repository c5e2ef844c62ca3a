"""Debian's chromium for the browser tests (the dealer terminal, the floor view), started as the house says.

One place for the binary, its flags and the rule for a missing browser. No browser is downloaded: Playwright
is pointed at the system binary (``apt-get install chromium``; test.sh installs it where it may). Every start
has a fresh profile folder (``--user-data-dir``): ``launch`` makes one of its own for each browser (Playwright
adds the flag), ``launch_async`` makes one under the test's own folder. Where the browser or the playwright
package is missing the tests that need it fail under CI (``CI=true``) and are skipped elsewhere.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TABLECTL_CHROMIUM", "/usr/bin/chromium")
HOUSE_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync")
ARGS = [*HOUSE_FLAGS, "--disable-dev-shm-usage"]  # and no /dev/shm: a container's is small


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).is_file():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (the dev extra)"
    return None


def require() -> None:
    """Skip the test where there is no browser; under CI, fail it."""
    why = missing()
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests cannot run in CI: {why}")
        pytest.skip(why)


def launch(playwright: Any) -> Any:
    """A headless chromium (Playwright's sync or async ``chromium``), a fresh profile of Playwright's own."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


def launch_async(playwright: Any, folder: Path) -> Any:
    """An awaitable persistent browser context with a fresh profile folder under ``folder``."""
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=folder)
    return playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=ARGS)
