"""Table configuration: the examples pass, and each malformed file gives one clear line naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import config as table_config
from tests.tablectl import ROOT, run_tablectl

EXAMPLES = sorted((ROOT / "hw" / "tables").glob("*.toml"))

BASE = {
    "table": 'id = "t1"\ngame = "punto-banco"\nvariant = "fi"\ncurrency = "EUR"\nminor_unit = 100\n',
    "options": "decks = 8\nboxes = 9\n",
    "limits": "punto = [500, 100000]\nbanco = [500, 100000]\ntie = [500, 10000]\n",
    "devices.shoe": 'driver = "serial"\nport = "/dev/ttyUSB0"\nbaud = 9600\n',
    "devices.gpio": f'driver = "gpio"\npin_factory = "mock"\npin_map = "{ROOT / "hw" / "dealer-panel.toml"}"\n',
    "devices.sign": 'driver = "max7219"\n',
    "jackpot.main": "base = 100000\ncontribution = 100\ncap = 500000\noverflow = true\n",
    "journal": 'path = "var/t1/journal.sqlite"\n',
    "console": 'enabled = true\nport = "/dev/ttyS0"\nbaud = 115200\n',
    "runtime": "output_interval_ms = 50\ndevice_timeout_s = 5\n",
}


def render(sections: dict[str, str | None]) -> str:
    return "".join(f"[{name}]\n{body}\n" for name, body in sections.items() if body is not None)


def with_(section: str, body: str | None, **more: str | None) -> str:
    sections = dict(BASE)
    sections[section] = body
    for key, value in more.items():
        sections[key.replace("__", ".")] = value
    return render(sections)


def replace(section: str, old: str, new: str) -> str:
    return with_(section, BASE[section].replace(old, new))


# (name, file text, the key the one line must name)
BAD: list[tuple[str, str, str]] = [
    ("no table section", with_("table", None), "table missing"),
    ("unknown top section", render(BASE) + "[extras]\nx = 1\n", "extras"),
    ("unknown table key", replace("table", 'id = "t1"', 'id = "t1"\ncolour = "red"'), "table.colour"),
    ("bad table id", replace("table", '"t1"', '"T 1!"'), "table.id"),
    ("table id too long", replace("table", '"t1"', '"' + "t" * 40 + '"'), "table.id"),
    ("missing table id", replace("table", 'id = "t1"\n', ""), "table.id missing"),
    ("unknown game", replace("table", '"punto-banco"', '"pontoon"'), "table.game"),
    ("game not text", replace("table", '"punto-banco"', "7"), "table.game"),
    ("unknown variant", replace("table", '"fi"', '"xx"'), "table.variant"),
    ("currency lower case", replace("table", '"EUR"', '"eur"'), "table.currency"),
    ("currency number", replace("table", '"EUR"', "978"), "table.currency"),
    ("missing currency", replace("table", 'currency = "EUR"\n', ""), "table.currency missing"),
    ("minor unit 3", replace("table", "minor_unit = 100", "minor_unit = 3"), "table.minor_unit"),
    ("minor unit text", replace("table", "minor_unit = 100", 'minor_unit = "100"'), "table.minor_unit"),
    ("price base amount where not used", replace("table", "minor_unit = 100", "minor_unit = 100\nprice_base_amount = 5920000"),
     "table.price_base_amount"),
    ("decks 7", replace("options", "decks = 8", "decks = 7"), "options.decks"),
    ("decks text", replace("options", "decks = 8", 'decks = "eight"'), "options.decks"),
    ("boxes 0", replace("options", "boxes = 9", "boxes = 0"), "options.boxes"),
    ("boxes 99", replace("options", "boxes = 9", "boxes = 99"), "options.boxes"),
    ("boxes bool", replace("options", "boxes = 9", "boxes = true"), "options.boxes"),
    ("option of another variant", replace("options", "boxes = 9", "boxes = 9\nbanco_half_on = 6"), "options.banco_half_on"),
    ("unknown option", replace("options", "boxes = 9", "boxes = 9\nspeed = 3"), "options.speed"),
    ("limits in options", replace("options", "boxes = 9", "boxes = 9\nlimits = 3"), "options.limits"),
    ("negative min commission", replace("options", "boxes = 9", "boxes = 9\nmin_commission = -5"), "options.min_commission"),
    ("limit spot unknown", replace("limits", "tie = [500, 10000]", "dragon = [500, 10000]"), "limits.dragon"),
    ("limit max below min", replace("limits", "tie = [500, 10000]", "tie = [500, 100]"), "limits"),
    ("limit one number", replace("limits", "tie = [500, 10000]", "tie = 500"), "limits"),
    ("limit negative", replace("limits", "tie = [500, 10000]", "tie = [-1, 10000]"), "limits"),
    ("unknown device", with_("devices.shoe", BASE["devices.shoe"], devices__toaster='driver = "serial"\n'), "devices.toaster"),
    ("device without driver", replace("devices.shoe", 'driver = "serial"\n', ""), "devices.shoe.driver"),
    ("unknown driver", replace("devices.shoe", '"serial"', '"usb"'), "devices.shoe.driver"),
    ("bad port", replace("devices.shoe", '"/dev/ttyUSB0"', '"ttyUSB0"'), "devices.shoe.port"),
    ("port number", replace("devices.shoe", '"/dev/ttyUSB0"', "0"), "devices.shoe.port"),
    ("missing port", replace("devices.shoe", 'port = "/dev/ttyUSB0"\n', ""), "devices.shoe.port missing"),
    ("bad baud", replace("devices.shoe", "9600", "9601"), "devices.shoe.baud"),
    ("unknown serial key", replace("devices.shoe", "baud = 9600", "baud = 9600\nparity = 'N'"), "devices.shoe.parity"),
    ("bad pin factory", replace("devices.gpio", '"mock"', '"wiringpi"'), "devices.gpio.pin_factory"),
    ("no pin factory", replace("devices.gpio", 'pin_factory = "mock"\n', ""), "devices.gpio.pin_factory missing"),
    ("gpio without pin map", replace("devices.gpio", BASE["devices.gpio"].split("\n")[2] + "\n", ""),
     "devices.gpio.pin_map missing"),
    ("old inline pins", replace("devices.gpio", 'pin_factory = "mock"', 'pin_factory = "mock"\npins = { a = 5 }'),
     "devices.gpio.pins"),
    ("old buttons device", with_("devices.shoe", BASE["devices.shoe"], devices__buttons='driver = "gpio"\n'),
     "devices.buttons"),
    ("pin map number", replace("devices.gpio", BASE["devices.gpio"].split("\n")[2], "pin_map = 5"),
     "devices.gpio.pin_map"),
    ("missing pin map file", replace("devices.gpio", BASE["devices.gpio"].split("\n")[2],
                                     'pin_map = "no/such/file.toml"'), "devices.gpio.pin_map"),
    ("pin map with a pin used twice", replace("devices.gpio", BASE["devices.gpio"].split("\n")[2],
                                              f'pin_map = "{ROOT / "tests" / "controller" / "runtime" / "bad-pins.toml"}"'),
     "devices.gpio.pin_map"),
    ("i2c bus text", replace("devices.gpio", 'pin_factory = "mock"', 'pin_factory = "mock"\ni2c_bus = "one"'),
     "devices.gpio.i2c_bus"),
    ("sign old spi key", replace("devices.sign", 'driver = "max7219"', 'driver = "max7219"\nspi_port = 0'),
     "devices.sign.spi_port"),
    ("sign unknown driver", replace("devices.sign", '"max7219"', '"hd44780"'), "devices.sign.driver"),
    ("max7219 sign without pin map", with_("devices.gpio", None), "devices.sign.driver"),
    ("device not a table", render(BASE).replace('[devices.sign]\ndriver = "max7219"\n',
                                                "") + "[devices]\nsign = 5\n", "devices.sign"),
    ("camera bad source", with_("devices.shoe", BASE["devices.shoe"], devices__camera='driver = "opencv"\nsource = -1\n'),
     "devices.camera.source"),
    ("jackpot without base", replace("jackpot.main", "base = 100000\n", ""), "jackpot.main.base missing"),
    ("jackpot negative contribution", replace("jackpot.main", "contribution = 100", "contribution = -1"),
     "jackpot.main.contribution"),
    ("jackpot float base", replace("jackpot.main", "base = 100000", "base = 1000.5"), "jackpot.main.base"),
    ("jackpot cap below base", replace("jackpot.main", "cap = 500000", "cap = 50"), "jackpot.main.cap"),
    ("jackpot overflow without cap", replace("jackpot.main", "cap = 500000\n", ""), "jackpot.main.overflow"),
    ("jackpot overflow text", replace("jackpot.main", "overflow = true", 'overflow = "yes"'), "jackpot.main.overflow"),
    ("jackpot unknown key", replace("jackpot.main", "overflow = true", "overflow = true\nrate = 2"), "jackpot.main.rate"),
    ("jackpot bad name", render(BASE).replace("[jackpot.main]", "[jackpot.Main]"), "jackpot.Main"),
    ("no journal", with_("journal", None), "journal missing"),
    ("journal path empty", replace("journal", '"var/t1/journal.sqlite"', '""'), "journal.path"),
    ("journal unknown key", replace("journal", 'path = "var/t1/journal.sqlite"', 'path = "x.sqlite"\nsync = "off"'),
     "journal.sync"),
    ("console enabled text", replace("console", "enabled = true", 'enabled = "yes"'), "console.enabled"),
    ("console bad baud", replace("console", "baud = 115200", "baud = 3"), "console.baud"),
    ("console unknown key", replace("console", "baud = 115200", "baud = 115200\nshell = true"), "console.shell"),
    ("runtime interval too big", replace("runtime", "output_interval_ms = 50", "output_interval_ms = 5000"),
     "runtime.output_interval_ms"),
    ("runtime timeout 0", replace("runtime", "device_timeout_s = 5", "device_timeout_s = 0"), "runtime.device_timeout_s"),
    ("not TOML", "[table\nid = 1\n", "not valid TOML"),
    ("section is a value", render({k: v for k, v in BASE.items() if k != "options"}).replace("[table]", "options = 3\n[table]"),
     "options = 3"),
]

SE = {**BASE, "table": BASE["table"].replace('"fi"', '"se"') + "price_base_amount = 5920000\n",
      "options": "decks = 6\nboxes = 7\n", "limits": "punto = [1000, 9000]\nbanco = [1000, 9000]\n"}
BAD += [
    ("SE limit above the legal 1/600", render({**SE, "limits": "punto = [1000, 9000]\nbanco = [1000, 20000]\n"}), "limits.banco"),
    ("SE tie not offered", render({**SE, "limits": "punto = [1000, 9000]\ntie = [1000, 5000]\n"}), "limits.tie"),
    ("SE chip unit 0", render({**SE, "options": "decks = 6\nchip_unit = 0\n"}), "options.chip_unit"),
    ("SE price base amount 0", render({**SE, "table": SE["table"].replace("5920000", "0")}), "table.price_base_amount"),
]


def test_there_are_at_least_50_malformed_cases() -> None:
    assert len(BAD) >= 50


@pytest.mark.parametrize("text,key", [(t, k) for _, t, k in BAD], ids=[n for n, _, _ in BAD])
def test_malformed_configuration_gives_one_line_naming_the_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(table_config.ConfigError) as caught:
        table_config.load(path)
    problems = caught.value.problems
    assert len(problems) == 1, problems
    line = problems[0]
    assert "\n" not in line and line.startswith(str(path)), line
    assert key in line, line


def test_the_base_file_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(render(BASE))
    config = table_config.load(path)
    assert config.round_config["limits"]["tie"] == (500, 10000)
    assert config.jackpots[0].cap == 500000


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(render({**BASE, "options": "decks = 7\nboxes = 0\n"}).replace('"EUR"', '"eu"'))
    with pytest.raises(table_config.ConfigError) as caught:
        table_config.load(path)
    assert len(caught.value.problems) == 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_tables_check_clean(path: Path) -> None:
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 0, done.stderr
    assert "ok" in done.stdout


def test_one_example_per_punto_banco_variant() -> None:
    from controller import games
    spec = games.load_game("punto-banco")
    assert {table_config.load(p).round_config.variant for p in EXAMPLES if "punto-banco" in p.name} == \
        {v.id for v in spec.variants}


def test_config_check_exits_2_with_one_line_per_problem(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(with_("options", "decks = 7\nboxes = 9\n"))
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "options.decks = 7" in done.stderr and "Traceback" not in done.stderr


def test_the_daemon_refuses_a_bad_configuration(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(render({**SE, "limits": "punto = [1000, 9000]\nbanco = [1000, 20000]\n"}))
    done = run_tablectl("run", "--config", str(path), "--simulate", "--rounds", "1")
    assert done.returncode == 2
    assert "limits.banco" in done.stderr and "1/600" in done.stderr and "Traceback" not in done.stderr


def test_config_check_reads_the_cameras_calibration_file(tmp_path: Path) -> None:
    """The calibration file is read by the loader its device uses: missing, unreadable or of the other
    reader's kind is one line and exit 2 here, not only at start."""
    from drivers.vision import synth_dice, synth_roulette
    from drivers.vision.calibration import save

    save(tmp_path / "dice.cal.json", synth_dice.calibration())
    save(tmp_path / "wheel.cal.json", synth_roulette.calibration())
    (tmp_path / "broken.cal.json").write_text("{not json")
    cases = [("roulette", "se", "wheel.cal.json", None),
             ("tarning", "se", "dice.cal.json", None),
             ("roulette", "se", "dice.cal.json", "a dice calibration, not a roulette one"),
             ("tarning", "se", "wheel.cal.json", "a roulette calibration, not a dice one"),
             ("sic-bo", "fi", "broken.cal.json", "not JSON"),
             ("roulette", "se", "missing.cal.json", "cannot read")]
    for game, variant, name, words in cases:
        path = tmp_path / f"{game}.toml"
        path.write_text(f"""[table]
id = "cam-1"
game = "{game}"
variant = "{variant}"
currency = "SEK"

[devices.camera]
driver = "files"
source = "{tmp_path}"
calibration = "{tmp_path / name}"

[journal]
path = "{tmp_path / 'journal.sqlite'}"
""")
        done = run_tablectl("config", "check", str(path))
        if words is None:
            assert done.returncode == 0 and "ok" in done.stdout, done.stderr
            continue
        assert done.returncode == 2, (name, done.stdout)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert lines[0].startswith(f"tablectl: {path}: devices.camera.calibration: {tmp_path / name}: ") and \
            words in lines[0], lines[0]


