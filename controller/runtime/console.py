"""The technician console: a line-oriented shell, one ``ConsoleSession`` per connection.

The session is a pure state machine over lines of text and a clock reading:
``start()`` and ``feed(line, now)`` return a ``Reply`` (lines to print, the
next prompt, whether the terminal may echo what is typed). The transports
(``console_server``: serial port and Unix socket) only move text. Everything
the console can see or do goes through the ``TableControl`` the daemon gives
it, and every privileged command and every failed login is journaled through
``TableControl.audit`` with who and when.

Plain text, 80 columns, no colours: it works on any serial terminal.
"""

from __future__ import annotations

import functools
import math
import shlex
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, Sequence, Union

from controller.cards import Card, CardError, parse_card

from controller.language import ENGLISH, Language
from controller.runtime.auth import ConsoleUser, Lockout, check_login, role_to_clear

WIDTH = 80
MAX_LINE = 1024  # characters of one typed line; longer ones are refused in words, never taken


class TableControl(Protocol):
    """What the daemon lets the console see and do. Every method runs on the daemon's loop."""

    def status(self) -> list[str]: ...
    def devices(self) -> list[str]: ...
    def round(self) -> list[str]: ...
    def history(self, count: int) -> list[str]: ...
    def limits(self) -> list[str]: ...
    def jackpot(self) -> list[str]: ...
    def jackpot_correct(self, meter: str, amount: int, reason: str, who: str) -> list[str]: ...
    def jackpot_confirm(self, meter: str, who: str) -> list[str]: ...
    def jackpot_day_end(self, drop: str, into: str, who: str) -> list[str]: ...
    def confirm_result(self, values: list[int], colors: list[str] | None, who: str) -> list[str]: ...
    def decisions(self) -> list[str]: ...
    def act(self, seat: int, action: str, multiple: int | None, amount: int | None, who: str,
            cards: Sequence[Card] | None = None, player: str | None = None) -> list[str]: ...
    def faults(self) -> list[str]: ...
    def clear_fault(self, name: str, who: str) -> list[str]: ...
    def selftest(self, who: str) -> "list[str] | Dialog": ...
    def calibrate(self, device: str, who: str) -> list[str]: ...
    def journal_verify(self) -> list[str]: ...
    def journal_tail(self, count: int) -> list[str]: ...
    def config_show(self) -> list[str]: ...
    def config_check(self) -> list[str]: ...
    def version(self) -> list[str]: ...
    def audit(self, who: str | None, what: str, ok: bool) -> None: ...


class Refused(Exception):
    """A command the table refuses; the message is shown to the technician, in the table's language (``msgid``
    with its ``values``, an id of the catalogue; ``str()`` is the English)."""

    def __init__(self, msgid: str, **values: object) -> None:
        super().__init__(msgid.format(**values) if values else msgid)
        self.msgid, self.values = msgid, values


def N_(text: str) -> str:
    """Marks an English text for the catalogue (tools/catalogue.py), translated where it is shown."""
    return text


@dataclass(frozen=True)
class Reply:
    lines: tuple[str, ...] = ()
    prompt: str = ""
    echo: bool = True  # False while a PIN is typed
    closed: bool = False
    check: "Callable[[], bool] | None" = None  # a PIN check to run off the loop, then ``ConsoleSession.checked``


@dataclass(frozen=True)
class Turn:
    """One step of a dialog: lines to print, then either a question (``ask``) or a wait, or the end."""

    lines: tuple[str, ...] = ()
    ask: str | None = None  # the question the next line answers; None: waiting on the devices
    done: bool = False


class Dialog(Protocol):
    """A multi-step exchange a command starts (the self-test walk): it owns the next lines until it ends.

    ``begin`` starts it; ``answer`` takes each line typed; ``poll`` is called
    on every console tick (about once a second) so a dialog waiting on the
    devices can move on; ``abort`` ends it early (the technician typed
    ``abort``, logged out on idle or hung up) and must leave the table as it was.
    """

    def begin(self, now: float) -> Turn: ...
    def answer(self, text: str, now: float) -> Turn: ...
    def poll(self, now: float) -> Turn | None: ...
    def abort(self, now: float, why: str) -> Turn: ...


CommandResult = Union[list[str], Dialog]


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    role: str | None  # None: anyone logged in; "supervisor": supervisors only
    privileged: bool  # journaled with who and when
    run: Callable[["ConsoleSession", list[str]], CommandResult]


def _count(args: list[str], default: int) -> int:
    if not args:
        return default
    if not args[0].isdigit() or not 1 <= int(args[0]) <= 1000:
        raise Refused("give a count from 1 to 1000")
    return int(args[0])


