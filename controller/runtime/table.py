"""The table: the open round, the meters, the faults and the journal, owned by the event loop.

``Table.submit`` is the write-ahead cycle for one input: the game validates it
(``Round.apply``), the runtime applies the meter changes, and the records are
committed in one transaction; only then are the listeners (displays, the
terminal, the floor link later) told. If the commit fails, the round and the
meters are put back as they were, the ``journal`` fault latches and the table
takes no more input. ``Table.open`` recovers: the open round is rebuilt by
replaying its journaled events through the same game code, a camera result held
for the croupier is held again, latched faults stay latched, and the meters are recomputed from their records and checked against
the stored values.
"""

from __future__ import annotations

import logging
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from controller import games
from controller.config import TableConfig
from controller.events import CardOut, Dice, Draw, Void, Wheel, describe, event_from_json, event_to_json
from controller.games.contract import (
    Accepted, Alert, DrawRequest, GameSpec, MeterChange, Outcome, Prompt, Rejected, Round, RoundConfig, Settlement,
)
from controller.cards import Card
from controller.runtime.composition import ShoeComposition
from controller.runtime.decision_keys import legal_now
from controller.runtime.draws import DrawSource, SystemDraws
from controller.runtime.faults import Fault, restart_only
from controller.runtime.interfaces import Command
from controller.runtime.journal import Journal, JournalError, Record
from controller.runtime.logs import log
from controller.runtime.meters import MeterRefused, Meters, recompute
from controller.runtime.translate import (
    Clear, Hold, Intent, Latch, Memory, Noted, Run, ShoeNote, Submit, TableView, Wiring, translate, wiring_for,
)
from controller.runtime.view import ResultsBoard, table_view
from drivers import events as ev

Listener = Callable[["Table", Sequence[Record]], None]


@dataclass
class _Batch:
    """One input's journal entries, committed together (``Table._transaction``)."""

    entries: list[tuple[str, int, Mapping[str, Any]]] = field(default_factory=list)
    answer: str = "ignored"


class Refused(Exception):
    """A command that cannot be carried out; the message says why (journaled with the command)."""