OASIS = ROOT / "hw" / "tables" / "oasis-stud-fi-progressive.toml"


def _oasis(tmp_path: Path, old: str, new: str) -> Path:
    """The Oasis Stud progressive example table with ``old`` replaced by ``new`` (its pin map found from here)."""
    text = OASIS.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new).replace('"../progressive-7.toml"', f'"{ROOT / "hw" / "progressive-7.toml"}"')
    path = tmp_path / "oasis.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, words", [
    ('meter = "oasis-progressive"', 'meter = "oasis-prog"',
     "options.meter = 'oasis-prog': the meter oasis-stud feeds needs a [jackpot.oasis-prog] section (its "
     "base) in this file (meters here: oasis-progressive)"),
    ("[jackpot.oasis-progressive]", "[jackpot.other]", "needs a [jackpot.oasis-progressive] section"),
    ('meter = "oasis-progressive"', "", "options.meter = 'oasis-stud': the meter oasis-stud feeds needs a "
                                        "[jackpot.oasis-stud] section"),  # the option's default names no meter here
], ids=["misspelt", "meter-renamed", "default-meter"])
def test_a_progressive_whose_meter_the_table_does_not_set_up_is_one_line_and_exit_2(tmp_path: Path, old: str,
                                                                                      new: str, words: str) -> None:
    """Else every round with a progressive chip would be refused when the bets close ("no jackpot meter")."""
    path = _oasis(tmp_path, old, new)
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"tablectl: {path}: options.meter = ") and words in lines[0], lines[0]


