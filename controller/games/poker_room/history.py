"""The poker room's hands in PokerKit's own terms: its standard games and the PHH hand-history format.

``pokerkit_game`` names the PokerKit game class (and its PHH code) that plays
exactly what a table's configuration plays, where PokerKit has one;
``to_phh`` writes a hand as PHH (the poker hand history format PokerKit reads
and writes), with the table's seats, players and the house's take as
user-defined fields. PHH has no notion of the rake capped per hand or of the
bad beat drop: a PHH file replays the betting and the pots as dealt, before
the house's take, and says the take in ``_rake`` and ``_drop``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    HandHistory,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit.games import Poker

from controller.games.contract import RoundConfig

DIRECT_AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class PokerKitGame:
    code: str | None  # the PHH variant code (None: PokerKit has the class but PHH cannot say it)
    game: Poker
    boards: int = 1


def pokerkit_game(config: RoundConfig, automations: tuple[Automation, ...] = DIRECT_AUTOMATIONS) -> PokerKitGame | None:
    """PokerKit's own game for this table's rules, or None where PokerKit has no such game."""
    c = config
    game, structure, scale = c.game, c.variant, c.get("scale")
    if not c.get("burn_cards", True):
        return None  # PokerKit's standard games all burn
    ante: Any = c.get("ante", 0)
    trim = True
    if c.get("big_blind_ante", 0):
        if ante:
            return None  # PokerKit's standard games take one ante figure: antes alike or a big blind ante
        ante, trim = {1: c["big_blind_ante"]}, False
    kw: dict[str, Any] = {"mode": Mode.CASH_GAME}
    if game in ("texas-holdem", "double-board-holdem") and scale == "high":
        blinds = (c["small_blind"], c["big_blind"])
        boards = 2 if game == "double-board-holdem" else 1
        if structure == "no-limit":
            return PokerKitGame("NT" if boards == 1 else None,
                                NoLimitTexasHoldem(automations, trim, ante, blinds, c["big_blind"],
                                                   starting_board_count=boards, **kw), boards)
        if structure == "limit" and boards == 1:
            return PokerKitGame("FT", FixedLimitTexasHoldem(automations, trim, ante, blinds, c["big_blind"],
                                                            2 * c["big_blind"], **kw))
        return None
    if game == "omaha":
        blinds = (c["small_blind"], c["big_blind"])
        if structure == "pot-limit" and scale == "high":
            return PokerKitGame("PO", PotLimitOmahaHoldem(automations, trim, ante, blinds, c["big_blind"], **kw))
        # PokerKit 0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter ('FO/8') is declared with
        # PotLimitPokerMixin: it bets pot limit, not fixed limit, so it is no reference for a limit table.
        return None
    if structure == "limit" and game in ("seven-card-stud", "razz"):
        args = (automations, trim, ante, c["bring_in"], c["small_bet"], c["big_bet"])
        if game == "razz":
            return PokerKitGame("FR", FixedLimitRazz(*args, **kw))
        if scale == "high":
            return PokerKitGame("F7S", FixedLimitSevenCardStud(*args, **kw))
        if scale == "high-low" and c.get("low_qualifier") == "eight":
            return PokerKitGame("F7S/8", FixedLimitSevenCardStudHighLowSplitEightOrBetter(*args, **kw))
        return None
    if game == "lowball" and c.get("lowball") == "deuce-to-seven":
        blinds = (c["small_blind"], c["big_blind"])
        if structure == "no-limit" and c.get("draws") == 1:
            return PokerKitGame("N2L1D", NoLimitDeuceToSevenLowballSingleDraw(
                automations, trim, ante, blinds, c["big_blind"], **kw))
        if structure == "limit" and c.get("draws") == 3:
            return PokerKitGame("F2L3D", FixedLimitDeuceToSevenLowballTripleDraw(
                automations, trim, ante, blinds, c["big_blind"], 2 * c["big_blind"], **kw))
    return None


def to_phh(round_: Any, **fields: Any) -> str:
    """The hand of a poker-room round as PHH text; ``ValueError`` where PHH cannot write its game."""
    hand = round_.hand
    if hand is None:
        raise ValueError("no hand was dealt in this round")
    known = pokerkit_game(round_.config)
    if known is None or known.code is None:
        raise ValueError(f"PHH has no code for {round_.config.game} {round_.config.variant} "
                         f"{round_.config.get('scale')} as this table plays it")
    history = HandHistory.from_game_state(known.game, hand.state, **fields)
    history.ante_trimming_status = not round_.config.get("big_blind_ante", 0)
    history.seats = list(round_.order)
    history.players = [round_.players.get(s) or f"box {s}" for s in round_.order]
    history.seat_count = int(round_.config["seats"])
    if round_.complete and round_.outcome() and "rake" in round_.outcome():
        outcome = round_.outcome()
        history.finishing_stacks = [hand.state.stacks[i] for i in range(len(round_.order))]
        history.user_defined_fields = {"_rake": outcome["rake"], "_drop": outcome["drop"],
                                       "_button": outcome["button"] or 0}
    return history.dumps()


def from_phh(text: str) -> HandHistory:
    return HandHistory.loads(text)


def phh_of_round(document: Any, hand: int | None = None, table: str | None = None) -> str:
    """PHH of a round exported from a journal (``journal.export_round``'s scenario document)."""
    from controller.games.poker_room.round import PokerRoomRound
    from controller.scenario import load_scenario

    scenario = load_scenario(document)
    carried = scenario.carried.get(0, ()) if scenario.carried else ()
    round_ = scenario.spec.new_round(scenario.config, carried)
    if not isinstance(round_, PokerRoomRound):
        raise ValueError(f"PHH is written for the poker room's games, not {scenario.spec.id}")
    for event in scenario.rounds[0]:
        round_.apply(event)
    fields: dict[str, Any] = {}
    if hand is not None:
        fields["hand"] = hand
    if table is not None:
        fields["table"] = table
    return to_phh(round_, **fields)
