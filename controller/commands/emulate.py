"""`tablectl emulate shoe|shuffler|wheel`: a device emulator on a pseudo-terminal, for testing without hardware.

The first line printed is the path to open (the pty, or the ``--link``
symlink pointing at it); progress lines follow. The emulator keeps the pty
open after its script is done (a real device stays plugged in) until Ctrl-C,
or exits with ``--exit-when-done``. With ``--interactive`` there is no script:
typed commands (``card Ah``, ``jam``, ``unplug 2``, ``spin 17`` ...) drive it. Faults are injected on request: random
ones with probabilities (``--noise``, ``--flip``, ``--drop``, ``--duplicate``,
``--ack-loss``), and scripted ones after a given card or spin (``--jam-after``,
``--tamper-after``, ``--unreadable-after``, ``--disconnect-after``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Callable

from controller import cards as cardlib
from controller.commands.common import UsageError
from drivers.shoe import emulator as shoe_emulator
from drivers.shoe.emulator import Faults, ShoeEmulator
from drivers.shoe.events import (CardDealt, CutCard, DeckCheck, DoorClosed, DoorOpen, Jam, ShoeEmpty, ShoeEvent,
                                 ShoeState, ShuffleDone, ShuffleStarted, Tamper, Unreadable)
from drivers.wheel import emulator as wheel_emulator
from drivers.wheel.emulator import LineFaults, WheelEmulator


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a probability between 0 and 1")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "emulate", help="run a shoe, shuffler or wheel-reader emulator on a pseudo-terminal",
        description="Open a pseudo-terminal, print its path, and behave like the device on it "
                    "(docs/devices/shoe-protocol.md, docs/devices/wheel-reader.md).")
    parser.add_argument("device", choices=("shoe", "shuffler", "wheel"))
    parser.add_argument("--link", metavar="PATH", help="also make PATH a symlink to the pty (a stable name)")
    parser.add_argument("--seed", type=int, default=2026, help="shuffle or spin seed (default: 2026)")
    parser.add_argument("--decks", type=int, default=8, help="decks in the seeded shoe (default: 8)")
    parser.add_argument("--cards", help="deal exactly these cards instead, e.g. \"Ah Kd 10c\"")
    parser.add_argument("--count", type=int, help="deal (or spin) only this many")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between cards or spins (default: 1)")
    parser.add_argument("--cut-after", type=int, metavar="N", help="shoe: the cut card comes out after card N")
    parser.add_argument("--delay", type=float, default=1.0,
                        help="seconds to wait before the first card or spin, for the host to open the port "
                             "(default: 1; the shoe resends anyway, the wheel does not)")
    parser.add_argument("--exit-when-done", action="store_true", help="exit once everything was delivered")
    parser.add_argument("--quiet", action="store_true", help="print only the path")
    parser.add_argument("--interactive", action="store_true",
                        help="no script: read commands from standard input (type 'help'; 'quit' or end of input ends)")
    faults = parser.add_argument_group("faults")
    for name, what in (("noise", "a burst of random bytes before a frame or line"), ("flip", "one flipped bit"),
                       ("drop", "a frame or line not sent"), ("duplicate", "a frame or line sent twice"),
                       ("ack-loss", "an acknowledgement from the host ignored (shoe, shuffler)")):
        faults.add_argument(f"--{name}", type=_probability, default=0.0, metavar="P", help=f"probability of {what}")
    faults.add_argument("--fault-seed", type=int, default=1, help="seed of the random faults (default: 1)")
    faults.add_argument("--jam-after", type=int, metavar="N", help="report a jam after card N")
    faults.add_argument("--tamper-after", type=int, metavar="N", help="report tampering after card N")
    faults.add_argument("--unreadable-after", type=int, metavar="N", help="an unreadable card after card N")
    faults.add_argument("--disconnect-after", type=int, metavar="N", help="unplug after card (or spin) N")
    faults.add_argument("--disconnect-for", type=float, default=3.0, metavar="S",
                        help="seconds to stay unplugged (default: 3)")
    shuffler = parser.add_argument_group("shuffler")
    shuffler.add_argument("--missing", default="", help="deck check: cards missing, e.g. \"Ah,Kd\"")
    shuffler.add_argument("--extra", default="", help="deck check: extra cards")
    shuffler.add_argument("--foreign", default="", help="deck check: foreign cards (any text)")
    wheel = parser.add_argument_group("wheel")
    wheel.add_argument("--numbers", help="spin exactly these numbers, e.g. \"17 0 32\"")
    wheel.add_argument("--spins", type=int, default=10, help="how many seeded spins (default: 10)")
    wheel.add_argument("--warnings", type=int, default=0, help="warning flags on every spin (1, 2, 4, 8)")
    wheel.add_argument("--separator", choices=(":", ";"), default=":", help="field separator (default: ':')")
    wheel.add_argument("--repeat", type=int, default=1, help="send each status line this many times")
    wheel.add_argument("--first-spin", type=int, default=1, help="number of the first spin (default: 1)")
    parser.set_defaults(run=run)


def _card_list(args: argparse.Namespace) -> list[str]:
    if args.cards is not None:
        try:
            dealt = [str(c) for c in cardlib.parse_cards(args.cards)]
        except cardlib.CardError as exc:
            raise UsageError(f"emulate --cards: {exc}") from None
    else:
        if args.decks < 1:
            raise UsageError("emulate --decks: need at least one deck")
        dealt = [str(c) for c in cardlib.shuffled(cardlib.shoe(args.decks), random.Random(args.seed))]
    return dealt[:args.count] if args.count is not None else dealt


def _check_cards(text: str, option: str) -> tuple[str, ...]:
    items = tuple(item for item in text.replace(" ", ",").split(",") if item)
    try:
        return tuple(str(c) for c in cardlib.parse_cards(list(items)))
    except cardlib.CardError as exc:
        raise UsageError(f"emulate {option}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    if args.interval < 0 or args.disconnect_for < 0 or args.delay < 0:
        raise UsageError("emulate: --interval, --delay and --disconnect-for must not be negative")
    out = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    try:
        if args.device == "wheel":
            return _run_wheel(args, out)
        return _run_shoe(args, out)
    except (OSError, ValueError) as exc:
        print(f"tablectl: emulate {args.device}: {exc}", file=sys.stderr)
        return 1


def _pause(args: argparse.Namespace) -> None:
    if args.interval:
        time.sleep(args.interval)


def _console(command: Callable[[str], str]) -> None:
    """Read commands from standard input until ``quit`` or its end; print each answer."""
    for line in sys.stdin:
        if line.strip().lower() in ("quit", "exit"):
            return
        answer = command(line)
        if answer:
            print(answer, flush=True)


def _linger(args: argparse.Namespace, out: Callable[[str], None]) -> None:
    if args.exit_when_done:
        return
    out("done; the port stays open until Ctrl-C")
    while True:
        time.sleep(3600)


def _run_shoe(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    dealt = _card_list(args)
    missing, extra = _check_cards(args.missing, "--missing"), _check_cards(args.extra, "--extra")
    foreign = tuple(item for item in args.foreign.replace(" ", ",").split(",") if item)
    faults = Faults(noise=args.noise, flip=args.flip, drop=args.drop, duplicate=args.duplicate,
                    ack_loss=args.ack_loss, seed=args.fault_seed)
    emu = ShoeEmulator(args.device, link_path=args.link, faults=faults, log=out)
    print(emu.start(), flush=True)
    try:
        if args.interactive:
            _console(lambda line: shoe_emulator.console_command(emu, line))
            emu.wait_done(2.0)
            return 0
        time.sleep(args.delay)
        if args.device == "shuffler":
            script: list[ShoeEvent] = [DoorOpen(), DoorClosed(), ShuffleStarted(f"{len(dealt)} cards"),
                                       DeckCheck(missing, extra, foreign, len(dealt) - len(missing) + len(extra)
                                                 + len(foreign)),
                                       ShuffleDone(len(dealt))]
            for event in script:
                emu.send(event)
                _pause(args)
        else:
            emu.send(ShoeState(closed=True))
            for number, card in enumerate(dealt, start=1):
                emu.send(CardDealt(card))
                if number == args.cut_after:
                    emu.send(CutCard())
                for after, event in ((args.jam_after, Jam("card stuck at the exit")),
                                     (args.tamper_after, Tamper("sensor covered")),
                                     (args.unreadable_after, Unreadable("index not readable"))):
                    if after == number:
                        emu.send(event)
                if args.disconnect_after == number:
                    emu.wait_done(5 + args.interval)
                    out(f"unplugged for {args.disconnect_for:g} s")
                    emu.unplug()
                    time.sleep(args.disconnect_for)
                    out(f"plugged back in at {emu.replug()}")
                _pause(args)
            emu.send(ShoeEmpty())
        while not emu.wait_done(1.0):
            pass
        stats = emu.stats()
        out(f"all acknowledged: {stats.sent} frames, {stats.retransmits} resent, {stats.dropped} dropped, "
            f"{stats.duplicated} duplicated, {stats.flipped} bits flipped, {stats.noise_bursts} noise bursts")
        _linger(args, out)
    except KeyboardInterrupt:
        pass
    finally:
        emu.stop()
    return 0


def _run_wheel(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    if args.numbers is not None:
        try:
            numbers: list[int | None] = [int(n) for n in args.numbers.replace(",", " ").split()]
        except ValueError:
            raise UsageError(f"emulate --numbers: {args.numbers!r} is not a list of numbers") from None
        bad = [n for n in numbers if n is None or not 0 <= n <= 36]
        if bad:
            raise UsageError(f"emulate --numbers: {bad[0]} is not on a 0..36 wheel")
    else:
        numbers = [None] * args.spins
    if args.count is not None:
        numbers = numbers[:args.count]
    faults = LineFaults(noise=args.noise, flip=args.flip, drop=args.drop, duplicate=args.duplicate,
                        seed=args.fault_seed)
    emu = WheelEmulator(link_path=args.link, seed=args.seed, first_spin=args.first_spin, separator=args.separator,
                        repeat=args.repeat, state_delay=args.interval / 5, faults=faults, log=out)
    print(emu.start(), flush=True)
    try:
        if args.interactive:
            _console(lambda line: wheel_emulator.console_command(emu, line))
            emu.wait_done(5.0)
            return 0
        time.sleep(args.delay)
        for count, number in enumerate(numbers, start=1):
            emu.spin(number, warnings=args.warnings)
            emu.wait_done(60)
            if args.disconnect_after == count:
                out(f"unplugged for {args.disconnect_for:g} s")
                emu.unplug()
                time.sleep(args.disconnect_for)
                out(f"plugged back in at {emu.replug()}")
        emu.close_table()
        emu.wait_done(60)
        out(f"done: {emu.sent} lines, {emu.dropped} dropped, {emu.duplicated} duplicated, {emu.flipped} bits "
            f"flipped, {emu.noise_bursts} noise bursts")
        _linger(args, out)
    except KeyboardInterrupt:
        pass
    finally:
        emu.stop()
    return 0
