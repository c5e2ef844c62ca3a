"""Paytables and variant data as TOML, one file per game (read once by the game registry)."""

from __future__ import annotations

import tomllib
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping


def load(filename: str) -> Mapping[str, Any]:
    """The parsed TOML file ``filename`` from this package, frozen one level deep."""
    text = resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")
    return MappingProxyType(tomllib.loads(text))