def _sub(args: list[str], choices: tuple[str, ...], default: str | None = None) -> str:
    if not args:
        if default is None:
            raise Refused("say which: {choices}", choices=" | ".join(choices))
        return default
    if args[0] not in choices:
        raise Refused("unknown '{word}': use {choices}", word=args[0], choices=" | ".join(choices))
    return args[0]


def _jackpot(session: "ConsoleSession", args: list[str]) -> list[str]:
    what = _sub(args, ("show", "correct", "confirm", "day-end"), "show")
    if what == "show":
        return session.control.jackpot()
    if session.user is None or session.user.role != "supervisor":
        raise Refused("jackpot {what} needs a supervisor login", what=what)
    if what == "confirm":
        if len(args) != 2:
            raise Refused("usage: jackpot confirm METER")
        return session.control.jackpot_confirm(args[1], session.user.name)
    if what == "day-end":
        if len(args) != 3:
            raise Refused("usage: jackpot day-end DROP_METER JACKPOT_METER")
        return session.control.jackpot_day_end(args[1], args[2], session.user.name)
    if len(args) < 4 or not args[2].lstrip("-").isdigit():
        raise Refused("usage: jackpot correct METER AMOUNT REASON... (AMOUNT in minor units)")
    return session.control.jackpot_correct(args[1], int(args[2]), " ".join(args[3:]), session.user.name)


def _faults(session: "ConsoleSession", args: list[str]) -> list[str]:
    what = _sub(args, ("list", "clear"), "list")
    if what == "list":
        return session.control.faults()
    if len(args) != 2:
        raise Refused("usage: faults clear NAME (see 'faults list')")
    assert session.user is not None
    needed = role_to_clear(args[1])  # the fault table's clear_role (controller/runtime/faults.py)
    if needed is None:
        raise Refused("{name} clears only by a restart, once the cause is mended (docs/console.md, "
                      "'Who may clear what')", name=args[1])
    if needed == "supervisor" and session.user.role != "supervisor":
        raise Refused("clearing {name} needs a supervisor login (docs/console.md, 'Who may clear what')",
                      name=args[1])
    return session.control.clear_fault(args[1], session.user.name)


def _journal(session: "ConsoleSession", args: list[str]) -> list[str]:
    what = _sub(args, ("verify", "tail"))
    return session.control.journal_verify() if what == "verify" else session.control.journal_tail(_count(args[1:], 10))


def _config(session: "ConsoleSession", args: list[str]) -> list[str]:
    what = _sub(args, ("show", "check"), "show")
    return session.control.config_show() if what == "show" else session.control.config_check()


def _confirm(session: "ConsoleSession", args: list[str]) -> list[str]:
    """``confirm 2 4 6`` or ``confirm red=3 green=5``: the dice of a throw the camera was unsure of;
    ``confirm number=17``: the number of a roulette spin it was unsure of (the game checks the wheel has it)."""
    if not args:
        raise Refused("usage: confirm DIE... (e.g. 'confirm 2 4 6' or 'confirm red=3 green=5'), or confirm number=N")
    if args[0].lower().startswith("number="):
        number = args[0].partition("=")[2]
        if len(args) != 1 or not number.isdigit():
            raise Refused("'{given}' is not a roulette number: give one, e.g. 'confirm number=17'",
                          given=" ".join(args))
        assert session.user is not None
        return session.control.confirm_result([int(number)], None, session.user.name)
    values: list[int] = []
    colors: list[str] = []
    for word in args:
        color, sep, value = word.rpartition("=")
        if not value.isdigit() or not 1 <= int(value) <= 6 or (sep and not color.isalpha()):
            raise Refused("'{word}' is not a die: give 1 to 6, or COLOUR=1..6", word=word)
        values.append(int(value))
        if sep:
            colors.append(color.lower())
    if colors and len(colors) != len(values):
        raise Refused("give a colour for every die, or for none")
    assert session.user is not None
    return session.control.confirm_result(values, colors or None, session.user.name)


