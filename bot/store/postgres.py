"""The PostgreSQL backend (``DATABASE_URL=postgresql://...``): for shard processes, on one host
or several, that share one database.

asyncpg with a pool. Each unit of work runs in a transaction of its own on a connection of
its own, so two games' writes never share one; PostgreSQL's row locks and the version check
in ``plans`` decide which of two moves on one game wins. The plans are the same ones the
SQLite backend runs; only ``?`` becomes ``$n`` here.
"""

from __future__ import annotations

import functools
import logging
import re
import urllib.parse
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

import asyncpg

from bot.metrics import STORE_WRITES

from .base import Store, check_schema, drive, migration_files
from .records import StoreUnavailable
from .sql import Conflict, Plan, Query, Row

log = logging.getLogger(__name__)

R = TypeVar("R")

#: Connections per process: a unit of work holds one for a few milliseconds.
POOL_SIZE = 10
#: A unit of work that meets a deadlock (two games finishing with the same players, say) is
#: run again this many times; PostgreSQL has undone it whole.
DEADLOCK_RETRIES = 3
#: The key of the advisory lock that lets one process migrate at a time.
_MIGRATION_LOCK = 0x59_41_48_54  # "YAHT"

#: Errors that mean the database, not the write, is the problem: the server is gone or
#: shutting down, out of disk or connections, or read-only (a standby).
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,  # also a connection lost mid-statement
    asyncpg.InsufficientResourcesError,
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.CannotConnectNowError,
    asyncpg.exceptions.OperatorInterventionError,
)

#: Whatever keeps a connection from being made (the server down, no such database or role,
#: a refused password, ...): one line saying what to do (``cannot_connect``).
_CANNOT_CONNECT: tuple[type[BaseException], ...] = (
    *_UNAVAILABLE,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
_PLACEHOLDER = re.compile(r"'[^']*'|\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (not inside string literals)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


async def _nothing_to_reset(db: Connection) -> None:
    """What a connection needs before it goes back to the pool: nothing. asyncpg's default
    (RESET ALL, UNLISTEN, CLOSE ALL, ...) costs a round trip per release, and the store
    leaves no session state behind; an open transaction is still rolled back by the pool."""


def _plain(value: Any) -> Any:
    # AVG() is NUMERIC here (a Decimal); SQLite hands back a float.
    return float(value) if isinstance(value, Decimal) else value


async def _execute(db: Connection, query: Query) -> list[Row]:
    sql = numbered(query.postgres or query.sql)
    if query.many:
        await db.executemany(sql, query.params)
        return []
    if query.conflicts:
        try:
            async with db.transaction():  # a savepoint: a failed statement would end the rest
                records = await db.fetch(sql, *query.params)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from None
    else:
        records = await db.fetch(sql, *query.params)
    return [tuple(_plain(v) for v in record) for record in records]


class PostgresStore(Store):
    """The store in a PostgreSQL database (its schema is the one the URL's search_path
    names, else public)."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def connect(cls, url: str, migrate: bool = True) -> PostgresStore:
        """Connect a pool to ``url`` and bring the schema up to date."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, reset=_nothing_to_reset
            )
        except _CANNOT_CONNECT as exc:
            raise StoreUnavailable(cannot_connect(url, exc)) from exc
        return await cls(pool).ready(migrate)

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (for the transfer from SQLite, which copies in bulk)."""
        return self._pool

    async def close(self) -> None:
        await self._pool.close()

    async def _run_read(self, plan: Plan[R]) -> R:
        try:
            async with self._pool.acquire() as db:
                return await drive(plan, functools.partial(_execute, db))
        except _UNAVAILABLE as exc:
            plan.close()
            raise StoreUnavailable(str(exc)) from exc

    async def _run_write(self, make: Callable[[], Plan[R]]) -> R:
        for attempt in range(DEADLOCK_RETRIES + 1):
            try:
                with STORE_WRITES.time():
                    async with self._pool.acquire() as db, db.transaction():
                        return await drive(make(), functools.partial(_execute, db))
            except asyncpg.DeadlockDetectedError:
                if attempt == DEADLOCK_RETRIES:
                    raise
                log.warning("a write met a deadlock and was undone; running it again")
            except _UNAVAILABLE as exc:
                log.error("the database refused a write (%s): moves are refused until it can", exc)
                raise StoreUnavailable(str(exc)) from exc
        raise AssertionError("unreachable")

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        async with self._pool.acquire() as db:
            return await _version(db)

    async def migrate(self, target: int | None = None) -> int:
        # One process migrates at a time: the lock is the session's, taken before the
        # transaction begins, so a process that waited for it starts its transaction (and
        # reads the catalog) after the other's commit, and finds the work done.
        async with self._pool.acquire() as db:
            await db.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                before, after = await _migrate(db, target)
                self.migrated_from = before
            finally:
                await db.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        if after != before:
            log.info("database schema migrated from version %d to %d", before, after)
        return after


def cannot_connect(url: str, exc: BaseException) -> str:
    """Why a connection to ``url`` failed and what to do, in one line (no password: the
    server's message never holds one, and the URL is not repeated)."""
    parts = urllib.parse.urlsplit(url)
    where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    name = urllib.parse.unquote(parts.path.lstrip("/")) or "(the user's name)"
    said = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        advice = f"create it (createdb {name}) or correct the database's name in DATABASE_URL"
    elif isinstance(exc, asyncpg.InvalidPasswordError):
        advice = "correct the password in DATABASE_URL"
    elif isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        advice = "create the role (createuser) or correct the user in DATABASE_URL"
    elif isinstance(exc, OSError | TimeoutError):
        advice = f"is PostgreSQL running at {where}, and does it accept connections from here?"
    else:
        advice = "check DATABASE_URL and the server's log"
    return f"PostgreSQL at {where}: {said} ({advice})"


async def _migrate(db: Connection, target: int | None) -> tuple[int, int]:
    """Apply the newer migrations in one transaction: (version before, version after)."""
    async with db.transaction():
        before = await _version(db)
        check_schema(before)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
        after = before
        for number, path in migration_files("postgres"):
            if number > before and (target is None or number <= target):
                await db.execute(path.read_text(encoding="utf-8"))  # a whole script
                after = number
        await db.execute("DELETE FROM schema_version")
        await db.execute("INSERT INTO schema_version (version) VALUES ($1)", after)
    return before, after


async def _version(db: Connection) -> int:
    # The catalog itself, read with the statement's snapshot: to_regclass() answers from the
    # backend's cache, which can still say "no such table" just after another process made it.
    found = await db.fetchval(
        "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c "
        "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relname = 'schema_version' AND n.nspname = current_schema())"
    )
    if not found:
        return 0
    value = await db.fetchval("SELECT MAX(version) FROM schema_version")
    return int(value or 0)
