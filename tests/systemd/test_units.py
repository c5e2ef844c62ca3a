"""The unit file verifies and the udev rules are well formed."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.tablectl import ROOT

UNIT = ROOT / "systemd" / "tablectl.service"


def test_unit_has_the_required_settings():
    text = UNIT.read_text()
    for setting in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StartLimitBurst=", "User=tablectl",
                    "SupplementaryGroups=gpio spi i2c video", "StateDirectory=tablectl",
                    "ConfigurationDirectory=tablectl", "DevicePolicy=closed", "ProtectSystem=strict",
                    "NoNewPrivileges=yes", "CapabilityBoundingSet=\n"):
        assert setting in text, setting


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="this machine has no systemd-analyze")
def test_systemd_analyze_verify_and_security(tmp_path):
    # The installed path of the binary does not exist here: point it at a stand-in executable.
    fake = tmp_path / "tablectl"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    unit = tmp_path / "tablectl.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablectl/.venv/bin/tablectl", str(fake)))
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stderr.strip() == "", verify.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                              capture_output=True, text=True)
    match = re.search(r"Overall exposure level for tablectl.service: ([\d.]+) (\w+)", security.stdout)
    assert match, security.stdout[-500:]
    assert float(match.group(1)) <= 2.0 and match.group(2) in ("OK", "SAFE")


def test_udev_rules_are_well_formed():
    rules = (ROOT / "hw" / "udev" / "99-tablectl.rules").read_text().splitlines()
    names = []
    for line in rules:
        if not line.strip() or line.startswith("#"):
            continue
        pairs = [p.strip() for p in line.split(", ")]
        for pair in pairs:
            assert re.fullmatch(r'[A-Z]+(\{\w+\})?(==|\+=|=)"[^"]*"', pair), pair
        assert any(p.startswith("ATTRS{idVendor}==") or p.startswith("KERNEL==") for p in pairs)
        names += re.findall(r'SYMLINK\+="tablectl/(\w+)"', line)
        if 'SUBSYSTEM=="tty"' in pairs:  # serial ports: the service's own group, and ModemManager kept away
            assert 'GROUP="tablectl"' in pairs and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in pairs, line
            assert not any("dialout" in p for p in pairs), line
    assert sorted(names) == ["camera", "console", "shoe", "shuffler", "wheel"]
