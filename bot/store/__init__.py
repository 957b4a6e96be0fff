"""The only place that speaks SQL: games, their moves and results, in one SQLite file."""

from .repository import (
    ChannelBusy,
    GameRow,
    MoveRecord,
    ResultRow,
    StaleVersion,
    Store,
    latest_schema_version,
)

__all__ = [
    "ChannelBusy",
    "GameRow",
    "MoveRecord",
    "ResultRow",
    "StaleVersion",
    "Store",
    "latest_schema_version",
]
