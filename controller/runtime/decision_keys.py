"""Decision buttons and the decision keypad: which decision a press means now.

A pin map gives a game's decisions to buttons in two ways (docs/devices/wiring.md):

- a decision button: ``actions = { caribbean-stud = "raise" }``: the press is that decision at the box in
  turn (the prompt's box; where several boxes may decide, as at the poker games, the first of them from
  the dealer's left that may take it);
- a key of the decision keypad: ``actions = { blackjack = "decision_2" }``: the press is the second of the
  legal decisions of the box in turn, in the order the dealer terminal shows beside the keys (the keypad
  has no fixed meaning, so a table with a keypad also has the terminal).

Both go through ``controller.games.decisions.legal``: a press never sends what the round would refuse.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controller.events import Action, event_from_json
from controller.games.decisions import Decision, Legal, legal, players_at, seats_with_bets
from drivers import events as ev

if TYPE_CHECKING:
    from controller.runtime.table import Table

KEY = re.compile(r"^decision_([1-9])$")


def keypad(answer: Legal) -> tuple[Decision, ...]:
    """The keypad's meaning now: the decisions of the first box that has any, key 1 first."""
    seats = answer.seats()
    if not seats:
        return ()
    first = answer.decisions[0].seat
    return answer.for_seat(first)


def legal_now(table: "Table") -> Legal:
    """The table's legal decisions from its committed state (the open round's journaled events)."""
    if table.round.complete or any(f.stops_all() for f in table.faults.values()):
        return Legal()
    opened = table.journal.last("round_open")
    carried = [event_from_json(b) for b in opened.body.get("carried", [])] if opened is not None else []
    events = [event_from_json(r.body["event"]) for r in table.journal.records(
        since=opened.seq if opened is not None else 0, kinds=("event",), round_=table.round_no)]
    return legal(table.round_spec, table.round, table.last_prompt, seats_with_bets(events, carried),
                 betting_open=table.betting_open(), players=players_at(events, carried))


def pressed(answer: Legal, action: str) -> Action | str:
    """The ``action`` event a decision button or key means, given the legal decisions now, or why it means
    nothing (pure: the table gives ``answer`` with the press, translate.py decides)."""
    match = KEY.match(action)
    choice: Decision | None
    if match:
        keys = keypad(answer)
        number = int(match.group(1))
        if number > len(keys):
            return f"key {number} means nothing now" + (f" (keys 1-{len(keys)} do)" if keys else "")
        choice = keys[number - 1]
    else:
        choice = next((d for d in answer.decisions if d.action == action), None)  # the prompt's box first
        if choice is None:
            return f"{action}: no box may {action} now"
    if not choice.plain and choice.fixed is None:
        chooses = "the cards" if choice.cards is not None else "a multiple" if choice.multiples else "the amount"
        return f"{choice.action} at box {choice.seat}: the player chooses {chooses}; use the terminal"
    return choice.event()  # a fixed bet (a limit game's) takes its amount


def press_sends(table: "Table", button: str, event: object) -> bool:
    """Whether a press of ``button`` now sends exactly ``event`` to the round: the translator's own judgment on
    the table's view, nothing submitted. A decision button carries no box and no stake of its own (the first box
    still to decide, the game's default stake), so a player's decision with a multiple, or at a later box, is
    not what the button sends: the simulated croupier keys those in, as a croupier does at the terminal."""
    from controller.runtime.translate import Submit, translate  # translate.py imports this module

    press = ev.ButtonPressed(button)
    intents = translate("gpio", press, table.translation_view(press)).intents
    return len(intents) == 1 and isinstance(intents[0], Submit) and intents[0].event == event
