"""Outputs: rate-limited, latest state wins, an unchanged state is not sent again, a failing output is counted."""

from __future__ import annotations

import asyncio
from typing import Any, Mapping

from controller.runtime.outputs import OutputSlot


class Recorder:
    def __init__(self, fail: bool = False) -> None:
        self.states: list[Mapping[str, Any]] = []
        self.fail = fail

    def show(self, state: Mapping[str, Any]) -> None:
        if self.fail:
            raise OSError("SPI bus error")
        self.states.append(state)


def test_rate_limit_keeps_only_the_latest_state() -> None:
    async def run() -> list[Mapping[str, Any]]:
        out = Recorder()
        slot = OutputSlot("sign", out, 0.05, asyncio.get_running_loop())
        slot.set({"n": 1})  # shown at once
        for n in range(2, 20):
            slot.set({"n": n})  # within the interval: only the last one will be shown
        await asyncio.sleep(0.12)
        slot.set({"n": 19})  # unchanged: not sent again
        await asyncio.sleep(0.06)
        return out.states

    assert asyncio.run(run()) == [{"n": 1}, {"n": 19}]


def test_a_failing_output_never_raises_into_the_loop() -> None:
    slot = OutputSlot("tower", Recorder(fail=True), 0.0)
    slot.set({"red": "on"})
    slot.set({"red": "flash"})
    assert slot.failures == 2 and slot.shows == 0
