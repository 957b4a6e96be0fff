"""Shared fixtures: a real database per test, a SQLite file or a PostgreSQL schema.

``database`` (and ``store``, made from it) runs each test that uses it twice: on a SQLite
file and on a fresh schema of the PostgreSQL server that ``TEST_DATABASE_URL`` names
(default the local server, 127.0.0.1:5432, database ``test``). Without a server those runs
are left out with one line saying why, except in CI (``CI=true``), where that is an error.

End-to-end tests are about Discord and the bot, not the database: they run on SQLite only,
unless marked ``both_databases`` (a restart, a crash, shards, concurrent writers: what the
store does under them). The store's own tests (tests/store) cover every plan on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np
import pytest

from bot.store import Store, open_store
from bot.strategy import Table, solve
from bot.strategy.distribution import Distributions
from bot.strategy.distribution_build import solve_distributions
from bot.strategy.table_file import (
    TableFileError,
    distributions_path,
    load_distributions,
    load_or_build,
    save,
    save_distributions,
    table_path,
)

TEST_DATABASE_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
).strip()
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

Database = Path | str  # a SQLite file, or a PostgreSQL URL


def with_search_path(url: str, schema: str) -> str:
    """``url`` with its connections' search_path set to ``schema``."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _reach(url: str) -> str | None:
    try:
        db = await asyncpg.connect(url, timeout=5)
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await db.close()
    return None


_SKIPPED: list[str] = []  # the one line said at the end of a run without PostgreSQL


def _on_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("backend") == "postgres"


