"""Shared helpers of the runtime tests: configurations, tables on a temporary journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller import config as table_config
from controller.runtime.table import Table
from tests.controller.runtime import progressive_game

PROGRESSIVE_TOML = """
[table]
id = "prog-01"
game = "progressive-test"
currency = "EUR"

[options]
boxes = 5
decks = 1

[devices.shoe]
driver = "simulated"

[devices.sign]
driver = "text"

[jackpot.main]
base = 100000
contribution = 250
cap = {cap}
overflow = true

[journal]
path = "{journal}"
"""


def progressive_config(tmp: Path, cap: int = 400000) -> table_config.TableConfig:
    path = tmp / "table.toml"
    path.write_text(PROGRESSIVE_TOML.format(journal=tmp / "journal.sqlite", cap=cap))
    return table_config.load(path, progressive_game.lookup)


def punto_config(tmp: Path, variant: str = "fi") -> table_config.TableConfig:
    data: dict[str, Any] = table_config.simulated_defaults("punto-banco", variant, str(tmp / "journal.sqlite"))
    return table_config.from_mapping(data, "test")


def open_table(config: table_config.TableConfig) -> Table:
    return Table.open(config, progressive_game.lookup)
