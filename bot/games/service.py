"""The game service: the topics, each its own object, built around the games as kept."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.engine import DiceSource
from bot.store import Store
from bot.strategy.analyst import Analyst
from bot.workers import Workers

from .clock import TurnClock, utc_now
from .coaching import Coaching
from .daily import Daily
from .drawing import Drawing
from .history import History
from .keeper import Keeper
from .leaderboards import Leaderboards
from .lobby import Lobby
from .lookups import Lookups
from .posts import Posts
from .scorecards import Scorecards
from .seating import Seating
from .servers import Servers
from .timers import Timers
from .turns import Turns


class GameService:
    """Lobbies and games of every channel, backed by a ``Store``: one object per topic,
    each given the parts and the peers it calls (a topic calls only those passed in, so a
    call can be followed by go-to-definition). Two parts every topic shares, never called
    from outside ``bot.games``:

    - ``keeper`` (``Keeper``): the games as saved: one lock per game, the row cache, saving
      a change with the version check, the boards shown written behind;
    - ``clock`` (``TurnClock``): the time, and the timers a turn, a lobby or a move arms.

    The topics the Discord side calls:

    - ``lookups``: finding games by id, channel or server;
    - ``posts``: which message shows which game (boards, finals, reminders, Undo offers,
      threads), the nonces they are posted with, which clicks still reach a game;
    - ``drawing``: a game's board and final card, drawn (also while its move is saved);
    - ``history``: the move log: replays, stories, retention;
    - ``scorecards``: a player's scorecard, as text and picture;
    - ``coaching``: hints and the value of decisions (uses ``history``);
    - ``lobby``: lobbies, computer seats, Start, Play again;
    - ``turns``: Roll, hold, score, Undo, computer steps (uses ``lookups``, ``coaching``,
      ``lobby``);
    - ``seating``: leaving, rejoining, removing an away player (uses ``lookups``, ``lobby``);
    - ``timers``: what is due when (uses ``turns``);
    - ``servers``: a server's settings and ending a game (uses ``lookups``, ``posts``);
    - ``daily``: the daily challenge (uses ``lobby``, ``history``);
    - ``leaderboards``: the servers' boards and players' statistics, resets and restores.
    """

    def __init__(
        self,
        store: Store,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] = utc_now,
        analyst: Analyst | None = None,
        drawing_pool: Workers | None = None,
    ) -> None:
        self.store = store
        self.keeper = Keeper(store, dice)
        self.clock = TurnClock(store, clock)
        self.lookups = Lookups(store)
        self.posts = Posts(self.keeper)
        self.drawing = Drawing(self.keeper, drawing_pool, analyst)
        self.history = History(self.keeper, self.clock)
        self.scorecards = Scorecards(self.keeper, self.drawing.pool)
        self.coaching = Coaching(self.keeper, self.history, analyst)
        self.lobby = Lobby(self.keeper, self.clock, self.drawing)
        self.turns = Turns(
            self.keeper, self.clock, self.drawing, self.lookups, self.coaching, self.lobby, analyst
        )
        self.seating = Seating(self.keeper, self.clock, self.drawing, self.lookups, self.lobby)
        self.timers = Timers(self.keeper, self.clock, self.turns)
        self.servers = Servers(self.keeper, self.lookups, self.posts)
        self.daily = Daily(self.keeper, self.clock, self.lobby, self.history, self.drawing)
        self.leaderboards = Leaderboards(store, self.clock)

    async def answered_elsewhere(self) -> bool:
        """Whether the request being handled had its change made by another process (a
        deploy overlapping): its answer is that process's, so this one stays silent."""
        return await self.keeper.answered_elsewhere()

    async def flush_shown(self) -> None:
        """Put on record now the boards that click answers showed and that are still
        written behind (at a graceful stop)."""
        await self.keeper.flush_shown()