def _act(session: "ConsoleSession", args: list[str]) -> list[str]:
    """``act`` lists the legal decisions now; ``act BOX ACTION [4x|amount=N|cards=C,C] [player=NAME]`` enters one
    (the supervisor's fallback when the dealer terminal is out): the same decisions the terminal offers,
    journaled as an action."""
    if not args:
        return session.control.decisions()
    if not 2 <= len(args) <= 4 or not args[0].isdigit():
        raise Refused("usage: act BOX ACTION [Nx | amount=N | cards=C,C] [player=NAME] (type 'act' for the "
                      "decisions offered now)")
    multiple = amount = None
    cards: list[Card] | None = None
    player: str | None = None
    for given in args[2:]:
        extra = given.lower()
        if extra.endswith("x") and extra[:-1].isdigit():
            multiple = int(extra[:-1])
        elif extra.startswith("amount=") and extra[7:].isdigit():
            amount = int(extra[7:])
        elif extra.startswith("cards=") and extra[6:]:
            try:
                cards = [parse_card(c) for c in given[6:].split(",")]
            except CardError as exc:
                raise Refused("'{given}': {problem}", given=given, problem=str(exc)) from None
        elif extra.startswith("player=") and extra[7:]:
            player = given[7:]
        else:
            raise Refused("'{given}' is neither a multiple (4x), an amount (amount=500, in minor units), cards "
                          "(cards=Kh,2c) nor a player (player=anna)", given=given)
    assert session.user is not None
    return session.control.act(int(args[0]), args[1].lower(), multiple, amount, session.user.name, cards, player)


def _help(session: "ConsoleSession", args: list[str]) -> list[str]:
    t = session.lang.t
    lines = [t("Commands (type the name, then Enter):")]
    for command in COMMANDS.values():
        who = " " + t("[supervisor]") if command.role == "supervisor" else ""
        lines.append(f"  {command.usage:<34} {t(command.help)}{who}")
    return lines


def _selftest(session: "ConsoleSession", args: list[str]) -> CommandResult:
    assert session.user is not None
    return session.control.selftest(session.user.name)


def _calibrate(session: "ConsoleSession", args: list[str]) -> list[str]:
    if len(args) != 1:
        raise Refused("usage: calibrate DEVICE (see 'devices')")
    assert session.user is not None
    return session.control.calibrate(args[0], session.user.name)


_COMMAND_LIST = (
    Command("help", "help", N_("this list"), None, False, _help),
    Command("status", "status", N_("table, game, round and health"), None, False, lambda s, a: s.control.status()),
    Command("devices", "devices", N_("every device with its link counters"), None, False, lambda s, a: s.control.devices()),
    Command("round", "round", N_("the open round: bets, cards, what it waits for"), None, False,
            lambda s, a: s.control.round()),
    Command("history", "history [N]", N_("the last N rounds (default 10)"), None, False,
            lambda s, a: s.control.history(_count(a, 10))),
    Command("limits", "limits", N_("table limits per spot"), None, False, lambda s, a: s.control.limits()),
    Command("jackpot", "jackpot [show|confirm M|correct M A R]", N_("meters; confirm a hit; correct a meter; "
            "day-end D J adds the day's drop D to J"), None,
            False, _jackpot),
    Command("faults", "faults [list|clear NAME]", N_("latched faults; clear one"), None, False, _faults),
    Command("confirm", "confirm DIE...|number=N", N_("confirm an unsure camera read (red=3 green=5; number=17)"), None,
            True, _confirm),
    Command("act", "act [BOX ACTION [4x|amount=N|cards=C,C] [player=NAME]]", N_("the decisions offered now; enter one"), "supervisor", True,
            _act),
    Command("selftest", "selftest", N_("walk through every device"), None, True, _selftest),
    Command("calibrate", "calibrate DEVICE", N_("calibrate a camera or reader"), None, True, _calibrate),
    Command("journal", "journal verify|tail [N]", N_("check the hash chain; last N records"), None, False, _journal),
    Command("config", "config [show|check]", N_("the running configuration"), None, False, _config),
    Command("version", "version", N_("software version and code digest"), None, False, lambda s, a: s.control.version()),
    Command("logout", "logout", N_("end this session"), None, False, lambda s, a: []),
)
COMMANDS: Mapping[str, Command] = {c.name: c for c in _COMMAND_LIST}
ROLES = (N_("supervisor"), N_("technician"), N_("croupier"))
"""The logins' roles, as the welcome line names them in the table's language."""
PRIVILEGED_SUBCOMMANDS = {("jackpot", "correct"), ("jackpot", "confirm"), ("jackpot", "day-end"), ("faults", "clear")}


def wrap(lines: list[str]) -> tuple[str, ...]:
    """Fold every line to 80 columns for a plain serial terminal."""
    out: list[str] = []
    for line in lines:
        if len(line) <= WIDTH:
            out.append(line)
        else:
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            out.extend(textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False))
    return tuple(out)


