"""Coaching: ``/yahtzee hint`` and the Hint button, the Analysis button (a player's report
card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.games import GameService
from cogs.shared import answers
from cogs.shared.controls import handles
from cogs.shared.feature import Feature
from cogs.shared.language import private
from cogs.shared.parts import parts_of

from .controls import AnalysisButton, HintButton
from .messages import hint_text, report_text


async def send_hint(
    games: GameService, interaction: discord.Interaction[Any], game_id: int
) -> None:
    """The three best choices with their expected final scores, and the To-win line (only
    for the asker): for /yahtzee hint and the Hint button."""
    choices = await games.coaching.hint(game_id, interaction.user.id)
    to_win = await games.coaching.win_hint(game_id, choices[0]) if choices else None
    row = await games.lookups.find(game_id)
    assert row is not None
    off = to_win is None and await games.coaching.to_win_off(game_id)
    text = hint_text(private(interaction), choices, row.require_game(), to_win, to_win_off=off)
    await answers.send(interaction, text, ephemeral=True)


if TYPE_CHECKING:
    from bot.app import YahtzeeBot


class CoachingFeature(Feature):
    """Hints and report cards, only for the asker."""

    @app_commands.command(
        name="hint", description="The best moves for your dice now (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """The three best choices with their expected final scores."""
        assert interaction.channel_id is not None
        game_id = await self.games.coaching.game_to_hint(
            interaction.channel_id, interaction.user.id
        )
        await send_hint(self.games, interaction, game_id)

    @handles(HintButton)
    async def show_hint(self, interaction: discord.Interaction[Any], hint: HintButton) -> None:
        """The Hint button."""
        game_id = hint.game_id
        await send_hint(self.games, interaction, game_id)

    @handles(AnalysisButton)
    async def show_analysis(
        self, interaction: discord.Interaction[Any], analysis: AnalysisButton
    ) -> None:
        """The Analysis button: the clicker's report card, only for them."""
        game_id = analysis.game_id
        report = await self.games.coaching.report(game_id, interaction.user.id)
        await answers.send(interaction, report_text(private(interaction), report), ephemeral=True)


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    await bot.add_cog(CoachingFeature(parts_of(bot)))
