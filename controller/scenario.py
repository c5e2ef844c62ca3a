"""Scenario files: load, validate, replay (DESIGN.md section 6).

A scenario names a game, variant and options and lists rounds of events.
``load_scenario`` refuses a malformed file with a ``ScenarioError`` that names
the place (``rounds[2].events[5].card``) and the problem; ``settle`` replays
the rounds through the game and returns the JSON document ``tablectl settle``
prints. Stakes that a round carries (stand-offs) are placed in the next round;
a round may also list them itself (``"carried": [bet, ...]``, as ``journal
export`` writes a round that opened with stakes on the layout).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from controller import games
from controller.events import Bet, Event, EventError, event_from_json, event_to_json
from controller.games.contract import Accepted, Alert, DrawRequest, GameSpec, MeterChange, Round, RoundConfig, apply_meter


class ScenarioError(ValueError):
    """A scenario that cannot be used: ``place`` says where, the message what."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__(f"{place}: {problem}" if place else problem)
        self.place = place
        self.problem = problem


@dataclass(frozen=True)
class Scenario:
    spec: GameSpec
    config: RoundConfig
    rounds: tuple[tuple[Event, ...], ...]
    meters: Mapping[str, int] | None = None  # starting progressive meters, where the scenario gives them
    carried: Mapping[int, tuple[Bet, ...]] | None = None  # round index -> stakes on the layout when it opens


_TOP_KEYS = {"game", "variant", "options", "rounds", "comment", "description", "title", "meters"}


def parse_json(text: str) -> Any:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"line {exc.lineno} column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise ScenarioError("the document", "invalid JSON: arrays or objects nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits, among others
        text = str(exc)
        if "integer string conversion" in text:
            text = "an integer of more than 4,300 digits (no amount or count is that long)"
        raise ScenarioError("the document", f"invalid JSON: {text.splitlines()[0][:120]}") from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ScenarioError("the document", f"text that is not Unicode (a lone surrogate such as "
                                            f"{exc.object[exc.start:exc.end]!r})") from None
    except (RecursionError, ValueError) as exc:
        raise ScenarioError("the document", f"not a document this tool can read: {exc!r}"[:160]) from None
    return data


def load_scenario(data: Any) -> Scenario:
    """Validate a parsed scenario document and build its game configuration and event records."""
    if not isinstance(data, Mapping):
        raise ScenarioError("", "a scenario must be a JSON object with 'game', 'variant' and 'rounds'")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ScenarioError(sorted(unknown)[0], f"unknown key (allowed: {', '.join(sorted(_TOP_KEYS))})")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ScenarioError("game", "missing or not text; name a game id as 'tablectl games' lists")
    try:
        spec = games.load_game(game_id)
    except ValueError as exc:
        raise ScenarioError("game", str(exc)) from None
    variant = data.get("variant", spec.variants[0].id)
    if not isinstance(variant, str):
        raise ScenarioError("variant", f"must be text, not {variant!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ScenarioError("options", "must be a JSON object of option names and values")
    try:
        config = spec.resolve(variant, options, games.paytable_of(spec))
    except ValueError as exc:
        place = "variant" if "variant" in str(exc).split(" ")[:2] else "options"
        raise ScenarioError(place, str(exc)) from None
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list):
        raise ScenarioError("rounds", "missing or not a list of rounds")
    rounds: list[tuple[Event, ...]] = []
    carried: dict[int, tuple[Bet, ...]] = {}
    for r, round_data in enumerate(rounds_data):
        if not isinstance(round_data, Mapping) or not isinstance(round_data.get("events"), list):
            raise ScenarioError(f"rounds[{r}]", "a round must be an object with an 'events' list")
        extra = set(round_data) - {"events", "carried", "comment", "description"}
        if extra:
            raise ScenarioError(f"rounds[{r}].{sorted(extra)[0]}", "unknown key (allowed: events, carried, comment)")
        if "carried" in round_data:
            carried[r] = _carried(round_data["carried"], f"rounds[{r}].carried")
        events: list[Event] = []
        for i, event_data in enumerate(round_data["events"]):
            try:
                events.append(event_from_json(event_data))
            except EventError as exc:
                where = f"rounds[{r}].events[{i}]" + (f".{exc.field}" if exc.field else "")
                raise ScenarioError(where, str(exc)) from None
        rounds.append(tuple(events))
    meters = data.get("meters")
    if meters is not None:
        if not isinstance(meters, Mapping):
            raise ScenarioError("meters", "must map meter names to their amount in minor units")
        for name, value in meters.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ScenarioError(f"meters.{name}", f"must be a whole number of minor units (0 or more), not {value!r}")
        meters = dict(meters)
    return Scenario(spec, config, tuple(rounds), meters, carried or None)


