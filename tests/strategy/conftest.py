"""The solved tables, built once (each solve takes seconds) and kept in pytest's cache."""

from __future__ import annotations

import pytest

from bot.strategy import Table

from ..conftest import solved


@pytest.fixture(scope="session")
def free(pytestconfig: pytest.Config) -> Table:
    """The free-choice Joker table."""
    return solved(pytestconfig, "free")