def test_a_table_without_the_progressive_needs_no_meter(tmp_path: Path) -> None:
    path = _oasis(tmp_path, "progressive = true", "progressive = false")
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("[jackpot.oasis-progressive]")] + text[text.index("[journal]"):], encoding="utf-8")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 0, done.stderr
    assert "meters none" in done.stdout


def test_config_check_warns_but_passes_a_progressive_that_gives_the_players_the_edge(tmp_path: Path) -> None:
    """Above the break-even contribution the table may play (the casino's choice), and config check says so in one
    line with the long-run figures of the game's math; the example's 15 cents of a 1-euro chip has no warning."""
    from controller.house_edge.oasis_stud import long_run

    done = run_tablectl("config", "check", str(_oasis(tmp_path, "progressive_contribution = 15 ",
                                                      "progressive_contribution = 15 ")))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    path = _oasis(tmp_path, "progressive_contribution = 15 ", "progressive_contribution = 25 ")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr
    lines = done.stderr.strip().splitlines()
    config = table_config.load(path)
    figures = long_run(config.round_config, 500_000)
    assert figures["return_percent"] > 100 and 23 < figures["break_even_contribution"] < 25
    assert len(lines) == 1 and lines[0].startswith(f"tablectl: warning: {path}: options.progressive_contribution = "
                                                   f"25: the players have the edge in the long run"), lines
    assert f"returns {figures['return_percent']:.2f} %" in lines[0]
    assert f"below {figures['break_even_contribution']:.2f}" in lines[0]
    done = run_tablectl("config", "check", "--json", str(path))
    assert done.returncode == 0 and '"warnings"' in done.stdout and "the players have the edge" in done.stdout


