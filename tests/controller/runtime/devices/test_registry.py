"""The registry of device kinds (controller/runtime/devices/registry.py): what it finds, in which order it
builds, what it refuses, and that two kinds cannot give one event two meanings."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

import pytest

from controller import config as table_config
from controller.runtime import devices
from controller.runtime.daemon import Daemon, StartError
from controller.runtime.devices import registry
from drivers import events as ev


def test_the_kinds_of_the_table_are_found() -> None:
    assert [k.name for k in registry.all_kinds()] == ["camera", "gpio", "jackpot_display", "shoe", "shuffler",
                                                      "sign", "wheel"]
    # the displays are built before the panel that drives them, the camera after the wheel it may refuse
    order = [k.name for k in registry.in_order()]
    assert order.index("sign") < order.index("gpio") and order.index("wheel") < order.index("camera")


def test_an_event_belongs_to_the_kinds_that_send_it() -> None:
    assert registry.owners(ev.Tamper) == ("shoe", "shuffler")
    assert registry.owners(ev.LinkFault) == ("shoe", "shuffler", "wheel")
    assert registry.owners(ev.SlotChanged) == ("gpio",) and registry.is_noted(ev.SlotChanged)
    assert registry.owners(object) == () and registry.handler(object) is None


def test_a_synthetic_camera_is_refused_at_a_table_that_is_not_simulated(tmp_path: Path) -> None:
    data = table_config.simulated_defaults("tarning", None, str(tmp_path / "journal.sqlite"), emulated=True)
    config = table_config.from_mapping(data, "test")
    assert "synthetic' renders the simulated croupier's throws" in str(registry.refusal(config, False))
    assert registry.refusal(config, True) is None
    with pytest.raises(StartError, match="run with --simulate"):
        asyncio.run(Daemon(config, simulate=False, stream=io.StringIO()).run())
    assert not (tmp_path / "journal.sqlite").exists()  # refused before the journal opens


def test_a_display_its_kind_builds_needs_its_part_of_the_pin_map(tmp_path: Path) -> None:
    data = table_config.simulated_defaults("punto-banco", "fi", str(tmp_path / "journal.sqlite"))
    data["devices"]["jackpot_display"] = {"driver": "dummy"}
    with pytest.raises(table_config.ConfigError) as refused:
        table_config.from_mapping(data, "test")
    assert refused.value.problems == ["test: devices.jackpot_display.driver = 'dummy': a dummy jackpot display "
                                      "needs a [jackpot] section in the pin map of [devices.gpio]; or 'text'"]


TWIN = """
from controller.runtime.devices.base import DeviceKind
from controller.runtime.intents import Noted, fixed
from drivers import events as ev

KIND = DeviceKind(name="twin_shoe", drivers={"simulated": {}}, docs="shoe-protocol.md",
                  translate={ev.Tamper: fixed(lambda source, raw: Noted("ignored"))})
"""


def test_two_kinds_cannot_give_one_event_two_meanings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "twin_shoe.py").write_text(TWIN, encoding="utf-8")
    monkeypatch.setattr(devices, "__path__", list(devices.__path__) + [str(tmp_path)])
    monkeypatch.delitem(sys.modules, "controller.runtime.devices.twin_shoe", raising=False)
    with pytest.raises(registry.KindConflict, match="Tamper means two things"):
        registry.all_kinds()
