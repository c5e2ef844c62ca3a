"""The self-test walk: every configured device, one step at a time, with a technician.

``run_selftest`` lights each tower lamp alone and asks whether it is the
right one, shows the sign's and the jackpot display's test patterns and asks
about each, then asks for each button to be pressed, the puck to be put in
each circle, each presence sensor to be covered, a chip to be put in each
progressive slot (and its lamp checked) and the lock button pressed, and
watches the events. It reports what it saw and what it did not: a button that
never came, or a different one (two wires swapped), a circle that sensed
nothing, or the wrong box.

The technician is an object (``Technician``): ``ConsoleTechnician`` reads
answers from the console; ``SimulatedTechnician`` looks at the mock outputs and
uses ``Hands`` on the mock inputs, so the walk runs end to end in tests and in
``tablectl selftest --simulate``. ``walk`` yields the steps one at a time, so
the running daemon's console drives the same walk without blocking its loop
(controller/runtime/console_selftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generator, Protocol

from drivers.gpio.clock import Clock, FakeClock
from drivers.gpio.devices import Devices
from drivers.gpio.events import (ButtonPressed, DriverEvent, PresenceChanged, PuckSensed, SlotChanged,
                                 SlotLocked)
from drivers.gpio.sim import Hands
from drivers.gpio.tower import legend


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the technician is asked: ``look`` (answer yes/no) or ``do`` (an action, then the walk watches).

    ``device`` and ``target`` name it (``tower``/``red``, ``buttons``/``stand``,
    ``puck``/``3``); ``expect`` is what a correct device shows (for the
    simulated technician's eyes).
    """

    kind: str
    device: str
    target: str
    text: str
    expect: Any = None


@dataclass(frozen=True, slots=True)
class Check:
    device: str
    target: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.device} {self.target}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Report:
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def lines(self) -> list[str]:
        failed = sum(not c.ok for c in self.checks)
        summary = "all devices passed" if not failed else f"{failed} of {len(self.checks)} checks failed"
        return [c.line() for c in self.checks] + [f"selftest: {summary}"]

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [{"device": c.device, "target": c.target, "ok": c.ok, "detail": c.detail}
                                          for c in self.checks]}


class Technician(Protocol):
    def tell(self, text: str) -> None: ...

    def look(self, step: Step) -> bool: ...

    def do(self, step: Step) -> None: ...


class ConsoleTechnician:
    """A person at the console: questions are answered y or n; actions are done by hand."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> None:
        self._read = read
        self._write = write

    def tell(self, text: str) -> None:
        self._write(text)

    def look(self, step: Step) -> bool:
        while True:
            try:
                answer = self._read(f"{step.text} [y/n] ").strip().lower()
            except EOFError:
                self._write("(no answer: counted as no)")
                return False
            if answer in ("y", "yes", "j", "ja", "k", "kyllä"):
                return True
            if answer in ("n", "no", "nej", "e", "ei"):
                return False
            self._write("Please answer y or n.")

    def do(self, step: Step) -> None:
        self._write(step.text)


class SimulatedTechnician:
    """Eyes on the mock outputs and hands on the mock inputs; actions are scheduled on a ``FakeClock``.

    ``skip`` holds ``(device, target)`` steps this technician will not do (to
    show what the report says about a dead contact).
    """

    def __init__(self, devices: Devices, hands: Hands, clock: FakeClock,
                 skip: frozenset[tuple[str, str]] = frozenset(), write: Callable[[str], None] | None = None) -> None:
        self.devices = devices
        self._write = write
        self.hands = hands
        self.clock = clock
        self.skip = skip
        self.said: list[str] = []
        self._puck_at: int | None = None

    def tell(self, text: str) -> None:
        self.said.append(text)
        if self._write:
            self._write(text)

    def look(self, step: Step) -> bool:
        answer = self._see(step)
        self.tell(f"{step.text} [simulated: {'y' if answer else 'n'}]")
        return answer

    def _see(self, step: Step) -> bool:
        if step.device == "tower":
            return self.hands.tower_lit() == (step.target,)
        if step.device == "sign":
            return self.devices.sign.device.image.tobytes() == step.expect.convert("1").tobytes()
        if step.device == "jackpot":
            from drivers.displays.jackpot import image_segments, segments

            return image_segments(self.devices.jackpot.device.image) == segments(step.expect)
        if step.device == "progressive":
            return self.hands.slot_lamp(int(step.target))
        return False

    def do(self, step: Step) -> None:
        skipped = (step.device, step.target) in self.skip
        self.tell(f"{step.text} [simulated: {'left undone' if skipped else 'done'}]")
        if skipped:
            return
        now = self.clock.now()
        at = self.clock.call_at
        hands = self.hands
        if step.device == "buttons":
            at(now + 0.2, lambda: hands.button(step.target, True))
            at(now + 0.5, lambda: hands.button(step.target, False))
        elif step.device == "puck":
            seat, previous = int(step.target), self._puck_at
            if previous is not None:
                at(now + 0.1, lambda: hands.puck(previous, False))
            at(now + 0.6, lambda: hands.puck(seat, True))
            self._puck_at = seat
        elif step.device == "presence":
            seat_text, spot = step.target.split(" ", 1)
            at(now + 0.2, lambda: hands.presence(int(seat_text), spot, True))
            at(now + 1.0, lambda: hands.presence(int(seat_text), spot, False))
        elif step.device == "progressive":
            at(now + 0.2, lambda: hands.chip(int(step.target), True))


class EventLog:
    """The devices' sink during a self-test: keeps every event so the walk can look for the one it asked for."""

    def __init__(self) -> None:
        self.events: list[DriverEvent] = []

    def __call__(self, event: DriverEvent) -> None:
        self.events.append(event)


