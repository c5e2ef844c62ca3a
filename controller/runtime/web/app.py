"""The dealer terminal's and the pit view's web application (Starlette), on the daemon's own loop.

Routes:
- ``GET /`` the dealer page, ``GET /pit`` the pit view (one page, two views), ``GET /login`` the PIN pad;
- ``POST /api/login`` ``{"name", "pin"}``, ``POST /api/logout``;
- ``GET /api/state`` the snapshot, ``GET /api/events`` the snapshots as server-sent events;
- ``GET /api/words`` the pages' labels and the game's decisions in the table's language (``[table] language``);
- ``POST /api/act`` ``{"seat", "action", "multiple"?, "amount"? | "amount_text"?, "cards"?, "player"?}``
  (``amount`` in minor units; ``amount_text`` as the croupier typed it in the currency, ``"20.50"``),
  ``/api/close_bets``, ``/api/void``
  ``{"reason"}``, ``/api/confirm`` ``{"values"? | "number"?}``, ``/api/clear_fault`` ``{"name"}``.

Every change is an ordinary input of the table: a decision is an ``action`` event submitted through
``Table.submit`` (the game judges it, the journal commits it, then the pages see it), a confirmation or a
clear is a ``Table.command``. A decision is sent only if the round offers it now (``TableState.legal``);
the answer is the table's: accepted, or the reason it was refused in the croupier's words, in the table's
language (the journal keeps the English). A typed amount is read as a decimal string, never a float, and must be
a whole number of the table's chips (``chip_unit``, or its smallest chip). A POST must
carry the ``X-Tablectl`` header (a page of another site cannot send one) and the session cookie is
``SameSite=Strict`` and ``HttpOnly`` (``Secure`` over TLS).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.cards import CardError, parse_card
from controller.events import CloseBets, Void
from controller.language import ENGLISH, Language, language
from controller.money import format_amount, parse_amount
from controller.runtime.faults import role_to_clear
from controller.runtime.interfaces import Command
from controller.runtime.web.session import COOKIE, Login, Sessions
from controller.runtime.web.state import TableState, table_chip
from controller.runtime.web.words import action_words, page_words, shown

if TYPE_CHECKING:
    from controller.runtime.table import Table

STATIC = Path(__file__).resolve().parent / "static"
KEEPALIVE_S = 15.0


def _answer(ok: bool, text: str, status: int = 200, **extra: Any) -> JSONResponse:
    return JSONResponse({"ok": ok, "text": text, **extra}, status_code=status,
                        headers={"Cache-Control": "no-store"})


class TerminalApp:
    """The routes over one table's state; ``app`` is the ASGI application."""

    def __init__(self, table: "Table", state: TableState, sessions: Sessions, secure: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        self.table, self.state, self.sessions, self.secure, self.clock = table, state, sessions, secure, clock
        self.lang: Language = language(getattr(table.config, "language", "en") or "en")
        self.labels = page_words(self.lang)
        self.words = {"lang": self.lang.code, "words": self.labels, "actions": action_words(self.lang, table.config.spec)}
        routes = [
            Route("/", self.page), Route("/pit", self.page), Route("/login", self.login_page),
            Route("/api/login", self.login, methods=["POST"]), Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/state", self.snapshot), Route("/api/events", self.events), Route("/api/words", self.page_words),
            Route("/api/act", self.guarded(self.act, deal=True), methods=["POST"]),
            Route("/api/close_bets", self.guarded(self.close_bets, deal=True), methods=["POST"]),
            Route("/api/void", self.guarded(self.void, deal=True), methods=["POST"]),
            Route("/api/confirm", self.guarded(self.confirm, deal=True), methods=["POST"]),
            Route("/api/clear_fault", self.guarded(self.clear_fault, deal=False), methods=["POST"]),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ]
        self.app = Starlette(routes=routes)

    # -- sessions

    def who(self, request: Request) -> Login | None:
        return self.sessions.check(request.cookies.get(COOKIE), self.clock())

    def refused(self, reason: str, status: int = 409) -> JSONResponse:
        """A refusal in the croupier's words, in the table's language (``reason`` already in it)."""
        return _answer(False, self.lang.t("Refused: {reason}", reason=reason), status)

    def not_from_page(self) -> JSONResponse:
        return _answer(False, self.lang.t("Refused: not sent by the terminal's page"), 403)

    async def page(self, request: Request) -> Response:
        if self.who(request) is None:
            return RedirectResponse("/login" + ("?next=pit" if request.url.path == "/pit" else ""), 303)
        return FileResponse(STATIC / "terminal.html", headers={"Cache-Control": "no-store"})

    async def login_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "login.html", headers={"Cache-Control": "no-store"})

    async def page_words(self, request: Request) -> Response:
        """The labels (the login pad's too: they are no secret) and the game's decisions, in the table's language."""
        return JSONResponse(self.words, headers={"Cache-Control": "no-store"})

    async def login(self, request: Request) -> Response:
        if request.headers.get("x-tablectl") != "1":
            return self.not_from_page()
        body = await _json(request)
        name, pin = str(body.get("name", "")).strip(), str(body.get("pin", ""))
        login, why, minutes = self.sessions.login(name, pin, self.clock())
        self.table.audit(name or None, f"terminal login {'as ' + login.role if login else 'failed'}"
                         + ("" if login else f": {login_refusal(ENGLISH, why, minutes)}"), login is not None)
        if login is None:
            return _answer(False, login_refusal(self.lang, why, minutes), 401)
        role = self.labels.get(login.role, login.role)
        response = _answer(True, self.lang.t("Welcome, {name} ({role}).", name=login.name, role=role), role=login.role)
        response.set_cookie(COOKIE, self.sessions.cookie(login), max_age=self.sessions.seconds, httponly=True,
                            samesite="strict", secure=self.secure, path="/")
        return response

    async def logout(self, request: Request) -> Response:
        login = self.who(request)
        if login is not None:
            self.table.audit(login.name, "terminal logout", True)
        response = _answer(True, self.lang.t("Logged out."))
        response.delete_cookie(COOKIE, path="/")
        return response

    def guarded(self, handler: Callable[[Login, dict[str, Any]], Awaitable[Response]],
                deal: bool) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            if request.headers.get("x-tablectl") != "1":
                return self.not_from_page()
            login = self.who(request)
            if login is None:
                return _answer(False, self.lang.t("Log in first."), 401)
            if deal and not login.may_deal:
                role = self.labels.get(login.role, login.role)
                return _answer(False, self.lang.t("A {role} login reads the table; a croupier or a supervisor enters "
                                                  "decisions.", role=role), 403)
            return await handler(login, await _json(request))
        return run

    # -- reads

    async def snapshot(self, request: Request) -> Response:
        login = self.who(request)
        if login is None:
            return _answer(False, self.lang.t("Log in first."), 401)
        return JSONResponse({**self.state.snapshot(), "user": {"name": login.name, "role": login.role}},
                            headers={"Cache-Control": "no-store"})

    async def events(self, request: Request) -> Response:
        login = self.who(request)
        if login is None:
            return _answer(False, self.lang.t("Log in first."), 401)
        user = {"name": login.name, "role": login.role}

        async def stream() -> Any:
            seen = -1
            yield "retry: 1000\n\n"  # after a restart of the daemon the page is back within a second
            while not self.state.closing:
                version = await self.state.changed(seen, KEEPALIVE_S)
                if self.state.closing:
                    return
                if version != seen:
                    seen = version
                    data = json.dumps({**self.state.snapshot(), "user": user}, separators=(",", ":"))
                    yield f"id: {version}\ndata: {data}\n\n"
                else:
                    yield ": still here\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # -- changes

    def _submitted(self, source: str, event: Any) -> Response:
        answer = self.table.submit(source, event)
        if answer == "accepted":
            return _answer(True, "done", seq=self.table.journal.last_seq)
        record = self.table.journal.last("reject" if answer == "rejected" else "refuse")
        reason = record.body.get("reason") if record is not None and answer in ("rejected", "refused") else answer
        return self.refused(shown(self.lang, str(reason)))

    def typed_amount(self, text: Any) -> tuple[int | None, JSONResponse | None]:
        """An amount as the croupier typed it in the currency (``"20.50"``) as minor units, or the refusal."""
        config = self.table.config
        minor, currency = config.minor_unit, config.currency
        if not isinstance(text, str):
            return None, self.refused(self.lang.t("an amount is typed as digits in {currency}", currency=currency), 400)
        try:
            amount = parse_amount(text, minor)
        except ValueError:
            return None, self.refused(self.lang.t("“{typed}” is not an amount in {currency}: type it as {example}",
                                                  typed=text[:20], currency=currency,
                                                  example=format_amount(2050, minor)), 400)
        return amount, None

    def whole_chips(self, amount: int) -> JSONResponse | None:
        """The refusal of an amount that is not a whole number of the table's chips, or None."""
        unit = table_chip(self.table)
        if amount % unit == 0:
            return None
        config = self.table.config
        return self.refused(self.lang.t("{amount} is not a whole number of chips: every amount at this table is a "
                                        "multiple of {unit}", amount=format_amount(amount, config.minor_unit,
                                                                                   config.currency),
                                        unit=format_amount(unit, config.minor_unit, config.currency)), 400)

    async def act(self, login: Login, body: dict[str, Any]) -> Response:
        t = self.lang.t
        seat, action = body.get("seat"), body.get("action")
        multiple, amount = body.get("multiple"), body.get("amount")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(action, str):
            return self.refused(t("a decision needs its box and its action"), 400)
        if body.get("amount_text") is not None:
            if amount is not None:
                return self.refused(t("an amount is sent once: typed or in minor units"), 400)
            amount, problem = self.typed_amount(body["amount_text"])
            if problem is not None:
                return problem
        for name, value in (("multiple", multiple), ("amount", amount)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
                return self.refused(t("the multiple must be a whole number above 0") if name == "multiple"
                                    else t("the amount must be a whole number of minor units above 0"), 400)
        named = body.get("cards")
        cards = None
        if named is not None:
            if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
                return self.refused(t("the cards must be a list of cards (Kh, 2c)"), 400)
            try:
                cards = [parse_card(c) for c in named]
            except CardError as exc:
                return self.refused(shown(self.lang, str(exc)), 400)
        player = body.get("player")
        if player is not None and not isinstance(player, str):
            return self.refused(t("a player is named by a text"), 400)
        decision = self.state.legal().find(seat, action, player)
        if decision is None:
            word = self.lang.word(action.replace("_", " "))
            waiting = shown(self.lang, self.table.waiting_for())
            return self.refused(t("{action} is not a decision of box {box} now ({waiting})", action=word, box=seat,
                                  waiting=waiting) if player is None else
                                t("{action} is not a decision of box {box} ({player}) now ({waiting})", action=word,
                                  box=seat, player=player, waiting=waiting))
        if isinstance(amount, int) and amount != decision.least:  # the round's own least is one tap, as it is
            problem = self.whole_chips(amount)
            if problem is not None:
                return problem
        try:
            event = decision.event(multiple, amount, cards)
        except ValueError as exc:
            return self.refused(shown(self.lang, str(exc)))
        return self._submitted(f"terminal:{login.name}", event)

    async def close_bets(self, login: Login, body: dict[str, Any]) -> Response:
        if not self.state.legal().close_bets:
            return self.refused(self.lang.t("no more bets is not possible now ({waiting})",
                                            waiting=shown(self.lang, self.table.waiting_for())))
        return self._submitted(f"terminal:{login.name}", CloseBets())

    async def void(self, login: Login, body: dict[str, Any]) -> Response:
        reason = str(body.get("reason") or "the croupier voided it at the terminal")[:200]
        if not self.state.legal().void:
            return self.refused(self.lang.t("nothing to void now ({waiting})",
                                            waiting=shown(self.lang, self.table.waiting_for())))
        return self._submitted(f"terminal:{login.name}", Void(reason, f"terminal:{login.name}"))

    async def confirm(self, login: Login, body: dict[str, Any]) -> Response:
        args = {k: body[k] for k in ("values", "colors", "number") if body.get(k) is not None}
        answer = self.table.command(Command("confirm_result", args, f"terminal:{login.name}"))
        return _answer(True, "done") if answer == "done" else self.refused(shown(self.lang, answer))

    async def clear_fault(self, login: Login, body: dict[str, Any]) -> Response:
        name = str(body.get("name", ""))
        if not name:
            return self.refused(self.lang.t("say which fault"), 400)
        if not login.may_clear(name):
            needed = role_to_clear(name)
            return _answer(False, self.lang.t("{fault} clears only by a restart, once the cause is mended.", fault=name)
                           if needed is None else self.lang.t("Clearing {fault} needs a supervisor's login.", fault=name)
                           if needed == "supervisor" else
                           self.lang.t("Clearing {fault} needs a technician's or a supervisor's login.", fault=name),
                           403)
        answer = self.table.command(Command("clear_fault", {"name": name, "reason": "terminal"},
                                            f"terminal:{login.name}"))
        return _answer(True, "done") if answer == "done" else self.refused(shown(self.lang, answer))


def login_refusal(lang: Language, why: str, minutes: int) -> str:
    """Why a login was refused (``Sessions.login``'s reason) in ``lang``: English for the journal, the table's
    language for the page."""
    if why == "locked":
        return lang.t("Locked after too many wrong PINs: try again in {minutes} minutes.", minutes=minutes)
    if why == "now_locked":
        return lang.t("Wrong name or PIN. Too many failures: locked for 5 minutes.")
    return lang.t("Wrong name or PIN.")


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}
