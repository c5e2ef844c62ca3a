"""The roulette camera at a roulette table: the real reader (drivers/vision/roulette.py) on synthetic spins.

The spins are drivers/vision's synthetic frames (``synth_roulette.frames``,
landing on a chosen number), read by the real ``RouletteReader``; the
``SpinRead`` records go through the table's translator and
``Table.submit`` as the daemon hands them over, and the whole daemon runs a
folder/video camera and ``--simulate`` with the emulated camera.
"""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path
from typing import Any

import cv2
import pytest

from controller import config as table_config
from controller.events import Bet, CloseBets, Void
from controller.runtime import devices
from controller.runtime.daemon import Daemon
from controller.runtime.device_outputs import tower_pattern
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal
from controller.runtime.roulette_camera import (
    EmulatedRouletteCamera, RouletteCamera, SpinRead, SpinWatcher, build_roulette_camera,
)
from controller.runtime.table import Table
from drivers.vision import synth_roulette
from drivers.vision.calibration import save
from tests.tablectl import run_tablectl

OK, VOID, UNSURE = (5, "ok"), (8, "same_direction"), (6, "no_rest")  # seeds the reader reads ok / void / unsure
NUMBER = 17


def spin(seed: int, kind: str, number: int | None = NUMBER) -> SpinRead:
    watcher = SpinWatcher(synth_roulette.calibration())
    for index, frame in enumerate(synth_roulette.frames(seed, kind, number=number)):
        read = watcher.update(index, frame)
        if read is not None:
            return read
    read = watcher.finish()
    assert read is not None
    return read


@pytest.fixture(scope="module")
def reads() -> dict[str, SpinRead]:
    """One read of each status (about 2 s of rendering and reading, once for the module)."""
    return {"ok": spin(*OK), "void": spin(*VOID), "unsure": spin(*UNSURE)}


def roulette_data(tmp: Path, **camera: Any) -> dict[str, Any]:
    data: dict[str, Any] = table_config.simulated_defaults("roulette", "se", str(tmp / "journal.sqlite"))
    data["devices"]["camera"] = {"driver": "files", "source": str(tmp), **camera}
    return data


def roulette_table(tmp: Path, fail_limit: int = 3) -> Table:
    config = table_config.from_mapping(roulette_data(tmp, fail_limit=fail_limit), "test")
    return Table.open(config)  # the camera's fail_limit is the table's (controller/runtime/translate.Wiring)


def bet_and_close(table: Table, spot: str = f"straight:{NUMBER}") -> None:
    assert table.submit("bets", Bet(1, spot, 100, player="red")) == "accepted"
    assert table.submit("buttons", CloseBets()) == "accepted"


def settlements(table: Table) -> list[dict[str, Any]]:
    return [e["settlement"] for r in table.journal.records(kinds=("event",)) for e in r.body["effects"]
            if "settlement" in e]


def test_the_reads_are_what_the_spins_were(reads: dict[str, SpinRead]) -> None:
    assert reads["ok"] == SpinRead("ok", NUMBER, "", reads["ok"].ball_direction, reads["ok"].rotor_direction)
    assert {reads["ok"].ball_direction, reads["ok"].rotor_direction} == {"cw", "ccw"}
    assert reads["void"].status == "void" and "Roulett rule 2" in reads["void"].reason
    assert reads["void"].ball_direction == reads["void"].rotor_direction
    assert reads["unsure"].status == "unsure" and reads["unsure"].number is None
    assert spin(OK[0], "ok", 0).number == 0  # the generator lands the ball on the number asked for


def test_ok_read_settles_the_spin(tmp_path: Path, reads: dict[str, SpinRead]) -> None:
    table = roulette_table(tmp_path)
    bet_and_close(table)
    assert table.submit("camera", reads["ok"]) == "accepted"
    assert table.round_no == 2
    assert [(s["spot"], s["result"]) for s in settlements(table)] == [(f"straight:{NUMBER}", "win")]
    event = list(table.journal.records(kinds=("event",)))[-1].body
    assert event["source"] == "camera" and event["event"] == {"type": "wheel", "number": NUMBER}


