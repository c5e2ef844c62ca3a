"""The table's records in a pit supervisor's words: amounts in the table's currency, outcomes with every hand.

Pure functions over the JSON the journal holds (events, outcomes, settlements), shared by the live
terminal (``outputs.Terminal``), ``tablectl journal tail``, the console's ``round``, ``history`` and
``journal tail``, and the sign's results line. Nothing here prints a Python value: a key whose value
is ``None`` or ``False`` says nothing, ``True`` says its name.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.language import ENGLISH, Language


def money(amount: int, minor_unit: int = 100, currency: str = "", lang: Language = ENGLISH) -> str:
    """``2000`` -> ``SEK 20.00`` in English, ``20,00 SEK`` in Swedish: the language's money format
    (docs/languages.md), over integer minor units."""
    return lang.money(amount, minor_unit, currency)


def game_text(text: str, lang: Language = ENGLISH, minor_unit: int = 100, currency: str = "") -> str:
    """A game's prompt, reason or alert in ``lang``, its amounts (minor units, as the game writes them) in the
    table's currency and money format: ``box 1 to act: fold, call SEK 1.00, raise to SEK 2.00..SEK 100.00``."""
    return lang.text(text, money=lambda amount: money(amount, minor_unit, currency, lang))


def cards(items: Sequence[str]) -> str:
    return " ".join(items)


def event_text(event: Mapping[str, Any], minor_unit: int = 100, currency: str = "", lang: Language = ENGLISH) -> str:
    """One input event: ``bet box 4 punto SEK 20.00``, ``dice red 4, green 2``, ``card 9h``."""
    kind, t, w = event.get("type"), lang.t, lang.word
    if kind == "card":
        return t("card {card}", card=event["card"])
    if kind in ("bet", "action"):
        who = f" ({event['player']})" if event.get("player") else ""
        amount = f" {money(event['amount'], minor_unit, currency, lang)}" if event.get("amount") is not None else ""
        if kind == "bet":
            return t("bet box {box}{player} {spot}{amount}", box=event["seat"], player=who, spot=lang.spot(event["spot"]),
                     amount=amount)
        return t("box {box}{player} {action}{amount}", box=event["seat"], player=who,
                 action=w(event["action"].replace("_", " ")), amount=amount)
    if kind == "wheel":
        return t("wheel {number}", number=event["number"])
    if kind == "dice":
        values, colours = list(event.get("values", [])), list(event.get("colors") or [])
        if colours and len(colours) == len(values) and len(set(colours)) > 1:
            return t("dice {values}", values=", ".join(f"{w(c)} {v}" for c, v in zip(colours, values)))
        return t("dice {values}", values=" ".join(str(v) for v in values))
    if kind == "void":
        return t("void: {reason}", reason=game_text(str(event.get("reason", "")), lang, minor_unit, currency))
    if kind == "puck":
        return t("burn puck at box {box}", box=event["seat"])
    if kind == "close_bets":
        return t("no more bets")
    return str(kind)


def _hand(hand: Mapping[str, Any], lang: Language = ENGLISH) -> str:
    w = lang.word
    parts = [cards(hand.get("cards", []))]
    if "total" in hand:
        parts.append(str(hand["total"]))
    if hand.get("blackjack"):
        parts.append("Black Jack")
    if hand.get("hand") and isinstance(hand["hand"], str):
        parts.append(f"({lang.hand(hand['hand'])})")
    if hand.get("decision"):
        parts.append(w(str(hand["decision"])))
    if hand.get("doubled"):
        parts.append(lang.t("doubled"))
    if hand.get("result"):
        parts.append(w(str(hand["result"])))
    return " ".join(p for p in parts if p)


def _dealer(dealer: Mapping[str, Any], lang: Language = ENGLISH) -> str:
    text, t = cards(dealer.get("cards", [])), lang.t
    if dealer.get("blackjack"):
        return t("dealer {cards} Black Jack", cards=text)
    if "total" in dealer:
        return t("dealer {cards} ({total})", cards=text,
                 total=t("{total}, bust", total=dealer["total"]) if dealer.get("bust") else dealer["total"])
    if dealer.get("hand"):
        qualifies = dealer.get("qualifies")
        hand = lang.hand(str(dealer["hand"]))
        return t("dealer {cards} ({total})", cards=text,
                 total=hand if qualifies is None or qualifies else t("{hand}, does not qualify", hand=hand))
    return t("dealer {cards}", cards=text)


