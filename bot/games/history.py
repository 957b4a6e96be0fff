"""``History``: each game's move log: the game played again from it (replays, stories told
turn by turn), and its retention (the logs of games long over are pruned)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from bot.store import GameRow, plans

from .clock import TurnClock, stamp
from .keeper import Keeper
from .replay import Replay, Turn, replay, story
from .results import Refusal


class History:
    """Each game's move log (see the module docstring)."""

    def __init__(self, keeper: Keeper, clock: TurnClock) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock

    async def prune_moves(
        self, keep_days: int, now: datetime | None = None, batch: int = 10
    ) -> int:
        """Retention: delete the move logs of games that ended more than ``keep_days`` ago,
        ``batch`` games a unit of work with a pause between (never a long write in front of
        the clicks: on SQLite a unit may run on the event loop; ten two-player games are
        1,000 to 1,500 moves, 5 to 8 ms; benchmarks/scale.py); how many games were pruned.
        Results and leaderboards stay; Replay and Analysis of those games then say they are
        too old."""
        before = stamp((now or self.clock.now()) - timedelta(days=keep_days))
        pruned = 0
        while True:
            done = await self.store.write(plans.prune_moves, before, batch)
            pruned += done
            if done < batch:
                return pruned
            await asyncio.sleep(0.1)

    async def check_log_kept(self, row: GameRow) -> None:
        """A Refusal for a game whose move log retention pruned."""
        if not row.is_live and not await self.store.read(plans.has_moves, row.id):
            raise Refusal(
                "That game is too old: this bot keeps the moves of finished games for a "
                "limited time, and its moves are gone. Its result still counts on the "
                "leaderboard."
            )

    async def replayed(self, game_id: int) -> Replay:
        """The game played again from its move log (``ReplayMismatch`` where the log could
        not have happened): for checking a stored state, and for telling a game move by move."""
        row = await self.keeper.row(game_id)
        log = await self.store.read(plans.moves, game_id)
        return replay(row.players, row.preset, row.timeout_policy, log)

    async def story(self, game_id: int) -> list[Turn]:
        """The game told turn by turn, from its move log."""
        row = await self.keeper.row(game_id)
        await self.check_log_kept(row)
        log = await self.store.read(plans.moves, game_id)
        return story(row.players, row.preset, row.timeout_policy, log)
