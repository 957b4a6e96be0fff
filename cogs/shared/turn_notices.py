"""What this process remembers of each game's turn notices: which (turn, player) were pinged
(a player is notified once a turn, whatever is posted again for it), and the next turn's board
an Undo parked, waiting to become that turn's board again. Bounded: a game's entries go when
it ends (``forget``), and the oldest beyond ``GAMES_KEPT`` (an end another process saw)."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

T = TypeVar("T")
#: A turn as a notice names it: (turn number, the player to move's id).
Turn = tuple[int, str]

#: How many (turn, player) pings a game remembers: the turn, the one an Undo went back to,
#: and the next.
PINGS_KEPT = 4
#: At most this many games' pings and parked boards are kept: far above the live games a
#: process shows.
GAMES_KEPT = 10_000


class TurnNotices:
    """Each game's pinged turns and its parked board (message id, the turn it waits for)."""

    def __init__(self, games_kept: int = GAMES_KEPT) -> None:
        self.games_kept = games_kept
        self._pinged: OrderedDict[int, list[Turn]] = OrderedDict()
        self._parked: OrderedDict[int, tuple[int, Turn]] = OrderedDict()

    def pinged(self, game_id: int, turn: Turn) -> bool:
        """Whether this turn's player was notified already."""
        return turn in self._pinged.get(game_id, [])

    def ping(self, game_id: int, turn: Turn) -> None:
        """This turn's player was notified (by a post Discord took)."""
        pinged = self._pinged.get(game_id, [])
        if turn not in pinged:
            self._keep(self._pinged, game_id, [*pinged[-(PINGS_KEPT - 1) :], turn])

    def parked(self, game_id: int) -> tuple[int, Turn] | None:
        """The board an Undo parked for a game, and the turn it waits for."""
        return self._parked.get(game_id)

    def park(self, game_id: int, message_id: int, turn: Turn) -> tuple[int, Turn] | None:
        """Park ``message_id`` for ``turn``; the board parked before, if it was another."""
        stale = self._parked.pop(game_id, None)
        self._keep(self._parked, game_id, (message_id, turn))
        return stale if stale is not None and stale[0] != message_id else None

    def unpark(self, game_id: int) -> tuple[int, Turn] | None:
        """The parked board, no longer parked."""
        return self._parked.pop(game_id, None)

    def forget(self, game_id: int) -> tuple[int, Turn] | None:
        """A game has ended: its pings go, and its parked board (returned, to delete)."""
        self._pinged.pop(game_id, None)
        return self._parked.pop(game_id, None)

    def games(self) -> tuple[set[int], set[int]]:
        """The games with pings and with a parked board kept (for checks)."""
        return set(self._pinged), set(self._parked)

    def _keep(self, kept: OrderedDict[int, T], game_id: int, value: T) -> None:
        kept[game_id] = value
        kept.move_to_end(game_id)
        while len(kept) > self.games_kept:
            kept.popitem(last=False)
