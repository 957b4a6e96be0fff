"""``Store``: what the rest of the bot may ask of the database, whichever one it is.

Every method is a plan of ``queries`` run by a backend: ``SqliteStore`` (the default, one
file) or ``PostgresStore`` (``DATABASE_URL=postgresql://...``, for processes that share one
database). ``bot.store.open_store(target)`` picks the backend from the target.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Concatenate, ParamSpec, Self, TypeVar

from .queries import Conflict, Plan, Query, Reads, Row, Transaction

P = ParamSpec("P")
R = TypeVar("R")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

_READS = Reads()


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


def _reading(
    read: Callable[Concatenate[Reads, P], Plan[R]],
) -> Callable[Concatenate[Store, P], Awaitable[R]]:
    """``Store.x(...)``: the plan ``Reads.x(...)`` run on the store's reading side."""

    async def run(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await store.read(read(_READS, *args, **kwargs))

    run.__name__ = read.__name__
    run.__doc__ = read.__doc__
    return run


def _writing(
    write: Callable[Concatenate[Transaction, P], Plan[R]],
) -> Callable[Concatenate[Store, P], Awaitable[R]]:
    """``Store.x(...)``: the plan ``Transaction.x(...)`` as a unit of work of its own."""

    async def run(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await store.write(lambda tx: write(tx, *args, **kwargs))

    run.__name__ = write.__name__
    run.__doc__ = f"{write.__doc__}\n\n(A unit of work of its own: see ``Store.write``.)"
    return run


class Store(abc.ABC):
    """The bot's games, moves, results and settings.

    Writes are units of work (``write``): each is committed whole or not at all, and no two
    interleave. Reads never wait behind a write and see every committed one.
    """

    #: "sqlite" or "postgres"
    dialect: str = ""

    async def ready(self, migrate: bool) -> Self:
        """This store, its schema brought up to date if ``migrate`` (closed if that fails)."""
        if migrate:
            try:
                await self.migrate()
            except BaseException:
                await self.close()
                raise
        return self

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connections, after every write already handed over."""

    @abc.abstractmethod
    async def read(self, plan: Plan[R]) -> R:
        """Run a plan of reads outside any unit of work."""

    @abc.abstractmethod
    async def write(self, work: Callable[[Transaction], Plan[R]]) -> R:
        """The one way to write: ``await store.write(lambda tx: tx.update_game(...))``.

        ``work`` makes a plan (several with ``yield from``) that runs in one transaction,
        with nothing else interleaved; this returns its result once its writes are
        committed, or raises its error with its writes undone (nobody else's).
        ``StoreUnavailable`` if the database cannot take writes now.
        """

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

    # -- reads -----------------------------------------------------------------------------

    get_game = _reading(Reads.get_game)
    live_game_in = _reading(Reads.live_game_in)
    live_daily_of = _reading(Reads.live_daily_of)
    last_finished_game_in = _reading(Reads.last_finished_game_in)
    live_games = _reading(Reads.live_games)
    live_games_of = _reading(Reads.live_games_of)
    games_by_status = _reading(Reads.games_by_status)
    boards_behind = _reading(Reads.boards_behind)
    install_id = _reading(Reads.install_id)
    meta_value = _reading(Reads.meta_value)
    due_games = _reading(Reads.due_games)
    guild_settings = _reading(Reads.guild_settings)
    games_missing_final_message = _reading(Reads.games_missing_final_message)
    moves = _reading(Reads.moves)
    results = _reading(Reads.results)
    leaderboard = _reading(Reads.leaderboard)
    player_games = _reading(Reads.player_games)
    decisions = _reading(Reads.decisions)
    player_name = _reading(Reads.player_name)
    request_recorded = _reading(Reads.request_recorded)
    logged = _reading(Reads.logged)
    has_moves = _reading(Reads.has_moves)
    daily_entry = _reading(Reads.daily_entry)
    daily_board = _reading(Reads.daily_board)

    # -- writes, each a unit of work of its own ----------------------------------------------

    create_game = _writing(Transaction.create_game)
    update_game = _writing(Transaction.update_game)
    set_messages = _writing(Transaction.set_messages)
    show_board = _writing(Transaction.show_board)
    set_move_cost = _writing(Transaction.set_move_cost)
    save_guild_settings = _writing(Transaction.save_guild_settings)
    set_meta_value = _writing(Transaction.set_meta_value)
    prune_moves = _writing(Transaction.prune_moves)
    archive_results = _writing(Transaction.archive_results)
    restore_results = _writing(Transaction.restore_results)
