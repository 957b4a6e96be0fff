"""Fixtures for the end-to-end tests: a fake Discord on 127.0.0.1 and the real bot against it.

The only patching is here: discord.py's REST base URL points at the fake (the gateway URL
then comes from the fake's GET /gateway/bot). The bot is the same YahtzeeBot class, with the
same setup_hook, that ``python -m bot`` runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.app import YahtzeeBot
from bot.engine import ScriptedDice
from bot.settings import Settings
from bot.strategy import Table
from bot.strategy.distribution import Distributions
from bot.strategy.table_file import distributions_path, save, save_distributions, table_path

from ..clock import FakeClock
from ..conftest import Database
from .fake_discord import FakeDiscord

TOKEN = "fake.bot.token"
StartBot = Callable[..., Awaitable[YahtzeeBot]]


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord that discord.py talks to."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    # a sharded bot (SHARD_COUNT set) connects to the default gateway without asking REST
    gateway = yarl.URL(f"ws://127.0.0.1:{server.port}/gateway")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    try:
        yield server
    finally:
        await server.stop()
    assert server.mistakes == [], "the bot sent what Discord would show wrongly"


@pytest.fixture
def dice() -> ScriptedDice:
    """The dice every bot of the test rolls: scripted by the test."""
    return ScriptedDice()


@pytest.fixture
def clock() -> FakeClock:
    """The bots' clock: tests move it to make timers fall due (no real waiting)."""
    return FakeClock()


def bot_settings(database: Database, tmp_path: Path) -> Settings:
    """The settings of a bot on ``database`` (a SQLite file or a PostgreSQL URL); its other
    files (the strategy tables) go in ``tmp_path``/data."""
    if isinstance(database, str):
        files = tmp_path / "data" / "yahtzee.sqlite3"  # only its folder is used
        return Settings(token=TOKEN, database_path=files, database_url=database, bot_move_delay=0)
    return Settings(token=TOKEN, database_path=database, bot_move_delay=0)


def database_env(database: Database) -> dict[str, str]:
    """The environment variable that points ``python -m bot`` at ``database``."""
    if isinstance(database, str):
        return {"DATABASE_URL": database}
    return {"DATABASE_PATH": str(database)}


@pytest.fixture
async def start_bot(
    fake: FakeDiscord,
    tmp_path: Path,
    dice: ScriptedDice,
    clock: FakeClock,
    official_values: Table,
    to_win: Distributions,
    database: Database,
) -> AsyncIterator[StartBot]:
    """Start the real bot against the fake, on the test's database (call again after
    ``stop`` to restart it; ``start(other)`` starts one on another database)."""
    running: list[tuple[YahtzeeBot, asyncio.Task[None]]] = []

    async def start(
        on: Database | None = None, shards: tuple[int, ...] = (), **changes: Any
    ) -> YahtzeeBot:
        """``shards``: run only these of two shards (SHARD_COUNT=2, SHARD_IDS=...);
        ``changes``: other settings (``metrics_port=...``)."""
        settings = dataclasses.replace(
            bot_settings(on if on is not None else database, tmp_path), **changes
        )
        if shards:
            settings = dataclasses.replace(settings, shard_count=2, shard_ids=shards)
        place_table(official_values, settings.data_dir, to_win)  # and the To-win bot's
        bot = YahtzeeBot(settings, dice=dice, clock=clock, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start(TOKEN), name="bot")
        running.append((bot, task))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raises what went wrong
        assert ready in done, "the bot did not become ready"
        await fake.settle()
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def place_table(table: Table, folder: Path, to_win: Distributions | None = None) -> None:
    """Put the solved table where the bot looks, so it loads instead of building it (and
    the To-win bot's distributions: the session's partial build, for its last turns)."""
    path = table_path(folder, "official")
    if not path.exists():
        save(table, path)
    if to_win is not None and not distributions_path(folder, "official").exists():
        save_distributions(to_win, distributions_path(folder, "official"))


async def stop(bot: YahtzeeBot) -> None:
    """Stop a bot as a crash or a deploy would (its database stays)."""
    await bot.close()