def test_without_the_math_extra_the_long_run_check_says_it_was_not_made(tmp_path: Path, monkeypatch) -> None:
    """A table computer without numpy (the math extra) still checks the file; the warning says what was not done."""
    import sys

    from controller.commands.config import _warnings

    config = table_config.load(_oasis(tmp_path, "progressive_contribution = 15 ", "progressive_contribution = 25 "))
    monkeypatch.delitem(sys.modules, "controller.house_edge.oasis_stud", raising=False)
    monkeypatch.setitem(sys.modules, "numpy", None)
    (line,) = _warnings(config)
    assert line.endswith("oasis-stud: the long-run check of its math needs 'numpy' (pip install 'tablectl[math]'); "
                         "not checked"), line


@pytest.mark.parametrize("example, meter", [("ultimate-texas-holdem-i.toml", "uth-progressive"),
                                            ("texas-holdem-bonus-a.toml", "thb-progressive")])
def test_the_holdem_progressives_need_their_meter_too(tmp_path: Path, example: str, meter: str) -> None:
    text = (ROOT / "hw" / "tables" / example).read_text(encoding="utf-8")
    text = text.replace(f'meter = "{meter}"', 'meter = "no-such-meter"')
    text = text.replace('"../progressive-7.toml"', f'"{ROOT / "hw" / "progressive-7.toml"}"')
    path = tmp_path / example
    path.write_text(text, encoding="utf-8")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tablectl: {path}: options.meter = 'no-such-meter': ") and \
        f"(meters here: {meter})" in lines[0], lines


