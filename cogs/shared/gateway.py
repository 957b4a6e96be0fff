"""What Discord's gateway says about the places games are played in: a server left, a
channel or thread deleted (its games end), and a (re)connection (every board is checked
and repaired)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.games import GameView

from .parts import Parts

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


class Gateway(commands.Cog):
    """Listeners of gateway events."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.bot: YahtzeeBot = parts.bot
        self.repairs = parts.repairs

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its games can no longer be seen."""
        rows = await self.bot.games.lookups.live_games_at(guild.id)
        await self._end_unreachable(rows, "the bot left the server")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A game's channel was deleted (its threads go with it)."""
        rows = await self.bot.games.lookups.live_games_at(channel.guild.id, channel.id)
        await self._end_unreachable(rows, "channel deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted."""
        rows = await self.bot.games.lookups.live_games_at(
            payload.guild_id, thread_id=payload.thread_id
        )
        await self._end_unreachable(rows, "thread deleted")

    async def _end_unreachable(self, rows: list[GameView], reason: str) -> None:
        if not rows:
            return
        for game_id in await self.repairs.end_unreachable(rows, reason):
            self.parts.computers.stop(game_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.repairs.repair_all()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.repairs.repair_all()
