"""/yahtzee-admin: server settings and leaderboard resets, for members with Manage Server
(checked again in code): the commands and their clicks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GuildSettings, Refusal
from bot.i18n.words import Words
from cogs.shared import answers
from cogs.shared.checks import missing_for_threads
from cogs.shared.controls import handles
from cogs.shared.language import private
from cogs.shared.parts import Parts, parts_of

from .controls import (
    AutoRollSwitch,
    LanguageSelect,
    PolicySelect,
    PresetSelect,
    ResetConfirmButton,
    ThreadsSwitch,
    TurnLimitSelect,
)
from .messages import reset_confirm_view, settings_embed, settings_view

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


def require_manager(interaction: discord.Interaction[Any]) -> int:
    """The server id, if the member may manage it; a refusal otherwise."""
    if interaction.guild_id is None:
        raise Refusal("This is a server command.")
    if not interaction.permissions.manage_guild:
        raise Refusal("Only members with the Manage Server permission can do this.")
    return interaction.guild_id


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.default_permissions(manage_guild=True)
class Admin(
    commands.GroupCog, group_name="yahtzee-admin", group_description="Yahtzee server settings"
):
    """Leaderboard resets and restores."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.bot: YahtzeeBot = parts.bot
        super().__init__()

    async def cog_load(self) -> None:
        self.parts.router.add(self)  # its buttons and menus

    async def cog_unload(self) -> None:
        self.parts.router.remove(self)

    @app_commands.command(
        name="settings", description="See and change this server's Yahtzee settings"
    )
    async def settings(self, interaction: discord.Interaction[Any]) -> None:
        """The current values, with a menu for each."""
        guild_id = require_manager(interaction)
        current = await self.bot.games.servers.server_settings(guild_id)
        _ = private(interaction)
        await answers.send(
            interaction,
            embed=settings_embed(_, current),
            view=settings_view(_, guild_id, current),
            ephemeral=True,
        )

    @handles(PresetSelect)
    async def choose_preset(
        self, interaction: discord.Interaction[Any], menu: PresetSelect, value: str
    ) -> None:
        """The preset menu: new games' rules."""
        await self._change(interaction, menu.guild_id, preset=value)

    @handles(TurnLimitSelect)
    async def choose_turn_limit(
        self, interaction: discord.Interaction[Any], menu: TurnLimitSelect, value: str
    ) -> None:
        """The turn limit menu."""
        await self._change(interaction, menu.guild_id, turn_seconds=value)

    @handles(PolicySelect)
    async def choose_policy(
        self, interaction: discord.Interaction[Any], menu: PolicySelect, value: str
    ) -> None:
        """What happens to a turn that runs out."""
        await self._change(interaction, menu.guild_id, timeout_policy=value)

    @handles(LanguageSelect)
    async def choose_language(
        self, interaction: discord.Interaction[Any], menu: LanguageSelect, value: str
    ) -> None:
        """New games' language ("discord": the server's, as Discord says)."""
        await self._change(
            interaction, menu.guild_id, language=None if value == "discord" else value
        )

    @handles(ThreadsSwitch)
    async def switch_threads(
        self, interaction: discord.Interaction[Any], switch: ThreadsSwitch
    ) -> None:
        """Games in threads: on becomes off and off on; on only where threads can be made."""
        current = await self._current(interaction, switch.guild_id)
        missing = missing_for_threads(interaction)
        if not current.use_threads and missing:  # every start would fail
            raise Refusal(
                "Games in threads need me to have {names} here: ask a server admin to "
                "give me them, then turn this on.",
                names=Words(missing),
            )
        await self._change(interaction, switch.guild_id, use_threads=not current.use_threads)

    @handles(AutoRollSwitch)
    async def switch_auto_roll(
        self, interaction: discord.Interaction[Any], switch: AutoRollSwitch
    ) -> None:
        """Each turn's first roll made for the player: on becomes off and off on."""
        current = await self._current(interaction, switch.guild_id)
        await self._change(interaction, switch.guild_id, auto_roll=not current.auto_roll)

    async def _current(self, interaction: discord.Interaction[Any], guild_id: int) -> GuildSettings:
        """The server's settings, for a manager of that very server."""
        if require_manager(interaction) != guild_id:
            raise Refusal("Those settings belong to another server.")
        return await self.bot.games.servers.server_settings(guild_id)

    async def _change(
        self, interaction: discord.Interaction[Any], guild_id: int, **changes: object
    ) -> None:
        """Validate, store, show the new values."""
        if require_manager(interaction) != guild_id:
            raise Refusal("Those settings belong to another server.")
        games = self.bot.games
        user, is_admin = interaction.user.id, interaction.permissions.manage_guild
        changed = await games.servers.change_settings(guild_id, user, is_admin, **changes)
        _ = private(interaction)
        await answers.edit(
            interaction,
            embed=settings_embed(_, changed),
            view=settings_view(_, guild_id, changed),
        )

    @app_commands.command(
        name="reset-leaderboard",
        description="Archive this server's results so the boards start empty",
    )
    async def reset_leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Ask for confirmation first."""
        guild_id = require_manager(interaction)
        _ = private(interaction)
        await answers.send(
            interaction,
            _(
                "Reset this server's leaderboard? Every result so far is archived (not deleted) "
                "and the boards start empty. `/yahtzee-admin restore-leaderboard` brings them "
                "back."
            ),
            view=reset_confirm_view(_, guild_id),
            ephemeral=True,
        )

    @handles(ResetConfirmButton)
    async def reset_confirmed(
        self, interaction: discord.Interaction[Any], reset: ResetConfirmButton
    ) -> None:
        """The confirmation button: archive, after checking the clicker's rights again."""
        guild_id = reset.guild_id
        if require_manager(interaction) != guild_id:
            raise Refusal("That button belongs to another server.")
        count = await self.bot.games.leaderboards.reset(guild_id, interaction.user.id)
        _ = private(interaction)
        text = (
            _.ngettext(
                "Leaderboard reset: {n} result archived.",
                "Leaderboard reset: {n} results archived.",
                count,
                n=count,
            )
            if count
            else _("The leaderboard was already empty; nothing to archive.")
        )
        await answers.edit(interaction, content=text, view=None)

    @app_commands.command(
        name="restore-leaderboard", description="Bring back the results of the last reset"
    )
    async def restore_leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Undo the last reset."""
        guild_id = require_manager(interaction)
        count = await self.bot.games.leaderboards.restore(guild_id)
        _ = private(interaction)
        text = (
            _.ngettext(
                "Leaderboard restored: {n} result is back on the boards.",
                "Leaderboard restored: {n} results are back on the boards.",
                count,
                n=count,
            )
            if count
            else _("There is no archived leaderboard to restore.")
        )
        await answers.send(interaction, text, ephemeral=True)


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    await bot.add_cog(Admin(parts_of(bot)))
