"""Who plays on: ``/yahtzee leave``, ``/yahtzee end`` (and its confirmation),
``/yahtzee rejoin`` and ``/yahtzee kick``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games import NOBODY_LEFT, GameStatus
from cogs.daily.messages import leave_confirm_view
from cogs.shared import answers
from cogs.shared.checks import (
    display_name,
)
from cogs.shared.controls import handles
from cogs.shared.feature import Feature
from cogs.shared.language import private, public
from cogs.shared.text import shown_name

from .controls import EndConfirmButton
from .messages import end_confirm_view, ended_embed, left_embed, moved_on_embed


class SeatsFeature(Feature):
    """Leaving, ending, coming back and removing an away player."""

    @app_commands.command(name="leave", description="Leave this channel's game; the others play on")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby or the running game."""
        assert interaction.channel_id is not None
        before = await self.games.turns.game_to_leave(interaction.channel_id, interaction.user.id)
        _ = private(interaction)
        if before.daily is not None:  # the day's only try: asked first, as /yahtzee end does
            until = int(self.games.daily.next_day_at().timestamp())
            await answers.send(
                interaction,
                _(
                    "Leave your daily challenge? It still counts as today's try: the next "
                    "one starts <t:{until}:R>.",
                    until=until,
                ),
                view=leave_confirm_view(_, before.id),
                ephemeral=True,
            )
            return
        board = await self.games.turns.leave_game(interaction.channel_id, interaction.user.id)
        row = board.row
        await answers.send(interaction, _("You left the game."), ephemeral=True)
        _ = public(row)
        publisher = self.publisher
        if row.status in (GameStatus.LOBBY, GameStatus.CANCELLED):
            if before.board_message_id:
                await publisher.edit_lobby(row, before.board_message_id)
            return
        name = shown_name(display_name(interaction.user))
        if row.status == GameStatus.ACTIVE:
            await publisher.close_undo(before)  # a leaving takes every Undo offer away
            if (
                board.game is not None
                and before.board_message_id is not None
                and (before.require_game().current_player_id == board.game.current_player_id)
            ):  # not the leaver's turn: the board shows the seat gone, nobody is pinged
                await publisher.edit_board(before.board_message_id, board)
                return
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=left_embed(_, name)
            )
            await publisher.post_board(board)
        elif row.status == GameStatus.FINISHED:
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=moved_on_embed(_, True)
            )
            await publisher.close_undo(before)
            await publisher.post_final(row)
        else:
            await publisher.reminders.turn_over(row.id, before)
            await publisher.forget(row.id, row.board_channel_id)
            await publisher.retire(
                row.board_channel_id,
                before.board_message_id,
                embed=ended_embed(_, _("{name} left. {reason}", name=name, reason=_(NOBODY_LEFT))),
            )
            await publisher.close_undo(before)
            await publisher.archive(row)

    @app_commands.command(name="end", description="End this channel's game (host or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Ask for confirmation, then end the game as abandoned."""
        assert interaction.channel_id is not None
        row = await self.games.servers.check_can_end(
            interaction.channel_id, interaction.user.id, interaction.permissions.manage_guild
        )
        _ = private(interaction)
        await answers.send(
            interaction,
            _("End this game for everyone? It is kept as abandoned and counts for nobody.")
            if row.status == GameStatus.ACTIVE
            else _("End this lobby for everyone? It is kept as abandoned and counts for nobody."),
            view=end_confirm_view(_, row.id),
            ephemeral=True,
        )

    @handles(EndConfirmButton)
    async def end_confirmed(
        self, interaction: discord.Interaction[Any], end: EndConfirmButton
    ) -> None:
        """The confirmation of /yahtzee end."""
        game_id = end.game_id
        before = await self.games.tracking.find(game_id)
        row = await self.games.servers.end(
            game_id, interaction.user.id, interaction.permissions.manage_guild
        )
        _ = private(interaction)
        await answers.edit(interaction, content=_("The game has been ended."), view=None)
        _ = public(row)
        reason = _("{who} ended the game. Start a new one with /yahtzee start.",
                   who=interaction.user.mention)  # fmt: skip
        await self.publisher.ended(before, row, reason)

    @app_commands.command(
        name="rejoin", description="Take your seat back after being skipped as away"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """An away player comes back from their next turn."""
        assert interaction.channel_id is not None
        row = await self.games.turns.rejoin(interaction.channel_id, interaction.user.id)
        _ = private(interaction)
        await answers.send(
            interaction, _("Welcome back: you play again from your next turn."), ephemeral=True
        )
        await self.repairs.publish(row.id)

    @app_commands.command(
        name="kick", description="Remove an away player from the game (host or Manage Server)"
    )
    @app_commands.describe(player="The away player to remove")
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """The host or an admin removes an away player; the others play on."""
        assert interaction.channel_id is not None
        board = await self.games.turns.kick(
            interaction.channel_id,
            interaction.user.id,
            player.id,
            interaction.permissions.manage_guild,
        )
        _ = private(interaction)
        await answers.send(
            interaction,
            _("{name} was removed from the game.", name=shown_name(display_name(player))),
            ephemeral=True,
        )
        await self.repairs.publish(board.row.id)
