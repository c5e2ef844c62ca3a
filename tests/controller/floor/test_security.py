"""The floor link logs in and speaks TLS to a real nats-server (docs/floor.md, Security).

The broker asks for TLS with a certificate of the casino's CA (made here with
``cryptography``) and knows two logins: the floor service's user and password,
and a table's NKey. The floor service and a table that have the CA and their
login reach each other; a wrong password stops the floor service with one line
and exit 2; a table with the wrong CA, or with an NKey the broker does not know,
says so in one log line and plays on (its base game needs no network; a latched
fault would pause it), and is taken once the broker's operator adds its NKey;
files that are not what their key says are one line each at the configuration
check, exit 2.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.runtime.journal import Journal
from tests.controller.floor.broker import Broker, nats_server_binary, tablectl
from tests.controller.floor.certs import Operator, make_ca, make_nkey, make_server_cert
from tests.controller.floor.helpers import floor_toml, table_toml, wait_for

pytestmark = pytest.mark.skipif(nats_server_binary() is None, reason="nats-server is not installed")

REPO = Path(__file__).resolve().parents[3]


def with_lines(path: Path, lines: dict[str, str]) -> Path:
    """The file's last section (its [floor]) with these keys added."""
    path.write_text(path.read_text() + "".join(f'{k} = "{v}"\n' for k, v in lines.items()))
    return path


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def floor_config(folder: Path, servers: list[str], lines: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return with_lines(floor_toml(folder, servers), lines)


def table_config(folder: Path, table: str, servers: list[str], lines: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return with_lines(table_toml(folder, table, servers), lines)


def refusals(out: Path) -> list[str]:
    """The daemon's "floor link refused" log lines (JSON on its standard error)."""
    found = []
    for line in out.read_text().splitlines():
        if line.startswith("{") and '"floor link refused"' in line:
            found.append(json.loads(line)["text"])
    return found


def round_opens(path: Path) -> int:
    journal = Journal(path, readonly=True)
    try:
        return sum(1 for _ in journal.records(kinds=("round_open",)))
    finally:
        journal.close()


def test_logins_and_tls_with_the_casinos_ca(tmp_path: Path) -> None:
    ca, ca_key, ca_cert = make_ca(tmp_path, "casino-ca")
    other_ca, _, _ = make_ca(tmp_path, "other-ca")
    cert, key = make_server_cert(tmp_path, ca_key, ca_cert)
    table_seed, table_public = make_nkey(tmp_path, "cs-1")
    stranger_seed, stranger_public = make_nkey(tmp_path, "stranger")  # a well-formed NKey the broker does not know
    (tmp_path / "floor-password").write_text("correct horse\n")
    (tmp_path / "wrong-password").write_text("battery staple\n")
    hub = Broker(tmp_path, "hub", scheme="tls", extra=[
        f'tls {{ cert_file: "{cert}", key_file: "{key}", timeout: 2 }}',
        'authorization { users = [ { user: floor, password: "correct horse" }, '
        f'{{ nkey: {table_public} }} ] }}']).start()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        # the configuration check: files that are not what their key says, one line each, exit 2
        bad = floor_config(tmp_path / "bad", [hub.url], {"user": "floor", "password_file": str(tmp_path / "nope"),
                                                         "tls_ca": str(table_seed)})
        done = cli("floor", "--config", str(bad))
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            f"tablectl: {bad}: floor.password_file = '{tmp_path / 'nope'}': the file cannot be read: "
            "No such file or directory",
            f"tablectl: {bad}: floor.tls_ca = '{table_seed}': not a CA certificate in PEM "
            f"{done.stderr.splitlines()[1].split('not a CA certificate in PEM ', 1)[1]}"]
        plain = table_config(tmp_path / "plain", "cs-9", ["nats://127.0.0.1:4222"], {"tls_ca": str(ca)})
        done = cli("config", "check", str(plain), "--simulate")
        assert done.returncode == 2 and "floor.servers = ['nats://127.0.0.1:4222']: with tls_ca or tls_cert every " \
                                       "address starts with tls://" in done.stdout + done.stderr

        # the broker refuses a wrong password: the floor service says so in one line, exit 2
        wrong = floor_config(tmp_path / "wrong", [hub.url], {"user": "floor", "tls_ca": str(ca),
                                                             "password_file": str(tmp_path / "wrong-password")})
        done = cli("floor", "--config", str(wrong))
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [
            f"tablectl: {wrong}: floor test-floor: the broker at {hub.url} refused user 'floor' with the password in "
            f"{tmp_path / 'wrong-password'}: 'Authorization Violation'"]
        # and a certificate that is not from the CA given: in words, exit 2
        foreign = floor_config(tmp_path / "foreign", [hub.url], {"user": "floor", "tls_ca": str(other_ca),
                                                                 "password_file": str(tmp_path / "floor-password")})
        done = cli("floor", "query", "--config", str(foreign))
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            f"tablectl: {foreign}: tablectl floor query: the broker at {hub.url} was refused: its TLS certificate "
            f"is not signed by the CA in tls_ca ({other_ca}) (unable to get local issuer certificate)"]

        # the floor service with its password and the CA, a table with its NKey and the CA: the records arrive
        good = floor_config(tmp_path / "good", [hub.url], {"user": "floor", "tls_ca": str(ca),
                                                           "password_file": str(tmp_path / "floor-password")})
        procs.append(tablectl("floor", "--config", str(good), log=tmp_path / "floor.out"))
        table = table_config(tmp_path, "cs-1", [hub.url], {"credentials": str(table_seed), "tls_ca": str(ca)})
        procs.append(tablectl("run", "--config", str(table), "--simulate", "--quiet", "--seed", "3", "--fast",
                              log=tmp_path / "cs-1.out"))
        # two tables the broker refuses: one with another CA, one with an NKey it does not know
        refused = {"cs-2": {"credentials": str(table_seed), "tls_ca": str(other_ca)},
                   "cs-3": {"credentials": str(stranger_seed), "tls_ca": str(ca)}}
        for name, lines in refused.items():
            config = table_config(tmp_path, name, [hub.url], lines)
            procs.append(tablectl("run", "--config", str(config), "--simulate", "--quiet", "--seed", "4", "--fast",
                                  log=tmp_path / f"{name}.out"))

        def tables() -> dict:
            done = cli("floor", "query", "--config", str(good), timeout=20)
            assert done.returncode == 0, done.stderr
            return json.loads(done.stdout)["tables"]

        wait_for("cs-1 on the floor over TLS", lambda: tables().get("cs-1", {}).get("last_seq", 0) > 20, 60,
                 every=1.0, show=tables)
        said = {name: wait_for(f"{name} says it is refused", lambda name=name: refusals(tmp_path / f"{name}.out"), 30)
                for name in refused}
        assert said["cs-2"] == [
            f"table cs-2: the broker at {hub.url} was refused: its TLS certificate is not signed by the CA in tls_ca "
            f"({other_ca}) (unable to get local issuer certificate)"]
        assert said["cs-3"] == [
            f"table cs-3: the broker at {hub.url} refused the NKey seed {stranger_seed}: 'Authorization Violation'"]
        before = {name: round_opens(tmp_path / name / "journal.sqlite") for name in refused}
        time.sleep(3)
        for name in refused:  # the base game goes on without the floor, no fault latched
            assert round_opens(tmp_path / name / "journal.sqlite") > before[name], f"{name} stopped playing"
            journal = Journal(tmp_path / name / "journal.sqlite", readonly=True)
            assert list(journal.records(kinds=("fault",))) == []
            journal.close()
        assert set(tables()) == {"cs-1"}
        # the broker's operator adds cs-3's NKey (a reload): cs-3 logs in by itself, its fault clears
        hub.extra[-1] = hub.extra[-1].replace(" ] }", f", {{ nkey: {stranger_public} }} ] }}")
        hub.reload()
        wait_for("cs-3 on the floor after the reload", lambda: tables().get("cs-3", {}).get("last_seq", 0) > 0, 40,
                 every=1.0, show=tables)
        assert len(refusals(tmp_path / "cs-3.out")) == 1  # said once, though tried every 10 s
        assert "cs-2" not in tables()
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            assert proc.wait(20) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
        hub.kill()


