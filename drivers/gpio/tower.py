"""The status tower light: green, amber, red and an optional buzzer, driven by named patterns.

The pit supervisor reads the table's state from across the floor, so each
pattern differs from every other in what a glance shows: which colour, and
whether it is steady, blinking slowly (1 Hz) or fast (4 Hz). The buzzer sounds
only where a person must come to the table. ``show(name, now)`` picks a
pattern without touching the pins; ``update(now)`` (called from the loop's
periodic tick, every 50 ms or so) sets the lamps for the time since the
pattern began, so a blink always starts with the lamp on and tests are
deterministic, and a failing output is reported where the loop guards it.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.gpio.lines import OutputLine

LAMPS = ("green", "amber", "red", "buzzer")


@dataclass(frozen=True, slots=True)
class Wave:
    """A repeating on/off signal: on during each (start, end) window of every ``period`` seconds."""

    period: float
    windows: tuple[tuple[float, float], ...]
    words: str

    def on(self, t: float) -> bool:
        phase = t % self.period
        return any(start <= phase < end for start, end in self.windows)

    def until_change(self, t: float) -> float | None:
        """Seconds from ``t`` to the next switch on or off (None: it never switches)."""
        if any(start <= 0 and end >= self.period for start, end in self.windows):
            return None
        edges = sorted({x % self.period for window in self.windows for x in window})
        phase = t % self.period
        later = [e for e in edges if e > phase]
        return (later[0] if later else self.period + edges[0]) - phase


STEADY = Wave(1.0, ((0.0, 1.0),), "steady")
SLOW = Wave(1.0, ((0.0, 0.5),), "slow blink (1 Hz)")
FAST = Wave(0.25, ((0.0, 0.125),), "fast blink (4 Hz)")
FAST_OTHER = Wave(0.25, ((0.125, 0.25),), "fast blink (4 Hz) opposite to amber")
TWO_BEEPS_10S = Wave(10.0, ((0.0, 0.15), (0.3, 0.45)), "two short beeps every 10 s")
LONG_BEEP_10S = Wave(10.0, ((0.0, 1.0),), "1 s beep every 10 s")


@dataclass(frozen=True, slots=True)
class Pattern:
    """What each lamp does in one table state (``None``: off)."""

    name: str
    meaning: str
    green: Wave | None = None
    amber: Wave | None = None
    red: Wave | None = None
    buzzer: Wave | None = None

    def state_at(self, t: float) -> dict[str, bool]:
        """Which lamps are on ``t`` seconds after the pattern began."""
        return {lamp: bool(wave and wave.on(t)) for lamp, wave in
                (("green", self.green), ("amber", self.amber), ("red", self.red), ("buzzer", self.buzzer))}


PATTERNS: dict[str, Pattern] = {p.name: p for p in (
    Pattern("off", "the controller is not running or the table is closed"),
    Pattern("idle", "table open, no round in progress", green=STEADY),
    Pattern("betting_open", "bets are being placed", green=SLOW),
    Pattern("dealing", "no more bets; the round is being played", green=STEADY, amber=STEADY),
    Pattern("waiting_decision", "waiting for the croupier's decision (a button)", amber=SLOW),
    Pattern("result_pending", "a result waits for the croupier's confirmation", amber=FAST),
    Pattern("jackpot_pending", "a jackpot hit waits for the supervisor", amber=FAST, red=FAST_OTHER,
            buzzer=TWO_BEEPS_10S),
    Pattern("device_fault", "a device is faulty; it clears itself when the device recovers", red=STEADY),
    Pattern("maintenance", "a technician is walking the devices (self-test); play is stopped", amber=STEADY,
            red=STEADY),
    Pattern("latched_fault", "a latched fault: play is stopped until a supervisor clears it", red=FAST,
            buzzer=LONG_BEEP_10S),
)}


class TowerLight:
    """The lamps of one tower; ``buzzer`` may be absent (its part of a pattern is then silent)."""

    def __init__(self, lamps: dict[str, OutputLine]) -> None:
        unknown = sorted(set(lamps) - set(LAMPS))
        if unknown:
            raise ValueError(f"tower light has no lamp called {unknown[0]!r} (lamps: {', '.join(LAMPS)})")
        self._lamps = dict(lamps)
        self._pattern = PATTERNS["off"]
        self._started = 0.0
        self._updated = 0.0
        self._testing = False
        self.state: dict[str, bool] = {lamp: False for lamp in LAMPS}
        self._apply(self._pattern.state_at(0.0))

    @property
    def lamps(self) -> tuple[str, ...]:
        """The lamps this tower has, in legend order."""
        return tuple(lamp for lamp in LAMPS if lamp in self._lamps)

    @property
    def pattern(self) -> str:
        return self._pattern.name

    def show(self, pattern: str, now: float) -> None:
        """Switch to ``pattern`` (a ``PATTERNS`` name) from the next ``update``; the same one does not restart."""
        if pattern not in PATTERNS:
            raise ValueError(f"unknown tower pattern {pattern!r} (known: {', '.join(PATTERNS)})")
        if pattern != self._pattern.name or self._testing:
            self._pattern = PATTERNS[pattern]
            self._started = now
        self._testing = False

    def test_lamp(self, lamp: str | None) -> None:
        """Self-test: light ``lamp`` alone, steady (``None``: all off) until the next ``show``."""
        if lamp is not None and lamp not in self._lamps:
            raise ValueError(f"this tower light has no {lamp} lamp")
        self._testing = True
        self._apply({name: name == lamp for name in LAMPS})

    def update(self, now: float) -> None:
        self._updated = now
        if not self._testing:
            self._apply(self._pattern.state_at(now - self._started))

    def deadline(self) -> float | None:
        """When the lamps next switch after the last ``update`` (None: they stay as they are)."""
        if self._testing:
            return None
        t = self._updated - self._started
        waits = [w.until_change(t) for w in (self._pattern.green, self._pattern.amber, self._pattern.red,
                                             self._pattern.buzzer) if w is not None]
        present = [w for w in waits if w is not None]
        return self._updated + min(present) if present else None

    def _apply(self, state: dict[str, bool]) -> None:
        for lamp, on in state.items():
            if lamp in self._lamps:
                self._lamps[lamp].set(on)
                self.state[lamp] = on
            else:
                self.state[lamp] = False

    def close(self) -> None:
        self._apply({lamp: False for lamp in LAMPS})


def legend() -> list[str]:
    """The legend, one line per pattern, for the console and the docs."""
    lines = []
    for pattern in PATTERNS.values():
        parts = [f"{lamp} {wave.words}" for lamp, wave in
                 (("green", pattern.green), ("amber", pattern.amber), ("red", pattern.red),
                  ("buzzer", pattern.buzzer)) if wave]
        lines.append(f"{pattern.name:<17} {', '.join(parts) or 'all off'} -- {pattern.meaning}")
    return lines
