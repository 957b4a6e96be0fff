"""The only place that speaks SQL: games, their moves and results, in one SQLite file."""

from .repository import (
    AVERAGE_MIN_GAMES,
    LEADERBOARD_SQL,
    NO_MESSAGE,
    ChannelBusy,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    MoveRecord,
    PlayerGame,
    ResultRow,
    StaleVersion,
    Store,
    StoreUnavailable,
    Transaction,
    latest_schema_version,
)

__all__ = [
    "AVERAGE_MIN_GAMES",
    "LEADERBOARD_SQL",
    "NO_MESSAGE",
    "ChannelBusy",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "LeaderboardRow",
    "MoveRecord",
    "PlayerGame",
    "ResultRow",
    "StaleVersion",
    "Store",
    "StoreUnavailable",
    "Transaction",
    "latest_schema_version",
]
