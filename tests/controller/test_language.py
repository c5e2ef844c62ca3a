"""The message catalogues: every message has a translation in every language, and the table speaks them.

The catalogues are controller/locale/*.po (docs/languages.md). What fails here:
- an id the runtime composes (``lang.t("...")``) that the template controller/locale/tablectl.pot lacks;
- an id of the template with no translation (or a fuzzy one) in a language, or with other places;
- a prompt, alert, reason or hand's name that any game writes (its scenario files, a simulated run) and that
  no id of the catalogue translates.

The default run checks every game through its scenario files and one simulated table through the terminal;
the simulated tables of the other games run with ``-m slow``.
"""

from __future__ import annotations

import functools
import glob
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games.contract import Accepted, Alert, Outcome, Prompt
from controller.games import all_games
from controller.language import (CONTEXT, GAME, LOCALE_DIR, Language, catalogue_language, language, languages,
                                 places, read_po)
from controller.money import format_money, money_format
from controller.runtime.journal import Journal
from controller.runtime.outputs import Terminal
from controller.runtime.table_words import outcome_lines
from controller.scenario import load_scenario, parse_json
from tests.tablectl import ROOT, run_tablectl

CODES = [c for c in languages() if c != "en"]
GAMES = sorted(spec.id for spec in all_games())


def test_the_five_languages_are_there() -> None:
    assert set(languages()) == {"en", "sv", "de", "fi", "da"}
    assert languages()["sv"] == "svenska" and languages()["de"] == "Deutsch"


