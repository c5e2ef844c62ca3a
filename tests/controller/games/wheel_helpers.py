"""Helpers for the wheel and dice game tests: play one round from JSON events and read the settle output."""

from __future__ import annotations

from typing import Any, Mapping

from controller import games
from controller.events import event_from_json
from controller.games.contract import Round
from controller.scenario import play_round


def new_round(game: str, variant: str, options: Mapping[str, Any] | None = None) -> Round:
    spec, config = games.configure(game, variant, options)
    return spec.new_round(config, ())


def play(game: str, variant: str, events: list[dict[str, Any]],
         options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The settle document of one round (outcome, settlements, rejected, complete)."""
    round_ = new_round(game, variant, options)
    return play_round(round_, tuple(event_from_json(e) for e in events))


def bet(spot: str, amount: int | None = 100, seat: int = 1, player: str | None = "blue") -> dict[str, Any]:
    out: dict[str, Any] = {"type": "bet", "seat": seat, "spot": spot}
    if amount is not None:
        out["amount"] = amount
    if player is not None:
        out["player"] = player
    return out


def by_spot(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["spot"]: s for s in document["settlements"]}


def reasons(document: dict[str, Any]) -> list[str]:
    return [r["reason"] for r in document["rejected"]]
