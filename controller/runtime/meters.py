"""Jackpot (progressive) meters: exact integer state and the records that move it.

The runtime owns the meters; a game only emits ``MeterChange`` effects. Every
change here returns the journal bodies (kind ``meter``) that describe it, and
the runtime writes them in the same transaction as the event that caused them.
Rules (docs/runtime.md, "Meters"):

- a meter opens at its base (reset) value;
- a ``contribution`` adds the game's amount, or the configured contribution per
  progressive bet; above the cap the rest goes to the overflow meter (if there
  is one) or is not collected (recorded as ``excess``);
- a ``hit`` freezes its amount at once from what the meter then holds
  (``share`` of the meter, rounded down, or a ``fixed`` prize but never more
  than the meter holds: ``contract.apply_meter``) and takes it off the meter,
  so a second hit in the same round is paid from what is left; the display
  shows ``PEnding`` until a supervisor confirms. A fixed prize larger than the
  meter records what it could not pay as ``short``;
- a confirmation records the ``payout`` of the oldest pending hit; a meter
  below its base is then reset to base (``reset``, the house's seed) and topped
  up from the overflow (``overflow``) up to the cap;
- at the end of the day a meter that collects the day's drop (the poker
  room's bad beat jackpot) is emptied into its jackpot: ``day_end`` on the
  drop meter and ``day_in`` on the jackpot, the same amount, in one
  transaction (seed 004: the day's drop is added to the jackpot at the end
  of the day and the next day's collection starts from there);
- the meter never goes down otherwise, except by a supervisor ``correction``
  with a reason.

A linked meter (``link`` in its configuration) belongs to the floor's link
controller (docs/floor.md): here it counts what this table contributed; a hit
is a ``claim`` (amount 0, the terms of the paytable line) sent to the link,
and its amount is the link's ``answer``, journaled when it arrives; the
supervisor confirms it only after that. While the table is cut off from the
link (``link_down``, ``link_up`` records) the display says ``no LInK`` and
the progressive bet is refused; the base game goes on.

Invariant checked by ``recompute``: value = sum(open) + contributions - hits
+ resets + overflow moves + day-end moves in - out + corrections, for every
record in order. A
correction sets the meter to its recorded value; in the sums it counts as the
change against what the records held (its ``amount`` is the change against
what the meter showed, which differ only after a mismatch).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from controller.config import JackpotConfig
from controller.games.contract import MeterChange, apply_meter


class MeterRefused(Exception):
    """The change cannot be taken (unknown meter, progressive stopped by a fault); the message says why."""


@dataclass
class MeterState:
    name: str
    value: int
    overflow: int = 0
    pending: list[dict[str, Any]] = field(default_factory=list)
    stopped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "overflow": self.overflow, "pending": self.pending, "stopped": self.stopped}

    @staticmethod
    def from_json(name: str, data: Mapping[str, Any]) -> "MeterState":
        return MeterState(name, int(data["value"]), int(data.get("overflow", 0)),
                          [dict(p) for p in data.get("pending", [])], bool(data.get("stopped", False)))


class Meters:
    """Every configured meter of the table."""

    def __init__(self, configs: Iterable[JackpotConfig]) -> None:
        self.configs = {c.name: c for c in configs}
        self.states: dict[str, MeterState] = {}
        self._next_hit = 1
        self.link_up: dict[str, bool] = {c.name: False for c in self.configs.values() if c.link}
        self.link_value: dict[str, int | None] = {c.name: None for c in self.configs.values() if c.link}

    def linked(self, name: str) -> str | None:
        config = self.configs.get(name)
        return config.link if config else None

    # -- state

    def snapshot(self) -> tuple[dict[str, MeterState], int]:
        return copy.deepcopy(self.states), self._next_hit

    def restore(self, saved: tuple[dict[str, MeterState], int]) -> None:
        self.states, self._next_hit = saved

    def to_json(self) -> dict[str, dict[str, Any]]:
        return {name: s.to_json() for name, s in self.states.items()}

    def load(self, stored: Mapping[str, Mapping[str, Any]]) -> None:
        self.states = {name: MeterState.from_json(name, data) for name, data in stored.items()}
        ids = [p["hit"] for s in self.states.values() for p in s.pending]
        self._next_hit = max(ids, default=0) + 1

    def open_missing(self) -> list[dict[str, Any]]:
        """Open every configured meter that the journal does not have yet, at its base."""
        out = []
        for name, config in self.configs.items():
            if name not in self.states:
                base = 0 if config.link else config.base  # a linked meter counts this table's contributions
                self.states[name] = MeterState(name, base)
                out.append(self._body(name, "open", base))
        return out

    def pending(self) -> list[tuple[str, dict[str, Any]]]:
        return [(name, p) for name, s in self.states.items() for p in s.pending]

    def display(self) -> dict[str, str | int]:
        """What each meter's display shows: the amount, or ``PEnding`` while a hit waits."""
        out: dict[str, str | int] = {}
        for name, s in self.states.items():
            if s.pending:
                out[name] = "PEnding"
            elif self.linked(name):
                value = self.link_value.get(name)
                out[name] = value if self.link_up.get(name) and value is not None else "no LInK"
            else:
                out[name] = s.value
        return out

    # -- changes

    def _body(self, name: str, kind: str, amount: int, **extra: Any) -> dict[str, Any]:
        s = self.states[name]
        body = {"meter": name, "kind": kind, "amount": amount, "value": s.value, "overflow": s.overflow}
        body.update({k: v for k, v in extra.items() if v is not None})
        return body

    def _state(self, name: str) -> MeterState:
        state = self.states.get(name)
        if state is None:
            raise MeterRefused(f"no jackpot meter {name!r} at this table (meters: {', '.join(self.states) or 'none'})")
        return state

    def apply(self, change: MeterChange, round_: int) -> list[dict[str, Any]]:
        """A game's ``MeterChange``; raises ``MeterRefused`` when the progressive cannot take it."""
        state = self._state(change.meter)
        config = self.configs.get(change.meter)
        if self.linked(change.meter):
            return self._linked(state, change, round_)
        if change.kind == "contribution":
            if state.stopped:
                raise MeterRefused(f"the {change.meter} progressive is stopped by a fault; no progressive bets")
            amount = change.amount if change.amount is not None else (config.contribution if config else 0)
            if amount < 0:
                raise MeterRefused("a contribution cannot be negative")
            cap = config.cap if config else None
            to_meter = amount if cap is None else max(0, min(amount, cap - state.value))
            rest = amount - to_meter
            to_overflow = rest if (config and config.overflow) else 0
            state.value += to_meter
            state.overflow += to_overflow
            return [self._body(change.meter, "contribution", to_meter, seat=change.seat, to_overflow=to_overflow or None,
                               excess=(rest - to_overflow) or None)]
        if change.kind == "hit":
            if change.fixed is None and change.share is None:
                raise MeterRefused("a jackpot hit needs a share of the meter or a fixed prize")
            if change.share is not None:
                num, den = change.share
                if not (0 < num <= den):
                    raise MeterRefused(f"a jackpot share must be between 0 and 1, not {num}/{den}")
            elif change.fixed is not None and change.fixed <= 0:
                raise MeterRefused(f"a fixed jackpot prize must be more than 0, not {change.fixed}")
            amount, state.value = apply_meter(state.value, change)  # the game contract's one rule for a hit
            hit = {"hit": self._next_hit, "amount": amount, "seat": change.seat, "hand": change.hand, "round": round_}
            self._next_hit += 1
            state.pending.append(hit)
            terms: dict[str, Any] = {"share": list(change.share)} if change.share is not None else \
                {"fixed": change.fixed, "short": (int(change.fixed or 0) - amount) or None}
            return [self._body(change.meter, "hit", amount, hit=hit["hit"], seat=change.seat, hand=change.hand,
                               round=round_, **terms)]
        raise MeterRefused(f"unknown meter change {change.kind!r}")

    def _linked(self, state: MeterState, change: MeterChange, round_: int) -> list[dict[str, Any]]:
        """A linked meter: a contribution is counted here and sent; a hit is a claim the link answers."""
        link = self.linked(change.meter)
        if change.kind == "contribution":
            if state.stopped:
                raise MeterRefused(f"the {change.meter} progressive is stopped by a fault; no progressive bets")
            config = self.configs[change.meter]
            amount = change.amount if change.amount is not None else config.contribution
            if amount < 0:
                raise MeterRefused("a contribution cannot be negative")
            state.value += amount
            return [self._body(change.meter, "contribution", amount, seat=change.seat, link=link)]
        if change.kind == "hit":
            if change.share is not None:
                num, den = change.share
                if not (0 < num <= den):
                    raise MeterRefused(f"a jackpot share must be between 0 and 1, not {num}/{den}")
                terms: dict[str, Any] = {"share": [num, den]}
            elif change.fixed is not None and change.fixed > 0:
                terms = {"fixed": change.fixed}
            else:
                raise MeterRefused("a jackpot hit needs a share of the meter or a fixed prize more than 0")
            hit = {"hit": self._next_hit, "amount": None, "seat": change.seat, "hand": change.hand, "round": round_,
                   "link": link}
            self._next_hit += 1
            state.pending.append(hit)
            return [self._body(change.meter, "claim", 0, hit=hit["hit"], seat=change.seat, hand=change.hand,
                               round=round_, link=link, terms=terms)]
        raise MeterRefused(f"unknown meter change {change.kind!r}")

    def answer(self, name: str, round_: int, hit_id: int, amount: int, link_seq: int, order: int) -> list[dict[str, Any]]:
        """The link's answer to a claim: the amount it froze for this hit (nothing if already answered)."""
        state = self._state(name)
        for hit in state.pending:
            if hit["hit"] == hit_id and hit["round"] == round_ and hit.get("amount") is None:
                hit["amount"] = amount
                return [self._body(name, "answer", amount, hit=hit_id, round=round_, link_seq=link_seq, order=order,
                                   link=self.linked(name))]
        return []

    def link_state(self, name: str, up: bool, why: str) -> list[dict[str, Any]]:
        """The table lost or regained its link: journaled, and the progressive bet follows it."""
        self._state(name)
        if self.link_up.get(name) == up:
            return []
        self.link_up[name] = up
        return [self._body(name, "link_up" if up else "link_down", 0, link=self.linked(name), reason=why)]

    def confirm(self, name: str, by: str) -> list[dict[str, Any]]:
        """The supervisor confirms the oldest pending hit: payout recorded, meter reset to base."""
        state = self._state(name)
        if not state.pending:
            raise MeterRefused(f"no jackpot hit is waiting on {name}")
        if self.linked(name):
            if state.pending[0].get("amount") is None:
                raise MeterRefused(f"the {name} hit waits for the link's answer: its amount is not known yet")
            hit = state.pending.pop(0)
            return [self._body(name, "payout", hit["amount"], hit=hit["hit"], seat=hit.get("seat"), by=by,
                               link=self.linked(name))]  # the link reset its meter when it froze the hit
        hit = state.pending.pop(0)
        out = [self._body(name, "payout", hit["amount"], hit=hit["hit"], seat=hit.get("seat"), by=by)]
        config = self.configs.get(name)
        base = config.base if config else 0
        if state.value < base:
            seed = base - state.value
            state.value = base
            out.append(self._body(name, "reset", seed, hit=hit["hit"]))
        if config and config.cap is not None and state.overflow and state.value < config.cap:
            moved = min(state.overflow, config.cap - state.value)
            state.value += moved
            state.overflow -= moved
            out.append(self._body(name, "overflow", moved))
        return out

    def day_end(self, drop: str, into: str, by: str) -> list[dict[str, Any]]:
        """The day's drop on ``drop`` is added to the jackpot ``into``; the drop meter starts the next day at 0."""
        source, target = self._state(drop), self._state(into)
        if drop == into:
            raise MeterRefused("the day's drop goes into another meter, not into itself")
        if source.pending:
            raise MeterRefused(f"a hit on {drop} waits for a supervisor")
        moved = source.value
        source.value = 0
        target.value += moved
        return [self._body(drop, "day_end", moved, into=into, by=by),
                self._body(into, "day_in", moved, source=drop, by=by)]

    def correct(self, name: str, value: int, reason: str, by: str) -> list[dict[str, Any]]:
        """A supervisor sets the meter to ``value``, with a reason; clears the stop a mismatch caused."""
        state = self._state(name)
        if not reason.strip():
            raise MeterRefused("a meter correction needs a reason")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise MeterRefused(f"a meter value is a whole number of minor units, not {value!r}")
        delta = value - state.value
        state.value = value
        return [self._body(name, "correction", delta, reason=reason, by=by)]

    def stop(self, name: str) -> None:
        if name in self.states:
            self.states[name].stopped = True

    def resume(self, name: str) -> None:
        if name in self.states:
            self.states[name].stopped = False


