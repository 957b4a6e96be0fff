"""Shards start together: processes that open one empty database at the same moment all come
up, one of them migrates (under the database's lock: PostgreSQL's advisory lock, SQLite's
BEGIN IMMEDIATE), the others find the work done and read the same daily key."""

from __future__ import annotations

import asyncio
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.store import latest_schema_version, open_store

from ..conftest import TEST_DATABASE_URL, Database, fetch, with_search_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def empty_databases(backend: str, tmp_path: Path) -> AsyncIterator[list[Database]]:
    """Five fresh empty databases of the backend: SQLite files, or PostgreSQL schemas."""
    if backend == "sqlite":
        yield [tmp_path / f"db{i}" / "yahtzee.sqlite3" for i in range(5)]
        return
    schemas = [f"t_{uuid.uuid4().hex[:16]}" for _ in range(5)]
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        for schema in schemas:
            await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield [with_search_path(TEST_DATABASE_URL, schema) for schema in schemas]
    finally:
        for schema in schemas:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


async def test_three_stores_opened_at_once_on_an_empty_database(
    empty_databases: list[Database],
) -> None:
    """Three openings on their own connections, at once, five times over (on PostgreSQL
    one or two of them failed with 'relation "games" already exists', about every other
    time)."""
    for database in empty_databases:
        opened = await asyncio.gather(
            *(open_store(database) for _ in range(3)), return_exceptions=True
        )
        stores = [s for s in opened if not isinstance(s, BaseException)]
        try:
            assert stores == opened, [repr(e) for e in opened if isinstance(e, BaseException)]
            assert {await s.schema_version() for s in stores} == {latest_schema_version()}
            assert len({s.daily_key for s in stores}) == 1
            assert sorted(s.migrated_from for s in stores) == [0, *(2 * [latest_schema_version()])]
        finally:
            for store in stores:
                await store.close()
        assert await fetch(database, "SELECT COUNT(*) FROM secrets") == [(1,)]


async def test_three_processes_started_at_once_all_come_up(
    database: Database, tmp_path: Path
) -> None:
    """Three `python -m bot migrate` processes started together on one empty database (the
    offline part of a shard's first start): each exits 0."""
    setting = (
        {"DATABASE_PATH": str(database)}
        if isinstance(database, Path)
        else {"DATABASE_URL": database}
    )  # one empty database, either kind
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DATA_DIR"))}
    env.update(setting, PYTHONPATH=str(ROOT))
    started = time.monotonic()
    pipe = asyncio.subprocess.PIPE
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "migrate", env=env, cwd=tmp_path, stdout=pipe, stderr=pipe
        )
        for _ in range(3)
    ]
    said = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in processes)), 120)
    took = time.monotonic() - started
    assert [p.returncode for p in processes] == [0, 0, 0], [err.decode() for _, err in said]
    outs = sorted(out.decode().split(": ", 1)[1] for out, _ in said)
    latest = latest_schema_version()
    assert outs == [f"created, schema version {latest}\n"] + 2 * [
        f"schema version {latest}, up to date\n"
    ]
    print(f"three first starts at once ({type(database).__name__}): {took:.2f} s")
