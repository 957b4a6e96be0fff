"""The bot: a sharding-ready discord.py client whose setup_hook opens the store, applies
migrations and loads the Discord side by name (``EXTENSIONS``). Nothing registers the
buttons with discord.py: the Discord side routes every click by its custom_id, so a button
works after any restart."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import DiceSource
from bot.games import GameService, utc_now
from bot.games import begin as begin_request
from bot.health import MetricsServer, Readiness
from bot.metrics import GAMES, GATEWAY_LATENCY, SHARDS_CONNECTED, count_rate_limits
from bot.settings import Settings
from bot.store import GameStatus, Store, open_store, plans
from bot.strategy.analyst import Analyst
from bot.workers import Workers

log = logging.getLogger(__name__)

#: The Discord side, loaded by name: each registers its own commands, cogs and handlers
#: (nothing in ``bot`` imports ``cogs``): the error handler, the core (the parts the features
#: share), then each feature's extension, in the order ``/yahtzee`` lists their commands.
EXTENSIONS = (
    "cogs.shared.errors",
    "cogs.core",
    "cogs.lobby.cog",
    "cogs.daily.cog",
    "cogs.turn.cog",
    "cogs.results.cog",
    "cogs.coaching.cog",
    "cogs.admin.cog",
)

#: Exactly what the bot needs in a channel: see it, post, embed the board, attach the images.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    create_public_threads=True,  # thread mode: one thread per game
    send_messages_in_threads=True,
)


class Tree(app_commands.CommandTree["YahtzeeBot"]):
    """The command tree: each command's task first says which request it handles (a change
    it makes is then recorded once, however many processes Discord delivered it to)."""

    async def interaction_check(self, interaction: discord.Interaction[YahtzeeBot]) -> bool:
        begin_request(interaction.id)
        return True


class YahtzeeBot(commands.AutoShardedBot):
    """The Yahtzee bot. One gateway intent, ``guilds`` (servers, channels and threads, and
    their removal): no privileged intents, and no message events either. The bot reads no
    messages (every click comes as an interaction, which needs no intent), and with the
    messages intent Discord would send it every message posted wherever it can see."""

    def __init__(
        self,
        settings: Settings,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] = utc_now,
        **options: Any,
    ) -> None:
        if settings.shard_count is not None:
            options["shard_count"] = settings.shard_count
        if settings.shard_ids:
            options["shard_ids"] = list(settings.shard_ids)
        options.setdefault("guild_ready_timeout", settings.guild_ready_seconds)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # No message cache: every click carries its message, and nothing here reads
            # cached ones (the default keeps the last 1,000 messages seen, boards with their
            # components included: memory for nothing).
            max_messages=None,
            **options,
        )
        self.settings = settings
        self.dice = dice  # None: fair dice (tests script them)
        self.clock = clock  # the real clock (tests move their own)
        self._store: Store | None = None
        self.analyst: Analyst | None = None  # the strategy table and its analysing process
        self.drawing_pool: Workers | None = None  # the process that draws the pictures
        self._games: GameService | None = None
        self._invite_logged = False
        self._health: MetricsServer | None = None
        self._pruning: asyncio.Task[None] | None = None
        self._in_flight: set[int] = set()  # interactions taken and not finished
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def store(self) -> Store:
        """The database, open once ``setup_hook`` has run."""
        if self._store is None:
            raise RuntimeError("the store is opened in setup_hook")
        return self._store

    @property
    def games(self) -> GameService:
        """The game service, ready once ``setup_hook`` has run."""
        if self._games is None:
            raise RuntimeError("the game service is created in setup_hook")
        return self._games

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of a server (Discord's rule:
        ``(guild_id >> 22) % shard_count``): timers, repairs and computer players act only
        there, so processes with different ``SHARD_IDS`` on one database never both act."""
        if self.shard_ids is None:
            return True
        if guild_id is None:  # a DM or group DM: Discord sends its interactions to shard 0 only
            return 0 in self.shard_ids
        return (guild_id >> 22) % (self.shard_count or 1) in self.shard_ids

    async def setup_hook(self) -> None:
        """Open the store and migrate it, start the workers, load the Discord side."""
        self._store = await open_store(self.settings.database)
        self.analyst = Analyst(
            self.settings.data_dir, build_to_win=self.settings.to_win_build == "auto"
        )
        self.analyst.start()  # the strategy table loads (or is built once) in the background
        self.drawing_pool = Workers("drawing", processes=1)
        self._drawing_pool_ready = asyncio.create_task(
            self._start_drawing_pool(), name="drawing-process"
        )
        self._games = GameService(
            self._store, self.dice, self.clock, self.analyst, self.drawing_pool
        )
        log.info("database ready at %s", self.settings.database_shown)
        count_rate_limits()
        if self.settings.keep_moves_days is not None:
            self._pruning = asyncio.create_task(
                self._prune_moves(self.settings.keep_moves_days), name="retention"
            )
        if self.settings.metrics_port is not None:
            checks = Readiness(self._shards_problem, self._database_problem, self._figures)
            self._health = MetricsServer(
                checks, self.settings.metrics_host, self.settings.metrics_port
            )
            await self._health.start()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild.id)

    def _shards_problem(self) -> str | None:
        """What keeps this process's gateway from serving, if anything (for ``/readyz``)."""
        if not self.is_ready():
            return "not connected to Discord yet"
        closed = sorted(sid for sid, shard in self.shards.items() if shard.is_closed())
        SHARDS_CONNECTED.set(len(self.shards) - len(closed))
        if closed:
            return f"gateway shard(s) {', '.join(map(str, closed))} disconnected"
        return None

    async def _database_problem(self) -> str | None:
        """What keeps the database from serving, if anything (for ``/readyz``): what failed,
        never the driver's text (a probe's answer may be seen by others than the operator:
        that goes to the log)."""
        try:
            await self.store.schema_version()
        except Exception as exc:  # whatever the driver raises: not ready, and why
            log.warning("readiness: the database does not answer", exc_info=True)
            return f"the database ({self.store.dialect}) does not answer ({type(exc).__name__})"
        return None

    async def _figures(self) -> None:
        """The gauges read when scraped: games by status, the shards' latencies."""
        counts = await self.store.read(plans.games_by_status)
        for status in GameStatus:  # a status with no games left reads 0, not its last count
            GAMES.labels(status.value).set(counts.get(status.value, 0))
        for shard_id, latency in self.latencies:
            if latency == latency:  # NaN before the first heartbeat's answer
                GATEWAY_LATENCY.labels(str(shard_id)).set(latency)
        self._shards_problem()

    async def _start_drawing_pool(self) -> None:
        """Start the drawing process in the background (until it answers, or for good if it
        cannot start, pictures are drawn in threads)."""
        assert self.drawing_pool is not None
        try:
            await self.drawing_pool.start()
        except Exception:
            log.exception("no drawing process; pictures are drawn in threads")
            self.drawing_pool.close()

    async def sync_commands(self) -> int:
        """Publish the slash commands globally (``python -m bot sync``)."""
        synced = await self.tree.sync()
        log.info(
            "synced %d global commands; Discord may take a few minutes to show them", len(synced)
        )
        return len(synced)

    def invite_url(self) -> str:
        """The link a server admin uses to add the bot, with exactly the permissions it needs."""
        assert self.application_id is not None
        return discord.utils.oauth_url(
            self.application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
        )

    def user_install_url(self) -> str:
        """The link a player uses to add the app to their own account ("Add to my apps"),
        to play in DMs, group DMs and servers that never added the bot (issue 43)."""
        assert self.application_id is not None
        return (
            f"https://discord.com/oauth2/authorize?client_id={self.application_id}"
            "&integration_type=1&scope=applications.commands"
        )

    async def on_ready(self) -> None:
        if not self._invite_logged and self.application_id is not None:
            self._invite_logged = True
            log.info("logged in as %s; invite: %s ; add to my apps: %s", self.user,
                     self.invite_url(), self.user_install_url())  # fmt: skip
            if self.settings.dev_guild_id is None:
                await self.publish_commands_if_changed()

    async def publish_commands_if_changed(self) -> bool:
        """Publish the slash commands globally when they differ from those this database
        last published (the first start, or an update that changed them), so that `/yahtzee`
        shows without anyone running `sync`. Global publishing is rate limited by Discord
        (about 200 a day), hence only on a change."""
        translator = self.tree.translator  # a changed translation is a change too
        commands = [
            await command.get_translated_payload(self.tree, translator)
            if translator is not None
            else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]
        fingerprint = hashlib.sha256(
            json.dumps(commands, sort_keys=True, default=str).encode()
        ).hexdigest()
        if await self.store.read(plans.meta_value, "commands") == fingerprint:
            return False
        try:
            await self.sync_commands()
        except discord.HTTPException as exc:
            log.warning("could not publish the slash commands (%s); `python -m bot sync` "
                        "publishes them by hand", exc)  # fmt: skip
            return False
        await self.store.write(plans.set_meta_value, "commands", fingerprint)
        return True

    async def _prune_moves(self, keep_days: int) -> None:
        """Retention (``KEEP_MOVES_DAYS``): hourly, prune the move logs of games that ended
        longer ago, in small batches off the click path."""
        while True:
            try:
                pruned = await self.games.history.prune_moves(keep_days)
            except Exception:  # the next hour tries again; a failure is not the bot's end
                log.exception("retention: pruning old move logs failed")
            else:
                if pruned:
                    log.info("retention: pruned the move logs of %d games that ended more "
                             "than %d days ago", pruned, keep_days)  # fmt: skip
            await asyncio.sleep(3600)

    def took(self, interaction_id: int) -> None:
        """An interaction is being handled (until ``finished``)."""
        self._in_flight.add(interaction_id)
        self._idle.clear()

    def finished(self, interaction_id: int) -> None:
        self._in_flight.discard(interaction_id)
        if not self._in_flight:
            self._idle.set()

    async def stop(self, patience: float = 10.0) -> None:
        """A graceful stop (SIGTERM): take no more clicks (the gateway is closed first, so
        Discord sends them to another process of the bot, if one runs), let those in flight
        finish (their moves saved, their answers sent over HTTP, still open), then ``close``.

        Not a refusal of what still comes: during a deploy's overlap Discord may give the
        same click to the new process too, and "restarting" must not win over its answer."""
        for shard in self.shards.values():
            await shard.disconnect()
        await asyncio.sleep(0.05)  # clicks read just before the close reach their handlers
        log.info("stopping: gateway closed, %d interaction(s) in flight", len(self._in_flight))
        try:
            await asyncio.wait_for(self._idle.wait(), patience)
        except TimeoutError:
            log.warning(
                "stopping: %d interaction(s) still unfinished after %.0f s",
                len(self._in_flight), patience,
            )  # fmt: skip
        await self.close()

    async def close(self) -> None:
        """Disconnect, then close the database."""
        if self._pruning is not None:
            self._pruning.cancel()
            self._pruning = None
        if self._health is not None:
            await self._health.close()
            self._health = None
        try:
            await super().close()
        finally:
            if self._games is not None:  # the decisions valued meanwhile, on record
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._games.coaching.all_costs_settled(), 5)
            if self.analyst is not None:
                await self.analyst.aclose()
            if self.drawing_pool is not None:
                await self.drawing_pool.aclose()
            if self._games is not None:  # the boards click answers showed, on record
                await self._games.flush_shown()
            if self._store is not None:
                await self._store.close()
                self._store = None
