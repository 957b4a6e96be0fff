"""The service's tests' fixtures: scripted dice, a clock the test moves, and the service
built on the test's database (``store``, from ``tests/conftest.py``) with both."""

from __future__ import annotations

import pytest

from bot.engine import ScriptedDice
from bot.games import GameService
from bot.store import Store

from ..clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def dice() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture
def service(store: Store, dice: ScriptedDice, clock: FakeClock) -> GameService:
    """The service as the cogs use it, with dice and a clock the test controls."""
    return GameService(store, dice, clock)
