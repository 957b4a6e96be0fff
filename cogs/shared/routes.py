"""How the publisher reaches the place a game is played in: a server channel's routes (post,
edit and delete a message; start, archive and unarchive a thread) and a player's DM. The one
seam through which the cogs post anything that is not an interaction's answer: where a place
has no channel routes (a group DM, a server that never added the bot: issue 43), this is
where the publisher will answer by an interaction's token instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


class ChannelRoutes:
    """Discord's channel routes, by the ids a game keeps."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot

    def _channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        # (with its server's id, so that a message's link is the server's, not a DM's @me)
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def send(
        self, channel_id: int, guild_id: int | None = None, **fields: Any
    ) -> discord.Message:
        """Post a message (``content``, ``embed``, ``files``, ``view``, ``nonce`` ...)."""
        return await self._channel(channel_id, guild_id).send(**fields)

    async def edit(self, channel_id: int, message_id: int, **fields: Any) -> discord.Message:
        """Edit a message by its id."""
        message = self._channel(channel_id).get_partial_message(message_id)
        return await message.edit(**fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message by its id."""
        await self._channel(channel_id).get_partial_message(message_id).delete()

    async def start_thread(self, message: discord.Message, name: str) -> discord.Thread:
        """A thread started from ``message`` (a game's lobby), archived after a week unused."""
        return await message.create_thread(name=name, auto_archive_duration=10080)

    async def archive(self, thread_id: int, archived: bool, reason: str) -> None:
        """Archive a thread (a game over), or unarchive it (a game goes on)."""
        await self.bot.http.edit_channel(thread_id, archived=archived, reason=reason)

    async def dm(self, user_id: int, content: str) -> None:
        """A private message to a player (``discord.Forbidden`` if their DMs are closed)."""
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        await channel.send(content)
