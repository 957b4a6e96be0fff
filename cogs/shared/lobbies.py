"""A lobby's message, wherever its game is played: answered with, posted, shown anew after a
click or a command, closed; and, in thread mode, the thread its game moves to."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.games import Board, GameView

from . import answers
from .language import public

if TYPE_CHECKING:
    from bot.games import GameService

    from .looks import Looks
    from .routes import PlaceRoutes
    from .surface import Surface

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()


class Shows(Protocol):
    """What a lobby's message is shown with (the publisher's)."""

    @property
    def looks(self) -> Looks: ...
    @property
    def games(self) -> GameService: ...
    @property
    def routes(self) -> PlaceRoutes: ...
    def surface(self, row: GameView, *, lobby: bool = False) -> Surface: ...
    def by_click(
        self, row: GameView, interaction: discord.Interaction[Any] | None = None
    ) -> bool: ...
    async def retire(
        self, row: GameView, message_id: int | None, *, lobby: bool = False, **changes: Any
    ) -> None: ...


class Lobbies:
    """The lobbies' messages, shown through the publisher's means."""

    def __init__(self, publisher: Shows) -> None:
        self.publisher = publisher

    async def show_lobby(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """Answer a lobby click with the lobby as it is now."""
        by_token = await self.lobby_place(row, interaction)
        await answers.edit(
            interaction, **self.publisher.looks.lobby.lobby_edit(row, by_token=by_token)
        )
        if interaction.message is not None:
            await self.publisher.games.posts.board_shown(row, interaction.message.id, None)

    async def edit_lobby(self, row: GameView, message_id: int) -> None:
        """Show the lobby as it is now on its message (after a /yahtzee leave)."""
        by_token = await self.lobby_place(row)
        shown = self.publisher.looks.lobby.lobby_edit(row, by_token=by_token)
        await self.publisher.surface(row, lobby=True).edit(message_id, **shown)

    async def lobby_place(
        self, row: GameView, interaction: discord.Interaction[Any] | None = None
    ) -> int | None:
        """How a lobby shows its place (``lobby_embed``'s ``by_token``): where it is reached
        by tokens only (``by_click``), the minutes of its turns (0: untimed; its timers act
        at clicks); None where the bot may post."""
        if not self.publisher.by_click(row, interaction):
            return None
        seconds = (
            await self.publisher.games.servers.server_settings(row.guild_id or 0)
        ).turn_seconds
        return max(1, seconds // 60) if seconds > 0 else 0

    async def answer_with_lobby(
        self,
        interaction: discord.Interaction[Any],
        row: GameView,
        invitation: str | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> None:
        """Answer the interaction with the lobby message, and note it as the game's board.
        ``invitation`` (a rematch's ping) comes first as a message of its own: a V2 lobby
        carries no content, and a mention inside its text would notify with an empty push."""
        if invitation:
            await answers.send(interaction, invitation, allowed_mentions=mentions or NO_MENTIONS)
        message_id = await answers.send(
            interaction,
            view=self.publisher.looks.lobby.lobby_layout(
                row, by_token=await self.lobby_place(row, interaction)
            ),
            allowed_mentions=NO_MENTIONS,
        )
        if message_id is not None:
            await self.publisher.games.posts.board_shown(row, message_id, None)

    async def post_lobby(
        self,
        row: GameView,
        invitation: str | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> discord.Message:
        """A lobby message posted (not as an answer), noted as the game's board; its
        ``invitation`` just above it."""
        surface = self.publisher.surface(row, lobby=True)
        if invitation:
            await surface.send(content=invitation, allowed_mentions=mentions or NO_MENTIONS)
        message = await surface.send(
            view=self.publisher.looks.lobby.lobby_layout(row, by_token=await self.lobby_place(row)),
            allowed_mentions=NO_MENTIONS,
        )
        await self.publisher.games.posts.board_shown(row, message.id, None)
        return message

    async def retire_lobby(
        self, row: GameView, message_id: int | None, note: str | None = None
    ) -> None:
        """A lobby closed (cancelled, expired, moved, or its game could not start): its
        words with ``note`` in place of what to do (None: as its status says), and no
        buttons."""
        shown = self.publisher.looks.lobby.lobby_edit(
            row, note, by_token=await self.lobby_place(row)
        )
        await self.publisher.retire(row, message_id, lobby=True, **shown)

    async def move_to_thread(self, lobby: discord.Message, board: Board) -> Board:
        """Thread mode: the game is played in a thread started from its lobby message."""
        assert board.game is not None
        names = [seat.name for seat in board.game.seats]
        try:
            thread = await self.publisher.routes.start_thread(
                lobby, self.publisher.looks.lobby.thread_name(public(board.row), names)
            )
        except discord.HTTPException as exc:  # e.g. the lobby is itself in a thread
            log.info(
                "game %s: could not start a thread, playing in the channel: %s", board.row.id, exc
            )
            return board
        row = await self.publisher.games.posts.set_thread(board.row.id, thread.id)
        return replace(board, row=row)
