"""The dealer terminal's and the pit view's words, in the table's language (``[table] language``).

Two kinds of words reach the pages:

- the pages' own labels (``page_words``): sent once to the page (``GET /api/words``), each an id of the
  message catalogue (controller/locale, docs/languages.md) with its places in braces, filled in by the page;
- what the table says (the prompt, a refusal's reason, a fault, the notes of the layout, a spot, a
  result): English as the games and the journal write it, translated into the snapshot by ``shown``
  through the same catalogue as the live terminal and the sign. A text the catalogue does not hold is
  shown as it is, in English.

The decisions' names are the games' own words (``stand``, ``fold``, ``even money``), from the catalogue's
game words: no page knows a game's actions.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from controller.games.contract import GameSpec
from controller.language import Language


def page_words(lang: Language) -> dict[str, str]:
    """Every label of the dealer page, the pit view and the login pad, in ``lang``; places in braces."""
    t = lang.t
    return {
        # the bar, the link, the login
        "round": t("Round {number}"), "logout": t("Log out"), "live": t("live"), "reconnecting": t("reconnecting"),
        "no_answer": t("The table does not answer: wait, then tap again."),
        "dealer_title": t("dealer"), "pit_title": t("pit view"),
        "login_title": t("log in"), "name": t("Name"), "pin": t("PIN"), "log_in": t("Log in"),
        "clear_pin": t("Clear"), "login_no_answer": t("The table does not answer: try again."),
        "croupier": t("croupier"), "supervisor": t("supervisor"), "technician": t("technician"),
        # the dealer page
        "dealer": t("Dealer"), "board": t("Board"), "boards": t("Board {number}"), "box": t("Box {box}"),
        "box_player": t("Box {box} ({player})"), "insured": t("insured"), "button": t("dealer button"),
        "stack": t("stack {amount}"), "street_bet": t("bet {amount}"), "cards": t("Cards"),
        "bets_open": t("Bets are open."), "decisions": t("Decisions"), "another_amount": t("another amount"),
        "choose_cards": t("choose the cards"), "deal_from_shoe": t("Deal from the shoe: {prompt}"),
        "round_settled": t("Round settled."), "no_decision": t("No decision is waiting."),
        "amount_head": t("{action} · box {box} ({currency})"),
        "amount_span": t("{action} · box {box} ({currency}, {least} to {most})"),
        "amount_unit": t("in steps of {unit}"),
        "cards_head": t("{action} · box {box}: {count} of its cards"),
        "cards_span": t("{least} to {most}"), "in_order": t("In this order: {order}"),
        "cancel": t("Cancel"), "ok": t("OK"), "camera_unsure": t("Camera unsure"),
        "enter_number": t("Enter the number"), "confirm": t("Confirm {value}"),
        "another_number": t("Another number …"), "tap_every_die": t("Tap every die"),
        "winning_number": t("The winning number"), "table": t("Table"), "no_more_bets": t("No more bets"),
        "no_more_insurance": t("No more insurance"), "close": t("Close"), "void": t("Void (omslag)"),
        "void_again": t("Tap again to void"), "faults": t("Faults"), "clear": t("Clear"),
        "supervisor_clears": t("a supervisor clears it"), "staff_clears": t("a technician or a supervisor clears it"),
        "restart_clears": t("a restart clears it, once the cause is mended"), "stopped": t("Input is stopped: {faults}"),
        "refused": t("Refused: {reason}"),
        # the pit view
        "state": t("State"), "round_label": t("Round"), "hands_hour": t("Hands / hour"), "journal": t("Journal"),
        "now": t("Now"), "state_stopped": t("STOPPED"), "state_fault": t("Fault"),
        "state_pending": t("Waiting for croupier"), "state_open": t("Bets open"), "state_settled": t("Settled"),
        "state_play": t("In play"), "no_results": t("No results yet on this table."),
        "last_numbers": t("Last numbers"), "hot": t("Hot (last {count})"), "cold": t("Cold (last {count})"),
        "last_throws": t("Last throws"), "sum": t("sum {total}"), "triple": t("triple"), "big": t("big"),
        "small": t("small"), "big_road": t("Big road"), "bead_plate": t("Bead plate"), "punto": t("Punto"),
        "banco": t("Banco"), "tie": t("Tie"), "tally_spins": t("Last {count} spins"),
        "tally_throws": t("Last {count} throws"), "red": t("Red"), "black": t("Black"), "zero": t("Zero"),
        "odd": t("Odd"), "even": t("Even"), "dozen_1": t("1st 12"), "dozen_2": t("2nd 12"), "dozen_3": t("3rd 12"),
        "big_cell": t("Big"), "small_cell": t("Small"), "triple_cell": t("Triple"), "below_7": t("Below 7"),
        "seven": t("Seven"), "above_7": t("Above 7"), "meters": t("Jackpot meters ({currency})"),
        "last_round": t("Last round"), "no_round": t("No round settled yet."),
        "settled": t("Box {box} {spot}: {result}"), "settled_hand": t("Box {box} {spot} hand {hand}: {result}"),
        "limits": t("Limits ({currency})"), "no_maximum": t("no maximum"),
    }


def action_words(lang: Language, spec: GameSpec) -> dict[str, str]:
    """The game's decisions as the buttons name them (``even_money`` -> ``Even money``, ``Jämna pengar``)."""
    out = {}
    for action in spec.actions:
        word = lang.word(action.name.replace("_", " "))
        out[action.name] = word[:1].upper() + word[1:]
    return out


def shown(lang: Language, english: str) -> str:
    """A text the table wrote, in ``lang``: a game's words (a prompt, a reason, a note), else the runtime's own
    word of that id (``doubled``), else as it is."""
    if lang.english or not english:
        return english
    translated = lang.text(english)
    if translated == english:
        return lang.messages.get(english, english)
    return translated


def layout_in(said: Callable[[str], str], layout: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The round's layout with its notes (``doubled, stands, win``) and its totals in words (``soft 17``) put in
    the table's language by ``said`` (``shown`` for the table's language); the cards and numbers as they are."""
    if layout is None:
        return layout

    def notes(note: str) -> str:
        return ", ".join(said(part) for part in note.split(", "))

    def hand(h: Mapping[str, Any]) -> Mapping[str, Any]:
        out = dict(h)
        if out.get("note"):
            out["note"] = notes(str(out["note"]))
        if isinstance(out.get("total"), str):  # "soft 17"
            out["total"] = said(out["total"])
        return out
    boxes = [{**box, "hands": [hand(h) for h in box.get("hands", ())]} for box in layout.get("boxes", ())]
    shown_layout = {**layout, "boxes": boxes}
    if isinstance(layout.get("dealer"), Mapping):
        shown_layout["dealer"] = hand(layout["dealer"])
    return shown_layout
