"""Shared fixtures: a MockFactory passed explicitly (the global pin factory is never set)."""

from __future__ import annotations

from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def events() -> list:
    return []
