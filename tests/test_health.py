"""/readyz names what failed without the driver's raw text (which may hold a host, a user
or a path, and is for the log)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from bot.app import YahtzeeBot


class _Unreachable:
    dialect = "postgres"

    async def schema_version(self) -> int:
        raise ConnectionRefusedError("connect to 10.0.0.7:5432 as secret_user failed")


async def test_readiness_names_the_database_not_the_drivers_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = SimpleNamespace(store=_Unreachable())
    with caplog.at_level(logging.WARNING):
        problem = await YahtzeeBot._database_problem(bot)  # type: ignore[arg-type]
    assert problem == "the database (postgres) does not answer (ConnectionRefusedError)"
    assert "secret_user" in caplog.text  # the operator's log has it all
