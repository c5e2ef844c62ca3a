"""The poker room's declarations: one ``GameSpec`` per game, its betting structures as variants."""

from __future__ import annotations

from typing import Any

from controller.games.contract import ActionSpec, GameSpec, OptionSpec, ReaderSpec, RoundConfig, SpotSpec, VariantSpec
from controller.games.poker_room.jackpot import LABELS
from controller.games.poker_room.variants import RULES, GameRule

_STRUCTURE_NAMES = {"no-limit": "No Limit", "pot-limit": "Pot Limit", "limit": "Limit"}
_STRUCTURE_SEED = {"no-limit": "004 C. No Limit", "pot-limit": "004 B. Pot Limit", "limit": "004 A. Limit"}


def _common(rule: GameRule) -> list[OptionSpec]:
    out = [
        OptionSpec("seats", min(9, rule.max_seats), "seats at the table (004: at most 12 players)", minimum=2,
                   maximum=rule.max_seats),
        OptionSpec("scale", rule.default_scale, "high, low (ace-to-five) or high-low (004: every game may be played "
                   "low or high-low)", kind="choice", choices=rule.scales),
        OptionSpec("ante", 25 if rule.ranking == "soko" else 0, "the ante of every player dealt in, in minor units",
                   kind="amount"),
        OptionSpec("buy_in", 2000, "the least a new player buys in for (004: a set minimum of chips)", kind="amount"),
        OptionSpec("max_buy_in", None, "the most a player may have on the table after a buy-in (none: no limit)",
                   kind="amount"),
        OptionSpec("burn_cards", True, "a card is burned before each later deal (flop, turn, river, street, draw)",
                   kind="bool"),
        OptionSpec("rake_bp", 0, "the rake in basis points of everything staked in the hand (500 = 5 %)",
                   minimum=0, maximum=10_000),
        OptionSpec("rake_cap", None, "the most rake one hand pays, across all its pots (none: no cap)", kind="amount"),
        OptionSpec("rake_unit", 1, "the rake is rounded down to this chip", minimum=1),
        OptionSpec("no_flop_no_drop", True, "no rake (and no drop) from a hand that ends in its first betting round",
                   kind="bool"),
        OptionSpec("time_charge", 0, "the time charge a player pays per period (004 B), taken by the croupier "
                   "between hands", kind="amount"),
        OptionSpec("rake_meter", "", "the meter the rake and time charges are counted on (empty: none)", kind="text"),
        OptionSpec("bad_beat", False, "the table takes part in the bad beat jackpot", kind="bool"),
        OptionSpec("bad_beat_drop", 100, "the drop to the jackpot from each eligible hand", kind="amount"),
        OptionSpec("bad_beat_players", 6, "players dealt in, at least, for the drop and the jackpot (004: six)",
                   minimum=6, maximum=12),
        OptionSpec("bad_beat_qualifier", "four-of-a-kind", "the least losing hand that hits the jackpot",
                   kind="choice", choices=LABELS[1:]),
        OptionSpec("bad_beat_losing", 50, "percent of the jackpot to the losing hand", minimum=0, maximum=100),
        OptionSpec("bad_beat_winning", 25, "percent of the jackpot to the winning hand", minimum=0, maximum=100),
        OptionSpec("bad_beat_table", 15, "percent of the jackpot shared by the other players dealt in",
                   minimum=0, maximum=100),
        OptionSpec("jackpot_meter", "bad_beat", "the bad beat jackpot's meter", kind="text"),
        OptionSpec("drop_meter", "bad_beat_drop", "the meter of the day's drop, added to the jackpot at day end",
                   kind="text"),
    ]
    if "high-low" in rule.scales:
        out.append(OptionSpec("low_qualifier", "eight", "high-low: the low must be eight or better ('eight') or "
                              "any low wins its half ('none')", kind="choice", choices=("eight", "none")))
    if rule.family == "stud":
        out += [
            OptionSpec("bring_in", 0 if rule.ranking == "soko" else 25, "the bring-in of the lowest (Razz: highest) "
                       "up card (Sökö: none by default, the highest up card opens)", kind="amount"),
            OptionSpec("small_bet", 100, "the bet on third and fourth street (limit), the least bet otherwise",
                       kind="amount", minimum=1),
            OptionSpec("big_bet", 200, "the bet from fifth street on (limit)", kind="amount", minimum=1),
        ]
    else:
        out += [
            OptionSpec("big_blind_ante", 0, "a big blind ante: the big blind posts this ante for the whole table, "
                       "in minor units (besides any ante of every player)", kind="amount"),
            OptionSpec("small_blind", 50, "the small blind, left of the button", kind="amount"),
            OptionSpec("big_blind", 100, "the big blind; the least bet, and the small bet of limit (the big bet is "
                       "twice it)", kind="amount", minimum=1),
        ]
    if rule.family == "draw":
        out.append(OptionSpec("draws", 1, "draws in the hand (004: one, two or three; three low is Triple Draw "
                              "Lowball)", minimum=1, maximum=3))
        if rule.id == "five-card-draw":
            out.append(OptionSpec("openers", "none", "'jacks': no blinds, antes only, and the first bet needs a pair "
                                  "of jacks or better (004); 'none': blinds, anyone may bet", kind="choice",
                                  choices=("none", "jacks")))
        if rule.id == "lowball":
            out.append(OptionSpec("lowball", "deuce-to-seven", "the low scale", kind="choice",
                                  choices=("deuce-to-seven", "ace-to-five")))
    return out


