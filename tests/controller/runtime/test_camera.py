"""The dice camera at a Tärning table: the real reader (drivers/vision) on synthetic throws, ok/void/unsure.

The images are drivers/vision's synthetic scenes (``synth_dice.scene``), read by
the real ``DiceReader``; the records it posts go through the table's
translator and ``Table.submit`` as the daemon would hand them over.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import pytest

from controller import config as table_config
from controller.events import Bet, CloseBets, Void
from controller.runtime.camera import CameraDevice, DiceRead, dice_read, make_reader
from controller.runtime.device_outputs import tower_pattern
from controller.runtime.interfaces import Command
from controller.runtime.table import Table
from controller.runtime.translate import button_actions
from drivers.vision import synth_dice
from drivers.vision.sources import open_source

CLEAN, OFF, HAND = 0, 0, 0  # seeds whose clean / off-area / hand scenes the reader reads ok / void / unsure


def tarning_table(tmp: Path, fail_limit: int = 3) -> Table:
    data: dict[str, Any] = table_config.simulated_defaults("tarning", "se", str(tmp / "journal.sqlite"))
    data["table"]["id"] = "tarning-se"  # the example table's id: its journal is the one hw/tables/tarning-se.toml runs
    data["devices"]["camera"] = {"driver": "files", "source": str(tmp), "still_frames": 1, "fail_limit": fail_limit}
    config = table_config.from_mapping(data, "test")
    return Table.open(config)  # the camera's fail_limit is the table's (controller/runtime/translate.Wiring)


def read(kind: str, seed: int) -> DiceRead:
    image, _ = synth_dice.scene(seed, kind)
    return dice_read(make_reader("tarning", synth_dice.calibration()).read(image))


def bet_and_close(table: Table, spot: str = "above") -> None:
    assert table.submit("bets", Bet(1, spot, 100, player="red")) == "accepted"
    table.submit("buttons", CloseBets())


def settlements(table: Table) -> list[dict[str, Any]]:
    return [e["settlement"] for r in table.journal.records(kinds=("event",)) for e in r.body["effects"]
            if "settlement" in e]


def test_ok_read_settles(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    throw = read("clean", CLEAN)
    assert throw.status == "ok"
    assert table.submit("camera", throw) == "accepted"
    assert table.round_no == 2
    by_color = dict(zip(throw.colors, throw.values))
    total = by_color["red"] + by_color["green"]
    assert [s["result"] for s in settlements(table)] == ["win" if total > 7 else "lose"]


def test_void_read_keeps_the_bets_and_the_next_throw_settles(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    void = read("off", OFF)
    assert void.status == "void"
    assert table.submit("camera", void) == "accepted"
    assert settlements(table) == []
    event = list(table.journal.records(kinds=("event",)))[-1].body
    assert event["event"]["type"] == "void" and "off the throw area" in event["event"]["reason"]
    throw = read("clean", CLEAN)
    assert table.submit("camera", throw) == "accepted"
    assert len(settlements(table)) == 1
    assert table.round_no == 2


def test_unsure_waits_for_the_croupier(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    unsure = read("hand", HAND)
    assert unsure.status == "unsure"
    table.submit("camera", unsure)
    assert table.pending_result is not None
    assert table.pending_result.prompt.startswith("Camera unsure (a large object in the throw area")
    assert tower_pattern(table) == "result_pending"
    assert table.view()["tower"]["amber"] == "flash"
    assert settlements(table) == [] and table.round_no == 1
    # another result while one waits is refused, from the camera or keyed in
    assert table.submit("camera", read("clean", CLEAN)) == "refused"
    assert table.hold_result("camera", (1, 2), ("red", "green"), "again") == "refused"
    assert settlements(table) == []
    # a confirmation with bad values is refused and the result still waits
    bad = table.command(Command("confirm_result", {"values": [7, 1], "colors": ["red", "green"]}, "croupier Anna"))
    assert bad.startswith("values must be") and table.pending_result is not None
    answer = table.command(Command("confirm_result", {"values": [5, 6], "colors": ["red", "green"]}, "croupier Anna"))
    assert answer == "done"
    assert table.pending_result is None and table.round_no == 2
    assert [s["result"] for s in settlements(table)] == ["win"]  # 5 + 6 > 7: the confirmed values settled
    event = [r for r in table.journal.records(kinds=("event",)) if r.body["event"]["type"] == "dice"][-1].body
    assert event["confirmed_by"] == "croupier Anna" and event["event"]["values"] == [5, 6]
    assert table.command(Command("confirm_result", {"values": [1, 1]}, "croupier Anna")) == \
        "no result waits for confirmation"


def test_void_clears_a_pending_result(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    table.submit("camera", read("hand", HAND))
    assert table.submit("buttons", Void("rethrow", "croupier")) == "accepted"
    assert table.pending_result is None
    assert table.submit("camera", read("clean", CLEAN)) == "accepted"
    assert len(settlements(table)) == 1


def test_reader_failing_latches_after_n_unsure(tmp_path: Path) -> None:
    table = tarning_table(tmp_path, fail_limit=2)
    bet_and_close(table)
    unsure = read("hand", HAND)
    table.submit("camera", unsure)
    table.command(Command("confirm_result", {"values": [1, 2], "colors": ["red", "green"]}, "croupier"))
    assert "reader_failing.camera" not in table.faults  # confirming does not reset: the reader still failed
    bet_and_close(table)
    assert table.submit("camera", unsure) == "fault"
    assert "reader_failing.camera" in table.faults
    assert table.pending_result is not None  # the croupier still confirms this throw by hand
    assert table.submit("camera", read("clean", CLEAN)) == "refused"  # the failing reader is not listened to
    assert table.command(Command("confirm_result", {"values": [2, 2], "colors": ["red", "green"]}, "croupier")) \
        == "done"
    assert table.round_no == 3


def test_ok_read_resets_the_failure_count(tmp_path: Path) -> None:
    table = tarning_table(tmp_path, fail_limit=2)
    bet_and_close(table)
    table.submit("camera", read("hand", HAND))
    table.command(Command("confirm_result", {"values": [1, 2], "colors": ["red", "green"]}, "croupier"))
    bet_and_close(table)
    assert table.submit("camera", read("clean", CLEAN)) == "accepted"
    bet_and_close(table)
    table.submit("camera", read("hand", HAND))
    assert "reader_failing.camera" not in table.faults


def test_camera_device_reads_a_folder_of_frames_once_per_still_throw(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    scenes = [synth_dice.scene(CLEAN, "clean")[0], synth_dice.scene(OFF, "off")[0], synth_dice.scene(HAND, "hand")[0]]
    n = 0
    for image in scenes:  # each throw: three identical frames (still for 2 frames after the first)
        for _ in range(3):
            cv2.imwrite(str(frames / f"{n:03d}.png"), image)
            n += 1
    posted: list[object] = []
    device = CameraDevice("camera", lambda: open_source(str(frames)), make_reader("tarning", synth_dice.calibration()),
                          still_frames=2, ends=True)
    device.start(posted.append)
    deadline = time.monotonic() + 20
    while device.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    device.stop()
    assert [getattr(p, "status") for p in posted] == ["ok", "void", "unsure"]
    assert device.health()["ok"] and device.health()["frames"] == 9 and device.health()["reads"] == 3
    # the console's "calibrate camera": the calibration in use against the latest frame
    assert "fits the current view" in device.calibrate()[0]
    moved = CameraDevice("camera", lambda: open_source(str(frames)), make_reader("tarning", synth_dice.calibration()))
    moved._last_frame = cv2.resize(scenes[0], (scenes[0].shape[1] // 2, scenes[0].shape[0] // 2))
    assert "does NOT fit" in moved.calibrate()[0]
    bare = CameraDevice("camera", lambda: open_source(str(frames)), make_reader("tarning"))
    with pytest.raises(ValueError, match="not delivered a frame"):
        bare.calibrate()
    bare._last_frame = scenes[0]
    assert "no calibration in use" in bare.calibrate()[0]


def test_camera_device_with_a_missing_source_is_not_ok(tmp_path: Path) -> None:
    device = CameraDevice("camera", lambda: open_source(str(tmp_path / "nope")), make_reader("sic-bo"), ends=True)
    device.start(lambda raw: None)
    health = device.health()
    assert not health["ok"] and "no such file" in health["error"]
    device.stop()


def test_the_daemon_builds_the_camera_from_the_configuration(tmp_path: Path) -> None:
    import asyncio

    from controller.runtime import devices
    data: dict[str, Any] = table_config.simulated_defaults("sic-bo", "fi", str(tmp_path / "journal.sqlite"))
    data["devices"]["camera"] = {"driver": "files", "source": str(tmp_path), "still_frames": 0}
    config = table_config.from_mapping(data, "test")
    built = devices.build(config, asyncio.new_event_loop(), simulate=False)
    camera = built.inputs["camera"]
    assert isinstance(camera, CameraDevice) and camera.still_frames == 0
    assert camera.reader.options.count == 3


@pytest.mark.parametrize("settings, words", [({"driver": "files", "still_frames": -1, "source": "x"}, "still_frames"),
                                             ({"driver": "opencv", "source": 0, "fail_limit": 0}, "fail_limit")])
def test_bad_camera_settings_name_the_key(tmp_path: Path, settings: dict[str, Any], words: str) -> None:
    data: dict[str, Any] = table_config.simulated_defaults("tarning", "se", str(tmp_path / "journal.sqlite"))
    data["devices"]["camera"] = settings
    with pytest.raises(table_config.ConfigError) as err:
        table_config.from_mapping(data, "test")
    assert words in str(err.value)


@pytest.mark.parametrize("game", ["tarning", "sic-bo"])
def test_simulated_dice_table_reads_synthetic_throws_and_confirms_the_unsure(tmp_path: Path, game: str) -> None:
    import asyncio
    import io

    from controller.runtime.camera import EmulatedCamera
    from controller.runtime.daemon import Daemon

    data = table_config.simulated_defaults(game, None, str(tmp_path / "journal.sqlite"), emulated=True)
    assert data["devices"]["camera"] == {"driver": "synthetic"}
    stream = io.StringIO()
    daemon = Daemon(table_config.from_mapping(data, "test"), simulate=True, seed=3, fast=True, rounds=12,
                    stream=stream)
    assert asyncio.run(daemon.run()) == 0
    camera = daemon.built.inputs.get("camera") if daemon.built is not None else None
    assert isinstance(camera, EmulatedCamera) and camera.reads >= 12
    assert daemon.croupier is not None
    assert camera.counts["unsure"] >= 1 and daemon.croupier.counts["results_confirmed"] >= 1
    assert daemon.table is not None and daemon.table.round_no > 12 and daemon.table.pending_result is None
    out = stream.getvalue()
    assert "Camera unsure (" in out and "(confirmed by sim-croupier (looked at the dice))" in out
    from controller.runtime.journal import Journal
    journal = Journal(tmp_path / "journal.sqlite")  # the daemon closed its own on the way out
    confirmed = [r.body for r in journal.records(kinds=("event",)) if "confirmed_by" in r.body]
    assert 1 <= len(confirmed) <= camera.counts["unsure"]  # a read while the daemon stops is not taken
    ok_reads = [r.body for r in journal.records(kinds=("event",))
                if r.body["event"]["type"] == "dice" and "confirmed_by" not in r.body]
    assert len(ok_reads) <= camera.counts["ok"] and len(ok_reads) + len(confirmed) >= 12
    journal.close()


def test_daemon_reads_a_folder_camera_and_takes_the_croupiers_confirmation(tmp_path: Path) -> None:
    """The whole path without --simulate: [devices.camera] files -> CameraDevice -> translate -> Table."""
    import asyncio
    import io

    from controller.runtime.daemon import Daemon
    from controller.runtime.journal import Journal
    from drivers.vision.calibration import save

    frames = tmp_path / "frames"
    frames.mkdir()
    for n, (kind, seed) in enumerate([("clean", CLEAN), ("off", OFF), ("hand", HAND)]):
        cv2.imwrite(str(frames / f"{n:03d}.png"), synth_dice.scene(seed, kind)[0])
    save(tmp_path / "calibration.json", synth_dice.calibration())  # the throw area, as `tablectl vision` saves it
    data: dict[str, Any] = table_config.simulated_defaults("tarning", "se", str(tmp_path / "journal.sqlite"))
    data["devices"]["camera"] = {"driver": "files", "source": str(frames), "still_frames": 0,
                                 "calibration": str(tmp_path / "calibration.json")}
    daemon = Daemon(table_config.from_mapping(data, "test"), simulate=False, stream=io.StringIO())

    async def play() -> None:
        task = asyncio.create_task(daemon.run())
        for _ in range(400):
            await asyncio.sleep(0.05)
            if daemon.table is not None and daemon.table.pending_result is not None:
                break
        daemon.command(Command("confirm_result", {"values": [6, 6], "colors": ["red", "green"]}, "croupier Test"))
        await asyncio.sleep(0.3)
        assert daemon.stopped is not None
        daemon.stopped.set()
        await task

    asyncio.run(play())
    journal = Journal(tmp_path / "journal.sqlite")
    events = [r.body for r in journal.records(kinds=("event",))]
    assert [(e["source"], e["event"]["type"]) for e in events] == [("camera", "dice"), ("camera", "void"),
                                                                    ("camera", "dice")]
    assert events[1]["event"]["by"] == "camera" and "off the throw area" in events[1]["event"]["reason"]
    assert events[2]["confirmed_by"] == "croupier Test" and events[2]["event"]["values"] == [6, 6]
    assert [r.body["source"] for r in journal.records(kinds=("pending",))] == ["camera"]
    journal.close()


def test_a_held_result_survives_a_restart(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    assert table.hold_result("camera", (5, None), ("red", "green"), "a die's pips not read") == "held"
    seq = table.pending_result.seq if table.pending_result else 0
    table.journal.close()
    again = tarning_table(tmp_path)  # the power came back
    assert again.pending_result is not None and again.pending_result.seq == seq
    assert again.pending_result.values == (5, None) and again.pending_result.colors == ("red", "green")
    assert again.pending_result.prompt == "Camera unsure (a die's pips not read): croupier, confirm the dice"
    assert again.recovered["pending"] == seq and tower_pattern(again) == "result_pending"
    assert again.submit("camera", read("clean", CLEAN)) == "refused"  # a re-read does not settle past the croupier
    assert again.command(Command("confirm_result", {}, "croupier Anna")) == "the camera could not read every die: give the values"
    assert again.command(Command("confirm_result", {"values": [5, 2]}, "croupier Anna")) == "done"
    assert [s["result"] for s in settlements(again)] == ["lose"] and again.round_no == 2
    again.journal.close()
    assert tarning_table(tmp_path).pending_result is None  # confirmed: nothing waits after the next restart


def test_a_voided_or_refused_hold_does_not_come_back(tmp_path: Path) -> None:
    table = tarning_table(tmp_path)
    bet_and_close(table)
    assert table.hold_result("camera", (1, 2), ("red", "green"), "first") == "held"
    assert table.hold_result("camera", (3, 4), ("red", "green"), "second") == "refused"
    table.journal.close()
    again = tarning_table(tmp_path)
    assert again.pending_result is not None and again.pending_result.reason == "first"  # not the refused one
    assert again.submit("buttons", Void("rethrow", "croupier")) == "accepted"
    again.journal.close()
    third = tarning_table(tmp_path)
    assert third.pending_result is None and "pending" not in third.recovered
    assert third.submit("camera", read("clean", CLEAN)) == "accepted"


def test_the_confirm_button_takes_the_cameras_whole_guess(tmp_path: Path) -> None:
    from drivers.gpio.events import ButtonLongPress, ButtonPressed

    table = tarning_table(tmp_path)
    table.wiring = replace(table.wiring, actions={"ok": "confirm"})
    bet_and_close(table)
    assert table.submit("gpio", ButtonLongPress("ok")) == "ignored"  # nothing waits: "nothing waits for a confirmation"
    assert table.hold_result("camera", (5, None), ("red", "green"), "a die's pips not read") == "held"
    assert table.submit("gpio", ButtonPressed("ok")) == "ignored"  # a short press does nothing (hold to confirm)
    assert table.submit("gpio", ButtonLongPress("ok")) == "the camera could not read every die: give the values"
    assert table.pending_result is not None and settlements(table) == []
    assert table.submit("buttons", Void("rethrow", "croupier")) == "accepted"
    assert table.hold_result("camera", (5, 6), ("red", "green"), "a large object in the throw area") == "held"
    assert table.submit("gpio", ButtonLongPress("ok")) == "done"
    assert table.pending_result is None and [s["result"] for s in settlements(table)] == ["win"]
    event = [r for r in table.journal.records(kinds=("event",)) if r.body["event"]["type"] == "dice"][-1].body
    assert event["confirmed_by"] == "gpio button ok" and event["event"]["values"] == [5, 6]


def test_the_daemon_says_what_waits_after_a_restart(tmp_path: Path) -> None:
    """A throw held before a power cut: the terminal names it before ``ready``, the tower shows it, and the
    virtual croupier (who cannot see that throw) voids it, so the table plays on."""
    from tests.tablectl import ROOT, run_tablectl

    table = tarning_table(tmp_path)
    bet_and_close(table)
    assert table.hold_result("camera", (5, None), ("red", "green"), "a die's pips not read") == "held"
    seq = table.pending_result.seq if table.pending_result else 0
    table.journal.close()
    done = run_tablectl("run", "--config", str(ROOT / "hw" / "tables" / "tarning-se.toml"), "--journal",
                        str(tmp_path / "journal.sqlite"), "--simulate", "--fast", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    ready = next(k for k, line in enumerate(lines) if line.startswith("ready:"))
    assert lines[ready - 1] == (f"held before the restart (record {seq}): camera read [5 ?] -> Camera unsure "
                                f"(a die's pips not read): croupier, confirm the dice")
    assert "  [tower @6] result_pending" in lines[:ready]
    assert any("void: the round cannot go on" in line for line in lines[ready:])


@pytest.mark.parametrize("game", ["tarning", "sic-bo", "roulette"])
def test_the_dealer_panel_wires_a_confirm_button_for_the_camera_games(game: str) -> None:
    from drivers.gpio.config import load_device_config

    panel = load_device_config(Path(__file__).resolve().parents[3] / "hw" / "dealer-panel.toml")
    assert button_actions(panel, game)["confirm_result"] == "confirm"


def test_the_dealer_panels_confirm_button_confirms_a_held_throw(tmp_path: Path) -> None:
    from drivers.gpio.config import load_device_config
    from drivers.gpio.events import ButtonLongPress

    panel = load_device_config(Path(__file__).resolve().parents[3] / "hw" / "dealer-panel.toml")
    table = tarning_table(tmp_path)
    table.wiring = replace(table.wiring, actions=button_actions(panel, "tarning"))
    bet_and_close(table)
    assert table.hold_result("camera", (5, 6), ("red", "green"), "a large object in the throw area") == "held"
    assert table.submit("gpio", ButtonLongPress("confirm_result")) == "done"
    assert table.pending_result is None and [s["result"] for s in settlements(table)] == ["win"]
