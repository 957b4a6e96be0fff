"""The SQLite backend (the default): one file, one writer thread, reads on a second connection.

Writes are units of work run by the ``Writer`` thread, one at a time across every game, and
committed in batches: two games' transactions can never interleave. Reads go to a second
connection that never writes; in WAL mode they do not wait behind a write and see every
committed one. SQLite's WAL works on one host only: processes on several hosts need
PostgreSQL (``postgres.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.metrics import STORE_WRITES

from .base import Store, check_schema, drive, migration_files
from .records import StoreUnavailable
from .sql import Conflict, Plan, Query, Row
from .writer import Writer

log = logging.getLogger(__name__)

R = TypeVar("R")

#: What SQLite says when the file, not the write, is the problem.
_UNAVAILABLE = ("database or disk is full", "readonly database", "disk i/o error")


def _execute(db: sqlite3.Connection, query: Query) -> list[Row]:
    if query.many:
        db.executemany(query.sql, query.params)
        return []
    return db.execute(query.sql, query.params).fetchall()


def run_plan(db: sqlite3.Connection, plan: Plan[R]) -> R:
    """Run a plan on a connection, here and now (on the writer thread)."""
    try:
        query = next(plan)
        while True:
            try:
                rows = _execute(db, query)
            except sqlite3.IntegrityError as exc:
                if not query.conflicts:
                    raise
                query = plan.throw(Conflict(str(exc)))
            else:
                query = plan.send(rows)
    except StopIteration as stop:
        result: R = stop.value
        return result
    finally:
        plan.close()


def _statements(script: str) -> list[str]:
    """A script's statements, split where SQLite says a statement is complete."""
    out: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\r\n;"):
                out.append(pending.strip())
            pending = ""
    if pending.strip(" \t\r\n;"):
        raise ValueError(f"an incomplete statement at the end of a migration: {pending[:60]!r}")
    return out


def _migrations(target: int | None) -> Plan[tuple[int, int]]:
    """Apply the newer migrations; (version before, version after).

    Statement by statement: ``executescript`` would commit the transaction first. The
    version is read inside the transaction, so one process migrates.
    """
    rows = yield Query("PRAGMA user_version")
    current = int(rows[0][0])
    check_schema(current)
    for number, path in migration_files("sqlite"):
        if number > current and (target is None or number <= target):
            for statement in _statements(path.read_text(encoding="utf-8")):
                yield Query(statement)
            yield Query(f"PRAGMA user_version = {int(number)}")
    rows = yield Query("PRAGMA user_version")
    return current, int(rows[0][0])


#: How long a process starting beside others tries to put a new file into WAL mode.
_WAL_PATIENCE = 10.0


def _into_wal(db: sqlite3.Connection) -> None:
    """WAL mode (kept in the file once set). Processes that open a new file at the same
    moment can each be told "database is locked" at once, without the busy timeout's wait
    (SQLite does not wait there): try again for a while."""
    deadline = time.monotonic() + _WAL_PATIENCE
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _make_private(path: Path) -> None:
    """The file's folder (0700) and the file (0600) made if missing, whatever the umask:
    they hold every player's games and the daily challenge's key. SQLite gives the file's
    ``-wal`` and ``-shm`` the file's own mode."""
    if not path.parent.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.parent.chmod(0o700)  # mkdir's mode is only for the last folder, and umask'd
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:  # there already, or not to be made here: SQLite says which, as ever
        return


def _open_writer(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA busy_timeout = 2000")  # first: processes starting together wait
        _into_wal(db)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        db.close()
        raise
    return db


class SqliteStore(Store):
    """The store in one SQLite file."""

    dialect = "sqlite"

    def __init__(self, writer: Writer, reader: aiosqlite.Connection, path: Path) -> None:
        self._writer = writer
        self._db = reader
        self.path = path

    @classmethod
    async def connect(cls, path: Path, migrate: bool = True) -> SqliteStore:
        """Open (creating folders and file as needed) and bring the schema up to date."""
        if str(path) == ":memory:":
            raise ValueError("the store needs a file: its reader and writer are two connections")
        await asyncio.to_thread(_make_private, path)
        writer = Writer(await asyncio.to_thread(_open_writer, path))
        try:
            reader = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            await writer.close()
            raise
        try:
            await reader.execute("PRAGMA busy_timeout = 2000")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            await writer.close()
            raise
        return await cls(writer, reader, path).ready(migrate)

    async def close(self) -> None:
        await self._writer.close()
        await self._db.close()

    async def _fetch(self, query: Query) -> list[Row]:
        # One hop to the database thread (a cursor's execute + fetch + close would be three).
        return list(await self._db.execute_fetchall(query.sql, query.params))

    async def _run_read(self, plan: Plan[R]) -> R:
        return await drive(plan, self._fetch)

    async def _run_write(self, make: Callable[[], Plan[R]]) -> R:
        try:
            with STORE_WRITES.time():
                return await self._writer.run(lambda db: run_plan(db, make()))
        except sqlite3.OperationalError as exc:
            if not any(words in str(exc).lower() for words in _UNAVAILABLE):
                raise
            log.error("the database refused a write (%s): moves are refused until it can", exc)
            raise StoreUnavailable(str(exc)) from exc

    @property
    def group_commit(self) -> tuple[int, int]:
        return self._writer.batches, self._writer.units

    async def schema_version(self) -> int:
        """``PRAGMA user_version``: the number of the last migration applied."""
        rows = await self._fetch(Query("PRAGMA user_version"))
        return int(rows[0][0]) if rows else 0

    async def migrate(self, target: int | None = None) -> int:
        before, after = await self._run_write(lambda: _migrations(target))
        self.migrated_from = before
        if after != before:
            log.info("database schema migrated from version %d to %d", before, after)
        return after
