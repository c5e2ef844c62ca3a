"""The compiled seven-card ranking gives exactly the batch ranking's values (and so the single-hand path's)."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import parse_cards
from controller.hands import batch, compiled

pytest.importorskip("numba")


def test_random_and_awkward_hands_have_the_batch_values():
    rng = np.random.default_rng(29)
    hands = np.argsort(rng.random((200_000, 52)), axis=1)[:, :7]
    awkward = ["2c 3c 4c 5c 6c 7c 8c", "Ac 2c 3c 4c 5c 9d 9h", "As Ks Qs Js 9s 8s Td", "2h 3h 4h 5h 7h 7d 7c",
               "Ad Kd Qd Jd Td 9d 8d", "2s 2h 2d 2c 3s 3h 3d", "Ac Ad Ah Kc Kd Kh Qs", "9c 9d 8h 8s 7c 7d 6h"]
    extra = np.array([[c.index for c in parse_cards(text)] for text in awkward])
    hands = np.vstack([hands, extra])
    expected = batch.rank_batch(hands)
    for dtype in (np.uint8, np.int16, np.int64):
        assert np.array_equal(compiled.rank7(hands.astype(dtype)), expected)


def test_bad_shapes_and_cards_are_refused():
    with pytest.raises(ValueError, match="shape"):
        compiled.rank7(np.zeros((3, 5), dtype=np.int64))
    with pytest.raises(ValueError, match="0..51"):
        compiled.rank7(np.array([[0, 1, 2, 3, 4, 5, 52]]))


@pytest.mark.slow
def test_all_seven_card_hands_have_the_known_counts():
    assert compiled.all_seven_counts().tolist() == [23294460, 58627800, 31433400, 6461620, 6180020, 4047644,
                                                    3473184, 224848, 41584, 0]
