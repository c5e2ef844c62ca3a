from pathlib import Path

import pytest

import drivers

from controller.runtime.selfcheck import check_code, code_digest, write_digest
from tests.tablectl import run_tablectl


def make_tree(root: Path) -> list[Path]:
    (root / "controller" / "games").mkdir(parents=True)
    (root / "drivers").mkdir()
    (root / "controller" / "__init__.py").write_text("x = 1\n")
    (root / "controller" / "games" / "rules.toml").write_text("pays = 35\n")
    (root / "drivers" / "shoe.py").write_text("def read(): ...\n")
    (root / "drivers" / "notes.txt").write_text("not code\n")
    return [root / "controller", root / "drivers"]


def test_a_changed_added_or_removed_file_is_detected(tmp_path):
    roots = make_tree(tmp_path / "code")
    stored = tmp_path / "code.sha256"
    write_digest(stored, roots)
    assert check_code(stored, roots).ok
    (tmp_path / "code" / "drivers" / "notes.txt").write_text("changed, but not code\n")
    assert check_code(stored, roots).ok
    (tmp_path / "code" / "controller" / "games" / "rules.toml").write_text("pays = 36\n")
    result = check_code(stored, roots)
    assert not result.ok and "differs" in result.message
    write_digest(stored, roots)
    (tmp_path / "code" / "drivers" / "extra.py").write_text("")
    assert not check_code(stored, roots).ok
    missing = check_code(tmp_path / "none", roots)
    assert not missing.ok and "no stored code digest" in missing.message


def test_the_shipped_models_are_part_of_the_digest(tmp_path):
    roots = make_tree(tmp_path / "code")
    models = tmp_path / "code" / "drivers" / "vision" / "models"
    models.mkdir(parents=True)
    (models / "dice_face.onnx").write_bytes(b"\x08\x07weights")
    stored = tmp_path / "code.sha256"
    write_digest(stored, roots)
    (models / "dice_face.onnx").write_bytes(b"\x08\x07weighs")
    assert not check_code(stored, roots).ok
    write_digest(stored, roots)
    (models / "dice_face.onnx").unlink()
    assert not check_code(stored, roots).ok
    # and the installed packages' own models are read by the digest
    shipped = sorted((Path(drivers.__file__).parent / "vision" / "models").glob("*.onnx"))
    assert len(shipped) >= 3
    seen: list[Path] = []
    real_read = Path.read_bytes

    def spy(self: Path) -> bytes:
        seen.append(self)
        return real_read(self)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(Path, "read_bytes", spy)
    try:
        code_digest()
    finally:
        monkeypatch.undo()
    assert set(shipped) <= set(seen)


def test_digest_command(tmp_path):
    stored = tmp_path / "code.sha256"
    assert run_tablectl("digest", "--write", str(stored)).returncode == 0
    assert stored.read_text().strip() == code_digest()
    ok = run_tablectl("digest", "--check", str(stored))
    assert ok.returncode == 0 and "matches" in ok.stdout
    stored.write_text("sha256:00\n")
    bad = run_tablectl("digest", "--check", str(stored))
    assert bad.returncode == 1 and "differs" in bad.stdout


def test_a_digest_file_that_is_not_ascii_latches_code_digest_at_power_up(tmp_path):
    """The daemon's power-up check says it in one line and latches the fault: no traceback, no play."""
    import asyncio
    import io

    from controller import config as table_config
    from controller.runtime.daemon import Daemon
    from tests.controller.runtime.test_console_daemon import write_config

    digest = tmp_path / "code.sha256"
    digest.write_bytes("sha256:café\n".encode())
    assert check_code(digest).message == f"{digest} is not a stored code digest (not plain ASCII text)"
    daemon = Daemon(table_config.load(write_config(tmp_path, digest)), simulate=True, croupier=False,
                    stream=io.StringIO(), quiet=True)

    async def main():
        task = asyncio.create_task(daemon.run())
        while daemon.ready_s is None:
            assert not task.done()
            await asyncio.sleep(0.02)
        daemon.stopped.set()
        assert await asyncio.wait_for(task, 30) == 0
    asyncio.run(main())
    fault = daemon.table.faults["code_digest"]
    assert "not plain ASCII text" in fault.text and fault.seq > 0  # journaled
