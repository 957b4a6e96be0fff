"""The daily challenge: ``/yahtzee daily`` (a private board), ``/yahtzee daily-board``, the
Replay button of a finished try, and the confirmation of leaving one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.shared import answers
from cogs.shared.checks import check_member_may_post, check_permissions, display_name
from cogs.shared.controls import handles
from cogs.shared.feature import Feature
from cogs.shared.language import private, public
from cogs.shared.looks import looks_of
from cogs.shared.parts import parts_of
from cogs.shared.place import place_of
from cogs.shared.text import shown_name
from cogs.turn.messages import ended_embed

from . import messages
from .controls import LeaveConfirmButton, ReplayButton
from .messages import daily_board_embed, daily_intro, replay_text

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


class DailyFeature(Feature):
    """The day's challenge, its board and its replay."""

    @app_commands.command(
        name="daily", description="Today's challenge: the same dice for everyone, one try a day"
    )
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Start the caller's try at today's challenge in this channel."""
        assert interaction.channel_id is not None
        await check_permissions(self.games, interaction)
        check_member_may_post(interaction)  # its result is posted here for the member
        _ = private(interaction)  # a private board: in the player's own language
        board = await self.games.daily.start_daily(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            interaction.app_permissions.attach_files,
            _.code,
            place_of(interaction).stored,
        )
        await self.publisher.private.show(interaction, board, daily_intro(_, board.row.daily or ""))

    @app_commands.command(name="daily-board", description="Today's daily challenge scores")
    @app_commands.describe(everywhere="Every server's players, not only this server's")
    async def daily_board(
        self, interaction: discord.Interaction[Any], everywhere: bool = False
    ) -> None:
        """Today's best tries, on this server or everywhere (only for you)."""
        entries = await self.games.daily.daily_board(interaction.guild_id, everywhere)
        today = self.games.daily.today()
        await answers.send(
            interaction,
            embed=daily_board_embed(
                private(interaction), entries, today, everywhere, interaction.guild_id is not None
            ),
            ephemeral=True,
        )

    @handles(ReplayButton)
    async def show_replay(
        self, interaction: discord.Interaction[Any], replay: ReplayButton
    ) -> None:
        """The Replay button of a finished daily challenge: its turns as text (private)."""
        game_id = replay.game_id
        turns = await self.games.daily.daily_replay(game_id, interaction.user.id)
        row = await self.games.lookups.find(game_id)
        _ = private(interaction)
        text = replay_text(_, turns)
        if row is not None and row.daily is not None and row.players:  # whose, which day
            heading = _("Daily challenge {day}: {name}'s try", day=_.date(row.daily),
                        name=shown_name(row.players[0][1]))  # fmt: skip
            text = f"**{heading}**\n{text}"
        await answers.send(interaction, text[:2000], ephemeral=True)

    @handles(LeaveConfirmButton)
    async def leave_confirmed(
        self, interaction: discord.Interaction[Any], leave: LeaveConfirmButton
    ) -> None:
        """The confirmation of /yahtzee leave on a daily challenge: the day's try is given up."""
        game_id = leave.game_id
        before = await self.games.lookups.find(game_id)
        board = await self.games.seating.leave_daily(game_id, interaction.user.id)
        _ = private(interaction)
        await answers.edit(
            interaction,
            content=_("You left your daily challenge; it counts as today's try."),
            view=None,
        )
        if before is not None:  # its private board says so, if a token still reaches it
            _ = public(board.row)
            await self.publisher.retire(
                before,
                before.board_message_id,
                embed=ended_embed(_, _("You left your daily challenge; it counts as today's try.")),
            )
        self.publisher.private.forget(game_id)


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    looks_of(bot).daily = messages  # what the shared parts show of it
    await bot.add_cog(DailyFeature(parts_of(bot)))