def _once(item: pytest.Item) -> bool:
    """Whether ``item`` runs on SQLite only: marked so, or an end-to-end test not marked
    ``both_databases``."""
    if item.get_closest_marker("sqlite_only"):
        return True
    e2e = Path(str(item.fspath)).parent.name == "e2e"
    return e2e and item.get_closest_marker("both_databases") is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a reachable server, leave out the PostgreSQL runs (say so once), or, in CI,
    stop: there they must run."""
    for item in items:  # the fast lane is -m "not e2e"
        if Path(str(item.fspath)).parent.name == "e2e":
            item.add_marker(pytest.mark.e2e)
    single = [i for i in items if _on_postgres(i) and _once(i)]
    if single:  # about SQLite itself (its file, its writer thread): once is enough
        items[:] = [item for item in items if item not in single]
        config.hook.pytest_deselected(items=single)
    wanted = [item for item in items if _on_postgres(item)]
    if not wanted:
        return
    problem = asyncio.run(_reach(TEST_DATABASE_URL))
    if problem is None:
        return
    where = f"PostgreSQL is not reachable at TEST_DATABASE_URL={TEST_DATABASE_URL} ({problem})"
    if IN_CI:
        raise pytest.UsageError(f"{where}: CI runs every test on PostgreSQL too.")
    items[:] = [item for item in items if not _on_postgres(item)]
    config.hook.pytest_deselected(items=wanted)
    _SKIPPED.append(f"{len(wanted)} tests on PostgreSQL skipped: {where}.")
    workeroutput = getattr(config, "workeroutput", None)  # a pytest-xdist worker: tell the
    if workeroutput is not None:  # controller, which prints the summary
        workeroutput["postgres_skipped"] = _SKIPPED[-1]


def pytest_configure(config: pytest.Config) -> None:
    """In CI, with pytest-xdist, the controller checks the server itself: a worker that
    stops at collection would only say "internal error"."""
    is_worker = hasattr(config, "workerinput")
    if IN_CI and not is_worker and config.getoption("numprocesses", default=None):
        problem = asyncio.run(_reach(TEST_DATABASE_URL))
        if problem is not None:
            raise pytest.UsageError(
                f"PostgreSQL is not reachable at TEST_DATABASE_URL={TEST_DATABASE_URL} "
                f"({problem}): CI runs every test on PostgreSQL too."
            )


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """(pytest-xdist's controller) A worker's line about PostgreSQL, said once."""
    line = getattr(node, "workeroutput", {}).get("postgres_skipped")
    if line and line not in _SKIPPED:
        _SKIPPED.append(line)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in _SKIPPED:
        terminalreporter.write_line(line, yellow=True)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test server's URL (collection has checked that it answers)."""
    return TEST_DATABASE_URL


@pytest.fixture
async def postgres_schema(postgres_url: str) -> AsyncIterator[str]:
    """A fresh, empty schema on the test server (dropped after the test): its URL."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(postgres_url, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest.fixture(scope="session")
def official(pytestconfig: pytest.Config) -> Table:
    """The official strategy table, with expected squares (solved once, then cached on disk
    as it was solved: float64)."""
    return solved(pytestconfig, "official", variance=True)


@pytest.fixture(scope="session")
def official_values(official: Table) -> Table:
    """The official table without squares: what the bot loads. Its values are the variance
    solve's, to the bit (one solve serves both; ``test_solver`` checks a values-only solve
    against it)."""
    return Table(official.rules, official.value, None)


ROOT = Path(__file__).resolve().parent.parent
#: What a solved table depends on: a change to any of these solves the cached tables again.
_SOLVED_FROM = sorted(
    [
        *(ROOT / "bot" / "engine").glob("*.py"),
        *(
            ROOT / "bot" / "strategy" / f
            for f in ("solver.py", "states.py", "dice_space.py", "table_file.py")
        ),
        *(ROOT / "bot" / "strategy").glob("distribution*.py"),
    ]
)


def _solved_folder(config: pytest.Config) -> Path:
    """pytest's cache folder for solved tables, under a name that changes with the engine
    and solver (a change to either solves them again)."""
    digest = hashlib.sha256()
    for path in _SOLVED_FROM:
        digest.update(path.read_bytes())
    return config.cache.mkdir(f"strategy-{digest.hexdigest()[:12]}")


@contextlib.contextmanager
def _one_builder(folder: Path, name: str) -> Iterator[None]:
    """Held while ``name`` is looked for and, if missing, built: with two test workers
    (pytest-xdist) the second waits for the first's file instead of solving it again beside
    it on the same two cores."""
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached_table(config: pytest.Config, rules: str) -> Table:
    """The table for ``rules`` as the bot loads it (float32, from its file), solved once and
    kept in pytest's cache folder."""
    folder = _solved_folder(config)
    with _one_builder(folder, rules):
        table, _ = load_or_build(folder, rules)
    return table


def solved(config: pytest.Config, rules: str, variance: bool = False) -> Table:
    """``solve(rules, variance)`` exactly as solved (float64), kept in pytest's cache folder
    so that a second run of the suite, or of one test, does not solve it again."""
    folder = _solved_folder(config)
    name = f"{rules}-variance" if variance else rules
    paths = [folder / f"{name}.value.npy", folder / f"{name}.square.npy"][: 1 + variance]
    with _one_builder(folder, name):
        if all(path.exists() for path in paths):
            arrays = [np.load(path) for path in paths]
            return Table(rules, arrays[0], arrays[1] if variance else None)
        table = solve(rules, variance=variance)
        for path, array in zip(paths, [table.value, table.square], strict=False):
            partial = path.with_suffix(".partial.npy")
            np.save(partial, array)
            partial.replace(path)  # whole or absent: a run stopped half-way leaves no torn file
        return table


@pytest.fixture(scope="session")
def relaxed_joker_values(pytestconfig: pytest.Config) -> Table:
    """The ``relaxed-joker`` table, as the bot loads it (solved once, then cached on disk)."""
    return cached_table(pytestconfig, "relaxed-joker")


