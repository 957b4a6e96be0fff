"""Fixtures for the end-to-end tests: a fake Discord on 127.0.0.1 and the real bot against it.

The only patching is here: discord.py's REST base URL points at the fake (the gateway URL
then comes from the fake's GET /gateway/bot). The bot is the same YahtzeeBot class, with the
same setup_hook, that ``python -m bot`` runs.

Two things are shared rather than made again for each of the hundreds of starts: the solved
strategy table and the To-win distributions are written once a session and linked into each
bot's data folder (the bot loads them from there as always), and the bot's helpers (drawing,
analysing) run in threads of the test's process (``bot.workers.in_threads``), as with
``processes=0``, rather than in two new processes a start. ``start_bot(processes=True)`` keeps
the processes; tests/test_workers.py and test_process.py (``python -m bot``) test them.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import weakref
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
from bot.workers import in_threads

from ..clock import FakeClock
from ..conftest import Database, link_tables
from .fake_discord import FakeDiscord

TOKEN = "fake.bot.token"
StartBot = Callable[..., Awaitable[YahtzeeBot]]


ROOT = Path(__file__).resolve().parents[2]
#: Where the bot's own code is: a task running it is the bot's work whoever started it (a
#: test calling a cog's timer directly starts a computer's turn too).
BOT_CODE = (str(ROOT / "bot"), str(ROOT / "cogs"), str(Path(discord.__file__).parent))
#: Set in the context a bot is started in (``launch``): every task created from it, its
#: event handlers and background tasks included, inherits it.
_IN_BOT: contextvars.ContextVar[bool] = contextvars.ContextVar("in_bot", default=False)
#: Tasks that run as long as a bot or the fake does (a connection, a timer's loop, the bot
#: itself): never work in progress. The fake counts its handling of requests itself
#: (``FakeDiscord.handling``).
LONG_LIVED = {
    "Client.start",  # the bot
    "Shard.worker",  # a shard's gateway connection
    "Loop._loop",  # a discord.ext.tasks loop (the turn timers)
    "YahtzeeBot._prune_moves",  # retention, hourly
    "RequestHandler.start",  # the fake's side of a kept-alive connection
    "RequestHandler._handle_request",  # the fake's handling of a request or the gateway
}
#: What the bot writes to its database a moment after an answer, for nobody's answer
#: (which boards the answers showed; what a decision cost): never shown on Discord, so not
#: work a person waits for (``settle`` would wait ~50 ms more a click, the e2e suite half
#: as long again). A test that reads those records right after a click puts them on record
#: first (``bot.games.flush_shown()``; ``coaching.costs_settled``), as a restart does.
WRITE_BEHIND = ("boards-shown", "cost-")
WRITE_BEHIND_CODE = {"WriteBatch._run"}


class BotTasks:
    """The event loop's task factory while a test runs: it notes the tasks created in a
    bot's context (``launch``), so that ``work`` can tell the bot's tasks from the test's
    own (its clicks gathered at once, its ``wait_for`` around an event)."""

    def __init__(self) -> None:
        self.tasks: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()

    def __call__(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, context=context)
        if context.run(_IN_BOT.get) if context is not None else _IN_BOT.get():
            self.tasks.add(task)
        return task

    def work(self) -> list[str]:
        """The bots' work in progress: their unfinished tasks (those started in a bot's
        context, or running the bot's code), but for the long-lived ones and the
        write-behind."""
        busy = []
        for task in asyncio.all_tasks():
            if task.done():
                continue
            code = getattr(task.get_coro(), "cr_code", None)
            what = getattr(code, "co_qualname", "")
            if task not in self.tasks and not getattr(code, "co_filename", "").startswith(BOT_CODE):
                continue
            if what in LONG_LIVED or what in WRITE_BEHIND_CODE:
                continue
            if task.get_name().startswith(WRITE_BEHIND):
                continue
            busy.append(f"task {task.get_name()} ({what})")
        return busy


def watch_bots(fake: FakeDiscord) -> Callable[[], None]:
    """From now on the running loop notes the bots' tasks, and ``fake.settle`` sees them
    once a bot is started here (``launch``). Returns what undoes it."""
    loop = asyncio.get_running_loop()
    tasks = BotTasks()
    loop.set_task_factory(tasks)
    fake.bot_tasks = tasks.work
    return lambda: loop.set_task_factory(None)


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord that discord.py talks to."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    # a sharded bot (SHARD_COUNT set) connects to the default gateway without asking REST
    gateway = yarl.URL(f"ws://127.0.0.1:{server.port}/gateway")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    unwatch = watch_bots(server)
    try:
        yield server
    finally:
        unwatch()
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
    table_files: Path,
    database: Database,
) -> AsyncIterator[StartBot]:
    """Start the real bot against the fake, on the test's database (call again after
    ``stop`` to restart it; ``start(other)`` starts one on another database)."""
    running: list[tuple[YahtzeeBot, asyncio.Task[None]]] = []

    async def start(
        on: Database | None = None,
        shards: tuple[int, ...] = (),
        processes: bool = False,
        **changes: Any,
    ) -> YahtzeeBot:
        """``shards``: run only these of two shards (SHARD_COUNT=2, SHARD_IDS=...);
        ``processes``: the drawing and analysing helpers in processes of their own, as
        ``python -m bot`` has them (else in threads); ``changes``: other settings
        (``metrics_port=...``)."""
        settings = dataclasses.replace(
            bot_settings(on if on is not None else database, tmp_path), **changes
        )
        if shards:
            settings = dataclasses.replace(settings, shard_count=2, shard_ids=shards)
        link_tables(table_files, settings.data_dir)  # the table and the To-win bot's
        bot = YahtzeeBot(settings, dice=dice, clock=clock, guild_ready_timeout=0.05)
        fake.watch()  # the bot runs here: settle sees its work
        task = launch(bot, processes)
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


def launch(bot: YahtzeeBot, processes: bool = False) -> asyncio.Task[None]:
    """``bot.start`` in a task of its own; unless ``processes``, with its helpers in threads
    (the task copies the context ``in_threads`` sets)."""
    token = _IN_BOT.set(True)
    try:
        if processes:
            return asyncio.create_task(bot.start(TOKEN), name="bot")
        with in_threads():
            return asyncio.create_task(bot.start(TOKEN), name="bot")
    finally:
        _IN_BOT.reset(token)


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
