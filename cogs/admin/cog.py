"""/yahtzee-admin: server settings and leaderboard resets, for members with Manage Server
(checked again in code): the commands and their clicks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import Refusal
from bot.i18n.words import Words
from cogs.shared import answers
from cogs.shared.checks import missing_for_threads
from cogs.shared.controls import handles
from cogs.shared.language import private
from cogs.shared.parts import Parts, parts_of

from .controls import ResetConfirmButton, SettingSelect, SwitchButton
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

    @handles(SettingSelect)
    async def change_setting(
        self, interaction: discord.Interaction[Any], menu: SettingSelect, value: str
    ) -> None:
        """A settings menu: the value chosen."""
        await self._change(interaction, menu.guild_id, menu.field, value)

    @handles(SwitchButton)
    async def flip_setting(
        self, interaction: discord.Interaction[Any], switch: SwitchButton
    ) -> None:
        """A switch (games in threads, the first roll made): on becomes off and off on."""
        await self._change(interaction, switch.guild_id, switch.field, "")

    async def _change(
        self, interaction: discord.Interaction[Any], guild_id: int, field: str, value: str
    ) -> None:
        """Validate, store, show the new values."""
        if require_manager(interaction) != guild_id:
            raise Refusal("Those settings belong to another server.")
        games = self.bot.games
        user, is_admin = interaction.user.id, interaction.permissions.manage_guild
        changes: dict[str, object]
        if field == "threads":
            current = await games.servers.server_settings(guild_id)
            missing = missing_for_threads(interaction)
            if not current.use_threads and missing:  # every start would fail
                raise Refusal(
                    "Games in threads need me to have {names} here: ask a server admin to "
                    "give me them, then turn this on.",
                    names=Words(missing),
                )
            changes = {"use_threads": not current.use_threads}
        elif field == "autoroll":
            current = await games.servers.server_settings(guild_id)
            changes = {"auto_roll": not current.auto_roll}
        elif field == "turn":
            changes = {"turn_seconds": value}
        elif field == "policy":
            changes = {"timeout_policy": value}
        elif field == "language":
            changes = {"language": None if value == "discord" else value}
        elif field == "preset":
            changes = {"preset": value}
        else:  # a setting of the menus without its branch here: never another one changed
            raise Refusal("That setting is not one I know; nothing changed.")
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
