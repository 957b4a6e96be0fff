"""``Drawing``: a game's pictures, drawn in the drawing process: a turn's board (with the
box the hint would pick, where hints are on), drawn while its move is saved; a stored game's
board again (repairs); the final scorecard; a game gone on in text."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.engine import Game
from bot.render import final_png, turn_png
from bot.store import NO_CHANGE, GameChange, GameRow, GameStatus, MoveRecord
from bot.strategy.analyst import Analyst, BoxHint
from bot.workers import Workers

from .keeper import Keeper
from .results import Board, GameView, view_of
from .seats import is_bot


def _drop(work: asyncio.Future[Any]) -> None:
    """Cancel work whose result is no longer wanted, and read its outcome, so that asyncio
    does not report it as never retrieved."""
    work.cancel()
    work.add_done_callback(lambda done: done.cancelled() or done.exception())


class Drawing:
    """A game's pictures (see the module docstring)."""

    def __init__(
        self, keeper: Keeper, pool: Workers | None = None, analyst: Analyst | None = None
    ) -> None:
        self.keeper = keeper
        # Where pictures are drawn: the bot passes its drawing process; without one, threads.
        self.pool = pool or Workers("drawing", processes=0)
        self.analyst = analyst

    async def save_and_draw(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game,
        retire: int | None = None,
        change: GameChange = NO_CHANGE,
    ) -> Board:
        """Save a move and draw its board at the same time: the drawing process works while
        the writer commits. The picture is used only once the move is committed."""
        return await (await self.save_drawing(row, move, game, retire, change)).drawn()

    async def save_drawing(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game,
        retire: int | None,
        change: GameChange,
    ) -> Board:
        """``save_and_draw``, but back as soon as the move is saved, its picture still being
        drawn (``Board.drawn``): for an answer that does not show it (a scoring's summary,
        after which the next board is posted)."""
        drawing = self._drawing(row, game)
        try:
            saved = await self.keeper.save(row, move, game, change)
        except BaseException:
            if drawing is not None:  # the move was refused: its picture is not wanted
                _drop(drawing)
            raise
        return Board(view_of(saved, game), game, None, retire, self.best_box(row, game), drawing)

    async def board(self, row: GameRow, game: Game | None, retire: int | None = None) -> Board:
        """The board for ``row`` with ``game`` (None: a lobby, or a game over), drawn."""
        if game is None:
            return Board(view_of(row), game, None, retire)
        drawing = self._drawing(row, game)
        image = await drawing if drawing is not None else None
        return Board(view_of(row, game), game, image, retire, self.best_box(row, game))

    def _drawing(self, row: GameRow, game: Game) -> asyncio.Future[bytes] | None:
        """Start drawing the board in the drawing process: none for a game without pictures
        (its boards carry the scorecard as text), nor before the turn's first roll (nothing
        to decide yet: the board says whose turn it is, and the roll brings the picture)."""
        if not row.pictures or game.dice is None:
            return None
        return self.pool.submit(turn_png, game.to_dict(), row.language)

    def best_box(self, row: GameRow, game: Game) -> BoxHint | None:
        """The box the menu marks as the hint's best (hints on, a person's dice, the table of
        the game's preset ready): a few reads of it, so the click never waits for it."""
        analyst = self.analyst
        if not row.hints or analyst is None or game.dice is None:
            return None
        if game.is_over or is_bot(game.current_player_id):
            return None
        return analyst.best_box(game)

    async def render(self, shown: GameView) -> Board:
        """The board for a game as it is now (for repairs after a restart)."""
        return await self.board_of(await self.keeper.row(shown.id))

    async def board_of(self, row: GameRow) -> Board:
        """The board for a stored game as it is now."""
        game = self.keeper.game_of(row) if row.state is not None else None
        return await self.board(row, game if row.status == GameStatus.ACTIVE else None)

    async def final_image(self, row: GameView) -> bytes:
        """The final scorecard of a finished game."""
        return await self.pool.run(final_png, row.require_game().to_dict(), row.language)

    async def pictures_off(self, game_id: int) -> Board | None:
        """Play the rest of a game without pictures (the bot was refused a file where the
        game is played): the board as it is now, in text. None if the game is over."""

        async def work() -> Board | None:
            row = await self.keeper.row(game_id)
            if row.status != GameStatus.ACTIVE:
                return None
            saved = row
            if row.pictures:
                text = GameChange(pictures=False)
                saved = await self.keeper.save(row, MoveRecord(None, "pictures-off"), None, text)
            return await self.board(saved, self.keeper.game_of(saved))

        return await self.keeper.locked(game_id, work)
