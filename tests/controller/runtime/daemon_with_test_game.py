"""`python -m tests.controller.runtime.daemon_with_test_game ARGS`: tablectl with the progressive test game added."""

import sys

from controller import games
from tests.controller.runtime import progressive_game

_original = games.load_game


def _load_game(game_id: str):  # type: ignore[no-untyped-def]
    return progressive_game.SPEC if game_id == progressive_game.SPEC.id else _original(game_id)


games.load_game = _load_game

if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main())
