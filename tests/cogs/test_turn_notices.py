"""The memory of a game's turn notices: a player pinged once a turn, a parked board, bounded."""

from __future__ import annotations

from cogs.shared.turn_notices import PINGS_KEPT, TurnNotices


def test_a_turn_is_pinged_once_and_the_last_few_turns_are_remembered() -> None:
    notices = TurnNotices()
    assert not notices.pinged(1, (0, "7"))
    notices.ping(1, (0, "7"))
    notices.ping(1, (0, "7"))  # posted again for the same turn
    assert notices.pinged(1, (0, "7")) and not notices.pinged(2, (0, "7"))
    for turn in range(1, PINGS_KEPT + 1):
        notices.ping(1, (turn, "7"))
    assert not notices.pinged(1, (0, "7"))  # the oldest turn is let go
    assert all(notices.pinged(1, (turn, "7")) for turn in range(1, PINGS_KEPT + 1))


def test_parking_again_hands_back_the_board_parked_before() -> None:
    notices = TurnNotices()
    assert notices.park(1, 100, (3, "7")) is None
    assert notices.park(1, 100, (3, "7")) is None  # the same board: nothing to delete
    assert notices.park(1, 101, (4, "8")) == (100, (3, "7"))
    assert notices.parked(1) == (101, (4, "8"))
    assert notices.unpark(1) == (101, (4, "8")) and notices.parked(1) is None


def test_an_ended_game_is_forgotten_and_the_memory_is_bounded() -> None:
    notices = TurnNotices(games_kept=3)
    notices.ping(1, (0, "7"))
    notices.park(1, 100, (1, "8"))
    assert notices.forget(1) == (100, (1, "8"))
    assert notices.games() == (set(), set())
    for game in range(10, 15):
        notices.ping(game, (0, "7"))
    assert notices.games()[0] == {12, 13, 14}  # the newest three


def test_a_game_touched_again_stays_and_the_oldest_untouched_goes() -> None:
    notices = TurnNotices(games_kept=3)
    for game in (1, 2, 3):
        notices.ping(game, (0, "7"))
    notices.ping(1, (1, "7"))  # the first game plays on: it is the newest now
    notices.ping(4, (0, "7"))  # one more: the oldest untouched (2) goes
    assert notices.games()[0] == {1, 3, 4}
    assert notices.pinged(1, (0, "7")) and notices.pinged(1, (1, "7"))
