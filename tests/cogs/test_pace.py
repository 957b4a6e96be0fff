"""The waits between a member's public posts: how long is said, and the state stays small."""

from __future__ import annotations

import pytest

from bot.games import Refusal
from cogs.shared.pace import Cooldowns


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_second_post_within_the_wait_is_told_the_seconds_left() -> None:
    clock = Clock()
    pace = Cooldowns(clock)
    pace.check(1, "board", 7)
    pace.used(1, "board", 7)
    clock.now += 12.2  # 30 s wait: 17.8 s left, said as 18
    with pytest.raises(Refusal) as told:
        pace.check(1, "board", 7)
    assert "wait 18 s" in str(told.value)
    pace.check(2, "board", 7)  # another member
    pace.check(1, "start", 7)  # another kind
    pace.check(1, "board", 8)  # another channel
    clock.now += 17.8
    pace.check(1, "board", 7)


def test_the_state_stays_bounded_and_forgets_waits_that_are_over() -> None:
    clock = Clock()
    pace = Cooldowns(clock, limit=100)
    for user in range(1000):
        pace.used(user, "share", 7)
    assert len(pace) == 100  # the newest hundred
    with pytest.raises(Refusal):
        pace.check(999, "share", 7)
    clock.now += 31
    pace.used(5000, "start", 7)
    assert len(pace) == 1  # every wait before it was over