def _example(tmp_path: Path, name: str, old: str = "", new: str = "") -> Path:
    """The example table ``name`` with ``old`` replaced by ``new`` (its pin map found from here)."""
    text = (ROOT / "hw" / "tables" / name).read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1).replace('"../progressive-7.toml"', f'"{ROOT / "hw" / "progressive-7.toml"}"')
    text = text.replace('"../dealer-panel.toml"', f'"{ROOT / "hw" / "dealer-panel.toml"}"')
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


NO_KEY = "# no contribution key: each chip adds options.progressive_contribution (docs/configuration.md)"


@pytest.mark.parametrize("example, meter, game_value", [
    ("oasis-stud-fi-progressive.toml", "oasis-progressive", 15), ("caribbean-stud-dk.toml", "cs-progressive", 35),
    ("ultimate-texas-holdem-i.toml", "uth-progressive", 70), ("texas-holdem-bonus-a.toml", "thb-progressive", 70)])
def test_a_fed_meters_contribution_is_the_games_option_and_another_figure_is_refused(
        tmp_path: Path, example: str, meter: str, game_value: int) -> None:
    """The game sends its progressive_contribution with every contribution, so [jackpot.X].contribution changes
    nothing: left out, the meter reports the game's figure; the same figure is accepted; any other is one line,
    exit 2, naming the key and the option that sets it."""
    config = table_config.load(_example(tmp_path, example))
    (jackpot,) = config.jackpots
    assert jackpot.name == meter and jackpot.contribution == config.round_config["progressive_contribution"]
    assert jackpot.contribution == game_value
    same = table_config.load(_example(tmp_path, example, NO_KEY, f"contribution = {game_value}"))
    assert same.jackpots == config.jackpots
    path = _example(tmp_path, example, NO_KEY, f"contribution = {game_value + 1}")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert lines == [f"tablectl: {path}: jackpot.{meter}.contribution = {game_value + 1}: {config.spec.id} adds "
                     f"options.progressive_contribution ({game_value}) per progressive chip to this meter: leave "
                     f"contribution out (or set it to {game_value}) and change options.progressive_contribution "
                     f"instead"], lines


