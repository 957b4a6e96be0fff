"""The solved tables, built once per test session (each solve takes seconds)."""

from __future__ import annotations

import pytest

from bot.strategy import Table, solve


@pytest.fixture(scope="session")
def free() -> Table:
    """The free-choice Joker table."""
    return solve("free")
