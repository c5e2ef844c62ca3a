"""The floor's picture of every table, built from the table's journal records alone (pure: no I/O, no clock).

``money(record)`` is the one rule for a record's drop and win, used by the
floor and by anyone checking the floor against a table's own journal:

- **drop** is the stake of every settled bet whose stake the table knows (the
  table sees no cash buy-ins: a chip-reading or simulated table knows its
  stakes, a table that cannot see chips reports 0);
- **win** is the house's win, minus the players' ``net`` over those bets;
- **hold** is win / drop.

The tower is the table's own legend (``controller.runtime.faults.fault_pattern``
for the latched faults, ``controller.runtime.view.tower_lamps`` for the lamps)
on the faults, the pending jackpots and the round's stage, as the records say
them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from controller.floor.schema import Chain
from controller.runtime.faults import FAULTS, Fault, fault_pattern
from controller.runtime.journal import Record

SHIFT_HOURS = (6, 14, 22)  # shifts start at 06:00, 14:00 and 22:00 UTC (the floor's [floor] has no setting yet)
ROUND_EVENTS_KEPT = 60


def money(record: Record) -> tuple[int, int]:
    """(drop, win) of one record: the stakes it settled and the house's win on them."""
    if record.kind != "event":
        return 0, 0
    drop = win = 0
    for effect in record.body.get("effects", ()):
        settlement = effect.get("settlement") if isinstance(effect, Mapping) else None
        if settlement and isinstance(settlement.get("stake"), int) and isinstance(settlement.get("net"), int):
            drop += settlement["stake"]
            win -= settlement["net"]
    return drop, win


