"""Shared fixtures: a real SQLite file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from bot.strategy import Table, solve


@pytest.fixture(scope="session")
def official() -> Table:
    """The official strategy table, with expected squares (solved once per test session)."""
    return solve("official", variance=True)


@pytest.fixture(scope="session")
def official_values() -> Table:
    """The official table without squares: what the bot loads (quicker to solve)."""
    return solve("official")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file (in a folder that does not exist yet)."""
    return tmp_path / "data" / "yahtzee.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    """An open, migrated store on a real file."""
    s = await Store.open(db_path)
    yield s
    await s.close()