def _validate(rule: GameRule, config: RoundConfig) -> None:
    c = config
    if c["bad_beat"]:
        if c["bad_beat_losing"] + c["bad_beat_winning"] + c["bad_beat_table"] > 100:
            raise ValueError("bad_beat_losing + bad_beat_winning + bad_beat_table come to more than 100 percent")
        if c["scale"] == "low" or rule.boards > 1 or rule.ranking != "standard":
            raise ValueError(f"{rule.id}: the bad beat jackpot is offered on single-board high and high-low games "
                             "with the standard ranking")
        if not c["jackpot_meter"] or not c["drop_meter"]:
            raise ValueError("bad_beat needs jackpot_meter and drop_meter")
    if rule.family == "stud":
        if not 0 < c["bring_in"] < c["small_bet"] and not (c["bring_in"] == 0 and c["ante"] > 0):
            raise ValueError("bring_in must be above 0 and below small_bet (or 0 with an ante)")
        if c["big_bet"] < c["small_bet"]:
            raise ValueError("big_bet is below small_bet")
    else:
        if c["small_blind"] > c["big_blind"]:
            raise ValueError("small_blind is above big_blind")
    if c.get("big_blind_ante") and c.get("openers") == "jacks":
        raise ValueError("big_blind_ante needs the blinds, which openers 'jacks' does not post")
    if c.get("openers") == "jacks" and c["ante"] <= 0:
        raise ValueError("openers 'jacks' is played with antes only: set ante above 0")
    if c["buy_in"] <= 0:
        raise ValueError("buy_in must be above 0")
    if c["max_buy_in"] is not None and c["max_buy_in"] < c["buy_in"]:
        raise ValueError("max_buy_in is below buy_in")


def _new_round(config: RoundConfig, carried: tuple[Any, ...]) -> Any:
    """A hand of the poker room (its round, and PokerKit under it, imported on the first hand, not with the spec)."""
    from controller.games.poker_room.round import PokerRoomRound

    return PokerRoomRound(config, carried)


def _spec(rule: GameRule) -> GameSpec:
    variants = tuple(VariantSpec(s, f"{rule.name}, {_STRUCTURE_NAMES[s]}", f"{rule.seed}; {_STRUCTURE_SEED[s]}")
                     for s in rule.structures)
    actions = [
        ActionSpec("fold", "give up the hand (004 Fold)"),
        ActionSpec("check", "pass the turn on without a bet (004 Check/Sökö)"),
        ActionSpec("call", "pay what the bet asks (004 Call)"),
        ActionSpec("bet", "the first bet of a round; amount: what the bet makes the player's stake in the round",
                   amount=True),
        ActionSpec("raise", "raise (004 Raise); amount: what the raise makes the player's stake in the round",
                   amount=True),
        ActionSpec("all_in", "bet or raise every chip, or call with every chip"),
        ActionSpec("leave", "between hands: the player leaves with the stack"),
        ActionSpec("button", "between hands: the dealer button to this box"),
        ActionSpec("time_charge", "between hands: the player pays the time charge (004 B)"),
    ]
    if rule.family == "stud":
        actions += [ActionSpec("bring_in", "the bring-in of the lowest up card (Razz: highest)"),
                    ActionSpec("complete", "complete the bring-in to a full bet; amount as for a bet", amount=True)]
    if rule.family == "draw":
        actions += [ActionSpec("draw", "throw away the cards named (cards) for as many new ones", cards=True),
                    ActionSpec("stand_pat", "keep all five cards")]
    if rule.discards:
        actions.append(ActionSpec("discard", "throw away the card named (cards), with none in its place", cards=True))
    interpretations = (
        "The house's take: the rake is rake_bp of everything staked in the hand, capped once for the whole hand "
        "(not per pot), rounded down to rake_unit, and taken from the main pot first, then the side pots in order.",
        "No flop, no drop (option, on by default): a hand that ends in its first betting round pays no rake and "
        "no drop; in stud and draw games the second betting round stands for the flop.",
        "Bets and raises are given as the amount the player's stake in the round becomes (a raise 'to').",
        "Odd chips: a split pot's odd chip goes to the first winner to the button's left (stud: from box 1); "
        "of a high-low split, to the high half (PokerKit's rule).",
        "The showdown shows every hand still in (004: the face-down cards are revealed).",
    ) + tuple(rule.notes)
    return GameSpec(
        id=rule.id, name=rule.name, seeds=(rule.seed,), variants=variants, options=tuple(_common(rule)),
        spots=(SpotSpec("buy_in", "chips bought between hands", "option buy_in, max_buy_in"),
               SpotSpec("pot", "a player's part in the hand: stake = what went in, net = the change of the stack"),
               SpotSpec("stack", "the chips a player carries into the next hand"),
               SpotSpec("button", "the box that had the dealer button"),
               SpotSpec("time_charge", "the time charge paid between hands")),
        actions=tuple(actions), devices=("shoe",), reader=ReaderSpec("shoe"), docs_page="poker-room.md", strategy="poker-room",
        new_round=_new_round,
        interpretations=interpretations,
        validate=lambda config: _validate(rule, config),
        meters=room_meters,
    )


def room_meters(config: RoundConfig) -> dict[str, str]:
    """The meters a poker room table feeds or pays from (``GameSpec.meters``): ``rake_meter`` when set, and with
    the bad beat jackpot on its ``jackpot_meter`` and ``drop_meter``. The game gives every amount (the rake, the
    time charge, the drop) and the hits' shares itself."""
    out = {"rake_meter": config["rake_meter"]} if config["rake_meter"] else {}
    if config["bad_beat"]:
        out.update(jackpot_meter=config["jackpot_meter"], drop_meter=config["drop_meter"])
    return out


SPECS: tuple[GameSpec, ...] = tuple(_spec(rule) for rule in RULES)
