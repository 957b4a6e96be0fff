"""The only place that speaks SQL: games, their moves and results, in a SQLite file (the
default) or a PostgreSQL database (``DATABASE_URL``).

Every read and write is a plan of ``bot.store.plans``, run by the store:
``await store.read(plans.get_game, game_id)``, ``await store.write(plans.update_game, ...)``.
"""

from pathlib import Path

from . import plans
from .base import Store, is_postgres_url, latest_schema_version
from .plans import AVERAGE_MIN_GAMES, LEADERBOARD_SQL
from .records import (
    LIVE,
    NO_CHANGE,
    NO_MESSAGE,
    UNSET,
    AlreadyApplied,
    ChannelBusy,
    DailyEntry,
    DailyPlace,
    DailyTaken,
    Decision,
    GameChange,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    LoggedMove,
    MoveRecord,
    NewGame,
    PlayerGame,
    ResultRow,
    SchemaTooNew,
    SeatLimit,
    StaleVersion,
    StoreUnavailable,
    TokenRecord,
    Unset,
)
from .sql import Conflict, Plan, Query, ReadPlan, WritePlan
from .sqlite import SqliteStore


async def open_store(target: str | Path, migrate: bool = True) -> Store:
    """Open the database ``target`` names (a PostgreSQL URL, else a SQLite file path) and
    bring its schema up to date. The one place that chooses a backend: the backends import
    ``base``, never this package, so the imports go one way."""
    if is_postgres_url(target):
        from .postgres import PostgresStore  # asyncpg is loaded only where it is used

        return await PostgresStore.connect(str(target), migrate=migrate)
    return await SqliteStore.connect(Path(target), migrate=migrate)


__all__ = [
    "AVERAGE_MIN_GAMES",
    "LEADERBOARD_SQL",
    "LIVE",
    "NO_CHANGE",
    "NO_MESSAGE",
    "UNSET",
    "AlreadyApplied",
    "ChannelBusy",
    "Conflict",
    "DailyEntry",
    "DailyPlace",
    "DailyTaken",
    "Decision",
    "GameChange",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "LeaderboardRow",
    "LoggedMove",
    "MoveRecord",
    "NewGame",
    "Plan",
    "PlayerGame",
    "Query",
    "ReadPlan",
    "ResultRow",
    "SchemaTooNew",
    "SeatLimit",
    "StaleVersion",
    "Store",
    "StoreUnavailable",
    "TokenRecord",
    "Unset",
    "WritePlan",
    "is_postgres_url",
    "latest_schema_version",
    "open_store",
    "plans",
]
