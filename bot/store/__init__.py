"""The only place that speaks SQL: games, their moves and results, in one SQLite file."""

from .repository import (
    AVERAGE_MIN_GAMES,
    BOARD_SQL,
    NO_MESSAGE,
    BoardRow,
    ChannelBusy,
    GameRow,
    GuildSettings,
    MoveRecord,
    PlayerGame,
    ResultRow,
    StaleVersion,
    Store,
    Transaction,
    latest_schema_version,
)

__all__ = [
    "AVERAGE_MIN_GAMES",
    "BOARD_SQL",
    "NO_MESSAGE",
    "BoardRow",
    "ChannelBusy",
    "GameRow",
    "GuildSettings",
    "MoveRecord",
    "PlayerGame",
    "ResultRow",
    "StaleVersion",
    "Store",
    "Transaction",
    "latest_schema_version",
]
