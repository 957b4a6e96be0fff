"""The lobby: ``/yahtzee start``, its buttons (Join, Leave, Start, Cancel, computer seats,
the hints switch), a game's first board, and Play again."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import Preset
from bot.games import Board, Refusal
from cogs.shared import answers
from cogs.shared.checks import check_member_may_post, check_permissions, display_name
from cogs.shared.controls import handles
from cogs.shared.errors import tell
from cogs.shared.feature import Feature
from cogs.shared.language import private, public, server
from cogs.shared.looks import looks_of
from cogs.shared.parts import parts_of
from cogs.shared.place import Kind, place_of

from . import messages
from .controls import (
    AddComputerButton,
    CancelButton,
    HintsButton,
    JoinButton,
    LeaveLobbyButton,
    PlayAgainButton,
    StartButton,
    UnseatButton,
)
from .messages import invitation, lobby_edit

log = logging.getLogger(__name__)


if TYPE_CHECKING:
    from bot.app import YahtzeeBot

PRESET_CHOICES = [app_commands.Choice(name=f"{p.title} ({p.value})", value=p.value) for p in Preset]


class LobbyFeature(Feature):
    """Opening a lobby, its clicks, starting the game, and a rematch."""

    @app_commands.command(name="start", description="Open a Yahtzee lobby in this channel")
    @app_commands.describe(preset="The rule set; default official (Hasbro rules)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def start(
        self, interaction: discord.Interaction[Any], preset: app_commands.Choice[str] | None = None
    ) -> None:
        """Open a lobby; a second lobby in a busy channel is refused with a link."""
        assert interaction.channel_id is not None
        await check_permissions(self.games, interaction)
        check_member_may_post(interaction)  # the lobby is posted for the member
        if (
            place_of(interaction).kind is Kind.USER_SERVER
            and not interaction.permissions.use_external_apps
        ):  # Discord would show my answers to this member alone: a lobby nobody could join
            raise Refusal(
                "This server does not let you use external apps here, so Discord would show "
                "my answers to you alone and nobody could join your lobby. Ask a server admin "
                "for Use External Apps, or add me to the server."
            )
        # a lobby or game here (with its link) says more than a wait: a double-sent start
        await self.games.lobby.check_free(interaction.channel_id, interaction.user.id)
        self.publisher.pace.check(interaction.user.id, "start", interaction.channel_id)
        row = await self.games.lobby.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            preset.value if preset else None,
            server(interaction),  # the server's own choice, if it made one, comes first
            place_of(interaction).stored,
        )
        await self.publisher.lobbies.answer_with_lobby(interaction, row)
        self.publisher.pace.used(interaction.user.id, "start", interaction.channel_id)

    @handles(StartButton)
    async def start_game(self, interaction: discord.Interaction[Any], start: StartButton) -> None:
        """Start: the game's first board is posted (in a thread of its own in thread mode)."""
        await check_permissions(self.games, interaction)
        # the game's board is posted for its host: in a thread of its own in thread mode
        threads = (await self.games.servers.server_settings(interaction.guild_id or 0)).use_threads
        check_member_may_post(interaction, True if threads else None)
        pictures = interaction.app_permissions.attach_files
        board = await self.games.lobby.begin(start.game_id, interaction.user.id, pictures)
        by_token = await self.publisher.lobbies.lobby_place(board.row, interaction)
        await answers.edit(interaction, **lobby_edit(board.row, by_token=by_token))
        await self._launch(interaction, board, interaction.message)

    @handles(JoinButton)
    async def join(self, interaction: discord.Interaction[Any], join: JoinButton) -> None:
        """Join: a seat for the clicker, if Discord shows them the others' answers."""
        if not place_of(interaction).public_answers(interaction):
            raise Refusal(  # as /yahtzee start is refused to them
                "This server does not let you use external apps here, so Discord would "
                "show my answers to you alone and you could not play with the others. "
                "Ask a server admin for Use External Apps, or to add me to the server."
            )
        user = interaction.user
        row = await self.games.lobby.join(join.game_id, user.id, display_name(user))
        await self.publisher.lobbies.show_lobby(interaction, row)

    @handles(LeaveLobbyButton)
    async def leave_lobby(
        self, interaction: discord.Interaction[Any], leave: LeaveLobbyButton
    ) -> None:
        """Leave: the clicker's seat goes."""
        row = await self.games.lobby.leave_lobby(leave.game_id, interaction.user.id)
        await self.publisher.lobbies.show_lobby(interaction, row)

    @handles(CancelButton)
    async def cancel(self, interaction: discord.Interaction[Any], cancel: CancelButton) -> None:
        """Cancel: the host closes the lobby."""
        row = await self.games.lobby.cancel(cancel.game_id, interaction.user.id)
        await self.publisher.lobbies.show_lobby(interaction, row)

    @handles(AddComputerButton)
    async def add_computer(
        self, interaction: discord.Interaction[Any], add: AddComputerButton
    ) -> None:
        """Add bot: a computer player of that level takes a seat."""
        level = add.level.removeprefix("bot-")
        row = await self.games.lobby.add_bot(add.game_id, interaction.user.id, level)
        await self.publisher.lobbies.show_lobby(interaction, row)

    @handles(UnseatButton)
    async def unseat(self, interaction: discord.Interaction[Any], unseat: UnseatButton) -> None:
        """Remove: the computer player seated last leaves."""
        row = await self.games.lobby.remove_bot(unseat.game_id, interaction.user.id)
        await self.publisher.lobbies.show_lobby(interaction, row)

    @handles(HintsButton)
    async def switch_hints(self, interaction: discord.Interaction[Any], hints: HintsButton) -> None:
        """Hints: the host turns them on or off for the game."""
        row = await self.games.lobby.toggle_hints(hints.game_id, interaction.user.id)
        await self.publisher.lobbies.show_lobby(interaction, row)

    async def _launch(
        self,
        interaction: discord.Interaction[Any],
        board: Board,
        lobby: discord.Message | None,
    ) -> None:
        """Post a game's first board (in a thread of ``lobby`` in thread mode); if Discord
        refuses it, the game ends counting for nobody and the user is told why."""
        game_id = board.row.id
        server = await self.games.servers.server_settings(interaction.guild_id or 0)
        try:
            if server.use_threads and lobby is not None:
                board = await self.publisher.lobbies.move_to_thread(lobby, board)
            await self.publisher.post_board(board)
        except discord.Forbidden as exc:
            # a channel overwrite the interaction's permissions did not show: the game
            # cannot be seen, so it must not be played on by the timer
            log.warning("game %s: its first board could not be posted: %s", game_id, exc)
            row = await self.games.servers.unreachable(game_id, "first board refused (403)")
            await self.publisher.forget(game_id)
            if row is not None and lobby is not None:
                _ = public(row)
                await self.publisher.lobbies.retire_lobby(
                    row,
                    lobby.id,
                    _(
                        "Discord did not let me post the board in this channel (missing "
                        "permissions), so the game did not start and counts for nobody. "
                        "Ask a server admin to check my permissions here."
                    ),
                )
            _ = private(interaction)
            await tell(
                interaction,
                _(
                    "The game could not start: I'm not allowed to post its board here. "
                    "Ask a server admin to check my permissions."
                ),
            )

    @handles(PlayAgainButton)
    async def play_again(
        self, interaction: discord.Interaction[Any], again: PlayAgainButton
    ) -> None:
        """Play again: a lobby hosted by the clicker that invites the other players (one
        ping); they take a seat with Join."""
        game_id = again.game_id
        assert interaction.channel_id is not None
        old = await self.games.lookups.find(game_id)
        # the lobby opens in the game's channel: from its thread, in the thread's parent
        in_thread = None if old is None or old.thread_id is None else False
        check_member_may_post(interaction, in_thread)
        self.publisher.pace.check(interaction.user.id, "again", game_id)
        host = display_name(interaction.user)
        rematch = await self.games.lobby.play_again(
            game_id, interaction.guild_id, interaction.user.id, host, place_of(interaction).stored
        )
        row = rematch.row
        invited = invitation(public(row), host, rematch.invited)
        pinged = discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(uid) for uid, _name in rematch.invited] if rematch.ping else [],
        )
        self.publisher.pace.used(interaction.user.id, "again", game_id)
        if row.channel_id == interaction.channel_id:
            await self.publisher.lobbies.answer_with_lobby(interaction, row, invited, pinged)
            return
        # The game was played in a thread: the new lobby opens in the channel it came from.
        message = await self.publisher.lobbies.post_lobby(row, invited, pinged)
        _ = private(interaction)
        await tell(interaction, _("A new lobby is open: {link}", link=message.jump_url))


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    looks_of(bot).lobby = messages  # what the shared parts show of it
    await bot.add_cog(LobbyFeature(parts_of(bot)))
