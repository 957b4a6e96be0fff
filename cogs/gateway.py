"""What Discord's gateway says about the places games are played in: a server left, a
channel or thread deleted (its games end), and a (re)connection (every board is checked
and repaired)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.games import GameView

from .computer import ComputerPlayers
from .ui.repairs import Repairs

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


class Gateway(commands.Cog):
    """Listeners of gateway events."""

    def __init__(self, bot: YahtzeeBot, repairs: Repairs, computers: ComputerPlayers) -> None:
        self.bot = bot
        self.repairs = repairs
        self.computers = computers

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its games can no longer be seen."""
        await self._end_unreachable(lambda row: row.guild_id == guild.id, "the bot left the server")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A game's channel was deleted (its threads go with it)."""
        await self._end_unreachable(lambda row: row.channel_id == channel.id, "channel deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted."""
        await self._end_unreachable(lambda row: row.thread_id == payload.thread_id,
                                    "thread deleted")  # fmt: skip

    async def _end_unreachable(self, where: Callable[[GameView], bool], reason: str) -> None:
        for game_id in await self.repairs.end_unreachable(where, reason):
            self.computers.stop(game_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.repairs.repair_all()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.repairs.repair_all()