def test_void_read_keeps_the_bets_and_the_next_spin_settles(tmp_path: Path, reads: dict[str, SpinRead]) -> None:
    table = roulette_table(tmp_path)
    bet_and_close(table)
    assert table.submit("camera", reads["void"]) == "accepted"
    assert settlements(table) == [] and table.round_no == 1
    event = list(table.journal.records(kinds=("event",)))[-1].body
    assert event["event"]["type"] == "void" and event["event"]["by"] == "camera"
    assert event["event"]["reason"] == ("the camera voided the spin: ball launched in the rotor's direction "
                                        "(seed 000, Roulett rule 2)")
    assert table.submit("camera", reads["ok"]) == "accepted"
    assert [s["result"] for s in settlements(table)] == ["win"] and table.round_no == 2


def test_unsure_waits_for_the_croupiers_number(tmp_path: Path, reads: dict[str, SpinRead]) -> None:
    table = roulette_table(tmp_path)
    bet_and_close(table)
    table.submit("camera", reads["unsure"])
    pending = table.pending_result
    assert pending is not None and pending.kind == "wheel" and pending.values == (None,)
    assert pending.prompt == ("Camera unsure (no stable pocket: the ball had not come to rest when the frames ended): "
                              "croupier, confirm the number")
    assert tower_pattern(table) == "result_pending" and table.view()["tower"]["amber"] == "flash"
    record = list(table.journal.records(kinds=("pending",)))[-1].body
    assert record["kind"] == "wheel" and record["values"] == [None]
    # another number while one waits is refused, from the camera or keyed in
    assert table.submit("camera", reads["ok"]) == "refused"
    assert settlements(table) == [] and table.round_no == 1
    confirm = lambda args: table.command(Command("confirm_result", args, "croupier Anna"))  # noqa: E731
    assert confirm({}) == "the camera could not read the number: give it"
    assert confirm({"values": [1, 2]}).startswith("a spin has one number")
    assert confirm({"number": -1}).startswith("number must be the winning number")
    assert confirm({"number": True}).startswith("number must be the winning number")
    assert confirm({"number": 37}).startswith("not settled: the number was rejected")  # the game's wheel: 0-36
    assert table.pending_result is not None and settlements(table) == []
    assert confirm({"number": NUMBER}) == "done"
    assert table.pending_result is None and table.round_no == 2
    assert [s["result"] for s in settlements(table)] == ["win"]
    event = [r for r in table.journal.records(kinds=("event",)) if r.body["event"]["type"] == "wheel"][-1].body
    assert event["confirmed_by"] == "croupier Anna" and event["event"]["number"] == NUMBER
    assert confirm({"number": 3}) == "no result waits for confirmation"
    # the one number given as values (the form the console's control.confirm_result sends) is taken too
    bet_and_close(table)
    table.submit("camera", reads["unsure"])
    assert confirm({"values": [0]}) == "done" and table.round_no == 3


def test_a_void_clears_a_held_spin_and_unsure_spins_in_a_row_latch(tmp_path: Path,
                                                                    reads: dict[str, SpinRead]) -> None:
    table = roulette_table(tmp_path, fail_limit=2)
    bet_and_close(table)
    table.submit("camera", reads["unsure"])
    assert table.submit("buttons", Void("respin", "croupier")) == "accepted"
    assert table.pending_result is None
    assert table.submit("camera", reads["unsure"]) == "fault"  # the second unsure spin in a row
    assert "reader_failing.camera" in table.faults
    assert "unsure of 2 spins in a row" in table.faults["reader_failing.camera"].text
    assert table.pending_result is not None
    assert table.submit("camera", reads["ok"]) == "refused"  # the failing reader is not listened to
    assert table.command(Command("confirm_result", {"number": 4}, "croupier")) == "done"
    assert table.round_no == 2


