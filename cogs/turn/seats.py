"""Who plays on: ``/yahtzee leave``, ``/yahtzee end`` (and its confirmation),
``/yahtzee rejoin`` and ``/yahtzee kick``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games import ENDED_BY, GameStatus
from cogs.daily.messages import leave_confirm_view
from cogs.shared import answers
from cogs.shared.checks import display_name
from cogs.shared.controls import handles
from cogs.shared.feature import Feature
from cogs.shared.language import private, public
from cogs.shared.text import shown_name

from .controls import EndConfirmButton, QuitButton, QuitConfirmButton, RejoinButton
from .messages import end_confirm_view, quit_view


class SeatsFeature(Feature):
    """Leaving, ending, coming back and removing an away player."""

    @app_commands.command(name="leave", description="Leave this channel's game; the others play on")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby or the running game."""
        assert interaction.channel_id is not None
        before = await self.games.seating.game_to_leave(interaction.channel_id, interaction.user.id)
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
        board = await self.games.seating.leave_game(interaction.channel_id, interaction.user.id)
        await answers.send(interaction, _("You left the game."), ephemeral=True)
        await self.after.left(before, board, shown_name(display_name(interaction.user)))

    @handles(QuitButton)
    async def quit_asked(self, interaction: discord.Interaction[Any], quit: QuitButton) -> None:
        """Leave under a private scorecard (where most players cannot type /yahtzee leave):
        asks first, in place of the card (a click is easily made, and a seat left is left
        for good)."""
        row = await self.games.lookups.find(quit.game_id)
        if row is None or not row.is_live:
            raise await self.games.posts.stale_click(quit.game_id)
        _ = private(interaction)
        await answers.edit(
            interaction,
            content=_(
                "Leave this game? The others play on without you, and you cannot take your "
                "seat back."
            ),
            attachments=[],
            view=quit_view(_, quit.game_id),
        )

    @handles(QuitConfirmButton)
    async def quit_confirmed(
        self, interaction: discord.Interaction[Any], quit: QuitConfirmButton
    ) -> None:
        """Leaving confirmed: as /yahtzee leave, for the button's game."""
        before, board = await self.games.seating.leave(quit.game_id, interaction.user.id)
        _ = private(interaction)
        await answers.edit(interaction, content=_("You left the game."), view=None)
        await self.after.left(before, board, shown_name(display_name(interaction.user)))

    @handles(RejoinButton)
    async def rejoin_clicked(
        self, interaction: discord.Interaction[Any], rejoin: RejoinButton
    ) -> None:
        """Rejoin under a private scorecard, for a player away (where most players cannot
        type /yahtzee rejoin): as the command, for the button's game."""
        row = await self.games.seating.rejoin_game(rejoin.game_id, interaction.user.id)
        _ = private(interaction)
        await answers.edit(
            interaction,
            content=_("Welcome back: you play again from your next turn."),
            attachments=[],
            view=None,
        )
        await self.after.changed(row.id)

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
        before = await self.games.lookups.find(game_id)
        row = await self.games.servers.end(
            game_id, interaction.user.id, interaction.permissions.manage_guild
        )
        _ = private(interaction)
        await answers.edit(interaction, content=_("The game has been ended."), view=None)
        # named in bold, as every message names a player (a mention in an edit pings nobody)
        reason = public(row)(ENDED_BY, who=shown_name(display_name(interaction.user)))
        await self.after.ended(row, reason, before, start=True)

    @app_commands.command(
        name="rejoin", description="Take your seat back after being skipped as away"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """An away player comes back from their next turn."""
        assert interaction.channel_id is not None
        row = await self.games.seating.rejoin(interaction.channel_id, interaction.user.id)
        _ = private(interaction)
        await answers.send(
            interaction, _("Welcome back: you play again from your next turn."), ephemeral=True
        )
        await self.after.changed(row.id)

    @app_commands.command(
        name="kick", description="Remove an away player from the game (host or Manage Server)"
    )
    @app_commands.describe(player="The away player to remove")
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """The host or an admin removes an away player; the others play on."""
        assert interaction.channel_id is not None
        board = await self.games.seating.kick(
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
        await self.after.changed(board.row.id)
