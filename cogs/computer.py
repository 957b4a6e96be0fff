"""Computer players' turns: step by step in the background, one move every
``BOT_MOVE_DELAY`` seconds so that people can follow them on the board."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.games import Board

from .messages import summary_embed
from .publisher import Publisher

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

UNDO_GRACE_MOVES = 4  # a computer waits this many move delays before closing someone's Undo


class ComputerPlayers:
    """Runs the turns of the computer players, one background task per game."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot
        self.publisher: Publisher | None = None  # set by the cog, which makes both
        self._runs: dict[int, asyncio.Task[None]] = {}

    def start(self, game_id: int) -> None:
        """Let the computer players whose turn it is play (if they are not already)."""
        if game_id not in self._runs:
            task = asyncio.create_task(self._run(game_id), name=f"bots-{game_id}")
            self._runs[game_id] = task
            task.add_done_callback(lambda _: self._runs.pop(game_id, None))

    def stop(self, game_id: int) -> None:
        """Stop a game's computer turn (the game ended)."""
        run = self._runs.pop(game_id, None)
        if run is not None:
            run.cancel()

    async def stop_all(self) -> None:
        """Stop every computer turn (the bot is closing): a move in flight is saved or not,
        whole, and the restarted bot's repair resumes the turn; nothing is logged as failed
        for the connection that closes under it."""
        runs = list(self._runs.values())
        self._runs.clear()
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        publisher = self.publisher
        assert publisher is not None
        games = self.bot.games
        delay = self.bot.settings.bot_move_delay
        try:
            if await games.undo_open(game_id):
                # The computer's first roll closes the last player's Undo: give them a moment.
                await asyncio.sleep(UNDO_GRACE_MOVES * delay)
            while True:
                await asyncio.sleep(delay)
                step = await games.bot_step(game_id)
                if step is None:
                    return
                if isinstance(step, Board):
                    if step.row.board_message_id is not None:
                        await publisher.edit_board(step.row.board_message_id, step)
                    continue
                row = step.board.row
                await publisher.retire(
                    row.board_channel_id, row.board_message_id, embed=summary_embed(step)
                )
                await publisher.close_undo(row)
                if step.finished:
                    await publisher.post_final(row, step.final_image)
                    return
                await publisher.post_board(step.board)  # starts the next computer's run
                return
        except Exception:
            log.exception(
                "game %s: a computer player's move failed; repairs will resume it", game_id
            )