def test_login_and_tls_files_are_checked_with_the_configuration(tmp_path: Path) -> None:
    from controller.floor.settings import FloorConfigError, floor_from_mapping

    seed, _ = make_nkey(tmp_path, "cs-1")
    ca, ca_key, ca_cert = make_ca(tmp_path, "casino-ca")
    cert, key = make_server_cert(tmp_path, ca_key, ca_cert, "client")
    (tmp_path / "garbage").write_text("hello\n")
    (tmp_path / "badseed").write_text("SUAAAAAAAAAAAAAAAA\n")
    (tmp_path / "pw").write_text("secret\n")
    base = {"id": "f", "servers": ["tls://127.0.0.1:4222"], "journal": "f.sqlite", "http": ""}

    def problems(**keys: object) -> list[str]:
        try:
            floor_from_mapping({"floor": {**base, **keys}}, "floor.toml", tmp_path)
        except FloorConfigError as exc:
            return exc.problems
        return []

    assert problems(credentials=str(seed), tls_ca=str(ca), tls_cert=str(cert), tls_key=str(key)) == []
    assert problems(user="floor", password_file="pw") == []  # relative to the configuration's folder
    assert problems(credentials="garbage") == [
        "floor.toml: floor.credentials = 'garbage': not a NATS credentials file (a user JWT and its NKey seed, made "
        "with nsc) nor an NKey seed (a line SU...)"]
    assert problems(credentials="badseed")[0].startswith("floor.toml: floor.credentials = 'badseed': not a NATS")
    assert problems(user="floor") == [
        "floor.toml: floor.user = 'floor': a user needs password_file (the password in a file of its own)"]
    assert problems(user="floor", password_file="pw", credentials=str(seed)) == [
        "floor.toml: floor.user = 'floor': one login: credentials, or user and password_file, not both"]
    assert problems(tls_cert=str(cert)) == [
        f"floor.toml: floor.tls_cert = '{cert}': tls_cert and tls_key go together (mutual TLS)"]
    assert problems(tls_cert=str(cert), tls_key=str(tmp_path / "casino-ca.pem"))[0].startswith(
        f"floor.toml: floor.tls_cert = '{cert}': not a certificate and key in PEM that belong together")
    assert problems(tls_ca="garbage")[0].startswith("floor.toml: floor.tls_ca = 'garbage': not a CA certificate in PEM")
    assert problems(password_file="pw") == [
        "floor.toml: floor.password_file = 'pw': a password needs its user (floor.user)"]