def write_video(path: Path, spins: list[tuple[int, str, int | None]]) -> None:
    """The spins one after the other, the ball resting 20 frames after each (as between spins at a table)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), synth_roulette.FPS, synth_roulette.SIZE)
    for seed, kind, number in spins:
        frame = None
        for frame in synth_roulette.frames(seed, kind, number=number):
            writer.write(frame)
        for _ in range(20 if kind != "no_rest" else 0):
            writer.write(frame)
    writer.release()


def run_device(device: RouletteCamera, timeout: float = 30.0) -> list[object]:
    posted: list[object] = []
    device.start(posted.append)
    deadline = time.monotonic() + timeout
    while device.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    device.stop()
    return posted


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three spins in one video: ok on NUMBER, launched the rotor's way (void), cut before the ball rests."""
    path = tmp_path_factory.mktemp("video") / "spins.avi"
    write_video(path, [(OK[0], "ok", NUMBER), (VOID[0], "same_direction", None), (3, "no_rest", None)])
    return path


def test_camera_device_reads_a_video_finding_the_wheel_itself(video: Path) -> None:
    device = build_roulette_camera("camera", "files", {"source": str(video)})  # no calibration: find_wheel
    posted = run_device(device)
    assert [(getattr(p, "status"), getattr(p, "number")) for p in posted] == [("ok", NUMBER), ("void", None),
                                                                              ("unsure", None)]
    assert "frames ended" in getattr(posted[2], "reason")  # the file ended mid-spin
    assert all(isinstance(p, SpinRead) for p in posted)
    health = device.health()
    assert health["ok"] and health["reads"] == 3 and health["last"] == "unsure" and health["frames"] > 500
    assert "fits the current view (wheel centre and ball track)" in device.calibrate()[0]


