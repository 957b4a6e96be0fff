"""Moving a bot's SQLite file to PostgreSQL (``python -m bot migrate-to-postgres``).

Every row of every table is copied in one PostgreSQL transaction, ids included (the
identity sequences then continue after them). The tables are the SQLite file's own, read
from its schema (``sqlite_master``), not a list kept here: a migration that adds a table is
carried without a change to this file, and a table PostgreSQL has that the file lacks (or
the other way round) is refused before anything is written. Before it commits, each table's
rows are counted and hashed on both sides (the same normalisation of each value); a
difference undoes the whole copy: a failed or partial copy leaves the PostgreSQL database as
it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import asyncpg

from . import open_store
from .postgres import PostgresStore
from .sqlite import SqliteStore

#: PostgreSQL's migrations bookkeeping (SQLite keeps its version in ``PRAGMA user_version``).
_BOOKKEEPING = frozenset({"schema_version"})


class TransferError(Exception):
    """The copy cannot be made (the message says why); nothing was written."""


@dataclass(frozen=True, slots=True)
class Copied:
    """One table after the copy: its rows, and the hash of their contents, the same in both
    databases."""

    table: str
    rows: int
    digest: str  # sha256 of the table's rows, normalised alike on both sides (hex)


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    columns: list[str]
    rows: list[tuple[Any, ...]]


def _uri(path: Path) -> str:
    return f"file:{urllib.parse.quote(str(path.absolute()), safe='/')}?mode=ro"


def sqlite_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of a SQLite database (none of SQLite's own), in an order that satisfies
    their foreign keys (a table after those it references; else in the order made)."""
    names = [
        str(row[0])
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
        )
    ]
    needs = {
        name: {str(fk[2]) for fk in db.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and needs[n] <= set(ordered)]
        if not ready:  # a cycle, or a key to a table that is not there: keep the made order
            ready = [n for n in names if n not in ordered][:1]
        ordered.extend(ready[:1])
    return ordered


def _read_all(path: Path) -> list[_Table]:
    """Every table of the file, read in one transaction (one consistent snapshot)."""
    db = sqlite3.connect(_uri(path), uri=True)
    try:
        db.execute("BEGIN")
        found = []
        for name in sqlite_tables(db):
            cursor = db.execute(f'SELECT * FROM "{name}"')  # names from sqlite_master
            columns = [d[0] for d in cursor.description]
            found.append(_Table(name, columns, cursor.fetchall()))
        db.execute("COMMIT")
        return found
    finally:
        db.close()


def _coerce(value: Any, kind: str) -> Any:
    # SQLite keeps what it was given; PostgreSQL's COPY wants each column's own type.
    if value is None:
        return None
    if kind in ("bigint", "integer", "smallint"):
        return int(value)
    if kind in ("double precision", "real"):
        return float(value)
    return str(value)


def _normal(value: Any) -> Any:
    """A value as both sides are hashed: numbers as numbers (``1`` and ``1.0`` apart), text
    as text."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | str) or value is None:
        return value
    return str(value)


def digest(rows: Iterable[Sequence[Any]]) -> str:
    """The sha256 of a table's rows, whatever their order (each row normalised, as JSON)."""
    lines = sorted(
        json.dumps([_normal(v) for v in row], ensure_ascii=False, separators=(",", ":"))
        for row in rows
    )
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


async def sqlite_to_postgres(path: Path, url: str) -> list[Copied]:
    """Copy the SQLite file at ``path`` into the (empty) PostgreSQL database at ``url``.

    Both are first brought to the latest schema. ``TransferError`` if the file is missing,
    the PostgreSQL database already holds games, the two have different tables, or a
    table's rows differ after the copy (count or content).
    """
    if not await asyncio.to_thread(path.is_file):
        raise TransferError(f"there is no SQLite file at {path} to copy")
    source = await SqliteStore.connect(path)  # brings an older file up to date first
    await source.close()
    tables = await asyncio.to_thread(_read_all, path)
    target = await open_store(url)
    assert isinstance(target, PostgresStore)
    try:
        async with target.pool.acquire() as db, db.transaction():
            return await _copy(db, tables)
    except asyncpg.PostgresError as exc:
        raise TransferError(f"PostgreSQL refused the copy: {exc}") from exc
    finally:
        await target.close()


async def _copy(db: Any, tables: list[_Table]) -> list[Copied]:
    if await db.fetchval("SELECT COUNT(*) FROM games"):
        raise TransferError("the PostgreSQL database already holds games: copy into an empty one")
    there = {
        str(r[0])
        for r in await db.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    } - _BOOKKEEPING
    here = {t.name for t in tables}
    if here != there:
        extra = sorted(here - there) or sorted(there - here)
        side = "PostgreSQL" if here - there else "the SQLite file"
        raise TransferError(
            f"{side} has no table {extra[0]!r}: are both at this code's schema version?"
        )
    kinds: dict[str, dict[str, str]] = {}
    for r in await db.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema()"
    ):
        kinds.setdefault(str(r[0]), {})[str(r[1])] = str(r[2])
    for table in tables:
        missing = [c for c in table.columns if c not in kinds[table.name]]
        if missing:
            raise TransferError(f"PostgreSQL's {table.name} has no column {missing[0]!r}")
        wanted = set(kinds[table.name]) - set(table.columns)
        if wanted:
            raise TransferError(f"the SQLite file's {table.name} has no column {min(wanted)!r}")
    # Emptied first, last table first: what the migrations put there (the install id, the
    # keys, counters kept by triggers) gives way, and no trigger adds to a copied row.
    for table in reversed(tables):
        await db.execute(f'DELETE FROM "{table.name}"')
    wanted_digests: dict[str, str] = {}
    for table in tables:
        types = kinds[table.name]
        records = [
            tuple(_coerce(v, types[c]) for v, c in zip(row, table.columns, strict=True))
            for row in table.rows
        ]
        await db.copy_records_to_table(table.name, records=records, columns=table.columns)
        wanted_digests[table.name] = digest(records)
    for r in await db.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() "
        "AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
    ):
        name, column = str(r[0]), str(r[1])
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence($1, $2), "
            f'COALESCE((SELECT MAX("{column}") FROM "{name}"), 0) + 1, false)',
            name,
            column,
        )
    copied = []
    for table in tables:
        columns = ", ".join(f'"{c}"' for c in table.columns)
        rows = await db.fetch(f'SELECT {columns} FROM "{table.name}"')
        found = digest(tuple(r) for r in rows)
        if len(rows) != len(table.rows) or found != wanted_digests[table.name]:
            same = "equal" if found == wanted_digests[table.name] else "different"
            raise TransferError(
                f"{table.name} differs after the copy ({len(table.rows)} rows in SQLite, "
                f"{len(rows)} in PostgreSQL, {same} contents): nothing was copied"
            )
        copied.append(Copied(table.name, len(rows), found))
    return copied
