from pathlib import Path

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


def test_digest_command(tmp_path):
    stored = tmp_path / "code.sha256"
    assert run_tablectl("digest", "--write", str(stored)).returncode == 0
    assert stored.read_text().strip() == code_digest()
    ok = run_tablectl("digest", "--check", str(stored))
    assert ok.returncode == 0 and "matches" in ok.stdout
    stored.write_text("sha256:00\n")
    bad = run_tablectl("digest", "--check", str(stored))
    assert bad.returncode == 1 and "differs" in bad.stdout
