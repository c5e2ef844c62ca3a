"""The package's metadata installs without setuptools' deprecation warnings."""

from __future__ import annotations

import tomllib

from tests.tablectl import ROOT


def test_the_licence_is_an_spdx_string_not_a_table() -> None:
    """``project.license`` as a TOML table made every install print about 45 lines of setuptools warnings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project["license"], str) and project["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))  # deprecated beside it
