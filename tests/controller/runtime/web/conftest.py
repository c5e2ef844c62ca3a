"""The dealer terminal's tests: live tables, one real headless chromium a module, and logged-in pages.

- ``browser``: Debian's chromium (tests/chromium.py), one for the module: Playwright's sync API keeps an
  event loop running on the main thread while it is open, and every later ``asyncio.run`` would refuse, so
  it cannot be the session's;
- ``tables``: ``tables(game, variant, ...)`` starts a ``LiveTable`` (harness.py) and stops it after the test;
- ``contexts``: ``contexts(width, height)`` is a new page in a browser context of its own (its own cookies);
- ``pages``: ``pages(table, name, view)`` is such a page, logged in at the table's terminal as ``name``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests import chromium
from tests.controller.runtime.web.harness import LiveTable, login


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium.require()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        started = chromium.launch(p)
        yield started
        started.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Callable[..., LiveTable]]:
    started: list[LiveTable] = []

    def start(game: str, variant: str | None = None, **kwargs: Any) -> LiveTable:
        folder = tmp_path if not started else tmp_path / f"table-{len(started) + 1}"
        folder.mkdir(exist_ok=True)
        table = LiveTable(folder, game, variant, **kwargs).start()
        started.append(table)
        return table
    yield start
    for table in started:
        table.stop()


@pytest.fixture
def contexts(browser: Any) -> Iterator[Callable[..., Any]]:
    made: list[Any] = []

    def new(width: int = 800, height: int = 480) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        made.append(context)
        return context.new_page()
    yield new
    for context in made:
        context.close()


@pytest.fixture
def pages(contexts: Callable[..., Any]) -> Callable[..., Any]:
    def logged_in(table: LiveTable, name: str, view: str = "/", width: int = 800, height: int = 480) -> Any:
        page = contexts(width, height)
        login(page, table.url, name, view)
        return page
    return logged_in
