"""The solved tables, built once (each solve takes seconds) and kept in pytest's cache."""

from __future__ import annotations

import pytest

from bot.strategy import Table
from bot.strategy.distribution import Distributions

from ..conftest import cached_distributions, solved


@pytest.fixture(scope="session")
def free(pytestconfig: pytest.Config) -> Table:
    """The free-choice Joker table."""
    return solved(pytestconfig, "free")


@pytest.fixture(scope="session")
def bonus_turn_to_win(pytestconfig: pytest.Config, bonus_turn_values: Table) -> Distributions:
    """The To-win bot's ``bonus-turn`` distributions for the last turn (a bonus turn taken
    is a turn played, so they cover cards with 12 turns used: boxes plus bonuses)."""
    return cached_distributions(pytestconfig, bonus_turn_values, 1)