def outcome_lines(outcome: Mapping[str, Any], lang: Language = ENGLISH) -> list[str]:
    """The round's outcome: the dealer or the result first, then each box with every hand and its total."""
    head, boxes = outcome_parts(outcome, lang)
    return head + [lang.t("box {box}: {hands}", box=seat, hands=text) for seat, text in boxes.items()]


def outcome_parts(outcome: Mapping[str, Any], lang: Language = ENGLISH) -> tuple[list[str], dict[int, str]]:
    """(the dealer's or the result's lines, {box: its hands}) of an outcome."""
    t, w = lang.t, lang.word
    lines: list[str] = []
    if "dealer" in outcome and isinstance(outcome["dealer"], Mapping):
        lines.append(_dealer(outcome["dealer"], lang))
    if outcome.get("board"):
        lines.append(t("board {cards}", cards=cards(outcome["board"])))
    if "punto_cards" in outcome:
        winner = outcome.get("winner")
        lines.append(t("Punto {punto_cards} ({punto}), Banco {banco_cards} ({banco}): {result}",
                       punto_cards=cards(outcome["punto_cards"]), punto=outcome.get("punto"),
                       banco_cards=cards(outcome.get("banco_cards", [])), banco=outcome.get("banco"),
                       result=t("tie") if winner == "tie" else t("{side} wins", side=w(str(winner).capitalize()))))
    elif "red" in outcome and "green" in outcome:
        line = t("red {red}, green {green}: total {total}, number {number}", red=outcome["red"],
                 green=outcome["green"], total=outcome.get("total"), number=outcome.get("number"))
        lines.append(line + (t(", a pair") if outcome.get("pair") else ""))
    elif "dice" in outcome:
        extra = [w(x) for x in ("small", "big", "triple") if outcome.get(x)]
        lines.append(t("dice {values}: total {total}", values=" ".join(str(v) for v in outcome["dice"]),
                       total=outcome.get("total")) + (f", {', '.join(extra)}" if extra else ""))
    elif "number" in outcome:
        colour = outcome.get("color")
        lines.append(t("number {number}", number=outcome["number"])
                     + (f" {w(str(colour))}" if colour and colour != "green" else ""))
    if outcome.get("burned"):
        lines.append(t("burned card {card} (box {box})", card=outcome["burned"], box=outcome.get("puck_box")))
    if outcome.get("voids"):
        lines.append(t("void: {reason}", reason=", ".join(_void(v, lang) for v in outcome["voids"])))
    boxes: dict[int, str] = {}
    for box in outcome.get("boxes") or []:
        seat_of = box.get("seat", box.get("box", box.get("player")))
        if not isinstance(seat_of, int):
            continue  # a layout without numbered boxes: its outcome lines say it all
        seat = seat_of
        hands = box.get("hands")
        boxes[seat] = "; ".join(_hand(h, lang) for h in hands) if hands else _hand(box, lang)
    return lines, boxes


def _void(void: Any, lang: Language) -> str:
    """An omslag as the outcome holds it: the reason the croupier or the camera gave, as given, and who gave it
    (``a chip fell into the wheel (croupier Lisa)``); a game's own reason in the table's language."""
    if isinstance(void, Mapping):
        reason = str(void.get("reason", ""))
        return f"{reason} ({void['by']})" if void.get("by") else reason
    return lang.text(str(void))


def outcome_short(outcome: Mapping[str, Any], lang: Language = ENGLISH) -> str:
    """The result in a few words, for the sign's results line and the console's history."""
    lines = outcome_lines({k: v for k, v in outcome.items() if k != "boxes"}, lang)
    return lines[0] if lines else lang.t("settled")


def settlement_totals(settlements: Sequence[Mapping[str, Any]],
                      lang: Language = ENGLISH) -> dict[int, tuple[int, int, list[str]]]:
    """Per box: (staked, net, ["main win", ...]) over the round's settlements, in box order."""
    out: dict[int, tuple[int, int, list[str]]] = {}
    for s in settlements:
        staked, net, what = out.get(int(s["seat"]), (0, 0, []))
        label = f"{lang.spot(s['spot'])} {lang.word(s['result'])}" + (f" {s['odds'][0]}:{s['odds'][1]}" if s.get("odds") else "")
        stake = 0 if s["result"] == "carry" else int(s.get("stake") or 0)  # a carried stake is dropped once
        out[int(s["seat"])] = (staked + stake, net + int(s.get("net") or 0), what + [label])
    return dict(sorted(out.items()))