def _carried(data: Any, place: str) -> tuple[Bet, ...]:
    """A round's ``carried`` list: bet records (stakes left on the layout by the round before, as journaled)."""
    if not isinstance(data, list):
        raise ScenarioError(place, "must be a list of bet events (the stakes carried into the round)")
    out: list[Bet] = []
    for i, item in enumerate(data):
        try:
            event = event_from_json(item)
        except EventError as exc:
            raise ScenarioError(f"{place}[{i}]" + (f".{exc.field}" if exc.field else ""), str(exc)) from None
        if not isinstance(event, Bet):
            raise ScenarioError(f"{place}[{i}]", "a carried stake is a bet event")
        out.append(event)
    return tuple(out)


def play_round(round_: Round, events: tuple[Event, ...], meter_values: dict[str, int] | None = None) -> dict[str, Any]:
    """Apply every event to ``round_`` and report it in the settle format.

    Where ``meter_values`` holds a meter, each change to it is applied in
    order (as the runtime does) and reported with ``paid`` and ``meter_after``.
    """
    rejected: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    meters: list[dict[str, Any]] = []
    draws: list[dict[str, Any]] = []  # what the round asked the table's random-draw apparatus for
    for index, event in enumerate(events):
        answer = round_.apply(event)
        if isinstance(answer, Accepted):
            for effect in answer.effects:
                if isinstance(effect, Alert):
                    alerts.append({"index": index, "kind": effect.kind, "text": effect.text})
                elif isinstance(effect, DrawRequest):
                    draws.append({"index": index, "count": effect.count, "faces": effect.faces,
                                  "purpose": effect.purpose})
                elif isinstance(effect, MeterChange):
                    entry: dict[str, Any] = {"index": index, **_meter_json(effect)}
                    if meter_values is not None and effect.meter in meter_values:
                        paid, meter_values[effect.meter] = apply_meter(meter_values[effect.meter], effect)
                        if effect.kind == "hit":
                            entry["paid"] = paid
                        entry["meter_after"] = meter_values[effect.meter]
                    meters.append(entry)
        else:
            rejected.append({"index": index, "event": event_to_json(event), "reason": answer.reason})
    out: dict[str, Any] = {
        "outcome": round_.outcome(),
        "settlements": [s.to_json() for s in round_.settlements()],
        "rejected": rejected,
        "complete": round_.complete,
    }
    if not round_.complete:
        out["waiting_for"] = round_.waiting_for()
    if alerts:
        out["alerts"] = alerts
    if meters:
        out["meters"] = meters
    if draws:
        out["draw_requests"] = draws
    return out


def _meter_json(change: MeterChange) -> dict[str, Any]:
    out: dict[str, Any] = {"meter": change.meter, "kind": change.kind}
    for key in ("seat", "amount", "fixed", "hand"):
        value = getattr(change, key)
        if value is not None:
            out[key] = value
    if change.share is not None:
        out["share"] = list(change.share)
    return out


def settle(scenario: Scenario) -> dict[str, Any]:
    """Replay every round in order; carried stakes go into the next round."""
    results: list[dict[str, Any]] = []
    carried: tuple = ()
    meter_values = dict(scenario.meters) if scenario.meters is not None else None
    for index, events in enumerate(scenario.rounds):
        if scenario.carried and index in scenario.carried:
            carried = scenario.carried[index]  # the file says what lay on the layout (a journal export does)
        round_ = scenario.spec.new_round(scenario.config, carried)
        results.append(play_round(round_, events, meter_values))
        carried = round_.carried() if round_.complete else ()
    document: dict[str, Any] = {"game": scenario.spec.id, "variant": scenario.config.variant, "rounds": results}
    if meter_values is not None:
        document["meters"] = meter_values
    return document
