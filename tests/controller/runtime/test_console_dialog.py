"""The console's dialog mode on the pure state machine: questions, waits, abort, idle logout."""

from __future__ import annotations

from controller.runtime.auth import ConsoleUser, Lockout, hash_pin
from controller.runtime.console import WIDTH, ConsoleSession, Turn
from tests.controller.runtime.fake_control import FakeControl


class TwoQuestions:
    """A dialog: a yes/no question, a wait that ends on the third poll, then a long question."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.polls = 0
        self.aborted: str | None = None
        self.asked = False  # the second question was put (a dialog waiting on an answer has nothing to poll)

    def begin(self, now: float) -> Turn:
        return Turn(("Walk starts.",), "Is the RED lamp lit, and no other? [y/n]")

    def answer(self, text: str, now: float) -> Turn:
        self.answers.append(text)
        if len(self.answers) == 1:
            return Turn(("Press the STAND button.",))
        return Turn(("report: " + ",".join(self.answers),), done=True)

    def poll(self, now: float) -> Turn | None:
        self.polls += 1
        if self.polls < 3 or len(self.answers) != 1 or self.asked:
            return None
        self.asked = True
        return Turn(("ok buttons stand: pressed",), "Does the jackpot display read 12345678, left to right, "
                                                    "with every point off? [y/n]")

    def abort(self, now: float, why: str) -> Turn:
        self.aborted = why
        return Turn((f"walk aborted ({why})",), done=True)


def session(dialog: TwoQuestions) -> tuple[ConsoleSession, FakeControl]:
    control = FakeControl()
    control.selftest = lambda who: dialog  # type: ignore[method-assign]
    s = ConsoleSession({"tech": ConsoleUser("tech", "technician", hash_pin("2468"))}, control, Lockout(),
                       idle_seconds=600)
    s.start(0)
    s.feed("tech", 1)
    assert s.feed("2468", 2).prompt == "tech> "
    return s, control


def test_a_dialog_owns_the_lines_until_it_ends() -> None:
    dialog = TwoQuestions()
    s, control = session(dialog)
    reply = s.feed("selftest", 3)
    assert reply.lines == ("Walk starts.",) and reply.prompt == "Is the RED lamp lit, and no other? [y/n] "
    assert ("tech", "selftest", True) in control.audits
    reply = s.feed("status", 4)  # not a command now: an answer
    assert reply.prompt == "(waiting; 'abort' to stop) " and dialog.answers == ["status"]
    assert s.tick(5) is None and s.tick(6) is None
    reply = s.tick(7)
    assert reply is not None and reply.lines[:2] == ("", "ok buttons stand: pressed")
    assert reply.prompt == "[y/n] " and all(len(line) <= WIDTH for line in reply.lines)
    assert "12345678" in " ".join(reply.lines)
    reply = s.feed("y", 8)
    assert reply.lines == ("report: status,y",) and reply.prompt == "tech> " and not s.in_dialog
    assert s.feed("status", 9).lines == tuple(control.status())


def test_abort_leaves_the_dialog() -> None:
    dialog = TwoQuestions()
    s, _ = session(dialog)
    s.feed("selftest", 3)
    reply = s.feed("ABORT", 4)
    assert dialog.aborted == "abort typed by tech" and reply.lines == ("walk aborted (abort typed by tech)",)
    assert reply.prompt == "tech> " and not s.in_dialog


def test_idle_logout_aborts_the_dialog_first() -> None:
    dialog = TwoQuestions()
    s, control = session(dialog)
    s.feed("selftest", 3)
    reply = s.tick(3 + 600)
    assert reply is not None and dialog.aborted == "idle logout" and reply.prompt == "login: "
    assert reply.lines[0] == "walk aborted (idle logout)" and not s.in_dialog and s.user is None


def test_hang_up_aborts_the_dialog() -> None:
    dialog = TwoQuestions()
    s, _ = session(dialog)
    s.feed("selftest", 3)
    s.hang_up(4)
    assert dialog.aborted == "disconnected" and not s.in_dialog
