"""Moving a bot's SQLite file to PostgreSQL (``python -m bot migrate-to-postgres``).

Every row of every table is copied in one PostgreSQL transaction, ids included (the
identity sequences then continue after them), and the counts are checked before it
commits: a failed or partial copy leaves the PostgreSQL database as it was.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from . import open_store
from .postgres import PostgresStore
from .sqlite import SqliteStore

#: In an order that satisfies the foreign keys.
TABLES = (
    "games",
    "moves",
    "results",
    "player_names",
    "leaderboard_archives",
    "guild_settings",
    "meta",
    "daily_results",
    "secrets",
    "token_places",
)
#: Tables whose id PostgreSQL hands out (its sequence must continue after the copied ids).
_IDENTITY = ("games", "moves", "results", "leaderboard_archives")


class TransferError(Exception):
    """The copy cannot be made (the message says why); nothing was written."""


@dataclass(frozen=True, slots=True)
class Copied:
    """How many rows of one table are in both databases after the copy."""

    table: str
    rows: int


def _read_table(path: Path, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cursor = db.execute(f"SELECT * FROM {table} ORDER BY rowid")  # names from TABLES
        columns = [d[0] for d in cursor.description]
        return columns, cursor.fetchall()
    finally:
        db.close()


def _coerce(value: Any, kind: str) -> Any:
    # SQLite keeps what it was given; PostgreSQL's COPY wants each column's own type.
    if value is None:
        return None
    if kind in ("bigint", "integer"):
        return int(value)
    if kind == "double precision":
        return float(value)
    return str(value)


async def sqlite_to_postgres(path: Path, url: str) -> list[Copied]:
    """Copy the SQLite file at ``path`` into the (empty) PostgreSQL database at ``url``.

    Both are first brought to the latest schema. ``TransferError`` if the file is missing,
    the PostgreSQL database already holds games, or a count differs after the copy.
    """
    if not await asyncio.to_thread(path.is_file):
        raise TransferError(f"there is no SQLite file at {path} (DATABASE_PATH) to copy")
    source = await SqliteStore.connect(path)  # brings an older file up to date first
    await source.close()
    target = await open_store(url)
    assert isinstance(target, PostgresStore)
    try:
        async with target.pool.acquire() as db, db.transaction():
            if await db.fetchval("SELECT COUNT(*) FROM games"):
                raise TransferError(
                    "the PostgreSQL database already holds games: copy into an empty one"
                )
            copied = []
            for table in TABLES:
                columns, rows = await asyncio.to_thread(_read_table, path, table)
                described = await db.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = $1",
                    table,
                )
                kinds: dict[str, str] = {str(r[0]): str(r[1]) for r in described}
                missing = [c for c in columns if c not in kinds]
                if missing:
                    raise TransferError(f"PostgreSQL's {table} has no column {missing[0]!r}")
                await db.execute(f"DELETE FROM {table}")  # the new install id and keys give way
                records = [
                    tuple(_coerce(v, kinds[c]) for v, c in zip(row, columns, strict=True))
                    for row in rows
                ]
                await db.copy_records_to_table(table, records=records, columns=columns)
                there = await db.fetchval(f"SELECT COUNT(*) FROM {table}")
                if there != len(rows):
                    raise TransferError(f"{table}: {len(rows)} rows in SQLite, {there} copied")
                copied.append(Copied(table, int(there)))
            for table in _IDENTITY:
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
    except asyncpg.PostgresError as exc:
        raise TransferError(f"PostgreSQL refused the copy: {exc}") from exc
    finally:
        await target.close()
    return copied