def shift_of(wall_ns: int) -> str:
    """The shift a wall time falls in: ``YYYY-MM-DD/HH`` of the shift's start (UTC)."""
    t = time.gmtime(wall_ns // 1_000_000_000)
    starts = [h for h in SHIFT_HOURS if h <= t.tm_hour]
    if starts:
        return f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}/{max(starts):02d}"
    y = time.gmtime(wall_ns // 1_000_000_000 - 86400)
    return f"{y.tm_year:04d}-{y.tm_mon:02d}-{y.tm_mday:02d}/{SHIFT_HOURS[-1]:02d}"


@dataclass
class TableState:
    table: str
    site: str
    pit: str
    game: str = ""
    variant: str = ""
    limits: dict[str, Any] = field(default_factory=dict)
    open: bool = False
    round: int = 0
    round_events: list[dict[str, Any]] = field(default_factory=list)
    betting_open: bool = True
    faults: dict[str, str] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)  # meter -> hits waiting for confirmation
    meters: dict[str, int] = field(default_factory=dict)
    link_up: dict[str, bool] = field(default_factory=dict)
    drop: int = 0
    win: int = 0
    shifts: dict[str, dict[str, int]] = field(default_factory=dict)
    rounds: int = 0
    round_times: list[int] = field(default_factory=list)  # wall_ns of the last hour's settled rounds
    records: int = 0
    duplicates: int = 0
    held_back: int = 0  # records that arrived ahead of one still missing and waited for it
    signed: bool = False  # the floor has the table's key and every record since carried the table's signature
    unsigned: int = 0  # records whose signature was missing or not the table's (each one a floor alarm)
    last_seq: int = 0
    last_hash: str = "0" * 64
    last_wall_ns: int = 0
    alarms: list[str] = field(default_factory=list)

    def apply(self, record: Record) -> None:
        """One new record of this table, in order (its chain already checked)."""
        self.records += 1
        self.last_seq, self.last_hash, self.last_wall_ns = record.seq, record.hash, record.wall_ns
        body = record.body
        kind = record.kind
        if kind == "start":
            self.open = True
            self.game, self.variant = str(body.get("game", "")), str(body.get("variant", ""))
            self.limits = dict(body.get("options", {}).get("limits", {}) or {})
            self.round = record.round
        elif kind == "round_open":
            if record.round > self.round and self.round:
                self.rounds += 1
                self.round_times.append(record.wall_ns)
                cutoff = record.wall_ns - 3600 * 1_000_000_000
                self.round_times = [t for t in self.round_times if t >= cutoff]
            self.round = record.round
            self.game, self.variant = str(body.get("game", self.game)), str(body.get("variant", self.variant))
            self.limits = dict(body.get("options", {}).get("limits", {}) or {})
            self.round_events = []
            self.betting_open = True
        elif kind == "event":
            event = body.get("event", {})
            if event.get("type") != "bet":
                self.betting_open = False
            self._event(record.seq, "event", event, body.get("effects", []))
            drop, win = money(record)
            if drop or win:
                self.drop += drop
                self.win += win
                shift = self.shifts.setdefault(shift_of(record.wall_ns), {"drop": 0, "win": 0})
                shift["drop"] += drop
                shift["win"] += win
        elif kind in ("reject", "refuse"):
            self._event(record.seq, kind, body.get("event", {}), body.get("reason", ""))
        elif kind == "fault":
            self.faults[str(body.get("name"))] = str(body.get("text", ""))
        elif kind == "clear":
            for name in body.get("names", ()):
                self.faults.pop(name, None)
        elif kind == "meter":
            name = str(body.get("meter"))
            self.meters[name] = int(body.get("value", 0))
            change = body.get("kind")
            if change in ("hit", "claim"):
                self.pending[name] = self.pending.get(name, 0) + 1
            elif change == "payout":
                self.pending[name] = max(0, self.pending.get(name, 0) - 1)
            elif change in ("link_up", "link_down"):
                self.link_up[name] = change == "link_up"
        elif kind == "command" and body.get("command") == "stop" and "refused" not in body:
            self.open = False

    def _event(self, seq: int, kind: str, event: Any, extra: Any) -> None:
        self.round_events.append({"seq": seq, "kind": kind, "event": event, "detail": extra})
        del self.round_events[:-ROUND_EVENTS_KEPT]

    def tower_pattern(self) -> str:
        faults = [Fault(name, text) for name, text in self.faults.items() if name.split(".", 1)[0] in FAULTS]
        pattern = fault_pattern(faults)
        if pattern is not None:
            return pattern
        if any(self.pending.values()):
            return "jackpot_pending"
        if not self.round_events:
            return "idle"
        return "betting_open" if self.betting_open else "dealing"

    def tower(self) -> dict[str, str]:
        from controller.runtime.view import tower_lamps

        pattern = self.tower_pattern()
        return {"pattern": pattern, **tower_lamps(pattern)}

    def hands_per_hour(self, now_ns: int) -> int:
        cutoff = now_ns - 3600 * 1_000_000_000
        return sum(1 for t in self.round_times if t >= cutoff)

    def tile(self, now_ns: int) -> dict[str, Any]:
        """What the floor view's tile and the queries show of this table."""
        return {"table": self.table, "site": self.site, "pit": self.pit, "game": self.game, "variant": self.variant,
                "limits": self.limits, "open": self.open, "round": self.round, "tower": self.tower(),
                "faults": dict(self.faults), "pending": {k: v for k, v in self.pending.items() if v},
                "meters": dict(self.meters), "link_up": dict(self.link_up), "drop": self.drop, "win": self.win,
                "hold": None if not self.drop else round(self.win / self.drop, 4), "shifts": dict(self.shifts),
                "rounds": self.rounds, "hands_per_hour": self.hands_per_hour(now_ns), "records": self.records,
                "duplicates": self.duplicates, "held_back": self.held_back, "signed": self.signed,
                "unsigned": self.unsigned, "last_seq": self.last_seq, "alarms": list(self.alarms[-10:])}

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "TableState":
        return TableState(**{k: v for k, v in data.items() if k in TableState.__dataclass_fields__})

    def chain(self) -> Chain:
        return Chain(self.last_seq, self.last_hash)