def recompute(bodies: Iterable[Mapping[str, Any]]) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Rebuild every meter from its ``meter`` records alone; problems where a record's value disagrees."""
    values: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    for body in bodies:
        name, kind, amount = body["meter"], body["kind"], int(body["amount"])
        m = values.setdefault(name, {"value": 0, "overflow": 0, "contributions": 0, "hits": 0, "payouts": 0,
                                     "resets": 0, "overflow_moved": 0, "corrections": 0, "opened": 0})
        if kind == "open":
            m["value"] += amount
            m["opened"] += amount
        elif kind == "contribution":
            m["value"] += amount
            m["contributions"] += amount
            m["overflow"] += int(body.get("to_overflow", 0))
        elif kind == "hit":
            m["value"] -= amount
            m["hits"] += amount
        elif kind == "payout":
            m["payouts"] += amount
        elif kind == "reset":
            m["value"] += amount
            m["resets"] += amount
        elif kind == "day_end":
            m["value"] -= amount
            m["day_out"] = m.get("day_out", 0) + amount
        elif kind == "day_in":
            m["value"] += amount
            m["day_in"] = m.get("day_in", 0) + amount
        elif kind == "overflow":
            m["value"] += amount
            m["overflow"] -= amount
            m["overflow_moved"] += amount
        elif kind == "correction":  # sets the meter: its change is counted against the records, not the display
            m["corrections"] += int(body["value"]) - m["value"]
            m["value"], m["overflow"] = int(body["value"]), int(body["overflow"])
        if (m["value"], m["overflow"]) != (body["value"], body["overflow"]):
            problems.append(f"meter {name}: a {kind} record says {body['value']}/{body['overflow']} "
                            f"but the records add up to {m['value']}/{m['overflow']}")
            m["value"], m["overflow"] = int(body["value"]), int(body["overflow"])
    return values, problems
