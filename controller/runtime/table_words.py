"""The table's records in a pit supervisor's words: amounts in the table's currency, outcomes with every hand.

Pure functions over the JSON the journal holds (events, outcomes, settlements), shared by the live
terminal (``outputs.Terminal``), ``tablectl journal tail``, the console's ``round``, ``history`` and
``journal tail``, and the sign's results line. Nothing here prints a Python value: a key whose value
is ``None`` or ``False`` says nothing, ``True`` says its name.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.money import format_amount


def money(amount: int, minor_unit: int = 100, currency: str = "") -> str:
    """``2000`` -> ``SEK 20.00``, ``-2000`` -> ``SEK -20.00`` (the one formatter, the currency code first)."""
    return format_amount(amount, minor_unit, currency, code_first=True)


def cards(items: Sequence[str]) -> str:
    return " ".join(items)


def event_text(event: Mapping[str, Any], minor_unit: int = 100, currency: str = "") -> str:
    """One input event: ``bet box 4 punto SEK 20.00``, ``dice red 4, green 2``, ``card 9h``."""
    kind = event.get("type")
    if kind == "card":
        return f"card {event['card']}"
    if kind == "bet":
        who = f" ({event['player']})" if event.get("player") else ""
        amount = f" {money(event['amount'], minor_unit, currency)}" if event.get("amount") is not None else ""
        return f"bet box {event['seat']}{who} {event['spot']}{amount}"
    if kind == "action":
        who = f" ({event['player']})" if event.get("player") else ""
        amount = f" {money(event['amount'], minor_unit, currency)}" if event.get("amount") is not None else ""
        return f"box {event['seat']}{who} {event['action'].replace('_', ' ')}{amount}"
    if kind == "wheel":
        return f"wheel {event['number']}"
    if kind == "dice":
        values, colours = list(event.get("values", [])), list(event.get("colors") or [])
        if colours and len(colours) == len(values) and len(set(colours)) > 1:
            return "dice " + ", ".join(f"{c} {v}" for c, v in zip(colours, values))
        return "dice " + " ".join(str(v) for v in values)
    if kind == "void":
        return f"void: {event.get('reason', '')}"
    if kind == "puck":
        return f"burn puck at box {event['seat']}"
    if kind == "close_bets":
        return "no more bets"
    return str(kind)


def _hand(hand: Mapping[str, Any]) -> str:
    parts = [cards(hand.get("cards", []))]
    if "total" in hand:
        parts.append(str(hand["total"]))
    if hand.get("blackjack"):
        parts.append("Black Jack")
    if hand.get("hand") and isinstance(hand["hand"], str):
        parts.append(f"({hand['hand']})")
    if hand.get("decision"):
        parts.append(str(hand["decision"]))
    if hand.get("doubled"):
        parts.append("doubled")
    if hand.get("result"):
        parts.append(str(hand["result"]))
    return " ".join(p for p in parts if p)


def _dealer(dealer: Mapping[str, Any]) -> str:
    text = cards(dealer.get("cards", []))
    if dealer.get("blackjack"):
        return f"dealer {text} Black Jack"
    if "total" in dealer:
        return f"dealer {text} ({dealer['total']}{', bust' if dealer.get('bust') else ''})"
    if dealer.get("hand"):
        qualifies = dealer.get("qualifies")
        return f"dealer {text} ({dealer['hand']}{'' if qualifies is None or qualifies else ', does not qualify'})"
    return f"dealer {text}"


def outcome_lines(outcome: Mapping[str, Any]) -> list[str]:
    """The round's outcome: the dealer or the result first, then each box with every hand and its total."""
    head, boxes = outcome_parts(outcome)
    return head + [f"box {seat}: {text}" for seat, text in boxes.items()]


def outcome_parts(outcome: Mapping[str, Any]) -> tuple[list[str], dict[int, str]]:
    """(the dealer's or the result's lines, {box: its hands}) of an outcome."""
    lines: list[str] = []
    if "dealer" in outcome and isinstance(outcome["dealer"], Mapping):
        lines.append(_dealer(outcome["dealer"]))
    if outcome.get("board"):
        lines.append(f"board {cards(outcome['board'])}")
    if "punto_cards" in outcome:
        winner = outcome.get("winner")
        lines.append(f"Punto {cards(outcome['punto_cards'])} ({outcome.get('punto')}), Banco "
                     f"{cards(outcome.get('banco_cards', []))} ({outcome.get('banco')}): "
                     + ("tie" if winner == "tie" else f"{str(winner).capitalize()} wins"))
    elif "red" in outcome and "green" in outcome:
        lines.append(f"red {outcome['red']}, green {outcome['green']}: total {outcome.get('total')}, "
                     f"number {outcome.get('number')}" + (", a pair" if outcome.get("pair") else ""))
    elif "dice" in outcome:
        extra = [w for w in ("small", "big", "triple") if outcome.get(w)]
        lines.append(f"dice {' '.join(str(v) for v in outcome['dice'])}: total {outcome.get('total')}"
                     + (f", {', '.join(extra)}" if extra else ""))
    elif "number" in outcome:
        colour = outcome.get("color")
        lines.append(f"number {outcome['number']}" + (f" {colour}" if colour and colour != "green" else ""))
    if outcome.get("burned"):
        lines.append(f"burned card {outcome['burned']} (box {outcome.get('puck_box')})")
    if outcome.get("voids"):
        lines.append(f"void: {', '.join(str(v) for v in outcome['voids'])}")
    boxes: dict[int, str] = {}
    for box in outcome.get("boxes") or []:
        seat = int(box.get("seat", box.get("box")))
        hands = box.get("hands")
        boxes[seat] = "; ".join(_hand(h) for h in hands) if hands else _hand(box)
    return lines, boxes


def outcome_short(outcome: Mapping[str, Any]) -> str:
    """The result in a few words, for the sign's results line and the console's history."""
    lines = outcome_lines({k: v for k, v in outcome.items() if k != "boxes"})
    return lines[0] if lines else "settled"


def settlement_totals(settlements: Sequence[Mapping[str, Any]]) -> dict[int, tuple[int, int, list[str]]]:
    """Per box: (staked, net, ["main win", ...]) over the round's settlements, in box order."""
    out: dict[int, tuple[int, int, list[str]]] = {}
    for s in settlements:
        staked, net, what = out.get(int(s["seat"]), (0, 0, []))
        label = f"{s['spot']} {s['result']}" + (f" {s['odds'][0]}:{s['odds'][1]}" if s.get("odds") else "")
        stake = 0 if s["result"] == "carry" else int(s.get("stake") or 0)  # a carried stake is dropped once
        out[int(s["seat"])] = (staked + stake, net + int(s.get("net") or 0), what + [label])
    return dict(sorted(out.items()))