def run_selftest(devices: Devices, watcher: EventLog, technician: Technician, clock: Clock,
                 timeout: float = 20.0, poll: float = 0.01) -> Report:
    """Walk every device of ``devices``; ``watcher.events`` is the list the devices' sink appends to.

    A blocking driver of ``walk``: it answers each step through ``technician``
    and sleeps ``poll`` on the clock while the walk waits for an event.
    """
    steps = walk(devices, watcher, clock.now, timeout)
    answer: bool | None = None
    while True:
        try:
            step = steps.send(answer)
        except StopIteration as end:
            return end.value
        answer = None
        if step.kind == "tell":
            technician.tell(step.text)
        elif step.kind == "look":
            answer = technician.look(step)
        elif step.kind == "do":
            technician.do(step)
        else:  # "wait"
            clock.sleep(poll)


def walk(devices: Devices, watcher: EventLog, now: Callable[[], float], timeout: float = 20.0,
         update: bool = True) -> Generator[Step, bool | None, Report]:
    """The walk, one step at a time, for any driver (a blocking loop, or the running daemon's console).

    It yields ``Step``s: ``tell`` (print it; send None), ``look`` (send the
    technician's yes/no), ``do`` (ask for the action; send None), and
    ``wait`` (the walk is watching for an event: send None again a little
    later). It returns the ``Report``. ``update`` False: someone else ticks
    the devices (the daemon's loop), the walk only reads ``watcher.events``.
    """
    checks: list[Check] = []
    config = devices.config

    def wait_for(match: Callable[..., bool], relevant: Callable[..., bool]
                 ) -> Generator[Step, Any, tuple[Any, list[Any]]]:  # the events relevant() lets through
        """Watch until an event matches; return it and the other relevant events seen meanwhile."""
        start = len(watcher.events)
        deadline = now() + timeout
        others: list[DriverEvent] = []
        while True:
            if update:
                devices.update(now())
            for event in watcher.events[start:]:
                if match(event):
                    return event, others
                if relevant(event):
                    others.append(event)
            start = len(watcher.events)
            if now() >= deadline:
                return None, others
            yield Step("wait", "", "", "")

    def check(device: str, target: str, ok: bool, detail: str) -> Step:
        checks.append(Check(device, target, ok, detail))
        return Step("tell", device, target, checks[-1].line())

    def tell(text: str) -> Step:
        return Step("tell", "", "", text)

    def look(step: Step) -> Generator[Step, Any, bool]:
        return bool((yield step))

    if devices.tower:
        yield tell("Tower light: each lamp is lit alone in turn.")
        for lamp in devices.tower.lamps:
            devices.tower.test_lamp(lamp)
            question = ("Is the buzzer sounding, with no lamp lit?" if lamp == "buzzer"
                        else f"Is the {lamp.upper()} lamp lit, and no other?")
            ok = yield from look(Step("look", "tower", lamp, question))
            yield check("tower", lamp, ok, "seen" if ok else "technician did not see it")
        devices.tower.test_lamp(None)
        yield Step("tell", "tower", "legend", "Tower light legend:\n  " + "\n  ".join(legend()))

    if devices.sign:
        from drivers.displays.sign import selftest_patterns

        yield tell("LED sign: three test pictures.")
        for i, (question, image) in enumerate(selftest_patterns(devices.sign.device.width), 1):
            devices.sign.show_image(image)
            ok = yield from look(Step("look", "sign", f"pattern {i}", question, image))
            yield check("sign", f"pattern {i}", ok, "seen" if ok else f"not as asked: {question}")

    if devices.jackpot:
        yield tell("Jackpot display: two test pictures.")
        for target, text, question in (
                ("all segments", "8.8.8.8.8.8.8.8.", "Are all segments and all points lit on the 8 digits?"),
                ("digit order", "12345678", "Does the jackpot display read 12345678, left to right?")):
            devices.jackpot.show_text(text)
            ok = yield from look(Step("look", "jackpot", target, question, text))
            yield check("jackpot", target, ok, "seen" if ok else f"not as asked: {question}")

    if devices.buttons:
        yield tell(f"Buttons: press each one when asked ({timeout:g} s each).")
        pin_of = {b.name: b.pin for b in config.buttons}
        for name in devices.buttons.names:
            yield Step("do", "buttons", name, f"Press the {name.upper()} button ({pin_of[name]}).")
            seen, others = yield from wait_for(lambda e, n=name: e == ButtonPressed(n),
                                               lambda e: isinstance(e, ButtonPressed))
            if seen:
                yield check("buttons", name, True, "pressed")
            elif others:
                got = ", ".join(sorted({e.name for e in others}))
                yield check("buttons", name, False, f"not pressed; {got} came instead (wires swapped?)")
            else:
                yield check("buttons", name, False, f"not pressed within {timeout:g} s")
        if devices.progressive:  # pressing the lock button locked the slots: open them for their own test
            devices.progressive.unlock(now())

    if devices.puck:
        assert config.puck is not None  # the device is built from its section of the pin map
        yield tell("Burn puck: put the puck in each circle when asked.")
        for seat in range(1, len(config.puck.sensors) + 1):
            yield Step("do", "puck", str(seat), f"Put the puck in the burn circle of box {seat}.")
            seen, others = yield from wait_for(lambda e, s=seat: e == PuckSensed(s),
                                               lambda e: isinstance(e, PuckSensed))
            if seen:
                yield check("puck", f"box {seat}", True, "sensed")
            elif others:
                got = ", ".join(str(e.seat) for e in others)
                yield check("puck", f"box {seat}", False, f"not sensed; sensed at box {got} instead (wires swapped?)")
            else:
                yield check("puck", f"box {seat}", False, f"not sensed within {timeout:g} s")

    if devices.presence:
        assert config.presence is not None  # the device is built from its section of the pin map
        yield tell("Bet-presence sensors: cover each one when asked, then uncover it.")
        for sensor in config.presence.sensors:
            target = f"{sensor.seat} {sensor.spot}"
            yield Step("do", "presence", target,
                       f"Cover the {sensor.spot} sensor of box {sensor.seat}, then uncover it.")
            seen, others = yield from wait_for(lambda e, s=sensor: e == PresenceChanged(s.seat, s.spot, True),
                                               lambda e: isinstance(e, PresenceChanged) and e.present)
            if seen:
                yield check("presence", f"box {target}", True, "sensed")
            elif others:
                got = ", ".join(f"box {e.seat} {e.spot}" for e in others)
                yield check("presence", f"box {target}", False, f"not sensed; {got} instead (wires swapped?)")
            else:
                yield check("presence", f"box {target}", False, f"not sensed within {timeout:g} s")

    if devices.progressive:
        assert config.progressive is not None  # the device is built from its section of the pin map
        yield tell("Progressive slots: put a chip in each slot when asked and leave it there.")
        seats = range(1, len(config.progressive.sensors) + 1)
        for seat in seats:
            yield Step("do", "progressive", str(seat), f"Put a progressive chip in the slot of box {seat}.")
            seen, others = yield from wait_for(lambda e, s=seat: isinstance(e, SlotChanged)
                                               and (e.seat, e.present) == (s, True),
                                               lambda e: isinstance(e, SlotChanged) and e.present)
            if not seen:
                detail = (f"not sensed; slot {', '.join(str(e.seat) for e in others)} instead (wires swapped?)"
                          if others else f"not sensed within {timeout:g} s")
                yield check("progressive", f"slot {seat}", False, detail)
                continue
            yield check("progressive", f"slot {seat}", True, "sensed")
            lit = yield from look(Step("look", "progressive", str(seat), f"Is the lamp of box {seat}'s slot lit?"))
            yield check("progressive", f"lamp {seat}", lit, "lit" if lit else "technician did not see it lit")
        lock = config.progressive.lock_button
        yield Step("do", "buttons", lock, f"Press the {lock.upper()} button to lock the slots.")
        seen, _ = yield from wait_for(lambda e: isinstance(e, SlotLocked), lambda e: False)
        if seen is None:
            yield check("progressive", "lock", False, f"the slots were not locked within {timeout:g} s")
        else:
            yield check("progressive", "lock", True, f"locked boxes {', '.join(map(str, seen.seats)) or 'none'}")
            devices.progressive.unlock(now())
        yield tell("Take the chips out of the slots.")

    return Report(tuple(checks))


def action_targets(config: Any) -> list[tuple[str, str]]:
    """Every (device, target) the walk asks a technician to act on, in walk order."""
    out = [("buttons", b.name) for b in config.buttons]
    if config.puck:
        out.extend(("puck", str(seat)) for seat in range(1, len(config.puck.sensors) + 1))
    if config.presence:
        out.extend(("presence", f"{s.seat} {s.spot}") for s in config.presence.sensors)
    if config.progressive:
        out.extend(("progressive", str(seat)) for seat in range(1, len(config.progressive.sensors) + 1))
    return out
