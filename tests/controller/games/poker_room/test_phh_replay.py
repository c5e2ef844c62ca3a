"""Real hands from PHH hand histories replayed through a poker-room round: the same stacks as PokerKit and the record.

The hands are those of PokerKit's own installed tests (``pokerkit_hands``):
hands played at the 2023 World Series of Poker and the hands of PokerKit's
papers, none made by this project's generator. Each is replayed through a
``PokerRoomRound`` as a dealer terminal would send it (``phh_replay``); the
stacks after it must be PokerKit's reading of the same PHH and, where the
PHH records them, its finishing stacks. A hand the table cannot play as
configured must say why, and only for the reasons listed here.
"""

from __future__ import annotations

import collections

import pytest
from pokerkit import HandHistory

from controller.games.poker_room.phh_replay import Unplayable, replay
from tests.controller.games.poker_room.pokerkit_hands import pokerkit_test_hands

# why a PokerKit test hand is not played here (docs/games/poker-room.md, "Hand histories")
EXPECTED_REASONS = (
    "PHH game 'NS' is not played",  # short-deck hold'em
    "PHH game 'FB' is not played",  # badugi
    "bets ",  # a limit game with one blind, whose bets are not the big blind and twice it
    "a hand mucked unseen at the showdown",
)


def test_real_hands_from_pokerkit_tests_replay_to_the_same_stacks():
    hands = pokerkit_test_hands()
    if not hands:
        pytest.skip("PokerKit's tests are not installed with it")
    played = collections.Counter()
    for name, text in hands:
        try:
            result = replay(text)
        except Unplayable as exc:
            assert str(exc).startswith(EXPECTED_REASONS), f"{name}: {exc}"
            continue
        assert result.adapter == result.pokerkit, name
        if result.recorded is not None:
            assert result.adapter == result.recorded, name
        played[HandHistory.loads(text).variant] += 1
    # every PHH game the poker room plays is among them, and most of the hands are played
    assert set(played) == {"NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D"}
    assert sum(played.values()) >= 90, played


DWAN_IVEY = """\
variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h", "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc",
           "d db Jc3d5c", "p1 cbr 35000", "p3 cc", "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100",
           "p3 cc", "p1 sm Ac2d", "p3 sm 7h6h", "d db Jh"]
"""


def test_a_published_hand_written_by_hand_replays_with_its_known_result():
    # Tom Dwan and Phil Ivey, 2009 (Full Tilt Million Dollar Cash Game, season 4): Dwan's straight on the turn
    # holds against Ivey's wheel draw; the pot of 1,109,500 goes to Dwan (box 3)
    result = replay(DWAN_IVEY)
    assert result.adapter == result.pokerkit == {1: 572100, 2: 1997500, 3: 1109500}
    assert result.unknown_cards == 2  # Antonius's folded hand, never shown


def test_a_hand_the_table_cannot_play_says_why():
    straddled = DWAN_IVEY.replace("[1000, 2000, 0]", "[1000, 2000, 4000]")
    with pytest.raises(Unplayable, match="straddles"):
        replay(straddled)
