"""The game service: the topics, each its own object, built around one shared core."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.engine import DiceSource
from bot.store import Store
from bot.strategy.analyst import Analyst
from bot.workers import Workers

from .coaching import Coaching
from .core import Core, utc_now
from .daily import Daily
from .leaderboards import Leaderboards
from .lobby import Lobby
from .servers import Servers
from .timers import Timers
from .tracking import Tracking
from .turns import Turns


class GameService:
    """Lobbies and games of every channel, backed by a ``Store``: one object per topic,
    each given the core and the peers it calls (a topic calls only those passed in, so a
    call can be followed by go-to-definition):

    - ``core`` (``Core``): the store, the clock, one lock per game, saving a move with the
      version check, drawing a board;
    - ``tracking``: which message shows which game (boards, finals, reminders), looking
      games up, scorecards and replays;
    - ``coaching``: hints and the value of decisions (uses ``tracking``);
    - ``lobby``: lobbies, computer seats, Start, Play again;
    - ``turns``: Roll, hold, score, Undo, computer steps, leaving and rejoining (uses
      ``lobby``, ``coaching``, ``tracking``);
    - ``timers``: what is due when (uses ``turns``);
    - ``servers``: a server's settings and ending a game (uses ``tracking``);
    - ``daily``: the daily challenge (uses ``lobby``, ``tracking``);
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
        self.core = Core(store, dice, clock, analyst, drawing_pool)
        self.tracking = Tracking(self.core)
        self.coaching = Coaching(self.core, self.tracking)
        self.lobby = Lobby(self.core)
        self.turns = Turns(self.core, self.tracking, self.coaching, self.lobby)
        self.timers = Timers(self.core, self.turns)
        self.servers = Servers(self.core, self.tracking)
        self.daily = Daily(self.core, self.tracking, self.lobby)
        self.leaderboards = Leaderboards(self.core)
