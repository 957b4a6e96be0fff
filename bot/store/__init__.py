"""The only place that speaks SQL: games, their moves and results, in a SQLite file (the
default) or a PostgreSQL database (``DATABASE_URL``)."""

from pathlib import Path

from .base import Store, is_postgres_url, latest_schema_version
from .queries import AVERAGE_MIN_GAMES, LEADERBOARD_SQL, Conflict, Plan, Query, Transaction
from .records import (
    LIVE,
    NO_MESSAGE,
    AlreadyApplied,
    ChannelBusy,
    DailyEntry,
    DailyTaken,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    MoveRecord,
    PlayerGame,
    ResultRow,
    SchemaTooNew,
    SeatLimit,
    StaleVersion,
    StoreUnavailable,
)
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
    "NO_MESSAGE",
    "AlreadyApplied",
    "ChannelBusy",
    "Conflict",
    "DailyEntry",
    "DailyTaken",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "LeaderboardRow",
    "MoveRecord",
    "Plan",
    "PlayerGame",
    "Query",
    "ResultRow",
    "SchemaTooNew",
    "SeatLimit",
    "StaleVersion",
    "Store",
    "StoreUnavailable",
    "Transaction",
    "is_postgres_url",
    "latest_schema_version",
    "open_store",
]
