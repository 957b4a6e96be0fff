"""What the service hands back: the boards to show, scorings, timer outcomes, reports, and the
one user-facing error."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from bot.engine import (
    Game,
    ScoreResult,
)
from bot.store import (
    GameRow,
    GameStatus,
)
from bot.strategy.coach import BoxHint

NO_GAME_HERE = "There is no game in this channel. Start one with /yahtzee start."
NOBODY_LEFT = (
    "No person is left playing, so the game has ended without a result. "
    "Start a new one with /yahtzee start."
)


class Refusal(Exception):
    """A request turned down, with a sentence for the user (the one user-facing error type).

    ``link`` optionally points at the message the user should look at instead:
    (guild id, channel id, message id).
    """

    def __init__(self, message: str, link: tuple[int | None, int, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.link = link


@dataclass(frozen=True, slots=True)
class Board:
    """What a game's live message should show now."""

    row: GameRow
    game: Game | None = None  # None while in the lobby
    image: bytes | None = None  # the turn image, once the game runs
    retire_undo_message_id: int | None = None  # an Undo offer that this move closed
    best_box: BoxHint | None = None  # with hints on: the box optimal play picks, if any
    #: The turn image while it is still being drawn (a scoring answers before the next
    #: board's picture is ready): ``drawn()`` waits for it.
    drawing: asyncio.Future[bytes] | None = None

    async def drawn(self) -> Board:
        """This board with its picture in ``image``, once its drawing is done."""
        if self.drawing is None:
            return self
        return replace(self, image=await self.drawing, drawing=None)


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring: the box, the points, the board after it, and the final image if it ended."""

    board: Board
    result: ScoreResult
    scorer_name: str
    round: int
    final_image: bytes | None = None

    @property
    def finished(self) -> bool:
        """The game was played to its end by this scoring (the final message follows)."""
        return self.board.row.status == GameStatus.FINISHED


@dataclass(frozen=True, slots=True)
class Card:
    """One player's scorecard: as text (always) and as a picture (where files may go)."""

    name: str
    text: str
    image: bytes | None


@dataclass(frozen=True, slots=True)
class Rematch:
    """Play again's new lobby and the players of the old game invited to join it."""

    row: GameRow
    invited: list[tuple[int, str]]
    ping: bool = True  # the first rematch of the game notifies them; later ones do not


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A turn played for a player whose time ran out."""

    scored: Scored
    away: bool  # the seat is now skipped until the player rejoins
    abandoned: bool = False  # nobody is left playing and nobody finished: the game ended


@dataclass(frozen=True, slots=True)
class Pinged:
    """Half the turn's time has gone: remind the player."""

    row: GameRow
    player_id: str
    seconds_left: int


@dataclass(frozen=True, slots=True)
class Expired:
    """A lobby that was never started, or a game nobody moved in for a day, was closed."""

    row: GameRow
    reason: str


@dataclass(frozen=True, slots=True)
class ComputerDue:
    """A computer's turn did not end in time (its run failed): it is to be started again."""

    row: GameRow


Outcome = TimedOut | Pinged | Expired | ComputerDue


@dataclass(frozen=True, slots=True)
class Report:
    """How a player's decisions in one game compared with optimal play."""

    loss: float  # expected points lost in all
    decisions: int
    optimal: int  # decisions within 0.05 points of the best
    costliest: list[str]  # the three costliest decisions, in words


@dataclass(frozen=True, slots=True)
class Undone:
    """An undo: the board to show again, and the next turn's message to retire (if any)."""

    board: Board
    retire_message_id: int | None
    retire_turn: tuple[int, str] | None = None  # (turn, player) that message was posted for
