"""Computer players' turns: step by step in the background, one move every
``BOT_MOVE_DELAY`` seconds so that people can follow them on the board."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.games import Board
from cogs.shared.routes import Unreachable
from cogs.turn.messages import summary_embed

if TYPE_CHECKING:
    from bot.app import YahtzeeBot
    from cogs.shared.after_move import AfterMove

log = logging.getLogger(__name__)

#: A computer's first roll closes the Undo of the person who scored before it: it waits this
#: many move delays first (1.8 s by default), so that a misclick can still be taken back,
#: and a whole computer turn (up to four moves) is over within 4 s.
UNDO_GRACE_MOVES = 3


class ComputerPlayers:
    """Runs the turns of the computer players, one background task per game."""

    def __init__(self, bot: YahtzeeBot, after: AfterMove) -> None:
        self.bot = bot
        self.after = after  # shows each move
        self._runs: dict[int, asyncio.Task[None]] = {}
        # a board showing a computer's turn starts them
        after.publisher.computers = self  # a board showing a computer's turn starts them

    def start(self, game_id: int) -> None:
        """Let the computer players whose turn it is play (if they are not already: a run
        plays every computer turn in a row, until a person is to move or the game ends)."""
        running = self._runs.get(game_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._run(game_id), name=f"bots-{game_id}")
        self._runs[game_id] = task

        def finished(done: asyncio.Task[None]) -> None:
            if self._runs.get(game_id) is done:  # not a newer run for the same game
                del self._runs[game_id]

        task.add_done_callback(finished)

    def running(self, game_id: int) -> bool:
        """Whether a computer turn of the game is being played now."""
        run = self._runs.get(game_id)
        return run is not None and not run.done()

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
        games = self.bot.games
        delay = self.bot.settings.bot_move_delay
        try:
            turn_starts = True
            while True:
                wait = delay
                if turn_starts and await games.posts.undo_open(game_id):
                    # The computer's first roll closes the last player's Undo: a moment first.
                    wait = UNDO_GRACE_MOVES * delay
                await asyncio.sleep(wait)
                turn_starts = False
                step = await games.turns.bot_step(game_id)
                if step is None:
                    return
                if isinstance(step, Board):
                    await self.after.computer_moved(step)
                    continue
                # The next seat may be a computer too: this run plays it (the post's own
                # call to start it finds this run still going). Over when the game is over,
                # nobody is left, or an Undo took the game back meanwhile.
                summary = summary_embed(step, faces=self.after.publisher.faces)
                if not await self.after.scored_unseen(step, summary):
                    return
                turn_starts = True
        except Unreachable:  # a place only clicks reach, no token fresh: saved, shown later
            log.info("game %s: a computer player's move is saved; the next click shows it",
                     game_id)  # fmt: skip
        except Exception:
            log.exception(
                "game %s: a computer player's move failed; repairs will resume it", game_id
            )