def test_a_meter_the_game_does_not_feed_still_needs_its_contribution(tmp_path: Path) -> None:
    """The progressive off, the section is the table's own meter: its contribution is required as before."""
    path = _example(tmp_path, "caribbean-stud-dk.toml", "progressive = true", "progressive = false")
    with pytest.raises(table_config.ConfigError) as err:
        table_config.load(path)
    assert [p for p in err.value.problems if "jackpot.cs-progressive.contribution" in p], err.value.problems
    path = _example(tmp_path, "caribbean-stud-dk.toml", NO_KEY, "contribution = 12")
    path.write_text(path.read_text(encoding="utf-8").replace("progressive = true", "progressive = false"),
                    encoding="utf-8")
    assert table_config.load(path).jackpots[0].contribution == 12


def test_caribbean_studs_progressive_is_on_by_default_and_needs_its_meter(tmp_path: Path) -> None:
    """003 makes the progressive part of the game: on by default, so a table without its meter is refused
    (every progressive chip would be refused when the bets close) until it sets progressive = false."""
    text = (ROOT / "hw" / "tables" / "caribbean-stud-dk.toml").read_text(encoding="utf-8")
    text = text[:text.index("[jackpot.cs-progressive]")] + text[text.index("[journal]"):]
    for line in ("progressive = true", 'meter = "cs-progressive"'):
        text = text.replace(line + "\n", "", 1) if line + "\n" in text else text
    path = tmp_path / "cs.toml"
    path.write_text(text.replace('"../progressive-7.toml"', f'"{ROOT / "hw" / "progressive-7.toml"}"'),
                    encoding="utf-8")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tablectl: {path}: options.meter = 'caribbean-stud': the meter "
                                                   "caribbean-stud feeds needs a [jackpot.caribbean-stud]"), lines
    path.write_text(path.read_text(encoding="utf-8").replace("[options]\n", "[options]\nprogressive = false\n"),
                    encoding="utf-8")
    assert table_config.load(path).jackpots == ()


@pytest.mark.parametrize("meter, option", [("rake", "rake_meter"), ("bad_beat", "jackpot_meter"),
                                           ("bad_beat_drop", "drop_meter")])
def test_the_poker_rooms_meters_must_be_configured_and_take_no_contribution(tmp_path: Path, meter: str,
                                                                           option: str) -> None:
    """The room gives every amount itself (rake, time charge, drop) and pays the bad beat by shares: a meter it
    names must be a [jackpot.NAME] of the file, and a contribution there (other than 0) is refused."""
    example = "texas-holdem-no-limit.toml"
    config = table_config.load(_example(tmp_path, example))
    assert {j.name: j.contribution for j in config.jackpots} == {"rake": 0, "bad_beat": 0, "bad_beat_drop": 0}
    assert config.spec.fed_meters(config.round_config) == {"rake_meter": "rake", "jackpot_meter": "bad_beat",
                                                           "drop_meter": "bad_beat_drop"}
    path = _example(tmp_path, example, f"[jackpot.{meter}]", "[jackpot.unused]\ncontribution = 0")
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tablectl: {path}: options.{option} = '{meter}': the meter "
                                                   f"{config.spec.id} feeds needs a [jackpot.{meter}]"), lines
    path = _example(tmp_path, example, f"[jackpot.{meter}]", f"[jackpot.{meter}]\ncontribution = 5")
    with pytest.raises(table_config.ConfigError) as err:
        table_config.load(path)
    assert err.value.problems == [f"{path}: jackpot.{meter}.contribution = 5: {config.spec.id} gives every amount on "
                                  "this meter itself (the rake, the time charge, the drop): leave contribution out "
                                  "(or 0); the game's options set what the meter gets"], err.value.problems
    assert table_config.load(_example(tmp_path, example, f"[jackpot.{meter}]",
                                      f"[jackpot.{meter}]\ncontribution = 0")).jackpots == config.jackpots


def test_a_poker_room_without_the_bad_beat_needs_only_its_rake_meter(tmp_path: Path) -> None:
    path = _example(tmp_path, "texas-holdem-no-limit.toml", "bad_beat = true", "bad_beat = false")
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("[jackpot.bad_beat]")] + text[text.index("[journal]"):], encoding="utf-8")
    assert [j.name for j in table_config.load(path).jackpots] == ["rake"]
