"""The poker room (seed 004): players against each other, the house only running the game.

PokerKit is the betting and pot engine (``engine``); this package adds what a
casino's table needs around it: seats, buy-ins and the moving button
(``round``), the rake capped once per hand, no flop no drop and the time
charge (``engine.HouseTake``, ``round``), the bad beat jackpot (``jackpot``),
the discards without replacement of the Pineapple games, and the games as
data (``variants``); Chinese Poker and Open Face Chinese Poker, which have no betting, are
``chinese`` and ``open_face``.
Every game here is a ``GameSpec`` in ``SPECS``.
"""

from controller.games.contract import GameSpec
from controller.games.poker_room import chinese, open_face
from controller.games.poker_room.spec import SPECS as BETTING_SPECS

SPECS: tuple[GameSpec, ...] = BETTING_SPECS + (chinese.SPEC, open_face.SPEC)

__all__ = ["SPECS"]