def test_the_template_and_every_po_are_as_the_tool_writes_them() -> None:
    """The template holds every id the runtime composes, and each .po is in its order (obsolete ids removed)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import catalogue
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert (LOCALE_DIR / "tablectl.pot").read_text(encoding="utf-8") == catalogue.template(), \
        "controller/locale/tablectl.pot is not up to date: run python tools/catalogue.py"
    for path in sorted(LOCALE_DIR.glob("*.po")):
        body, new, removed = catalogue.rewritten(path)
        assert path.read_text(encoding="utf-8") == body, f"{path.name}: run python tools/catalogue.py"
        assert removed == 0


def test_the_catalogue_tool_removes_an_obsolete_id_and_keeps_the_order(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import catalogue
    finally:
        sys.path.remove(str(ROOT / "tools"))
    po = tmp_path / "sv.po"
    text = (LOCALE_DIR / "sv.po").read_text(encoding="utf-8")
    po.write_text(text + '\nmsgid "a message nobody writes any more"\nmsgstr "ett meddelande"\n', encoding="utf-8")
    body, new, removed = catalogue.rewritten(po)
    assert (body, new, removed) == (text, 0, 1)
    # a merge: this side lacks a translation the other side has; the tool keeps it
    key = f"{GAME}{CONTEXT}First card to box {{box}}"
    po.write_text(text.replace('msgstr "Första kortet till box {box}"', 'msgstr ""'), encoding="utf-8")
    assert catalogue.rewritten(po)[1] == 1
    assert catalogue.rewritten(po, {key: "Första kortet till box {box}"})[0] == text


@pytest.mark.parametrize("code", CODES)
def test_every_id_has_a_translation_with_the_same_places(code: str) -> None:
    template = read_po(LOCALE_DIR / "tablectl.pot", keep_empty=True)["messages"]
    po = read_po(LOCALE_DIR / f"{code}.po")
    untranslated = [m for m in template if m not in po["messages"]]
    assert not untranslated, f"{code}.po: {len(untranslated)} ids without a translation, first {untranslated[:3]}"
    assert not po["fuzzy"], f"{code}.po: fuzzy entries {list(po['fuzzy'])[:3]}"
    stale = [m for m in po["messages"] if m not in template]
    assert not stale, f"{code}.po: ids no longer in the template: {stale[:3]}"
    for msgid, msgstr in po["messages"].items():
        assert sorted(set(places(msgid))) == sorted(set(places(msgstr))), (code, msgid, msgstr)
        assert msgstr.strip() and msgstr != "TODO"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("code", CODES)
def test_gettext_itself_accepts_the_catalogue(code: str) -> None:
    done = subprocess.run(["msgfmt", "--check", "--check-format", "-o", "/dev/null", str(LOCALE_DIR / f"{code}.po")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_message_without_a_translation_is_caught() -> None:
    sv = language("sv")
    assert sv.text("First card to box 3") == "Första kortet till box 3"
    partial = Language("sv", "svenska", {k: v for k, v in sv.messages.items()
                                         if k != f"{GAME}{CONTEXT}First card to box {{box}}"})
    assert partial.text("First card to box 3") == "First card to box 3"  # shown as it is, in English
    assert partial.missing == {"First card to box 3"}
    # a place whose English words have no translation does not pass through into another language
    assert partial.text("box 2: split only two cards of the same colour") == \
        "box 2: split only two cards of the same colour"
    assert "box 2: split only two cards of the same colour" in partial.missing


def test_places_are_translated_in_turn() -> None:
    assert language("sv").text("Dealer shows an ace: insurance? Box 2: soft 17 against an ace — stand, hit or "
                               "double?") == "Dealern visar ess: försäkring? Box 2: mjuk 17 mot ett ess — stanna, " \
                                             "kort eller dubbla?"
    assert language("de").text("Punto draws on 4: third card to Punto") == \
        "Spieler zieht bei 4: dritte Karte für Spieler"
    assert language("da").text("decision (fold or raise) at box 1, 2") == \
        "beslutning (opgiv kortene eller forhøj) ved boks 1, 2"
    assert language("fi").text("burn puck sensed at box 3 but it belongs at box 1: move it to box 1 (or a "
                               "supervisor override); the deal waits").startswith("Burn-kiekko havaittu pelipaikalla 3")


@functools.lru_cache(maxsize=1)
def _all_scenario_texts() -> dict[str, tuple[set[str], list[dict]]]:
    """Every prompt, alert and reason the scenario files make their games write, and their outcomes, by game."""
    out: dict[str, tuple[set[str], list[dict]]] = {}
    for path in sorted(glob.glob(str(ROOT / "tests" / "scenarios" / "**" / "*.json"), recursive=True)):
        if path.endswith(".expected.json"):
            continue
        try:
            scenario = load_scenario(parse_json(Path(path).read_text(encoding="utf-8")))
        except ValueError:
            continue  # the malformed-file cases
        texts, outcomes = out.setdefault(scenario.spec.id, (set(), []))
        carried: tuple = ()
        for index, events in enumerate(scenario.rounds):
            if scenario.carried and index in scenario.carried:
                carried = scenario.carried[index]
            round_ = scenario.spec.new_round(scenario.config, carried)
            for event in events:
                answer = round_.apply(event)
                if isinstance(answer, Accepted):
                    texts |= {e.text for e in answer.effects if isinstance(e, (Prompt, Alert))}
                    outcomes += [dict(e.data) for e in answer.effects if isinstance(e, Outcome)]
                else:
                    texts.add(answer.reason)
            carried = round_.carried() if round_.complete else ()
    return out


def _module(game: str) -> str:
    return next(spec.new_round.__module__ for spec in all_games() if spec.id == game)


@pytest.mark.parametrize("game", GAMES)
def test_every_message_of_every_game_translates(game: str) -> None:
    """Every game's prompts, alerts, reasons and outcomes (the hands' names) as its scenario files make it write
    them, in every language: a text no id of the catalogue translates fails."""
    texts, outcomes = _all_scenario_texts().get(game, (set(), []))
    if not texts:  # a variant of the poker room with no scenario of its own: its module's messages (the engine's,
        # the same code), from the scenarios of the other variants; the slow run below plays the variant itself
        module = _module(game)
        family = [g for g in _all_scenario_texts() if _module(g) == module]
        assert family, f"no scenario of {game} or of its module says anything"
        texts = set().union(*(_all_scenario_texts()[g][0] for g in family))
    for code in CODES:
        lang = catalogue_language(code)
        for text in sorted(texts):
            lang.text(text)
        for outcome in outcomes:
            outcome_lines(outcome, lang)
        assert not lang.missing, f"{code}: {len(lang.missing)} texts of {game} without a translation: " \
                                 f"{sorted(lang.missing)[:4]}"


# the default run plays one table through the terminal (a card game with decisions, a hand's total, insurance);
# every game's messages are checked above through its scenario files, and every simulated table with -m slow
SIMULATED = [g if g == "blackjack" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES]


@pytest.mark.parametrize("game", SIMULATED)
def test_a_simulated_table_speaks_swedish_throughout(game: str, tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    done = run_tablectl("run", "--simulate", "--game", game, "--rounds", "3", "--fast", "--lang", "sv",
                        "--journal", str(journal), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "place your bets" not in out and "session:" not in out and "passet: 3 spelomgångar" in out
    assert re.search(r"\d,\d\d [A-Z]{3}\b", out) and not re.search(r"\b[A-Z]{3} -?[\d,.]+[.,]\d\d\b", out)  # 20,00 SEK
    for code in CODES:  # every record of the run, in every language: nothing falls back to English
        lang = catalogue_language(code)
        j = Journal(journal, readonly=True)
        try:
            for record in j.records():
                Terminal.line(record, 100, "SEK", lang)
        finally:
            j.close()
        assert not lang.missing, f"{code}: {game} said, without a translation: {sorted(lang.missing)[:4]}"


@pytest.mark.parametrize("code, amount, shown", [
    ("en", 2000, "SEK 20.00"), ("en", -123456, "SEK -1,234.56"), ("sv", 2000, "20,00 SEK"),
    ("sv", 123456, "1 234,56 SEK"), ("fi", -5, "-0,05 SEK"), ("de", 123456789, "1.234.567,89 SEK"),
    ("da", 100000, "1.000,00 SEK")])
def test_amounts_are_written_in_the_tables_language(code: str, amount: int, shown: str) -> None:
    assert catalogue_language(code).money(amount, 100, "SEK") == shown
    assert catalogue_language(code).money(500000, 100, whole=True) in ("5,000", "5 000", "5.000")


def test_a_money_format_sample_that_is_not_one_is_refused() -> None:
    assert money_format("1 234,56 SEK").group == " " and money_format("SEK 1,234.56").code_first
    for bad in ("1234", "SEK 1234", "12,34 SEK", "1,234,56 SEK", "1x234y56 EUR"):
        with pytest.raises(ValueError):
            money_format(bad)
    with pytest.raises(TypeError):
        format_money(20.0, 100, "SEK")  # type: ignore[arg-type]  # money is integer minor units, never a float


def test_hand_names_are_the_seeds_words() -> None:
    sv, de, da = catalogue_language("sv"), catalogue_language("de"), catalogue_language("da")
    assert sv.hand("Straight flush, nine high") == "Färgstege, nia högst"
    assert sv.hand("Full house, queens over fours") == "Kåk, damer över fyror"
    assert sv.hand("one pair 9c9s8cKdQs / no low") == "ett par 9c9s8cKdQs / ingen låg hand"
    assert de.hand("Two pair, aces and kings") == "Zwei Paare, Asse und Könige"
    assert da.hand("Pair of kings") == "Et par konger" and da.hand("full_house") == da.word("full_house")
    assert not (sv.missing or de.missing or da.missing)
    assert catalogue_language("fi").hand("Pair of kings but not a hand name") == "Pair of kings but not a hand name"


def _table_file(tmp_path: Path, line: str) -> Path:
    """hw/tables/blackjack-se.toml with one more line in [table], beside the pin map it names."""
    (tmp_path / "tables").mkdir()
    shutil.copy(ROOT / "hw" / "dealer-panel.toml", tmp_path / "dealer-panel.toml")
    text = (ROOT / "hw" / "tables" / "blackjack-se.toml").read_text(encoding="utf-8")
    path = tmp_path / "tables" / "table.toml"
    path.write_text(text.replace('currency = "SEK"\n', f'currency = "SEK"\n{line}\n', 1), encoding="utf-8")
    return path


@pytest.mark.slow
def test_config_check_names_the_language(tmp_path: Path) -> None:
    done = run_tablectl("config", "check", str(_table_file(tmp_path, 'language = "sv"')))
    assert done.returncode == 0, done.stderr
    assert "language sv," in done.stdout


def test_config_check_refuses_an_unknown_language_in_one_line(tmp_path: Path) -> None:
    path = _table_file(tmp_path, 'language = "xx"')
    done = run_tablectl("config", "check", str(path))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}: table.language = " in lines[0]
    assert "en, da, de, fi, sv" in lines[0]


@pytest.mark.parametrize("value", ['"SV"', "7", '""'])
def test_the_configuration_refuses_any_other_language_value(tmp_path: Path, value: str) -> None:
    from controller import config as table_config

    path = _table_file(tmp_path, f"language = {value}")
    with pytest.raises(table_config.ConfigError) as refused:
        table_config.load(str(path))
    assert len(refused.value.problems) == 1 and f"{path}: table.language = " in refused.value.problems[0]
    assert "en, da, de, fi, sv" in refused.value.problems[0]


def test_run_refuses_an_unknown_lang_in_one_line() -> None:
    done = run_tablectl("run", "--simulate", "--game", "blackjack", "--rounds", "1", "--lang", "klingon")
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
    assert "--lang klingon: a language code of the catalogue" in done.stderr


def test_the_sign_speaks_the_tables_language(tmp_path: Path) -> None:
    from controller import config as table_config
    from controller.runtime.view import sign_content, sign_lines, ResultsBoard

    config = table_config.load(str(_table_file(tmp_path, 'language = "sv"')))

    class _Table:
        def __init__(self) -> None:
            self.config, self.faults = config, {"device_fault.shoe": object()}
            self.last_outcome = {"dealer": {"cards": ["Kh", "7s"], "total": 17}}

    lines = sign_lines(_Table())
    assert lines[0] == "Black Jack SE" and lines[1].startswith("INSATS ") and lines[1].endswith(" SEK")
    assert any(line.startswith("ÖVER 13 ") for line in lines)
    assert "SENASTE dealern Kh 7s (17)" in lines and lines[-1] == "VÄNLIGEN VÄNTA: spelet är stoppat"
    content = sign_content(_Table(), ResultsBoard())
    assert content.title == "Black Jack" and content.limits[0].label == "INSATS"
    from drivers.displays.sign import SpotLimit, limit_text

    assert content.decimal == "," and limit_text(SpotLimit("INSATS", 1205, 1000000), content) == "INSATS 12,05-10000 SEK"


def test_journal_tail_speaks_the_language_asked_for(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    done = run_tablectl("run", "--simulate", "--game", "punto-banco", "--rounds", "1", "--fast", "--journal",
                        str(journal))
    assert done.returncode == 0, done.stderr
    german = run_tablectl("journal", "tail", str(journal), "-n", "40", "--lang", "de")
    assert german.returncode == 0
    assert "Nichts geht mehr. Karte 1 an den Spieler" in german.stdout and "No more bets" not in german.stdout
    assert re.search(r" -?\d+,\d\d\b", german.stdout) and not re.search(r" -?\d+\.\d\d\b", german.stdout)
    assert "{" not in german.stdout  # no Python value: "Start: Tisch ... Runde 1, 0 Ereignisse wiederholt"
    as_json = run_tablectl("journal", "tail", str(journal), "-n", "40", "--json", "--lang", "de")
    assert "No more bets. Card 1 to Punto" in as_json.stdout  # the machine-readable output stays as journaled


@pytest.mark.parametrize("code", CODES)
def test_faults_list_speaks_the_language(code: str) -> None:
    from controller.runtime.faults import CLEAR_ROLES, FAULTS

    done = run_tablectl("faults", "list", "--lang", code)
    assert done.returncode == 0, done.stderr
    for kind in FAULTS.values():  # the names and tower patterns stay; the words are translated
        assert f"{kind.name} ({language(code).t(kind.title)}): " in done.stdout and kind.pattern in done.stdout
        assert kind.meaning not in done.stdout and CLEAR_ROLES[kind.clear_role] not in done.stdout
    assert language(code).t(FAULTS["journal"].meaning) in done.stdout


def test_a_layouts_spots_are_named_as_the_seed_names_them() -> None:
    sv, de = language("sv"), language("de")
    assert sv.spot("straight:17") == "enkelnummer 17" and de.spot("straight:17") == "Plein 17"
    assert sv.spot("split:17,20") == "två nummer 17,20" and sv.word("split") == "dela"  # the action is another word
    assert sv.spot("red") == "rött" and sv.word("red") == "röd"  # the even chance and the die's colour
    assert sv.spot("main") == "insats" and sv.spot("nonsense:3") == "nonsense:3"
    assert language("en").spot("straight:17") == "straight:17"


def test_the_tables_shared_words_do_not_grow_with_untranslated_texts() -> None:
    shared = language("da")
    for n in range(50):  # a daemon's fault texts, a device's words: shown in English, not remembered
        assert shared.text(f"shoe jam number {n} at the cut card") == f"shoe jam number {n} at the cut card"
    assert shared is language("da") and not shared.missing


def test_the_amounts_in_a_games_words_are_in_the_tables_money_format() -> None:
    from controller.runtime.table_words import game_text

    prompt = "box 1 to act: fold, call 100, raise to 200..10000"
    assert game_text(prompt, language("en"), 100, "SEK") == \
        "box 1 to act: fold, call SEK 1.00, raise to SEK 2.00..SEK 100.00"
    assert game_text(prompt, language("sv"), 100, "SEK") == \
        "box 1 agerar: lägg dig, syna 1,00 SEK, höja till 2,00 SEK..100,00 SEK"
    assert game_text("main: 5 is below the table minimum of 1000", language("de"), 100, "EUR") == \
        "Einsatz: 0,05 EUR liegt unter dem Tischminimum von 10,00 EUR"
    # odds and counts are not money; a text no id matches stays as the game wrote it
    assert game_text("spread 4, pays 4 to 1. Raises, then the third card", language("en"), 100, "SEK") == \
        "spread 4, pays 4 to 1. Raises, then the third card"
    assert game_text("a text no game writes, 100", language("en"), 100, "SEK") == "a text no game writes, 100"


def test_the_language_check_takes_exactly_the_catalogues_languages() -> None:
    """A start checks its code by the one file it needs; the answer is the catalogue's list either way."""
    from controller.language import check

    for code in languages():
        assert check(code) is None
    for code in ("", "klingon", "../sv", "sv.po", "tablectl", "games", ".", "/sv"):
        problem = check(code)
        assert problem is not None and "en, da, de, fi, sv" in problem, code
