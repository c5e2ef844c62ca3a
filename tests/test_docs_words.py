"""The docs speak to the table's users: no work-tracker talk, branch names or paths of one machine."""

from __future__ import annotations

import re

from tests.tablectl import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
WORDS = [r"\bthe issue\b", r"issue's owner", r"issue owner", r"\bissue \d+", r"\bspeed\d\b", r"shared machine",
         r"/work/", r"/home/\w+", r"\bthis session\b", r"\bthe helper\b", r"\bthe lead\b", r"\bthis branch\b",
         r"\bbranch (speed|photo|dice)\w*"]


def test_the_docs_name_no_tracker_branch_or_machine() -> None:
    found = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in WORDS:
                if re.search(pattern, line, re.IGNORECASE):
                    found.append(f"{doc.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_the_configuration_page_names_every_example_table() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [p.name for p in (ROOT / "hw" / "tables").glob("*.toml") if f"`{p.name}`" not in page]
    assert not missing, f"docs/configuration.md does not list {missing}"