@pytest.fixture(scope="session")
def bonus_turn_values(pytestconfig: pytest.Config) -> Table:
    """The ``bonus-turn`` table, as the bot loads it (solved once, then cached on disk)."""
    return cached_table(pytestconfig, "bonus-turn")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file (in a folder that does not exist yet)."""
    return tmp_path / "data" / "yahtzee.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return str(request.param)


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest, db_path: Path) -> Database:
    """A fresh database: a SQLite file (not yet created) or a PostgreSQL schema's URL."""
    if backend == "sqlite":
        return db_path
    return str(request.getfixturevalue("postgres_schema"))


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    """An open, migrated store on a real database."""
    s = await open_store(database)
    yield s
    await s.close()


async def fetch(database: Database, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of one raw statement (``?`` placeholders) on either database, outside the store
    (committed)."""
    if isinstance(database, Path):
        import aiosqlite

        async with aiosqlite.connect(database) as db:
            rows = [tuple(r) for r in await db.execute_fetchall(sql, params)]
            await db.commit()
            return rows
    from bot.store.postgres import numbered

    db = await asyncpg.connect(database)
    try:
        return [tuple(r) for r in await db.fetch(numbered(sql), *params)]
    finally:
        await db.close()


async def execute_many(database: Database, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """One raw statement for each of ``rows`` on either database, committed."""
    if isinstance(database, Path):
        import aiosqlite

        async with aiosqlite.connect(database) as db:
            await db.executemany(sql, rows)
            await db.commit()
        return
    from bot.store.postgres import numbered

    db = await asyncpg.connect(database)
    try:
        await db.executemany(numbered(sql), rows)
    finally:
        await db.close()


async def integrity(database: Database) -> str:
    """ "ok" if the database is sound: SQLite's own check, and on both databases every game's
    version is its move log's last entry (no move lost, none without its game change)."""
    if isinstance(database, Path):
        (verdict,) = (await fetch(database, "PRAGMA integrity_check"))[0]
        if verdict != "ok":
            return str(verdict)
    torn = await fetch(
        database,
        "SELECT games.id FROM games LEFT JOIN (SELECT game_id, MAX(version) AS last, "
        "COUNT(*) AS entries FROM moves GROUP BY game_id) AS log ON log.game_id = games.id "
        "WHERE log.last IS NULL OR log.last <> games.version OR log.entries <> games.version + 1",
    )
    return f"torn games: {torn}" if torn else "ok"


def cached_distributions(config: pytest.Config, table: Table, open_boxes: int) -> Distributions:
    """``solve_distributions(table, open_boxes)`` as the bot loads them (saved, read back),
    solved once and kept in pytest's cache folder (tens of seconds of CPU each)."""
    path = _solved_folder(config) / f"to-win-{table.rules}-{open_boxes}.bin"
    with _one_builder(path.parent, path.stem):
        try:
            return load_distributions(path, table.rules)
        except TableFileError:
            pass
        save_distributions(solve_distributions(table, open_boxes=open_boxes), path)  # atomic
        return load_distributions(path, table.rules)


@pytest.fixture(scope="session")
def to_win(pytestconfig: pytest.Config, official_values: Table) -> Distributions:
    """The To-win bot's distributions for the last three turns (all of them take minutes;
    the bot plays its earlier turns as the Optimal bot where a build is partial)."""
    return cached_distributions(pytestconfig, official_values, 3)


@pytest.fixture(scope="session")
def table_files(
    tmp_path_factory: pytest.TempPathFactory, official_values: Table, to_win: Distributions
) -> Path:
    """A folder with the solved official table and the To-win distributions as the bot
    saves them, written once a session (``link_tables`` links them into each data folder)."""
    folder = tmp_path_factory.mktemp("tables")
    save(official_values, table_path(folder, "official"))
    save_distributions(to_win, distributions_path(folder, "official"))
    load_distributions(distributions_path(folder, "official"), "official")  # writes its copy
    return folder


def link_tables(shared: Path, folder: Path) -> None:
    """Hard-link the session's table files (``table_files``) into a bot's data folder, where
    it looks for them: no copy of megabytes a start. The bot never writes a file in place
    (it saves to a new file and renames it over the old), so the shared ones stay whole."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in shared.iterdir():
        target = folder / source.name
        if not target.exists():
            os.link(source, target)