def jsonable(value: Any) -> Any:
    """Mappings, tuples and odds as plain JSON values (for journal bodies)."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if hasattr(value, "as_list"):
        return value.as_list()
    return str(value)


def effect_json(effect: Any) -> dict[str, Any]:
    if isinstance(effect, Prompt):
        out: dict[str, Any] = {"prompt": effect.text}
        if effect.seat is not None:
            out["seat"] = effect.seat
        if effect.expects:
            out["expects"] = list(effect.expects)
        return out
    if isinstance(effect, Alert):
        return {"alert": effect.kind, "text": effect.text}
    if isinstance(effect, Outcome):
        return {"outcome": jsonable(effect.data)}
    if isinstance(effect, Settlement):
        return {"settlement": effect.to_json()}
    if isinstance(effect, DrawRequest):
        return {"draw_request": {"count": effect.count, "faces": effect.faces, "purpose": effect.purpose}}
    if isinstance(effect, MeterChange):
        return {"meter_change": {k: jsonable(getattr(effect, k)) for k in
                                 ("meter", "kind", "seat", "amount", "share", "fixed", "hand")
                                 if getattr(effect, k) is not None}}
    return {"effect": str(effect)}


def config_json(config: RoundConfig) -> dict[str, Any]:
    return {"game": config.game, "variant": config.variant, "options": jsonable(config.options)}


@dataclass(frozen=True)
class PendingResult:
    """A result a reader was unsure of, held until the croupier confirms it (``confirm_result``).

    ``kind`` ``dice``: ``values`` the dice read (None for a face not read); ``wheel`` (the roulette camera):
    ``values`` is the one number read, or None.
    """

    source: str
    values: tuple[int | None, ...]
    colors: tuple[str, ...]
    reason: str
    seq: int = 0
    kind: str = "dice"

    @property
    def prompt(self) -> str:
        return f"Camera unsure ({self.reason}): croupier, confirm the {'number' if self.kind == 'wheel' else 'dice'}"


def _confirmed_dice(args: Mapping[str, Any], pending: PendingResult) -> Dice:
    """The croupier's dice for a held throw: ``values`` (1-6) and ``colors``, or the camera's guess where whole."""
    values = args.get("values", None)
    if values is None:
        if any(v is None for v in pending.values):
            raise Refused("the camera could not read every die: give the values")
        values = list(pending.values)
    if not isinstance(values, (list, tuple)) or not values or \
            not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values):
        raise Refused(f"values must be the dice read, each 1 to 6, not {values!r}")
    colors = args.get("colors", None)
    if colors is None and len(pending.colors) == len(values) and all(pending.colors):
        colors = list(pending.colors)
    if colors is not None and (not isinstance(colors, (list, tuple)) or len(colors) != len(values)
                               or not all(isinstance(c, str) and c for c in colors)):
        raise Refused(f"colors must name each die's colour, one per value, not {colors!r}")
    return Dice(tuple(values), tuple(colors) if colors is not None else None)


def _confirmed_number(args: Mapping[str, Any], pending: PendingResult) -> int:
    """The croupier's number for a held spin: ``number``, or ``values`` with one number, or the camera's guess."""
    number = args.get("number", None)
    values = args.get("values", None)
    if number is None and isinstance(values, (list, tuple)) and len(values) == 1:
        number = values[0]
    elif number is None and values is not None:
        raise Refused(f"a spin has one number, not {values!r}")
    if number is None:
        number = pending.values[0] if pending.values else None
        if number is None:
            raise Refused("the camera could not read the number: give it")
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise Refused(f"number must be the winning number (0 or more), not {number!r}")
    return number


@dataclass
class SourceHealth:
    """Counters per input source (device): what came in and what became of it."""

    events: int = 0
    accepted: int = 0
    rejected: int = 0
    refused: int = 0
    dropped: int = 0
    faults: int = 0
    last_ns: int = 0

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


class Table:
    """One table's whole state. Every method runs on the event loop thread."""

    def __init__(self, config: TableConfig, journal: Journal,
                 lookup: Callable[[str], GameSpec] | None = None, draws: DrawSource | None = None) -> None:
        self.config = config
        self.draws: DrawSource = draws or SystemDraws()  # the random-draw apparatus (controller/runtime/draws.py)
        self.draw_due: DrawRequest | None = None  # what the open round asked it for and has not had yet
        self.journal = journal
        self.lookup = lookup or (lambda game_id: games.load_game(game_id))
        self.meters = Meters(config.jackpots)
        self.faults: dict[str, Fault] = {}
        self.listeners: list[Listener] = []
        self.health: dict[str, SourceHealth] = {}
        self.commits = 0
        self.round_no = 0
        self.round_spec: GameSpec = config.spec
        self.round: Round = config.spec.new_round(config.round_config, ())
        self.round_events = 0
        self.last_prompt: Prompt | None = None
        self.last_outcome: Mapping[str, Any] | None = None
        self.last_settlements: list[dict[str, Any]] = []
        self.shoe_no = 1
        self.shoe_cards = 0
        self.cut_card = False
        self.composition = ShoeComposition.for_options(config.round_config.options)  # controller/runtime/composition.py
        self.pending_result: PendingResult | None = None  # rebuilt from the journal's `pending` records on a restart
        self.recovered: dict[str, Any] = {}
        self.wiring: Wiring = wiring_for(config)  # what the devices' events mean in this game (translate.py)
        self.memory = Memory()  # what the translator remembers between events
        self._batch: _Batch | None = None  # the write-ahead transaction of one input's intents
        self.board = ResultsBoard()  # the sign's last results, from committed outcomes
        self.gates: list[Callable[[str, Any], str | None]] = []  # (source, event) -> why it is refused (the floor link)

    # ------------------------------------------------------------------ opening and recovery

    @classmethod
    def open(cls, config: TableConfig, lookup: Callable[[str], GameSpec] | None = None,
             journal: Journal | None = None, draws: DrawSource | None = None) -> "Table":
        """Open (or create) the journal and rebuild the table from it (without ``journal``: signing and sealed,
        unchecked; the daemon checks it first, controller/runtime/integrity.py)."""
        if journal is None:
            from controller.runtime.integrity import sealed_journal
            journal = sealed_journal(config.journal_path, config.table_id)
        table = cls(config, journal, lookup, draws)
        table._recover()
        table.board.recover(config.spec, table.journal)
        if table.draw_due is not None:  # the journal ends between a round's request and its draw: draw it now
            table._draw(table.draw_due)
        return table

    def _recover(self) -> None:
        j = self.journal
        entries: list[tuple[str, int, Mapping[str, Any]]] = []
        for record in j.records(kinds=("fault", "clear")):
            if record.kind == "fault":
                self.faults[record.body["name"]] = Fault(record.body["name"], record.body["text"], record.seq)
            else:
                for name in record.body["names"]:
                    self.faults.pop(name, None)
        # meters: stored values against the records
        stored = j.stored_meters()
        values, problems = recompute(r.body for r in j.records(kinds=("meter",)))
        self.meters.load(stored)
        new_faults: list[tuple[str, str]] = []
        for name in sorted(set(stored) | set(values)):
            have, want = stored.get(name), values.get(name)
            if have is None or want is None or (have["value"], have["overflow"]) != (want["value"], want["overflow"]):
                text = (f"meter {name}: stored {have and have['value']} (overflow {have and have['overflow']}) but the "
                        f"records add up to {want and want['value']} (overflow {want and want['overflow']})")
                new_faults.append((f"meter_mismatch.{name}", text))
        for problem in problems:
            new_faults.append((f"meter_mismatch.{problem.split()[1].rstrip(':')}", problem))
        # the open round
        last_open = j.last("round_open")
        replayed = 0
        if last_open is None:
            self.round_no = 1
            entries.append(("round_open", 1, {**config_json(self.config.round_config), "carried": []}))
        else:
            self.round_no = last_open.round
            try:
                spec, rconfig = self._round_config(last_open.body)
                carried: tuple[Any, ...] = tuple(event_from_json(b) for b in last_open.body.get("carried", []))
                self.round_spec = spec
                self.round = spec.new_round(rconfig, carried)
            except (ValueError, KeyError) as exc:
                new_faults.append(("replay_mismatch", f"round {self.round_no} cannot be reopened: {exc}"))
            else:
                for record in j.records(since=last_open.seq, kinds=("event", "reject"), round_=self.round_no):
                    self.round_events += 1
                    if record.kind != "event":
                        continue
                    event = event_from_json(record.body["event"])
                    answer = self.round.apply(event)
                    replayed += 1
                    effects = [effect_json(e) for e in answer.effects] if isinstance(answer, Accepted) else None
                    if effects != record.body["effects"]:
                        new_faults.append(("replay_mismatch", f"record {record.seq} ({describe(event)}) does not replay "
                                                              f"to the journaled effects"))
                        break
                    if isinstance(answer, Accepted):
                        self._remember(answer.effects)
                self.pending_result = self._held_result(last_open.seq)
        # the shoe
        last_shoe = j.last("shoe")
        shoe_from = 0
        new_shoe = j.last_new_shoe()
        if new_shoe is not None:
            self.shoe_no, shoe_from = new_shoe.body["shoe"], new_shoe.seq
        self.shoe_cards = j.count_cards_since(shoe_from)
        self.composition.new_shoe(self.shoe_no)
        self.composition.rebuild(r.body["event"]["card"] for r in j.records(since=shoe_from, kinds=("event", "reject",
                                                                                                     "refuse"))
                                 if r.body.get("event", {}).get("type") == "card" and "misdeal" not in r.body)
        self.cut_card = bool(last_shoe and last_shoe.body.get("note") == "cut_card")
        # meters opened for the first time; mismatches stop their progressive
        meter_bodies = self.meters.open_missing()
        for name, text in new_faults:
            if name in self.faults:
                continue
            entries.append(("fault", self.round_no, {"name": name, "text": text}))
        entries.extend(("meter", self.round_no, body) for body in meter_bodies)
        self.recovered = {"round": self.round_no, "replayed": replayed, "faults": sorted(set(self.faults) | {n for n, _ in new_faults}),
                          "shoe": self.shoe_no, "shoe_cards": self.shoe_cards}
        if self.pending_result is not None:
            self.recovered["pending"] = self.pending_result.seq
        start = {"table": self.config.table_id, "pid": os.getpid(), **config_json(self.config.round_config),
                 "recovered": self.recovered}
        records = self.journal.append([("start", self.round_no, start)] + entries, self.meters.to_json())
        for record in records:
            if record.kind == "fault":
                self.faults[record.body["name"]] = Fault(record.body["name"], record.body["text"], record.seq)
        self._apply_fault_stops()

    def _held_result(self, since: int) -> PendingResult | None:
        """The result a reader left waiting for the croupier in the open round, if nothing settled or voided it.

        A held result is journaled (``pending``) before it is shown, so it survives a restart; a dice,
        wheel or void event accepted after it (a confirmation, the croupier's void) ends it.
        """
        held: PendingResult | None = None
        for record in self.journal.records(since=since, kinds=("pending", "event"), round_=self.round_no):
            body = record.body
            if record.kind == "event":
                if body["event"]["type"] in ("dice", "wheel", "void"):
                    held = None
            elif "refused" not in body:
                held = PendingResult(body["source"], tuple(body["values"]), tuple(body["colors"]), body["reason"],
                                     record.seq, body.get("kind", "dice"))
        return held

    def _round_config(self, body: Mapping[str, Any]) -> tuple[GameSpec, RoundConfig]:
        spec = self.lookup(body["game"])
        return spec, spec.resolve(body["variant"], body["options"], games.paytable_of(spec))

    def _apply_fault_stops(self) -> None:
        for name in self.meters.states:
            if any(f.stops_meter(name) for f in self.faults.values()):
                self.meters.stop(name)
            else:
                self.meters.resume(name)

    # ------------------------------------------------------------------ input

    def translation_view(self, raw: object = None) -> TableView:
        """The read-only facts the translator reads (controller/runtime/translate.py); with a button press, the
        round's legal decisions too (worked out only then: decision buttons and keys send only those)."""
        prompt_seat = self.last_prompt.seat if self.last_prompt is not None else None
        puck = getattr(self.round, "puck", None)
        decisions = legal_now(self) if isinstance(raw, (ev.ButtonPressed, ev.ButtonLongPress)) else None
        return TableView(self.wiring, self.memory, self.betting_open(), frozenset(self.faults),
                         self.pending_result is not None, bool(self.meters.pending()), prompt_seat,
                         puck if isinstance(puck, int) and not isinstance(puck, bool) else None, decisions)

    def submit(self, source: str, raw: object, confirmed_by: str | None = None) -> str:
        """One input from ``source``: ``accepted``, ``rejected``, ``refused``, ``dropped``, ``fault``, ``note``, ``ignored``.

        The translator (pure) says what ``raw`` means; ``apply`` carries its
        intents out in one write-ahead transaction. ``confirmed_by``
        (``confirm_result`` only) names who confirmed a held result; the game
        event is journaled with it, and it alone may settle while a result is
        pending.
        """
        health = self.health.setdefault(source, SourceHealth())
        health.events += 1
        health.last_ns = time.monotonic_ns()
        if confirmed_by is not None:
            return self._event(source, raw, confirmed_by)
        translation = translate(source, raw, self.translation_view(raw))
        self.memory = translation.memory
        return self.apply(source, translation.intents)

    def apply(self, source: str, intents: Sequence[Intent]) -> str:
        """Carry out one input's intents in order, committed as one journal transaction; the last answer."""
        if len(intents) <= 1:
            return self._intent(source, intents[0]) if intents else "ignored"
        with self._transaction() as batch:
            answer = "ignored"
            for intent in intents:
                one = self._intent(source, intent)
                answer = one if not isinstance(intent, (Clear, Hold, Noted)) else answer
            batch.answer = answer
        return batch.answer

    def _intent(self, source: str, intent: Intent) -> str:
        health = self.health.setdefault(source, SourceHealth())
        if isinstance(intent, Submit):
            return self._event(source, intent.event, None)
        if isinstance(intent, Latch):
            health.faults += 1
            self.latch(f"{intent.kind}.{source}", intent.text)
            return "fault"
        if isinstance(intent, Hold):
            return self.hold_result(source, intent.values, intent.colors, intent.reason, kind=intent.kind)
        if isinstance(intent, Clear):
            return self.command(Command("clear_fault", {"name": intent.name, "reason": intent.reason}, intent.by))
        if isinstance(intent, Run):
            return self.command(intent.command)
        if isinstance(intent, ShoeNote):
            return self._note(source, intent.note)
        return "ignored"

    def _event(self, source: str, event: Any, confirmed_by: str | None) -> str:
        """A game event for the round: refused while a fault stops its source, else validated and journaled."""
        health = self.health.setdefault(source, SourceHealth())
        if self.journal.broken:
            health.dropped += 1
            return "dropped"
        blocking = next((f for f in self.faults.values()  # the croupier's confirmation is not the failing reader
                         if (f.stops_all() if confirmed_by is not None else f.stops_source(source))), None)
        if blocking is not None:
            health.refused += 1
            body = {"source": source, "event": event_to_json(event), "reason": f"fault {blocking.name}: {blocking.text}"}
            self._commit([("refuse", self.round_no, body)])
            return "refused"
        gated = next((why for gate in self.gates if (why := gate(source, event))), None)
        if gated is not None:
            health.refused += 1
            self._commit([("refuse", self.round_no, {"source": source, "event": event_to_json(event), "reason": gated})])
            return "refused"
        if self.pending_result is not None and isinstance(event, (Dice, Wheel)) and confirmed_by is None:
            health.refused += 1
            pending = self.pending_result
            body = {"source": source, "event": event_to_json(event),
                    "reason": f"a result from the {pending.source} waits for the croupier's confirmation "
                              f"(confirm_result, or void the {'spin' if isinstance(event, Wheel) else 'throw'})"}
            self._commit([("refuse", self.round_no, body)])
            return "refused"
        if isinstance(event, Draw) and source != self.draws.name:
            health.refused += 1
            body = {"source": source, "event": event_to_json(event),
                    "reason": "a draw comes only from the table's random-draw apparatus, never from a device or "
                              "the console"}
            self._commit([("refuse", self.round_no, body)])
            return "refused"
        card = event.card if isinstance(event, CardOut) else None
        if isinstance(card, Card):  # the shoe's composition: a card this shoe cannot hold is a misdeal
            misdeal = self.composition.refuse(card)
            if misdeal is not None:
                health.refused += 1
                log(logging.WARNING, "misdeal", source=source, card=str(card), reason=misdeal)
                self._commit([("refuse", self.round_no, {"source": source, "event": event_to_json(event),
                                                         "reason": misdeal, "misdeal": True})])
                return "refused"
        saved_meters = self.meters.snapshot()
        candidate = self.round.copy()  # apply-and-swap: the table's round changes once the event is journaled
        answer = candidate.apply(event)
        shoe_count = self.composition.take(card) if isinstance(card, Card) else None
        if isinstance(answer, Rejected):
            health.rejected += 1
            body = {"source": source, "event": event_to_json(event), "reason": answer.reason}
            if shoe_count is not None:
                body["shoe"] = shoe_count
            log(logging.INFO, "rejected", source=source, event=describe(event), reason=answer.reason)
            self._commit([("reject", self.round_no, body)], rejected=True)
            return "rejected"
        entries: list[tuple[str, int, Mapping[str, Any]]] = []
        try:
            meter_bodies = [b for e in answer.effects if isinstance(e, MeterChange)
                            for b in self.meters.apply(e, self.round_no)]
        except MeterRefused as exc:
            self.meters.restore(saved_meters)
            health.refused += 1
            body = {"source": source, "event": event_to_json(event), "reason": str(exc)}
            self._commit([("refuse", self.round_no, body)])
            return "refused"
        effects = [effect_json(e) for e in answer.effects]
        event_body = {"source": source, "event": event_to_json(event), "effects": effects,
                      "complete": candidate.complete}
        if shoe_count is not None:
            event_body["shoe"] = shoe_count  # shoe number, cards out, copies of this card out
        if confirmed_by is not None:
            event_body["confirmed_by"] = confirmed_by
        entries.append(("event", self.round_no, event_body))
        entries.extend(("meter", self.round_no, b) for b in meter_bodies)
        next_round: Round | None = None
        if candidate.complete:
            carried = candidate.carried()
            next_round = self.config.spec.new_round(self.config.round_config, carried)
            entries.append(("round_open", self.round_no + 1, {**config_json(self.config.round_config),
                                                               "carried": [event_to_json(b) for b in carried]}))
        try:
            records = self._append(entries)
        except JournalError as exc:
            self.meters.restore(saved_meters)
            health.dropped += 1
            self._journal_fault(str(exc))
            return "dropped"
        self.round = candidate
        health.accepted += 1
        self.round_events += 1
        if isinstance(event, (Dice, Wheel, Void)) or next_round is not None:
            self.pending_result = None  # settled, confirmed or voided: nothing waits any more
        if isinstance(event, (Draw, Void)):
            self.draw_due = None
        self._remember(answer.effects)
        if next_round is not None:
            self.round_no += 1
            self.round, self.round_spec, self.round_events = next_round, self.config.spec, 0
            self.last_prompt = None
            self.draw_due = None
        self._done(records)
        if self.draw_due is not None and any(isinstance(e, DrawRequest) for e in answer.effects):
            self._draw(self.draw_due)  # the round waits for the apparatus: it draws now, journaled as its own event
        return "accepted"

    def _draw(self, request: DrawRequest) -> str:
        """The random-draw apparatus answers the round's request: the numbers go in as a ``Draw`` event from the
        draw source, journaled (with what they settle) before the round, a display or a device sees them."""
        numbers = self.draws.draw(request.count, request.faces)
        log(logging.INFO, "draw", source=self.draws.name, numbers=" ".join(map(str, numbers)), purpose=request.purpose)
        return self._event(self.draws.name, Draw(numbers), None)

    def _remember(self, effects: Sequence[Any]) -> None:
        for effect in effects:
            if isinstance(effect, DrawRequest):
                self.draw_due = effect
            elif isinstance(effect, Prompt):
                self.last_prompt = effect
            elif isinstance(effect, Outcome):
                self.last_outcome = jsonable(effect.data)
                self.last_settlements = []
            elif isinstance(effect, Settlement):
                self.last_settlements.append(effect.to_json())

    def _commit(self, entries: list[tuple[str, int, Mapping[str, Any]]], rejected: bool = False) -> list[Record]:
        try:
            records = self._append(entries)
        except JournalError as exc:
            self._journal_fault(str(exc))
            return []
        if rejected:
            self.round_events += 1
        self._done(records)
        return records

    def _append(self, entries: list[tuple[str, int, Mapping[str, Any]]]) -> list[Record]:
        """Journal ``entries`` now, or, inside ``_transaction``, with the rest of the input's intents.

        Inside a transaction the records are numbered as they will be committed (the journal numbers a batch
        consecutively) so that a fault or a held result knows its record; their hashes come with the commit.
        """
        batch = self._batch
        if batch is None:
            return self.journal.append(entries, self.meters.to_json())
        if self.journal.broken:
            raise JournalError(self.journal.broken)
        first = self.journal.last_seq + len(batch.entries) + 1
        batch.entries.extend(entries)
        return [Record(first + i, 0, 0, kind, round_, body, "", "") for i, (kind, round_, body) in enumerate(entries)]

    @contextmanager
    def _transaction(self) -> Iterator["_Batch"]:
        """Apply several intents as one input: one journal commit, then the listeners once; all or nothing."""
        if self._batch is not None:
            yield self._batch
            return
        saved = self._state()
        batch = self._batch = _Batch()
        try:
            yield batch
        except BaseException:
            self._batch = None
            self._put_back(saved)
            raise
        self._batch = None
        if not batch.entries:
            return
        try:
            records = self.journal.append(batch.entries, self.meters.to_json())
        except JournalError as exc:
            self._put_back(saved)
            self._journal_fault(str(exc))
            batch.answer = "dropped"
            return
        self._done(records)

    def _state(self) -> dict[str, Any]:
        """Everything an input may change, to put back when its transaction cannot commit."""
        return {"round": self.round, "meters": self.meters.snapshot(),  # a round is swapped, never changed
                "faults": dict(self.faults), "pending_result": self.pending_result, "round_no": self.round_no,
                "round_spec": self.round_spec, "round_events": self.round_events, "last_prompt": self.last_prompt,
                "last_outcome": self.last_outcome, "last_settlements": list(self.last_settlements),
                "shoe_no": self.shoe_no, "shoe_cards": self.shoe_cards, "cut_card": self.cut_card}

    def _put_back(self, saved: dict[str, Any]) -> None:
        saved = dict(saved)
        self.round = saved.pop("round")
        self.meters.restore(saved.pop("meters"))
        for name, value in saved.items():
            setattr(self, name, value)
        self._apply_fault_stops()

    def _done(self, records: Sequence[Record]) -> None:
        if self._batch is not None:
            return  # told once, with the committed records, when the transaction commits
        self.commits += 1
        self.board.add(self.config.spec, records)
        for listener in self.listeners:
            listener(self, records)

    def _journal_fault(self, text: str) -> None:
        """The journal cannot commit: latch in memory (it cannot be journaled) and stop all input."""
        if "journal" not in self.faults:
            log(logging.CRITICAL, "fault latched", fault="journal", text=text, journaled=False)
            self.faults["journal"] = Fault("journal", text, 0)
            for listener in self.listeners:
                listener(self, [])

    def _note(self, source: str, note: str) -> str:
        if note == "cut_card":
            self.cut_card = True
        self._commit([("shoe", self.round_no, {"source": source, "note": note})])
        return "note"

    # ------------------------------------------------------------------ faults and commands

    def audit(self, who: str | None, what: str, ok: bool) -> None:
        """Journal a console login, failure or privileged command (who, what, whether it was allowed)."""
        self._commit([("console", self.round_no, {"who": who, "what": what, "ok": ok})])

    def latch(self, name: str, text: str) -> None:
        """Latch a named fault (journaled); the tower shows it and the affected input stops."""
        if name in self.faults:
            return
        records = self._commit([("fault", self.round_no, {"name": name, "text": text})])
        if records:
            log(logging.ERROR, "fault latched", fault=name, text=text, seq=records[0].seq)
            self.faults[name] = Fault(name, text, records[0].seq)
            self._apply_fault_stops()
            if self._batch is None:
                for listener in self.listeners:
                    listener(self, [])

    def hold_result(self, source: str, values: Sequence[int | None], colors: Sequence[str], reason: str,
                    kind: str = "dice") -> str:
        """A reader was unsure: hold its best guess for the croupier (journaled ``pending``); ``held``/``refused``.

        ``kind`` is ``dice`` or ``wheel`` (the roulette camera: ``values`` is the number read, or None); a
        wheel's ``pending`` record says ``"kind": "wheel"``.
        """
        if self.journal.broken:
            return "dropped"
        guess = {"values": list(values), "colors": list(colors), "reason": reason}
        if kind != "dice":
            guess["kind"] = kind
        if self.pending_result is not None:
            body = {"source": source, **guess,
                    "refused": f"a result from the {self.pending_result.source} already waits for confirmation"}
            self.health.setdefault(source, SourceHealth()).refused += 1
            self._commit([("pending", self.round_no, body)])
            return "refused"
        pending = PendingResult(source, tuple(values), tuple(colors), reason, kind=kind)
        records = self._commit([("pending", self.round_no, {"source": source, **guess, "prompt": pending.prompt})])
        if not records:
            return "dropped"
        self.pending_result = PendingResult(source, tuple(values), tuple(colors), reason, records[0].seq, kind)
        return "held"

    def _confirm_result(self, cmd: Command) -> str:
        """``confirm_result``: the croupier's values (and colours) for the held result, submitted as the Dice event.

        A held spin (kind ``wheel``) takes ``number`` (or ``values`` with the one number) and is submitted as
        the ``Wheel`` event; the game refuses a number its wheel does not have.
        """
        base = {"command": cmd.name, "args": jsonable(cmd.args), "by": cmd.by}
        pending = self.pending_result
        try:
            if pending is None:
                raise Refused("no result waits for confirmation")
            event = Wheel(_confirmed_number(cmd.args, pending)) if pending.kind == "wheel" else \
                _confirmed_dice(cmd.args, pending)
        except Refused as exc:
            self._commit([("command", self.round_no, {**base, "refused": str(exc)})])
            return str(exc)
        assert pending is not None
        if not self._commit([("command", self.round_no, base)]):
            return "dropped"
        self.pending_result = None
        answer = self.submit(pending.source, event, confirmed_by=cmd.by)
        if answer != "accepted":
            self.pending_result = pending  # the game refused the values: the result still waits
            what = "number was" if pending.kind == "wheel" else "dice were"
            return f"not settled: the {what} {answer} (see the journal); the result still waits"
        return "done"

    def command(self, cmd: Command) -> str:
        """A console or button command, journaled with what it did; ``done`` or the reason it was refused."""
        if self.journal.broken:
            return "dropped"
        if cmd.name == "confirm_result":
            return self._confirm_result(cmd)
        base = {"command": cmd.name, "args": jsonable(cmd.args), "by": cmd.by}
        saved = self.meters.snapshot()
        entries: list[tuple[str, int, Mapping[str, Any]]] = []
        cleared: list[str] = []
        try:
            if cmd.name == "clear_fault":
                wanted = cmd.args.get("name")
                names = [wanted] if wanted else [n for n in self.faults if not restart_only(n)]
                for name in names:
                    if name not in self.faults:
                        raise Refused(f"no fault {name!r} is latched")
                    if restart_only(name):  # the fault table's clear_role: no command clears it
                        raise Refused(f"the {name} fault clears only by a restart once the cause is mended")
                if not names:
                    raise Refused("no fault is latched")
                cleared = names
                entries.append(("clear", self.round_no, {"names": names, "by": cmd.by,
                                                         "reason": str(cmd.args.get("reason", ""))}))
                if "replay_mismatch" in names:  # the round that did not replay is void: play goes on in a new one
                    entries.append(("round_open", self.round_no + 1, {
                        **config_json(self.config.round_config), "carried": [],
                        "voided": {"round": self.round_no, "by": cmd.by,
                                   "reason": "replay_mismatch cleared: the round that did not replay is void"}}))
            elif cmd.name == "confirm_jackpot":
                meter = cmd.args.get("meter") or next((n for n, _ in self.meters.pending()), None)
                if meter is None:
                    raise Refused("no jackpot hit is waiting")
                entries.extend(("meter", self.round_no, b) for b in self.meters.confirm(meter, cmd.by))
            elif cmd.name == "day_end":
                drop, into = str(cmd.args.get("meter", "")), str(cmd.args.get("into", ""))
                if self.round_events:
                    raise Refused("close the day between rounds, not during one")
                entries.extend(("meter", self.round_no, b) for b in self.meters.day_end(drop, into, cmd.by))
            elif cmd.name == "correct_meter":
                value: Any = cmd.args.get("value")  # the meters refuse what is not a whole amount
                entries.extend(("meter", self.round_no, b) for b in self.meters.correct(
                    str(cmd.args.get("meter")), value, str(cmd.args.get("reason", "")), cmd.by))
            elif cmd.name == "new_shoe":
                if self.round_events:
                    raise Refused("change the shoe between rounds, not during one")
                blocked = next((f for f in self.faults.values() if f.stops_next_shoe()), None)
                if blocked is not None:
                    raise Refused(f"no new shoe while {blocked.name} is latched: {blocked.text}")
                entries.append(("shoe", self.round_no, {"note": "new_shoe", "shoe": self.shoe_no + 1, "by": cmd.by}))
            elif cmd.name == "stop":
                pass  # the daemon stops after journaling it
            else:
                raise Refused(f"unknown command {cmd.name!r}")
        except (Refused, MeterRefused) as exc:
            self.meters.restore(saved)
            self._commit([("command", self.round_no, {**base, "refused": str(exc)})])
            return str(exc)
        try:
            records = self._append([("command", self.round_no, base)] + entries)
        except JournalError as exc:
            self.meters.restore(saved)
            self._journal_fault(str(exc))
            return "dropped"
        for name in cleared:
            self.faults.pop(name, None)
            log(logging.WARNING, "fault cleared", fault=name, by=cmd.by)
        if "replay_mismatch" in cleared:
            self.round_no += 1
            self.round = self.config.spec.new_round(self.config.round_config, ())
            self.round_spec, self.round_events, self.last_prompt, self.pending_result = self.config.spec, 0, None, None
            self.draw_due = None
        if cmd.name == "new_shoe":
            self.shoe_no, self.shoe_cards, self.cut_card = self.shoe_no + 1, 0, False
            self.composition.new_shoe(self.shoe_no)
        self._apply_fault_stops()
        self._done(records)
        if cleared and self.draw_due is not None:  # a draw refused while a fault stopped the progressive
            self._draw(self.draw_due)
        return "done"

    def record_meters(self, change: Callable[[Meters], list[dict[str, Any]]]) -> str:
        """A meter change from outside the round (a linked progressive's answer, the link lost or back).

        Journaled like a command's (``meter`` records, with the stored meters) before anything shows it;
        ``done``, ``nothing`` or why it was refused.
        """
        if self.journal.broken:
            return "dropped"
        saved = self.meters.snapshot()
        try:
            bodies = change(self.meters)
        except MeterRefused as exc:
            self.meters.restore(saved)
            return str(exc)
        if not bodies:
            return "nothing"
        try:
            records = self.journal.append([("meter", self.round_no, b) for b in bodies], self.meters.to_json())
        except JournalError as exc:
            self.meters.restore(saved)
            self._journal_fault(str(exc))
            return "dropped"
        self._done(records)
        return "done"

    # ------------------------------------------------------------------ what the outputs show

    def betting_open(self) -> bool:
        return self.round_events == 0 or self.round.betting_open

    def view(self) -> dict[str, Any]:
        """The desired state of every output, from committed state only (controller/runtime/view.py)."""
        return table_view(self, self.board)

    def summary(self) -> dict[str, Any]:
        """A health summary a watchdog or the console can read."""
        return {
            "table": self.config.table_id, "round": self.round_no, "seq": self.journal.last_seq,
            "journal_ok": self.journal.broken is None, "faults": sorted(self.faults),
            "accepting": not any(f.stops_all() for f in self.faults.values()),
            "sources": {k: v.to_json() for k, v in self.health.items()},
            "meters": self.meters.to_json(),
        }

    def waiting_for(self) -> str:
        return self.round.waiting_for()

