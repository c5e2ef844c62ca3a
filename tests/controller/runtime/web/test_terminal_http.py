"""The terminal's routes without a browser: sessions, guards, and refusals that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from controller.events import Bet
from controller.runtime.auth import ConsoleUser, Lockout, hash_pin
from controller.language import ENGLISH, language
from controller.runtime.web.app import login_refusal
from controller.runtime.web.session import Login, Sessions
from tests.controller.runtime.web.harness import PINS

pytestmark = pytest.mark.timeout(60)


def test_a_session_cookie_is_refused_when_forged_expired_or_the_users_role_changed() -> None:
    users = {"carla": ConsoleUser("carla", "croupier", hash_pin("2468"))}
    sessions = Sessions(users, b"k" * 32, Lockout(), hours=1)
    login, why, _ = sessions.login("carla", "2468", 1000.0)
    assert login == Login("carla", "croupier", 1000) and why == ""
    cookie = sessions.cookie(login)
    assert sessions.check(cookie, 1500.0) == login
    assert sessions.check(cookie, 1000.0 + 3601) is None  # expired
    assert sessions.check(cookie.replace("croupier", "supervisor"), 1500.0) is None  # forged role
    assert Sessions(users, b"x" * 32).check(cookie, 1500.0) is None  # another table's key
    assert Sessions({"carla": ConsoleUser("carla", "supervisor", users["carla"].pin_hash)}, b"k" * 32) \
        .check(cookie, 1500.0) is None  # the user's role changed
    for _ in range(4):
        assert sessions.login("carla", "1111", 2000.0) == (None, "wrong", 0)
    assert sessions.login("carla", "1111", 2000.0) == (None, "now_locked", 0)
    assert sessions.login("carla", "2468", 2001.0) == (None, "locked", 5)
    assert login_refusal(ENGLISH, "locked", 5) == "Locked after too many wrong PINs: try again in 5 minutes."
    assert login_refusal(language("sv"), "wrong", 0) != "Wrong name or PIN."  # the table's language


def test_the_routes_refuse_what_is_not_offered_and_change_nothing(tables: Any) -> None:
    table = tables("blackjack", "fi")
    client = httpx.Client(base_url=table.url, timeout=10)
    assert client.get("/api/state").status_code == 401
    assert client.post("/api/close_bets", headers={"X-Tablectl": "1"}).status_code == 401
    assert client.post("/api/login", json={"name": "carla", "pin": "2468"}).status_code == 403  # no header
    client.headers["X-Tablectl"] = "1"
    assert client.post("/api/login", json={"name": "carla", "pin": PINS["carla"][1]}).json()["ok"]
    table.bets.send(Bet(1, "main", 1000))
    seq = table.settled()
    answer = client.post("/api/act", json={"seat": 1, "action": "stand"})
    assert answer.status_code == 409
    assert answer.json()["text"].startswith("Refused: stand is not a decision of box 1")
    for body in ({"seat": "1", "action": "stand"}, {"seat": 1, "action": "stand", "amount": -5}, {}):
        assert client.post("/api/act", json=body).status_code == 400
    garbled = client.post("/api/act", content=b"not json", headers={"Content-Type": "application/json"})
    assert garbled.status_code == 400
    assert client.post("/api/confirm", json={}).json() == {"ok": False, "text": "Refused: no result waits for "
                                                                              "confirmation"}
    assert client.post("/api/clear_fault", json={"name": "journal"}).status_code == 403  # a croupier
    assert table.settled() == seq + 1  # only the refused confirmation's command record was journaled
    state = client.get("/api/state").json()
    assert state["legal"]["close_bets"] and state["user"] == {"name": "carla", "role": "croupier"}
    assert client.post("/api/close_bets").json()["ok"]
    assert table.records()[-1].body["source"] == "terminal:carla"


def _self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (PEM), as a table's technician makes one for the pit's network."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "table-terminal")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "terminal.crt", folder / "terminal.key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_with_a_certificate_the_terminal_speaks_only_tls_and_its_cookie_is_secure(tmp_path: Path, tables: Any) -> None:
    import ssl

    cert, key = _self_signed(tmp_path)
    table = tables("roulette", "european", terminal={"cert": str(cert), "key": str(key)})
    assert table.url.startswith("https://")
    trusted = ssl.create_default_context(cafile=str(cert))
    client = httpx.Client(base_url=table.url, timeout=10, verify=trusted, headers={"X-Tablectl": "1"})
    assert client.get("/login").status_code == 200
    answer = client.post("/api/login", json={"name": "sven", "pin": PINS["sven"][1]})
    assert answer.json()["ok"]
    cookie = answer.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert client.get("/api/state").json()["user"] == {"name": "sven", "role": "supervisor"}
    with pytest.raises(httpx.HTTPError):  # plain HTTP on the TLS port is not served
        httpx.get(f"http://127.0.0.1:{table.port}/login", timeout=5)


def test_a_typed_amount_is_read_as_decimal_minor_units_and_refused_in_words_when_it_is_no_amount(tables: Any) -> None:
    table = tables("blackjack", "fi", terminal={"chip_unit": 50})
    client = httpx.Client(base_url=table.url, timeout=10, headers={"X-Tablectl": "1"})
    assert client.post("/api/login", json={"name": "carla", "pin": PINS["carla"][1]}).json()["ok"]
    table.bet(1, "main", 2000)
    assert client.post("/api/close_bets").json()["ok"]
    table.deal("8h", "Ac", "8s")  # the dealer shows an ace: insurance, up to half the bet (10.00)
    assert client.get("/api/state").json()["chip_unit"] == 50
    seq = table.settled()
    refusals = {
        "abc": "Refused: “abc” is not an amount in EUR: type it as 20.50",
        "2.505": "Refused: “2.505” is not an amount in EUR: type it as 20.50",  # more decimals than the euro has
        "-5": "Refused: “-5” is not an amount in EUR: type it as 20.50",
        "2.5.0": "Refused: “2.5.0” is not an amount in EUR: type it as 20.50",
        "0": "Refused: the amount must be a whole number of minor units above 0",
        "2.25": "Refused: 2.25 EUR is not a whole number of chips: every amount at this table is a multiple of "
                "0.50 EUR",
    }
    for typed, words in refusals.items():
        answer = client.post("/api/act", json={"seat": 1, "action": "insurance", "amount_text": typed})
        assert answer.status_code == 400 and answer.json()["text"] == words, typed
    for body in ({"seat": 1, "action": "insurance", "amount_text": 250},  # typed text only
                 {"seat": 1, "action": "insurance", "amount_text": "2.50", "amount": 250},  # one amount, once
                 {"seat": 1, "action": "insurance", "amount": 251}):  # minor units, not whole chips
        assert client.post("/api/act", json=body).status_code == 400, body
    assert table.settled() == seq  # nothing refused reached the journal
    assert client.post("/api/act", json={"seat": 1, "action": "insurance", "amount_text": "2.50"}).json()["ok"]
    assert table.records()[-1].body["event"] == {"type": "action", "seat": 1, "action": "insurance", "amount": 250}


def test_who_may_clear_a_fault_at_the_terminal_is_the_fault_tables_word(tables: Any) -> None:
    table = tables("roulette", "european")
    clients = {}
    for name in PINS:
        clients[name] = httpx.Client(base_url=table.url, timeout=10, headers={"X-Tablectl": "1"})
        assert clients[name].post("/api/login", json={"name": name, "pin": PINS[name][1]}).json()["ok"]
    for name, text in (("device_silent.wheel", "the wheel reader stopped answering"),
                       ("code_digest", "the installed code differs"), ("integrity", "record 3 was edited")):
        table.call(lambda name=name, text=text: table.daemon.table.latch(name, text))
    shown = {f["name"]: f["clear_by"] for f in clients["carla"].get("/api/state").json()["faults"]}
    assert shown == {"device_silent.wheel": "technician", "code_digest": "supervisor", "integrity": None}

    def clear(who: str, fault: str) -> httpx.Response:
        return clients[who].post("/api/clear_fault", json={"name": fault})
    assert clear("carla", "device_silent.wheel").json()["text"] == \
        "Clearing device_silent.wheel needs a technician's or a supervisor's login."
    assert clear("tove", "code_digest").json()["text"] == "Clearing code_digest needs a supervisor's login."
    assert clear("sven", "integrity").json()["text"] == \
        "integrity clears only by a restart, once the cause is mended."
    assert clear("tove", "device_silent.wheel").json()["ok"]  # a technician, as at the console
    assert clear("sven", "code_digest").json()["ok"]
    assert [f["name"] for f in clients["sven"].get("/api/state").json()["faults"]] == ["integrity"]
    cleared = [r.body for r in table.records(("clear",))]
    assert [(c["names"], c["by"]) for c in cleared] == [(["device_silent.wheel"], "terminal:tove"),
                                                        (["code_digest"], "terminal:sven")]
