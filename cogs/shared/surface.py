"""Where one game's messages go, chosen once from the game's place (``GameView.where``):
one small typed interface (``Surface``: post, edit, delete, reachable), three means behind
it. A server's channel, a game's thread and the bot's DM are reached by the bot's own routes
(``ChannelSurface``); a group DM or a server that never added the bot only by the tokens of
the interactions from it (``TokenSurface``); a daily challenge's private board only by the
token of the interaction that last showed it (``PrivateSurface``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.games import GameView

from .routes import ChannelRoutes, PlaceRoutes, TokenRoutes, Unreachable

if TYPE_CHECKING:
    from .private import PrivateBoards


class Surface(Protocol):
    """The means of one place."""

    @property
    def by_token(self) -> bool:
        """Only interactions' tokens reach it (a post may have to wait for a click)."""

    def reachable(self) -> bool:
        """Whether something can be shown there now, without a click."""

    def reaches(self, message_id: int | None) -> bool:
        """Whether an edit of ``message_id`` would reach it now."""

    async def send(
        self, *, notify: bool = True, optional: bool = False, **fields: Any
    ) -> discord.Message:
        """Post a message (``notify``: it pings; ``optional``: never in place of another)."""

    async def edit(self, message_id: int, **fields: Any) -> discord.Message | None:
        """Edit a message; None where nothing reaches it now."""

    async def delete(self, message_id: int) -> None:
        """Delete a message (nothing where nothing reaches it)."""


@dataclass(frozen=True, slots=True)
class ChannelSurface:
    """A channel, a thread or a DM, by the bot's own routes."""

    routes: ChannelRoutes
    channel_id: int
    guild_id: int | None = None

    @property
    def by_token(self) -> bool:
        return False

    def reachable(self) -> bool:
        return True

    def reaches(self, message_id: int | None) -> bool:
        return message_id is not None

    async def send(
        self, *, notify: bool = True, optional: bool = False, **fields: Any
    ) -> discord.Message:
        del notify, optional  # a channel's post notifies as its mentions say
        return await self.routes.send(self.channel_id, self.guild_id, **fields)

    async def edit(self, message_id: int, **fields: Any) -> discord.Message | None:
        return await self.routes.edit(self.channel_id, message_id, **fields)

    async def delete(self, message_id: int) -> None:
        await self.routes.delete(self.channel_id, message_id)


@dataclass(frozen=True, slots=True)
class TokenSurface:
    """A group DM or a server that never added the bot, by its interactions' tokens."""

    routes: TokenRoutes
    channel_id: int
    guild_id: int | None = None

    @property
    def by_token(self) -> bool:
        return True

    def reachable(self) -> bool:
        return self.routes.fresh(self.channel_id)

    def reaches(self, message_id: int | None) -> bool:
        return self.routes.reaches(self.channel_id, message_id)

    async def send(
        self, *, notify: bool = True, optional: bool = False, **fields: Any
    ) -> discord.Message:
        return await self.routes.send(
            self.channel_id, self.guild_id, notify=notify, optional=optional, **fields
        )

    async def edit(self, message_id: int, **fields: Any) -> discord.Message | None:
        return await self.routes.edit(self.channel_id, message_id, **fields)

    async def delete(self, message_id: int) -> None:
        await self.routes.delete(self.channel_id, message_id)


@dataclass(frozen=True, slots=True)
class PrivateSurface:
    """A daily challenge's private board (an ephemeral message): only the token of the
    interaction that last showed it reaches it, for 15 minutes; nothing is posted there."""

    boards: PrivateBoards
    game_id: int

    @property
    def by_token(self) -> bool:
        return True

    def reachable(self) -> bool:
        return False  # only its player's next click shows it

    def reaches(self, message_id: int | None) -> bool:
        copy = self.boards.known(self.game_id)
        return copy is not None and copy.message_id == message_id

    async def send(
        self, *, notify: bool = True, optional: bool = False, **fields: Any
    ) -> discord.Message:
        raise Unreachable(f"game {self.game_id}: nothing is posted on a private board")

    async def edit(self, message_id: int, **fields: Any) -> discord.Message | None:
        await self.boards.retire(message_id, fields)
        return None

    async def delete(self, message_id: int) -> None:
        del message_id  # an ephemeral message is its player's to dismiss


def surface_of(routes: PlaceRoutes, row: GameView, channel_id: int | None = None) -> Surface:
    """The means of a game's channel (``channel_id``: the channel its lobby is in, else its
    thread or channel), chosen from the game's place: its interactions' tokens where only
    they reach it (``GameView.by_token``), else the bot's own routes."""
    where = row.board_channel_id if channel_id is None else channel_id
    if row.by_token:
        return TokenSurface(routes.tokens, where, row.guild_id)
    return ChannelSurface(routes.channels, where, row.guild_id)
