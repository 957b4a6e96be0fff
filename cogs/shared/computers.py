"""The computer seats as the shared parts reach them: a small interface the turn feature
fills by registering its players (``Publisher.computers``); until then nobody plays."""

from __future__ import annotations

from typing import Protocol


class Computers(Protocol):
    """The computer seats, as the shared parts reach them (the turn feature registers its
    players: ``Parts.computers``)."""

    def start(self, game_id: int) -> None:
        """A board shows a computer's turn: it plays (if it is not playing already)."""

    def running(self, game_id: int) -> bool:
        """Whether a computer turn of the game is being played now."""

    def stop(self, game_id: int) -> None:
        """The game ended: its computer turn stops."""

    async def stop_all(self) -> None:
        """The bot stops: every computer turn stops."""


class NoComputers:
    """Before the turn feature is loaded: nobody plays a computer's turn."""

    def start(self, game_id: int) -> None:
        del game_id

    def running(self, game_id: int) -> bool:
        del game_id
        return False

    def stop(self, game_id: int) -> None:
        del game_id

    async def stop_all(self) -> None:
        return None