@dataclass
class ConsoleSession:
    """One console connection: login, then commands, until logout, idle time-out or disconnect."""

    users: Mapping[str, ConsoleUser]
    control: TableControl
    lockout: Lockout
    idle_seconds: float = 600.0
    source: str = "console"
    user: ConsoleUser | None = None
    _pending_name: str | None = None
    _last_activity: float = 0.0
    _closed: bool = field(default=False)
    _dialog: Dialog | None = None
    defer_checks: bool = False  # the transports run the scrypt check in a worker thread (Reply.check)
    _checking: tuple[str, ConsoleUser | None] | None = None

    @property
    def in_dialog(self) -> bool:
        return self._dialog is not None

    def start(self, now: float) -> Reply:
        self._last_activity = now
        return Reply((self.lang.t("tablectl console. Log in with your name and PIN; 'help' after login."),), "login: ")

    def tick(self, now: float) -> Reply | None:
        """Log out after ``idle_seconds`` without input, or move a waiting dialog on; None while nothing happens."""
        idle = self._idle(now)
        if idle is not None:
            return idle
        if self._dialog is not None:
            turn = self._dialog.poll(now)
            if turn is None:
                return None
            self._last_activity = now  # the technician is at the table, pressing what the walk asked for
            reply = self._dialog_reply(turn)  # unasked output: first end the line the prompt is on
            return Reply(("",) + reply.lines, reply.prompt, reply.echo, reply.closed)
        return None

    def _idle(self, now: float) -> Reply | None:
        if self.user is not None and now - self._last_activity >= self.idle_seconds:
            who = self.user.name
            ended: tuple[str, ...] = ()
            if self._dialog is not None:
                ended = self._end_dialog(self._dialog.abort(now, "idle logout")).lines
            self.user = None
            self.control.audit(who, f"logout (idle {int(self.idle_seconds)} s) on {self.source}", True)
            return Reply(ended + ("", self.lang.t("Logged out after {minutes} minutes without input.",
                                                  minutes=int(self.idle_seconds // 60))),
                         "login: ")
        return None

    def hang_up(self, now: float) -> None:
        """The connection went away: a running dialog is aborted so the table is left as it was."""
        if self._dialog is not None:
            self._end_dialog(self._dialog.abort(now, "disconnected"))

    def feed(self, line: str, now: float) -> Reply:
        idle = self._idle(now)
        self._last_activity = now
        if idle is not None:
            return idle
        text = line.strip()
        if self._checking is not None:
            return Reply((self.lang.t("Checking the PIN: a moment, then type again."),), "")
        if len(text) > MAX_LINE:
            self._pending_name = None
            return Reply((self.lang.t("That line is {length} characters long; a console line is at most {most}: "
                                      "refused.", length=f"{len(text):,}", most=f"{MAX_LINE:,}"),), self.prompt)
        if any(not ch.isprintable() and ch != "\t" for ch in text):
            self._pending_name = None
            return Reply((self.lang.t("That line has control characters or bytes that are not text: refused. Type it "
                                      "again."),),
                         self.prompt)
        if self.user is None:
            return self._login_step(text, now)
        if self._dialog is not None:
            if text.lower() == "abort":
                return self._dialog_reply(self._dialog.abort(now, f"abort typed by {self.user.name}"))
            return self._dialog_reply(self._dialog.answer(text, now))
        return self._command(text, now)

    # -- dialogs

    def _end_dialog(self, turn: Turn) -> Turn:
        self._dialog = None
        return turn

    def _dialog_reply(self, turn: Turn) -> Reply:
        if turn.done:
            self._end_dialog(turn)
            return Reply(wrap(list(turn.lines)), self.prompt)
        ask = turn.ask
        if ask is None:
            return Reply(wrap(list(turn.lines)), "(waiting; 'abort' to stop) ")
        lines = list(turn.lines)
        if len(ask) > WIDTH - 10:  # a long question goes on its own lines; the prompt stays short
            lines.append(ask)
            ask = "[y/n]" if ask.endswith("[y/n]") else "answer:"
        return Reply(wrap(lines), f"{ask} ")

    # -- login

    def _login_step(self, text: str, now: float) -> Reply:
        if self._pending_name is None:
            if not text:
                return Reply((), "login: ")
            if text in ("help", "version"):
                lines = ([self.lang.t("Log in first: your name, then your PIN.")] if text == "help"
                         else self.control.version())
                return Reply(wrap(lines), "login: ")
            self._pending_name = text
            return Reply((), "PIN: ", echo=False)
        name, self._pending_name = self._pending_name[:64], None
        locked = self.lockout.locked_for(name, now)
        if locked:
            self._audit_failure(name, f"login refused while locked on {self.source}", now)
            return Reply((self.lang.t("Locked after too many wrong PINs: try again in {minutes} minutes.",
                                      minutes=math.ceil(locked / 60)),),
                         "login: ")
        if not self.lockout.admit(now):  # a flood of tries from every connection together: no PIN check at all
            self._audit_failure(name, f"login refused (too many tries at once) on {self.source}", now)
            return Reply((self.lang.t("Too many login attempts at this table: wait a few seconds, then try again."),),
                         "login: ")
        user = self.users.get(name)
        if self.defer_checks:  # the transport runs the check in a worker thread and hands the answer back
            self._checking = (name, user)
            return Reply((), "", echo=False, check=functools.partial(check_login, text, user))
        return self._after_check(name, user, check_login(text, user), now)

    def checked(self, ok: bool, now: float) -> Reply:
        """The answer of a deferred PIN check (``Reply.check``), on the loop."""
        if self._checking is None:
            return Reply((), self.prompt)
        (name, user), self._checking = self._checking, None
        return self._after_check(name, user, ok, now)

    def _after_check(self, name: str, user: ConsoleUser | None, ok: bool, now: float) -> Reply:
        if ok:  # an unknown name costs the same dummy check: it answers in the same time
            assert user is not None
            self.lockout.succeeded(name)
            if user.role == "croupier":
                self.control.audit(name, f"login refused (a croupier's login is for the dealer terminal) on "
                                         f"{self.source}", False)
                return Reply((self.lang.t("A croupier logs in at the dealer terminal, not at the console."),), "login: ")
            self.user = user
            self.control.audit(name, f"login as {user.role} on {self.source}", True)
            return Reply((self.lang.t("Welcome, {name} ({role}). Type 'help' for the commands.", name=name,
                                      role=self.lang.t(user.role)),), self.prompt)
        locks = self.lockout.failed(name, now)
        if locks:  # a lock is always journaled: it is what a restart rebuilds the lock from
            self.control.audit(name, f"failed login on {self.source}; locked for 5 minutes", False)
        else:
            self._audit_failure(name, f"failed login on {self.source}", now)
        if locks:
            return Reply((self.lang.t("Wrong name or PIN. Too many failures: locked for 5 minutes."),), "login: ")
        return Reply((self.lang.t("Wrong name or PIN."),), "login: ")

    def _audit_failure(self, name: str, what: str, now: float) -> None:
        """One record for a failure, or none while a burst goes on (counted, summarised in the next record)."""
        journal, summary = self.lockout.journal_failure(name, now)
        if journal:
            self.control.audit(name, what + (f"; before it: {summary}" if summary else ""), False)
        elif summary:
            self.control.audit(None, summary, False)

    @property
    def lang(self) -> Language:
        """The table's language (``[table] language``); English where the control has none."""
        return getattr(self.control, "lang", ENGLISH)

    @property
    def prompt(self) -> str:
        return f"{self.user.name}> " if self.user else "login: "

    # -- commands

    def _command(self, text: str, now: float) -> Reply:
        if not text:
            return Reply((), self.prompt)
        try:
            words = shlex.split(text)
        except ValueError:
            return Reply((self.lang.t("Unbalanced quotes: type the command again."),), self.prompt)
        name, args = words[0].lower(), words[1:]
        command = COMMANDS.get(name)
        if command is None:
            return Reply((self.lang.t("Unknown command '{name}'. Type 'help' for the list.", name=name),), self.prompt)
        assert self.user is not None
        who = self.user.name
        privileged = command.privileged or (name, args[0] if args else "") in PRIVILEGED_SUBCOMMANDS
        if name == "logout":
            self.user = None
            self.control.audit(who, f"logout on {self.source}", True)
            return Reply((self.lang.t("Logged out."),), "login: ")
        if command.role == "supervisor" and self.user.role != "supervisor":
            self.control.audit(who, f"refused (not a supervisor): {text}", False)
            return Reply((self.lang.t("'{name}' needs a supervisor login.", name=name),), self.prompt)
        try:
            result = command.run(self, args)
        except Refused as refusal:
            if privileged:
                self.control.audit(who, f"refused: {text}: {refusal}", False)
            return Reply(wrap([self.lang.t(refusal.msgid, **refusal.values)]), self.prompt)
        except ValueError as refusal:  # the table refused it (bad meter, unknown fault, ...)
            if privileged:
                self.control.audit(who, f"refused: {text}: {refusal}", False)
            return Reply(wrap([self.lang.t("Refused: {reason}", reason=self.lang.text(str(refusal)))]), self.prompt)
        if privileged:
            self.control.audit(who, text, True)
        if isinstance(result, list):
            return Reply(wrap(result), self.prompt)
        self._dialog = result
        return self._dialog_reply(result.begin(now))