def test_camera_device_reads_a_folder_with_a_calibration_file(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for n, frame in enumerate(synth_roulette.frames(OK[0], "ok", number=NUMBER)):
        cv2.imwrite(str(frames / f"{n:04d}.jpg"), frame)
    save(tmp_path / "wheel.cal.json", synth_roulette.calibration())  # as 'tablectl vision calibrate --roulette'
    device = build_roulette_camera("camera", "files", {"source": str(frames),
                                                       "calibration": str(tmp_path / "wheel.cal.json")})
    assert device.calibration() == synth_roulette.calibration()
    assert [(getattr(p, "status"), getattr(p, "number")) for p in run_device(device)] == [("ok", NUMBER)]


def test_a_camera_that_shows_no_usable_wheel_says_why(tmp_path: Path) -> None:
    blank = tmp_path / "blank"
    blank.mkdir()
    image = synth_roulette.frames(1).__next__() * 0
    for n in range(40):
        cv2.imwrite(str(blank / f"{n:03d}.png"), image)
    device = build_roulette_camera("camera", "files", {"source": str(blank)})
    assert run_device(device) == []
    health = device.health()
    assert not health["ok"] and health["frames"] == 30
    assert health["error"].startswith("no roulette wheel found in the first 30 frames")
    assert device.calibrate() == [f"camera: {health['error']}"]  # the console's 'calibrate camera'
    looking = build_roulette_camera("camera", "files", {"source": str(blank)})
    looking._process(0, image)
    assert looking.calibrate()[0].startswith("camera: the wheel has not been found yet (looked at 1 frames)")
    small = tmp_path / "small"
    small.mkdir()
    frame = cv2.resize(next(synth_roulette.frames(1)), (320, 240))
    cv2.imwrite(str(small / "0.png"), frame)
    save(tmp_path / "wheel.cal.json", synth_roulette.calibration())
    device = build_roulette_camera("camera", "files", {"source": str(small),
                                                       "calibration": str(tmp_path / "wheel.cal.json")})
    assert run_device(device) == []
    assert device.health()["error"].startswith("the calibration is for 640x480 frames, the camera gives 320x240")


def test_the_daemon_builds_the_roulette_camera_and_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    built = devices.build(table_config.from_mapping(roulette_data(tmp_path), "test"), loop, simulate=False)
    assert isinstance(built.inputs["camera"], RouletteCamera)
    simulated = devices.build(table_config.from_mapping(roulette_data(tmp_path), "test"), loop, simulate=True)
    assert isinstance(simulated.inputs["camera"], EmulatedRouletteCamera)
    both = roulette_data(tmp_path)
    both["devices"]["wheel"] = {"driver": "serial", "port": "pty"}
    with pytest.raises(devices.StartProblem, match=r"^test: devices.camera: the wheel reader \(\[devices.wheel\]\) "):
        devices.build(table_config.from_mapping(both, "test"), loop, simulate=True)
    punto: dict[str, Any] = table_config.simulated_defaults("punto-banco", "se", str(tmp_path / "journal.sqlite"))
    punto["devices"]["camera"] = {"driver": "opencv", "source": 0}
    for simulate in (False, True):
        with pytest.raises(devices.StartProblem, match=r"^test: devices.camera: punto-banco has no camera reader"):
            devices.build(table_config.from_mapping(punto, "test"), loop, simulate=simulate)
    (tmp_path / "dice.cal.json").write_text('{"kind": "dice", "size": [640, 480], "area": [[0, 0], [640, 0], '
                                            '[640, 480], [0, 480]], "die_px": 40}')
    for name, words in (("dice.cal.json", "a dice calibration, not a roulette one"),
                        ("missing.json", "cannot read"), ("..", "cannot read")):
        with pytest.raises(devices.StartProblem, match=f"^test: devices.camera cannot start: .*{words}"):
            devices.build(table_config.from_mapping(roulette_data(tmp_path, calibration=str(tmp_path / name)),
                                                    "test"), loop, simulate=False)
    loop.close()


def test_tablectl_run_with_a_bad_calibration_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "wheel.cal.json").write_text("{not json")
    config = tmp_path / "table.toml"
    config.write_text(f"""[table]
id = "roulette-cam"
game = "roulette"
variant = "se"
currency = "SEK"

[devices.camera]
driver = "files"
source = "{tmp_path}"
calibration = "{tmp_path / 'wheel.cal.json'}"

[journal]
path = "{tmp_path / 'journal.sqlite'}"
""")
    done = run_tablectl("run", "--config", str(config), "--rounds", "1")
    assert done.returncode == 1  # a device that cannot start (StartError), as test_daemon has it
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].endswith(f"devices.camera cannot start: {tmp_path / 'wheel.cal.json'}: not JSON: "
                             f"Expecting property name enclosed in double quotes: line 1 column 2 (char 1)")


def test_the_daemon_reads_a_video_camera_and_takes_the_croupiers_number(tmp_path: Path, video: Path) -> None:
    """The whole path without --simulate: [devices.camera] files -> RouletteCamera -> translate -> Table."""
    data = roulette_data(tmp_path, source=str(video))
    daemon = Daemon(table_config.from_mapping(data, "test"), simulate=False, stream=io.StringIO())

    async def play() -> None:
        task = asyncio.create_task(daemon.run())
        for _ in range(600):
            await asyncio.sleep(0.05)
            if daemon.table is not None and daemon.table.pending_result is not None:
                break
        daemon.command(Command("confirm_result", {"number": 32}, "croupier Test"))
        await asyncio.sleep(0.3)
        assert daemon.stopped is not None
        daemon.stopped.set()
        await task

    asyncio.run(play())
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    events = [r.body for r in journal.records(kinds=("event",))]
    assert [(e["source"], e["event"]["type"], e["event"].get("number")) for e in events] == [
        ("camera", "wheel", NUMBER), ("camera", "void", None), ("camera", "wheel", 32)]
    assert "Roulett rule 2" in events[1]["event"]["reason"] and events[2]["confirmed_by"] == "croupier Test"
    pending = [r.body for r in journal.records(kinds=("pending",))]
    assert [(p["source"], p["kind"], p["values"]) for p in pending] == [("camera", "wheel", [None])]
    assert "the frames ended" in pending[0]["reason"]
    journal.close()


