"""The only place that speaks SQL: games, their moves and results, in a SQLite file (the
default) or a PostgreSQL database (``DATABASE_URL``)."""

from .base import Store, is_postgres_url, latest_schema_version
from .queries import AVERAGE_MIN_GAMES, LEADERBOARD_SQL, Conflict, Plan, Query, Transaction
from .records import (
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
    SeatLimit,
    StaleVersion,
    StoreUnavailable,
)

__all__ = [
    "AVERAGE_MIN_GAMES",
    "LEADERBOARD_SQL",
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
    "SeatLimit",
    "StaleVersion",
    "Store",
    "StoreUnavailable",
    "Transaction",
    "is_postgres_url",
    "latest_schema_version",
]
