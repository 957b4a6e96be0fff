"""``Store``: runs the plans of ``bot.store.plans`` on a database, whichever one it is.

``await store.read(plans.get_game, game_id)`` runs a read, ``await store.write(plans.
update_game, ...)`` a unit of work, on a backend: ``SqliteStore`` (the default, one file) or
``PostgresStore`` (``DATABASE_URL=postgresql://...``, for processes that share one
database). ``bot.store.open_store(target)`` picks the backend from the target.
"""

from __future__ import annotations

import abc
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import ParamSpec, Self, TypeVar

from .plans.settings import keep_secret
from .records import SchemaTooNew
from .sql import Conflict, Plan, Query, ReadPlan, Row, WritePlan

P = ParamSpec("P")
R = TypeVar("R")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migration_files(dialect: str = "sqlite") -> list[tuple[int, Path]]:
    """The numbered migration scripts of a dialect ("sqlite" or "postgres"), in order."""
    folder = MIGRATIONS / dialect
    found = []
    for path in folder.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


def latest_schema_version() -> int:
    """The number of the newest migration (the same in both dialects)."""
    return max(n for n, _ in migration_files())


def check_schema(found: int) -> None:
    """``SchemaTooNew`` if a database at schema version ``found`` is newer than this code."""
    known = latest_schema_version()
    if found > known:
        raise SchemaTooNew(found, known)


def is_postgres_url(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


async def drive(plan: Plan[R], execute: Callable[[Query], Awaitable[list[Row]]]) -> R:
    """Run a plan with an async ``execute``; a ``Conflict`` it raises goes into the plan."""
    try:
        query = next(plan)
        while True:
            try:
                rows = await execute(query)
            except Conflict as exc:
                query = plan.throw(exc)
            else:
                query = plan.send(rows)
    except StopIteration as stop:
        result: R = stop.value
        return result
    finally:
        plan.close()


class Store(abc.ABC):
    """The bot's games, moves, results and settings.

    Writes are units of work (``write``): each is committed whole or not at all, and no two
    interleave. Reads never wait behind a write and see every committed one.
    """

    #: "sqlite" or "postgres"
    dialect: str = ""
    _daily_key: bytes | None = None
    #: the schema version ``migrate`` found, in its transaction (None: not migrated here)
    migrated_from: int | None = None

    async def ready(self, migrate: bool) -> Self:
        """This store, its schema brought up to date and the deployment's secrets made or
        read if ``migrate`` (closed if that fails); ``SchemaTooNew`` if a newer version of the
        bot has migrated it further than this code knows (the migration checks again, in its
        transaction)."""
        try:
            check_schema(await self.schema_version())
            if migrate:
                await self.migrate()
                self._daily_key = await self._make_daily_key()
        except BaseException:
            await self.close()
            raise
        return self

    @property
    def daily_key(self) -> bytes:
        """This deployment's key for the daily challenge's dice: made by the first process
        to open the database, read by every later one at opening."""
        if self._daily_key is None:
            raise RuntimeError("the daily key is read when the store opens with its migrations")
        return self._daily_key

    async def _make_daily_key(self) -> bytes:
        # 32 random bytes made by the first process to open the database, read by every
        # later one (and kept by a backup of the database).
        return bytes.fromhex(await self.write(keep_secret, "daily", secrets.token_hex(32)))

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connections, after every write already handed over."""

    async def read(self, plan: ReadPlan[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a read: ``await store.read(plans.get_game, game_id)``, outside any unit of
        work (it never waits behind one, and sees every one committed)."""
        return await self._run_read(plan.make(*args, **kwargs))

    async def write(self, plan: WritePlan[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """The one way to write: ``await store.write(plans.update_game, ...)``.

        The plan (several, if it is made of others) runs in one transaction, with nothing
        else interleaved; this returns its result once its writes are committed, or raises
        its error with its writes undone (nobody else's). ``StoreUnavailable`` if the
        database cannot take writes now.
        """
        return await self._run_write(lambda: plan.make(*args, **kwargs))

    @abc.abstractmethod
    async def _run_read(self, plan: Plan[R]) -> R:
        """The backend's part of ``read``: run a plan of reads on the reading connection."""

    @abc.abstractmethod
    async def _run_write(self, make: Callable[[], Plan[R]]) -> R:
        """The backend's part of ``write``: run the plan ``make()`` makes as one unit of
        work (``make`` is called again if the unit must run again)."""

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abc.abstractmethod
    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration newer than the database's version, all in one
        transaction (one process migrates; the others find it done)."""

    @property
    def group_commit(self) -> tuple[int, int] | None:
        """(COMMITs, units of work they held) since the store opened, where writes are
        batched (SQLite); None where each unit commits alone."""
        return None