def test_simulated_roulette_table_reads_synthetic_spins_and_confirms_the_unsure(tmp_path: Path) -> None:
    data = roulette_data(tmp_path)
    data["devices"]["camera"] = {"driver": "opencv", "source": 0}  # a real table's camera, emulated
    stream = io.StringIO()
    daemon = Daemon(table_config.from_mapping(data, "test"), simulate=True, seed=3, fast=True, rounds=10,
                    stream=stream)
    assert asyncio.run(asyncio.wait_for(daemon.run(), 120)) == 0
    camera = daemon.built.inputs.get("camera") if daemon.built is not None else None
    assert isinstance(camera, EmulatedRouletteCamera) and "wheel" not in daemon.devices
    assert daemon.croupier is not None and daemon.table is not None
    assert daemon.table.round_no == 11 and daemon.table.pending_result is None
    assert camera.counts["ok"] >= 5 and camera.counts["void"] >= 1 and camera.counts["unsure"] >= 1, camera.counts
    assert camera.wrong == 0  # every ok read is the number the ball was launched to land on
    assert daemon.croupier.counts["results_confirmed"] >= 1 and daemon.croupier.counts["voids"] == 0
    out = stream.getvalue()
    assert "-> Camera unsure (" in out and "(confirmed by sim-croupier (looked at the wheel))" in out
    assert "the camera voided the spin: " in out
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    events = [r.body for r in journal.records(kinds=("event",)) if r.body["event"]["type"] in ("wheel", "void")]
    assert all(e["source"] == "camera" for e in events)
    assert sum(1 for e in events if e["event"]["type"] == "wheel") == 10
    assert not list(journal.records(kinds=("reject", "refuse")))
    journal.close()


def test_a_running_table_whose_camera_shows_no_wheel_latches_one_line(tmp_path: Path) -> None:
    blank = tmp_path / "blank"
    blank.mkdir()
    for n in range(31):
        cv2.imwrite(str(blank / f"{n:03d}.png"), next(synth_roulette.frames(1)) * 0)
    daemon = Daemon(table_config.from_mapping(roulette_data(tmp_path, source=str(blank)), "test"), simulate=False,
                    stream=io.StringIO())

    async def play() -> None:
        task = asyncio.create_task(daemon.run())
        for _ in range(100):
            await asyncio.sleep(0.05)
            if daemon.table is not None and "device_silent.camera" in daemon.table.faults:
                break
        assert daemon.stopped is not None
        daemon.stopped.set()
        await task

    asyncio.run(play())
    assert daemon.table is not None
    assert daemon.table.faults["device_silent.camera"].text == (
        "camera stopped answering: no roulette wheel found in the first 30 frames: point the camera at the wheel, "
        "or name a calibration from 'tablectl vision calibrate --roulette'")


def test_a_held_spin_survives_a_restart(tmp_path: Path) -> None:
    table = roulette_table(tmp_path)
    bet_and_close(table)
    assert table.hold_result("camera", (NUMBER,), (), "the ball not at rest long enough", kind="wheel") == "held"
    table.journal.close()
    again = roulette_table(tmp_path)
    assert again.pending_result is not None and again.pending_result.kind == "wheel"
    assert again.pending_result.values == (NUMBER,)
    assert again.command(Command("confirm_result", {}, "croupier Anna")) == "done"  # the camera's number, confirmed
    assert [s["result"] for s in settlements(again)] == ["win"] and again.pending_result is None
