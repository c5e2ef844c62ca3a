"""The floor view in a real browser (Debian's chromium driven by Playwright), fed by a real nats-server.

Tiles appear for the tables on the bus, a table's tower change shows within a
second, and the linked meter moves when a table contributes.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from controller.events import Bet, CloseBets
from controller.runtime.interfaces import Command
from tests import chromium
from tests.controller.floor.broker import Broker, free_port, nats_server_binary, tablectl, wait_port
from tests.controller.floor.helpers import floor_toml
from tests.controller.floor.test_link import BASE, LINK, METER, LinkedTable, until

pytestmark = [pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")]


def test_tiles_tower_and_linked_meter_live_in_the_browser(tmp_path: Path) -> None:
    chromium.require()  # Debian's chromium, started as tests/chromium.py says
    from playwright.async_api import async_playwright

    hub = Broker(tmp_path).start()
    port = free_port()
    config = floor_toml(tmp_path, [hub.url], http=f"127.0.0.1:{port}", links={LINK: BASE})
    floor = tablectl("floor", "--config", str(config), log=tmp_path / "floor.out")

    async def main() -> None:
        nonlocal floor
        wait_port(port, 20)
        a = LinkedTable(tmp_path, "cs-view-1", hub.url)
        b = LinkedTable(tmp_path, "cs-view-2", hub.url)
        try:
            await until("linked", lambda: a.table.meters.link_up[METER] and b.table.meters.link_up[METER], 20)
            async with async_playwright() as p:
                browser = await chromium.launch_async(p, tmp_path)
                page = browser.pages[0] if browser.pages else await browser.new_page()
                await page.goto(f"http://127.0.0.1:{port}/")
                await page.wait_for_selector('.tile[data-table="cs-view-1"]', timeout=10_000)
                await page.wait_for_selector('.tile[data-table="cs-view-2"]', timeout=10_000)
                red = '.tile[data-table="cs-view-1"] .lamp[data-lamp="red"]'
                assert await page.get_attribute(red, "data-state") == "off"
                t0 = time.monotonic()
                a.table.latch("device_fault.shoe", "the shoe reports a jam")  # the tower goes red
                await page.wait_for_selector(f'{red}[data-state="flash"]', timeout=1_000)  # a latched fault: red fast
                print(f"tower change on the page after {1000 * (time.monotonic() - t0):.0f} ms")
                value = f'.link[data-link="{LINK}"] .value'
                await page.wait_for_selector(f'{value}[data-value="{BASE}"]', timeout=5_000)
                assert b.submit("bets", Bet(1, "ante", 1000)) == "accepted"
                assert b.submit("bets", Bet(1, "progressive", 100)) == "accepted"
                t0 = time.monotonic()
                assert b.submit("buttons", CloseBets()) == "accepted"  # 70 to the linked meter
                await page.wait_for_selector(f'{value}[data-value="{BASE + 70}"]', timeout=2_000)
                print(f"linked meter on the page after {1000 * (time.monotonic() - t0):.0f} ms")
                await page.click('.tile[data-table="cs-view-2"]')
                await page.wait_for_selector("#dbody pre", timeout=3_000)  # the table's live round
                assert "close_bets" in await page.inner_text("#dbody")
                # the floor service restarted (SIGKILL), then the broker: the page comes back by itself
                floor.kill()
                floor.wait(5)
                floor = tablectl("floor", "--config", str(config), log=tmp_path / "floor.out")
                red_b = '.tile[data-table="cs-view-2"] .lamp[data-lamp="red"]'
                b.table.latch("device_fault.shoe", "the shoe reports a jam")
                await page.wait_for_selector(f'{red_b}[data-state="flash"]', timeout=15_000)
                hub.kill()
                await page.wait_for_selector("#bus.down", timeout=10_000)
                hub.start()
                a.table.command(Command("clear_fault", {"name": "device_fault.shoe"}, "supervisor key"))
                await page.wait_for_selector(f'{red}[data-state="off"]', timeout=15_000)
                await browser.close()
        finally:
            await a.close()
            await b.close()

    try:
        asyncio.run(main())
    finally:
        floor.kill()
        floor.wait(5)
        hub.kill()
