"""The table's random-draw apparatus: where the numbers of a game's ``DrawRequest`` come from.

A game never draws (games are pure). When a round asks for numbers (the
progressive's special prizes, seed 002), the table takes them from its draw
source, journals them as a ``Draw`` event from that source (the record's
``source`` names it) and only then gives the event to the round; a replay of
the journal gives the round the same numbers, so the same prizes.

- ``SystemDraws``: the operating system's random source (``secrets``; on the
  table's Raspberry Pi the kernel pool is fed by the SoC's hardware random
  number generator), the default at a live table.
- ``SeededDraws``: a seeded generator, for the simulated tables (``tablectl run
  --simulate``) and tests, so that a simulated day can be played again.

Each number is uniform on 1..faces (``randbelow``/``randrange``: no modulo bias).
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol


class DrawSource(Protocol):
    name: str

    def draw(self, count: int, faces: int) -> tuple[int, ...]:
        """``count`` numbers, each uniform on 1..``faces``, independent."""
        ...


class SystemDraws:
    """The operating system's random source (hardware-fed on the table's computer)."""

    name = "draw:system"

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def draw(self, count: int, faces: int) -> tuple[int, ...]:
        return tuple(self._random.randrange(faces) + 1 for _ in range(count))


class SeededDraws:
    """A seeded generator: the same seed, the same numbers (simulated tables and tests)."""

    def __init__(self, seed: int) -> None:
        self.name = f"draw:seed {seed}"
        self._random = random.Random(seed)

    def draw(self, count: int, faces: int) -> tuple[int, ...]:
        return tuple(self._random.randrange(faces) + 1 for _ in range(count))
