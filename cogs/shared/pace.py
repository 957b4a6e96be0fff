"""The pace of public posts a member makes the bot send in a channel: one of a kind per
member and channel for a few seconds (``Cooldowns``), answered with how long to wait. A
channel's readers are who a flood would bother: a member may still start a game in another
channel, or share their stats after the leaderboard, at once.

What posts publicly for a member, and why each wait is what it is:

- ``start`` (/yahtzee start) and ``again`` (Play again), 10 s: each opens a lobby, which a
  channel holds one of anyway; the wait stops a start-cancel-start loop from filling the
  channel, and is shorter than anyone takes to gather players.
- ``board`` (/yahtzee board), half a minute: a re-post moves the live board to the bottom
  and retires the old one; once is what a player needs after the board scrolled away, and a
  board posted every few seconds would bury the channel's conversation.
- ``share`` (Share on a leaderboard or stats), half a minute: a picture for the whole channel; the
  same one again seconds later says nothing new.

The state is small and bounded: one entry a (member, kind, place) that posted within its wait, at
most ``LIMIT`` of them (the oldest go first; an entry older than the longest wait is never
needed), so a flood of members costs a fixed amount of memory.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from bot.games import Refusal

#: Seconds a member waits between two public posts of a kind.
WAITS = {"start": 10.0, "again": 10.0, "board": 30.0, "share": 30.0}
LIMIT = 10_000  # entries kept at most: far more members than post within 30 s on one bot


class Cooldowns:
    """When each member may next make a public post of each kind."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, limit: int = LIMIT) -> None:
        self._clock = clock
        self._limit = limit
        self._until: OrderedDict[tuple[int, str, Hashable], float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._until)

    def check(self, user_id: int, kind: str, where: Hashable) -> None:
        """A Refusal saying how long to wait if ``user_id`` posted a ``kind`` ``where`` (a
        channel, or a channel and what was shared) too recently."""
        until = self._until.get((user_id, kind, where))
        if until is None:
            return
        left = until - self._clock()
        if left > 0:
            raise Refusal(
                "Please wait {seconds} s: this posts for the whole channel, once in a while.",
                seconds=max(1, math.ceil(left)),
            )

    def used(self, user_id: int, kind: str, where: Hashable) -> None:
        """``user_id`` just made a public post of ``kind`` ``where``: the next there waits
        ``WAITS[kind]``."""
        now = self._clock()
        key = (user_id, kind, where)
        self._until.pop(key, None)
        self._until[key] = now + WAITS[kind]  # the newest last: the oldest come first
        while self._until:
            first_key, first_until = next(iter(self._until.items()))
            if first_until > now and len(self._until) <= self._limit:
                break
            del self._until[first_key]  # its wait is over, or the most are kept already
