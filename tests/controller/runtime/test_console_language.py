"""The console speaks the table's language: its help, its refusals, its logins and the table's own lines."""

from __future__ import annotations

from controller.language import catalogue_language, language
from controller.runtime.auth import ConsoleUser, Lockout, hash_pin
from controller.runtime.console import COMMANDS, ConsoleSession
from tests.controller.runtime.fake_control import FakeControl


class SwedishControl(FakeControl):
    lang = language("sv")


def _session(control: FakeControl) -> tuple[ConsoleSession, list[str]]:
    session = ConsoleSession({"anna": ConsoleUser("anna", "supervisor", hash_pin("2468"))}, control, Lockout())
    said = list(session.start(0.0).lines)
    said += session.feed("anna", 0.0).lines
    said += session.feed("2468", 0.0).lines
    return session, said


def test_the_console_logs_in_helps_and_refuses_in_swedish() -> None:
    session, said = _session(SwedishControl())
    assert said[0].startswith("tablectl-konsolen. Logga in med ditt namn")
    assert "Välkommen, anna (inspektör). Skriv 'help' för kommandona." in said
    helped = "\n".join(session.feed("help", 0.0).lines)
    assert "Kommandon (skriv namnet, sedan Enter):" in helped and "bordets gränser per ruta" in helped
    assert "table limits per spot" not in helped and "[inspektör]" in helped
    assert session.feed("history 0", 0.0).lines == ("ange ett antal från 1 till 1000",)
    assert session.feed("bogus", 0.0).lines == ("Okänt kommando 'bogus'. Skriv 'help' för listan.",)
    assert session.feed("jackpot bogus", 0.0).lines == ("okänt 'bogus': använd show | correct | confirm | day-end",)
    assert session.feed("faults clear journal", 0.0).lines[0].startswith("journal återställs bara genom en omstart")
    # the table's refusal in words of the catalogue, the name it gives as it is
    assert session.feed("faults clear nosuch", 0.0).lines == ("Vägrat: no latched fault named 'nosuch'",)
    assert session.feed("logout", 0.0).lines == ("Utloggad.",)


def test_every_help_text_and_refusal_has_its_translation() -> None:
    for code in ("sv", "de", "fi", "da"):
        lang = catalogue_language(code)
        for command in COMMANDS.values():
            lang.t(command.help)
        assert not lang.missing, (code, sorted(lang.missing)[:3])


def test_an_english_table_keeps_the_english_console() -> None:
    session, said = _session(FakeControl())
    assert "Welcome, anna (supervisor). Type 'help' for the commands." in said
    assert session.feed("history 0", 0.0).lines == ("give a count from 1 to 1000",)


def test_the_daemons_console_lines_are_in_the_tables_language_and_money_format() -> None:
    from types import SimpleNamespace

    from controller.runtime.control import DaemonControl

    config = SimpleNamespace(language="sv", table_id="BJ-07", minor_unit=100, currency="SEK",
                             spec=SimpleNamespace(id="blackjack"),
                             round_config=SimpleNamespace(variant="se", get=lambda key, default=None: {
                                 "main": (1000, 1234500), "tie": (500, None)}))
    table = SimpleNamespace(waiting_for=lambda: "bets, then no more bets", faults={})
    health = {"accepting": False, "round": 12, "seq": 340, "journal_ok": True, "faults": ["device_fault.shoe"],
              "ok": False, "loop_lag_ms": 3}
    control = DaemonControl(SimpleNamespace(config=config, table=table, health=lambda: health))  # type: ignore[arg-type]
    assert control.limits() == ["insats: 10,00 SEK till 12 345,00 SEK", "oavgjort: 5,00 SEK till inget maximum"]
    assert control.status() == [
        "Bord BJ-07: blackjack se, spelomgång 12, STOPPAT (ett fel stoppar all inmatning)",
        "Väntar på: insatser, sedan inga fler insatser",
        "Journal: 340 poster, ok; fel: device_fault.shoe (ett enhetsfel)",
        "Hälsa: INTE OK; loopfördröjning 3 ms"]
