"""What this process is showing now: interactions being handled, by channel (in the places
only they reach), timers acting, by game, and computer seats playing. A repair or a click
on a board left behind leaves a game alone while a move of it is on its way (``busy``)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterator


class Activity:
    """Counters of what is being shown, by channel and by game."""

    def __init__(self, computers_running: Callable[[int], bool]) -> None:
        self._computers_running = computers_running
        self._channels_busy: Counter[int] = Counter()
        self._games_busy: Counter[int] = Counter()

    @contextlib.contextmanager
    def handling(self, channel_id: int) -> Iterator[None]:
        """An interaction from ``channel_id`` is being handled: it shows what it does."""
        self._channels_busy[channel_id] += 1
        try:
            yield
        finally:
            self._channels_busy[channel_id] -= 1
            if not self._channels_busy[channel_id]:
                del self._channels_busy[channel_id]

    @contextlib.contextmanager
    def acting(self, game_id: int) -> Iterator[None]:
        """A timer is acting on the game, and shows what it does."""
        self._games_busy[game_id] += 1
        try:
            yield
        finally:
            self._games_busy[game_id] -= 1
            if not self._games_busy[game_id]:
                del self._games_busy[game_id]

    def busy(self, game_id: int, channel_id: int, besides: int = 0) -> bool:
        """Whether this process is showing a move of the game now (an interaction from its
        channel being handled, besides the ``besides`` asking; a timer acting on it; its
        computer seats playing): then what its messages miss is on its way."""
        return bool(
            self._channels_busy.get(channel_id, 0) > besides
            or self._games_busy.get(game_id)
            or self._computers_running(game_id)
        )