def test_a_credentials_file_logs_in_and_one_of_another_account_is_refused(tmp_path: Path) -> None:
    operator = Operator()
    hub = Broker(tmp_path, "hub", jetstream=False, extra=operator.broker_lines()).start()
    try:
        good = floor_config(tmp_path / "good", [hub.url], {"credentials": str(operator.creds(tmp_path, "floor"))})
        done = cli("floor", "query", "--config", str(good))
        # logged in: the broker took the credentials, and no floor service runs on it to answer
        assert done.returncode == 1 and "the floor service test-floor did not answer" in done.stderr, done.stderr
        stranger = operator.creds(tmp_path / "good", "stolen", signer=Operator.stranger())
        bad = floor_config(tmp_path / "bad", [hub.url], {"credentials": str(stranger)})
        done = cli("floor", "query", "--config", str(bad))
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            f"tablectl: {bad}: tablectl floor query: the broker at {hub.url} refused the credentials file "
            f"{stranger}: 'Authorization Violation'"]
    finally:
        hub.kill()


def test_mutual_tls_a_client_certificate_of_the_ca_logs_in(tmp_path: Path) -> None:
    ca, ca_key, ca_cert = make_ca(tmp_path, "casino-ca")
    cert, key = make_server_cert(tmp_path, ca_key, ca_cert)
    client_cert, client_key = make_server_cert(tmp_path, ca_key, ca_cert, "cs-1", client=True)
    hub = Broker(tmp_path, "hub", jetstream=False, scheme="tls", extra=[
        f'tls {{ cert_file: "{cert}", key_file: "{key}", ca_file: "{ca}", verify: true, timeout: 2 }}']).start()
    try:
        good = floor_config(tmp_path / "good", [hub.url], {"tls_ca": str(ca), "tls_cert": str(client_cert),
                                                           "tls_key": str(client_key)})
        done = cli("floor", "query", "--config", str(good))
        assert done.returncode == 1 and "the floor service test-floor did not answer" in done.stderr, done.stderr
        without = floor_config(tmp_path / "without", [hub.url], {"tls_ca": str(ca)})
        done = cli("floor", "query", "--config", str(without))
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [
            f"tablectl: {without}: tablectl floor query: the broker at {hub.url} refused this client's TLS "
            "certificate, no tls_cert given (TLSV13_ALERT_CERTIFICATE_REQUIRED)"]
    finally:
        hub.kill()


def test_a_floor_section_without_the_nats_client_installed_is_one_line(tmp_path: Path, monkeypatch) -> None:
    import importlib.util

    from controller.floor.settings import table_link

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nats" else real(name, *a))
    problems: list[str] = []
    got = table_link({"servers": ["nats://127.0.0.1:4222"], "site": "s", "pit": "p"}, [],
                     lambda key, value, allowed: problems.append(f"{key}: {allowed}"), tmp_path)
    assert got is None
    assert problems == ['floor: the floor link needs nats, not installed here: install the floor extra (pip install '
                        '".[pi,vision,displays,floor]", docs/operations.md)']
