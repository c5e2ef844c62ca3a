"""`tablectl selftest` end to end on the mocks: a scripted technician, mock pins driven by the walk's requests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drivers.gpio.clock import FakeClock
from drivers.gpio.config import load_device_config
from drivers.gpio.sim import simulate
from drivers.selftest import EventLog, SimulatedTechnician, Step, run_selftest
from tests.tablectl import run_tablectl

ROOT = Path(__file__).resolve().parents[3]
BUILDS = sorted((ROOT / "hw").glob("*.toml"))


def walk(build: str, technician_class=SimulatedTechnician, **kwargs):
    watcher, clock = EventLog(), FakeClock()
    sim = simulate(load_device_config(ROOT / "hw" / f"{build}.toml"), watcher)
    technician = technician_class(sim.devices, sim.hands, clock, **kwargs)
    try:
        return run_selftest(sim.devices, watcher, technician, clock, timeout=5.0), technician
    finally:
        sim.close()


@pytest.mark.parametrize("path", BUILDS, ids=[p.stem for p in BUILDS])
def test_every_build_passes_with_a_diligent_technician(path):
    report, technician = walk(path.stem)
    assert report.ok, report.lines()
    config = load_device_config(path)
    devices_checked = {c.device for c in report.checks}
    assert "tower" in devices_checked and "buttons" in devices_checked
    assert sum(c.device == "buttons" for c in report.checks) == len(config.buttons)
    if config.puck:
        assert sum(c.device == "puck" for c in report.checks) == len(config.puck.sensors)
    assert any("Tower light legend" in said for said in technician.said)


def test_a_step_left_undone_is_reported_and_the_walk_goes_on():
    report, _ = walk("bj-burn-7", skip=frozenset({("buttons", "stand"), ("puck", "3")}))
    failed = [c.line() for c in report.checks if not c.ok]
    assert failed == ["FAIL buttons stand: not pressed within 5 s", "FAIL puck box 3: not sensed within 5 s"]
    assert report.lines()[-1] == "selftest: 2 of 23 checks failed"
    assert any(c.target == "box 4" and c.ok for c in report.checks)


class SwappedWires(SimulatedTechnician):
    """Presses DOUBLE when asked for STAND, and puts the puck in box 5 when asked for box 4 (as swapped wires do)."""

    def do(self, step: Step) -> None:
        swaps = {("buttons", "stand"): "double", ("puck", "4"): "5"}
        target = swaps.get((step.device, step.target), step.target)
        super().do(Step(step.kind, step.device, target, step.text))


def test_swapped_wires_are_named():
    report, _ = walk("bj-burn-11", technician_class=SwappedWires)
    failed = {c.target: c.detail for c in report.checks if not c.ok}
    assert failed["stand"] == "not pressed; double came instead (wires swapped?)"
    assert failed["box 4"] == "not sensed; sensed at box 5 instead (wires swapped?)"


class BlindToRed(SimulatedTechnician):
    def _see(self, step: Step) -> bool:
        return False if (step.device, step.target) == ("tower", "red") else super()._see(step)


def test_a_lamp_not_seen_fails_its_check_only():
    report, _ = walk("bj-burn-7", technician_class=BlindToRed)
    assert [c.line() for c in report.checks if not c.ok] == ["FAIL tower red: technician did not see it"]


def test_simulated_eyes_really_look_at_the_outputs():
    """The simulated technician answers from the mock pins and dummy displays, not from the question."""
    watcher, clock = EventLog(), FakeClock()
    sim = simulate(load_device_config(ROOT / "hw" / "bj-burn-7.toml"), watcher)
    technician = SimulatedTechnician(sim.devices, sim.hands, clock)
    sim.devices.tower.test_lamp("amber")
    assert not technician.look(Step("look", "tower", "red", "red?"))
    assert technician.look(Step("look", "tower", "amber", "amber?"))
    sim.devices.jackpot.show_text("12345678")
    assert not technician.look(Step("look", "jackpot", "x", "?", "8.8.8.8.8.8.8.8."))
    sim.close()


def test_progressive_slots_lamps_and_lock_in_the_walk():
    report, _ = walk("progressive-7")
    lines = [c.line() for c in report.checks if c.device == "progressive"]
    assert "ok   progressive lamp 7: lit" in lines
    assert lines[-1] == "ok   progressive lock: locked boxes 1, 2, 3, 4, 5, 6, 7"


def test_cli_simulated_walk_passes():
    done = run_tablectl("selftest", "hw/bj-burn-11.toml", "--simulate")
    assert done.returncode == 0, done.stderr
    assert "Put the puck in the burn circle of box 11." in done.stdout
    assert done.stdout.strip().endswith("selftest: all devices passed")


def test_cli_reports_failure_with_exit_1_and_json():
    done = run_tablectl("selftest", "hw/progressive-7.toml", "--simulate", "--simulate-miss", "presence:3 ante",
                        "--timeout", "2", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["ok"] is False
    assert [c for c in report["checks"] if not c["ok"]] == [
        {"device": "presence", "target": "box 3 ante", "ok": False, "detail": "not sensed within 2 s"}]
    assert "Cover the ante sensor of box 3" in done.stderr


def test_cli_bad_pin_map_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[build]\nbuses = ["spi0"]\n[buttons.stand]\npin = 8\n', encoding="utf-8")
    done = run_tablectl("selftest", str(bad), "--simulate")
    assert done.returncode == 2
    assert done.stderr == (f"tablectl: {bad}: GPIO8 (header pin 24) is used twice: SPI0 CE0 "
                           f"(the bus is enabled in build.buses) and buttons.stand\n")
    assert run_tablectl("selftest", "hw/bj-burn-7.toml", "--simulate-miss", "x").returncode == 2
    typo = run_tablectl("selftest", "hw/bj-burn-7.toml", "--simulate", "--simulate-miss", "buttons:stnd")
    assert typo.returncode == 2
    assert typo.stderr.startswith("tablectl: --simulate-miss 'buttons:stnd': bj-burn-7 has no such step (steps: "
                                  "buttons:no_more_bets, buttons:stand,")


def test_console_technician_reads_y_and_n_and_asks_again_on_anything_else():
    from drivers.selftest import ConsoleTechnician

    answers = iter(["maybe", "y", "N", "ja", ""])
    written: list[str] = []

    def read(prompt: str) -> str:
        written.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    tech = ConsoleTechnician(read=read, write=written.append)
    step = Step("look", "tower", "red", "Is the RED lamp lit, and no other?")
    assert tech.look(step) is True
    assert "Please answer y or n." in written
    assert tech.look(step) is False
    assert tech.look(step) is True
    assert tech.look(step) is False  # "" is asked again, then end of input counts as no
    assert written[0] == "Is the RED lamp lit, and no other? [y/n] "


def test_console_walk_on_mocks_with_nobody_pressing_reports_every_input_missing():
    from drivers.selftest import ConsoleTechnician

    watcher, clock = EventLog(), FakeClock()
    sim = simulate(load_device_config(ROOT / "hw" / "bj-burn-7.toml"), watcher)
    tech = ConsoleTechnician(read=lambda prompt: "y", write=lambda text: None)
    report = run_selftest(sim.devices, watcher, tech, clock, timeout=1.0)
    sim.close()
    failed = [c for c in report.checks if not c.ok]
    assert {c.device for c in failed} == {"buttons", "puck"}
    assert len(failed) == 7 + 7  # 7 buttons, 7 circles
    assert clock.now() == pytest.approx(14.0, abs=0.2)  # one second per missing input


def test_cli_without_simulate_fails_in_one_line_where_there_is_no_hardware():
    """Off a Pi (no spidev, no GPIO chip) the walk cannot start: exit 1 and one line, no traceback.

    On a Pi it would run with nobody answering (end of input is "no") and fail as well.
    """
    done = run_tablectl("selftest", "hw/bj-burn-7.toml", "--timeout", "0.1", input="")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    if done.stderr:
        assert done.stderr.startswith("tablectl: selftest: cannot open the hardware of bj-burn-7: ")
        assert done.stderr.count("\n") == 1
