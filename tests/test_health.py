"""/readyz names what failed without the driver's raw text (which may hold a host, a user
or a path, and is for the log)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

import pytest

from bot.app import YahtzeeBot


class _Unreachable:
    dialect = "postgres"

    async def schema_version(self) -> int:
        raise ConnectionRefusedError("connect to 10.0.0.7:5432 as secret_user failed")


@dataclass
class _Bot:
    """The bot as its readiness check reads it: its store."""

    store: _Unreachable


async def test_readiness_names_the_database_not_the_drivers_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = _Bot(_Unreachable())
    with caplog.at_level(logging.WARNING):
        problem = await YahtzeeBot._database_problem(cast(Any, bot))
    assert problem == "the database (postgres) does not answer (ConnectionRefusedError)"
    assert "secret_user" in caplog.text  # the operator's log has it all
