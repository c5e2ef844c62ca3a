"""Malformed table configurations and scenario documents, generated: one line each, exit 2, never a traceback.

Each generated document is malformed for sure (an unknown key, a missing
section, a value of the wrong kind, broken syntax, nesting too deep, an
integer too long, a lone surrogate, bytes that are not UTF-8), on top of
random changes to a valid one. The commands' own ``main`` runs in-process
(``tablectl config check`` and ``tablectl settle``), 500 and more of each.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from controller import cli
from tests.tablectl import ROOT

BASE_CONFIG = tomllib.loads((ROOT / "hw" / "tables" / "punto-banco-se.toml").read_text(encoding="utf-8"))
BASE_CONFIG["journal"]["path"] = "/tmp/never-opened/journal.sqlite"
BASE_CONFIG.pop("devices", None)
BASE_CONFIG["devices"] = {"shoe": {"driver": "simulated"}, "sign": {"driver": "text"}}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    lines = []
    for name, section in data.items():
        if isinstance(section, dict):
            lines.append(f"[{json.dumps(name)}]")
            lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in section.items()]
        else:
            lines.insert(0, f"{json.dumps(name)} = {toml_value(section)}")
    return "\n".join(lines) + "\n"


scalars = st.one_of(st.booleans(), st.integers(-10**6, 10**9), st.floats(allow_nan=False, allow_infinity=False,
                                                                           width=32),
                    st.text(max_size=8), st.lists(st.integers(-5, 50), max_size=3),
                    st.dictionaries(st.text(min_size=1, max_size=4), st.integers(), max_size=2))
wrong_kind = st.one_of(st.booleans(), st.floats(allow_nan=False, allow_infinity=False, width=32),
                       st.lists(st.lists(st.integers(), max_size=2), min_size=1, max_size=2),
                       st.dictionaries(st.just("x"), st.integers(), min_size=1, max_size=1))
PATHS = [(s, k) for s, sec in BASE_CONFIG.items() if isinstance(sec, dict) for k in sec]


@st.composite
def malformed_config(draw: st.DrawFn) -> bytes:
    data = json.loads(json.dumps(BASE_CONFIG))
    for section, key in draw(st.lists(st.sampled_from(PATHS), max_size=3)):  # random changes first
        if section in data and isinstance(data[section], dict):
            data[section][key] = draw(scalars)
    defect = draw(st.sampled_from(["unknown key", "unknown section", "missing section", "wrong kind",
                                   "broken syntax", "deep nesting", "not utf-8", "duplicate key"]))
    if defect == "unknown key":
        section = draw(st.sampled_from(["table", "options", "limits", "journal", "console", "runtime"]))
        data.setdefault(section, {})[draw(st.sampled_from(["colour", "Decks", "pin_mapp", "x"]))] = draw(scalars)
    elif defect == "unknown section":
        data[draw(st.sampled_from(["tabel", "device", "extra"]))] = {"a": 1}
    elif defect == "missing section":
        data.pop(draw(st.sampled_from(["table", "journal"])), None)
    elif defect == "wrong kind":
        section, key = draw(st.sampled_from([("table", "id"), ("table", "game"), ("table", "currency"),
                                             ("options", "decks"), ("options", "boxes"), ("limits", "punto"),
                                             ("journal", "path"), ("table", "minor_unit")]))
        data.setdefault(section, {})[key] = draw(wrong_kind)
    text = to_toml(data)
    if defect == "broken syntax":
        cut = draw(st.integers(1, len(text) - 1))
        text = text[:cut] + draw(st.sampled_from(['"', "[[", " = = ", "\n[", "\x00", "]\n"])) + text[cut:]
        try:
            tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            pass
        else:
            text += "\n= broken\n"
    elif defect == "deep nesting":
        depth = draw(st.integers(2000, 20000))
        text += "deep = " + "[" * depth + "]" * depth + "\n"
    elif defect == "duplicate key":
        text += '\n[table]\nid = "again"\n'
    raw = text.encode("utf-8")
    if defect == "not utf-8":
        raw += b'\n# \xff\xfe caf\xe9\n'
    return raw


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.err


@settings(max_examples=520, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(malformed_config())
def test_a_malformed_configuration_is_one_line_a_problem_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                     raw: bytes) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(raw)
    code, err = run_cli(["config", "check", str(path)], capsys)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines and "Traceback" not in err
    assert all(line.startswith(f"tablectl: {path}") for line in lines), lines[:3]  # each problem one line, placed


@st.composite
def malformed_scenario(draw: st.DrawFn) -> bytes:
    doc: dict[str, Any] = {"game": draw(st.sampled_from(["punto-banco", "blackjack", "roulette", "sic-bo"])),
                           "rounds": [{"events": [{"type": "close_bets"}]}]}
    defect = draw(st.sampled_from(["unknown key", "game not text", "unknown game", "rounds not a list",
                                   "not an object", "broken JSON", "deep nesting", "huge integer",
                                   "lone surrogate", "not utf-8", "round not an object"]))
    text: str | None = None
    if defect == "unknown key":
        doc[draw(st.sampled_from(["Game", "round", "x", "events"]))] = draw(st.one_of(st.none(), scalars))
    elif defect == "game not text":
        doc["game"] = draw(st.one_of(st.integers(), st.none(), st.lists(st.integers(), max_size=2)))
    elif defect == "unknown game":
        doc["game"] = draw(st.text(min_size=1, max_size=10).filter(lambda t: t not in ("punto-banco", "blackjack")))
        doc["game"] = "no-such-" + doc["game"]
    elif defect == "rounds not a list":
        doc["rounds"] = draw(st.one_of(st.integers(), st.text(max_size=4), st.dictionaries(st.text(max_size=2),
                                                                                           st.integers(), max_size=2)))
    elif defect == "round not an object":
        doc["rounds"] = [draw(st.one_of(st.integers(), st.text(max_size=4), st.lists(st.integers(), max_size=2)))]
    elif defect == "not an object":
        text = json.dumps(draw(st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(max_size=5))))
    elif defect == "broken JSON":
        whole = json.dumps(doc)
        text = whole[:draw(st.integers(1, len(whole) - 1))]
    elif defect == "deep nesting":
        depth = draw(st.integers(1200, 30000))
        text = '{"game": ' + "[" * depth + "]" * depth + "}"
    elif defect == "huge integer":
        text = json.dumps(doc)[:-1] + ', "options": {"decks": ' + "7" * draw(st.integers(4400, 6000)) + "}}"
    elif defect == "lone surrogate":
        text = json.dumps(doc)[:-1] + ', "comment": "\\ud800"}'
    if text is None:
        text = json.dumps(doc)
    raw = text.encode("utf-8")
    if defect == "not utf-8":
        raw = raw[:-1] + b', "comment": "caf\xe9"}'
    return raw


@settings(max_examples=520, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(malformed_scenario())
def test_a_malformed_scenario_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     raw: bytes) -> None:
    path = tmp_path / "scenario.json"
    path.write_bytes(raw)
    code, err = run_cli(["settle", str(path)], capsys)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err[:300]
    assert err.startswith(f"tablectl: {path}")


@pytest.mark.parametrize("argv_text", [
    ("settle", '{"game": ' + "[" * 50000 + "]" * 50000 + "}"),
    ("settle", '{"game": "punto-banco", "rounds": [], "options": {"decks": ' + "9" * 5000 + "}}"),
    ("settle", '{"game": "punto-banco", "variant": "\\ud800", "rounds": []}'),
])
def test_the_cases_of_the_report_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              argv_text: tuple[str, str]) -> None:
    path = tmp_path / "doc.json"
    path.write_text(argv_text[1], encoding="utf-8", errors="surrogatepass")
    code, err = run_cli([argv_text[0], str(path)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err


def test_a_deep_toml_and_a_non_ascii_digest_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100000 + "]" * 100000 + "\n")
    code, err = run_cli(["config", "check", str(deep)], capsys)
    assert code == 2 and err.strip() == f"tablectl: {deep}: not valid TOML: arrays or tables nested too deeply"
    digest = tmp_path / "code.sha256"
    digest.write_bytes("sha256:café\n".encode())
    code = cli.main(["digest", "--check", str(digest)])
    out = capsys.readouterr().out
    assert code == 1 and "is not a stored code digest (not plain ASCII text)" in out and "Traceback" not in out


@pytest.mark.parametrize("change, words", [
    (lambda d: d["limits"].update(punto=[0, 0]), "limits.punto = [0, 0]: a minimum stake of at least 1"),
    (lambda d: d["limits"].update(punto=[1500, 9000]), "a minimum that is a multiple of chip_unit 1000"),
    (lambda d: d.setdefault("runtime", {}).update(code_digest="/nonexistent/code.sha256"),
     "runtime.code_digest = '/nonexistent/code.sha256': cannot be read"),
])
def test_config_check_refuses_zero_limits_odd_minimums_and_a_missing_digest(tmp_path: Path, change: Any, words: str,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(json.dumps(BASE_CONFIG))
    change(data)
    path = tmp_path / "table.toml"
    path.write_text(to_toml(data))
    code, err = run_cli(["config", "check", str(path)], capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
