"""``History``: each game's move log: the game played again from it (replays, stories told
turn by turn), and its retention (the logs of games long over are pruned)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from bot.i18n.words import Name, Said
from bot.store import GameRow, GameStatus, plans

from .clock import TurnClock, stamp
from .keeper import Keeper
from .replay import Replay, Turn, replay, story
from .results import (
    ENDED_BY,
    EVERYONE_AWAY,
    IDLE_ENDED,
    LOBBY_EXPIRED,
    NOBODY_LEFT,
    Refusal,
)

#: The moves that end a game without a result, and why it ended (``History.why_over``).
ENDINGS = {
    "end": ENDED_BY,
    "idle-timeout": IDLE_ENDED,
    "lobby-timeout": LOBBY_EXPIRED,
    "timeout": EVERYONE_AWAY,  # the timer's last move ended it: every person was away
    "leave": NOBODY_LEFT,
    "kick": NOBODY_LEFT,
}


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

    async def why_over(self, game_id: int) -> Said | None:
        """Why a game ended without a result (abandoned, or a lobby closed), from the move
        that ended it, as its messages said when it ended: for a place where nothing could
        show it then (a group DM nobody clicked in), so that the next click on one of its
        messages does. None for a game still on, finished, cancelled by its host, or whose
        move log is gone."""
        try:
            row = await self.keeper.row(game_id)
        except Refusal:
            return None
        if row.status not in (GameStatus.ABANDONED, GameStatus.CANCELLED):
            return None
        log = await self.store.read(plans.moves, game_id)
        # (a rematch opened from it since is noted on it after its end)
        last = next((move for move in reversed(log) if move.action != "rematch"), None)
        if last is None or last.action not in ENDINGS:
            return None
        if last.action == "end":  # by name, as its messages said it (an admin: a mention)
            name = next((n for uid, n in row.players if uid == last.user_id), None)
            who: str = Name(name) if name is not None else f"<@{last.user_id}>"
            return Said(ENDED_BY, who=who)
        return Said(ENDINGS[last.action])

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
