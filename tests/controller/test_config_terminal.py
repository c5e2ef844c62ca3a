"""``[terminal]`` and the rule that a table can take its game's decisions (config check)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import config as table_config
from tests.tablectl import ROOT, run_tablectl

EXAMPLES = sorted((ROOT / "hw" / "tables").glob("*.toml"))
PANEL = ROOT / "hw" / "dealer-panel.toml"


def table(tmp: Path, game: str, variant: str, terminal: str | None = None, pin_map: Path = PANEL) -> Path:
    path = tmp / "table.toml"
    path.write_text(f"""
[table]
id = "t1"
game = "{game}"
variant = "{variant}"
currency = "EUR"

[devices.shoe]
driver = "serial"
port = "/dev/ttyUSB0"

[devices.gpio]
driver = "gpio"
pin_factory = "lgpio"
pin_map = "{pin_map}"

[journal]
path = "{tmp / 'journal.sqlite'}"
""" + (f"\n[terminal]\n{terminal}\n" if terminal is not None else ""))
    return path


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_table_can_take_its_games_decisions(path: Path) -> None:
    config = table_config.load(path)
    needed = config.spec.player_decisions(config.round_config)
    wired = {b.action_for(config.spec.id) for b in config.pin_map.buttons} if config.pin_map else set()
    assert config.terminal.get("enabled") is True or set(needed) <= wired


def test_a_blackjack_table_without_terminal_or_decision_buttons_fails_config_check(tmp_path: Path) -> None:
    result = run_tablectl("config", "check", str(table(tmp_path, "blackjack", "se")))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"tablectl: {tmp_path / 'table.toml'}: terminal: blackjack needs the players' decisions (stand, double, "
        "split, insurance, even_money) but this table has no input for stand, double, split, insurance, even_money: "
        "set [terminal] enabled = true (the dealer terminal), or wire a decision button for each in the pin map of "
        "[devices.gpio]")
    assert run_tablectl("config", "check", str(table(tmp_path, "blackjack", "se", "enabled = true"))).returncode == 0


def test_the_decisions_are_the_tables_own_rules_and_buttons_can_take_them(tmp_path: Path) -> None:
    config = table_config.load(table(tmp_path, "three-card-poker", "fi"))  # the panel's FOLD and PLAY buttons
    assert config.spec.player_decisions(config.round_config) == ("fold", "play")
    burn = table(tmp_path, "blackjack", "se-burn", pin_map=ROOT / "hw" / "bj-burn-7.toml")
    result = run_tablectl("config", "check", str(burn))
    assert result.returncode == 2 and "no input for insurance, even_money:" in result.stderr
    assert "burn" not in result.stderr.split("no input for")[1]  # the burn button is wired


def test_the_keypad_alone_does_not_count_its_keys_mean_what_the_terminal_shows(tmp_path: Path) -> None:
    keypad = tmp_path / "keypad.toml"
    keypad.write_text(PANEL.read_text().split("# Decision buttons of the poker games")[0] + """
[buttons.supervisor]
pin = 19
""")
    result = run_tablectl("config", "check", str(table(tmp_path, "caribbean-stud", "classic", pin_map=keypad)))
    assert result.returncode == 2 and "no input for fold, raise" in result.stderr


def test_the_terminal_on_another_address_needs_tls(tmp_path: Path) -> None:
    path = table(tmp_path, "punto-banco", "fi", 'enabled = true\naddress = "10.0.5.21"')
    result = run_tablectl("config", "check", str(path))
    assert result.returncode == 2
    assert "terminal.address = '10.0.5.21': 127.0.0.1, or give terminal.cert and terminal.key" in result.stderr
    (tmp_path / "t.crt").write_text("-----BEGIN CERTIFICATE-----\n")
    (tmp_path / "t.key").write_text("-----BEGIN PRIVATE KEY-----\n")
    path = table(tmp_path, "punto-banco", "fi", 'enabled = true\naddress = "10.0.5.21"\ncert = "t.crt"\nkey = "t.key"')
    assert run_tablectl("config", "check", str(path)).returncode == 0
    assert table_config.load(path).terminal["cert"] == str(tmp_path / "t.crt")
    for bad, words in (('address = "pit"', "terminal.address = 'pit': an IP address"),
                       ("port = 70000", "terminal.port = 70000"), ("enabled = 1", "terminal.enabled = 1"),
                       ('cert = "missing.pem"', "terminal.cert = 'missing.pem': an existing PEM file"),
                       ("chip_unit = 0", "terminal.chip_unit = 0"), ("chip_unit = 0.5", "terminal.chip_unit = 0.5")):
        result = run_tablectl("config", "check", str(table(tmp_path, "punto-banco", "fi", bad)))
        assert result.returncode == 2 and words in result.stderr, result.stderr
