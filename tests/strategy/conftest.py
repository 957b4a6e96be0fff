"""The solved tables, built once (each solve takes seconds) and kept in pytest's cache."""

from __future__ import annotations

import pytest

from bot.strategy import Table
from bot.strategy.distribution import Distributions
from bot.strategy.distribution_build import Builder

from ..conftest import solved


@pytest.fixture(scope="session")
def free(pytestconfig: pytest.Config) -> Table:
    """The free-choice Joker table."""
    return solved(pytestconfig, "free")


@pytest.fixture(scope="session")
def bonus_turn_build(bonus_turn_values: Table) -> tuple[Builder, Distributions]:
    """A ``bonus-turn`` build of the last turn (a bonus turn taken is a turn played, so it
    covers cards with 12 turns used: boxes plus bonuses): the builder, holding that level's
    functions for the level above, and the distributions."""
    builder = Builder(bonus_turn_values)
    packer, ids = builder.run(open_boxes=1)
    return builder, packer.result("bonus-turn", 1, ids)


@pytest.fixture(scope="session")
def bonus_turn_to_win(bonus_turn_build: tuple[Builder, Distributions]) -> Distributions:
    """The To-win bot's ``bonus-turn`` distributions for the last turn."""
    return bonus_turn_build[1]


@pytest.fixture(scope="session")
def official_build(official_values: Table) -> Builder:
    """An official build of the last two turns (a second or two), holding that level's
    functions for the level above."""
    builder = Builder(official_values)
    builder.run(open_boxes=2)
    return builder
