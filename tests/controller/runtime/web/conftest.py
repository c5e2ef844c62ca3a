"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, one browser for the tests.

No browser is downloaded: Playwright is pointed at the system binary. Where it is missing the tests that
need it fail under CI (``CI=true``; test.sh installs the package there) and are skipped elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = os.environ.get("TABLECTL_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]


def _missing() -> str | None:
    if not Path(CHROMIUM).is_file():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (the dev extra)"
    return None


@pytest.fixture(scope="module")  # not the session: Playwright's sync API keeps an event loop running on the
def browser() -> Iterator[object]:  # main thread while it is open, and every later asyncio.run would refuse
    why = _missing()
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests cannot run in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:  # Playwright gives the browser a fresh profile folder of its own
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()
