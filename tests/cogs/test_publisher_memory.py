"""What the publisher keeps per game is bounded, whatever ends games without it hearing."""

from __future__ import annotations

from collections import OrderedDict

from cogs.shared.publisher import GAMES_KEPT, _keep


def test_the_oldest_games_go_beyond_the_bound_and_a_game_touched_again_stays() -> None:
    kept: OrderedDict[int, str] = OrderedDict()
    for game_id in range(1, GAMES_KEPT + 1):
        _keep(kept, game_id, "pinged")
    _keep(kept, 1, "pinged again")  # the first game plays on: it is the newest now
    _keep(kept, GAMES_KEPT + 1, "pinged")  # one more: the oldest untouched (2) goes
    assert len(kept) == GAMES_KEPT
    assert 2 not in kept and kept[1] == "pinged again" and GAMES_KEPT + 1 in kept
    assert list(kept)[-2:] == [1, GAMES_KEPT + 1]
