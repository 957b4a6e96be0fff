"""Results: ``/yahtzee leaderboard`` and its pages, ``/yahtzee stats``, and Share on either."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.games import GameService, Refusal
from bot.games.leaderboards import LEADERBOARD_KINDS, PERIODS, LeaderboardPage, Leaderboards
from bot.i18n import Lang
from bot.i18n.words import N_
from cogs.shared import answers
from cogs.shared.checks import check_member_may_post, display_name
from cogs.shared.controls import handles
from cogs.shared.feature import Feature
from cogs.shared.language import channel, private
from cogs.shared.looks import looks_of
from cogs.shared.parts import parts_of
from cogs.shared.place import Kind, place_of
from cogs.shared.text import png

from . import messages
from .controls import PageButton, ShareButton
from .messages import STATS_FILE, leaderboard_files, leaderboard_layout, stats_layout

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

#: ``/yahtzee stats player:`` in the bot's DM, naming someone else.
OWN_STATS_ONLY = N_(
    "Here I show only your own figures, from everywhere you played; "
    "for another player's, ask in a server or group you share."
)


def scope(interaction: discord.Interaction[Any]) -> tuple[int | None, int | None]:
    """Whose games the results of this place are: a server's (its id, None), a group DM's or
    a DM's between users (None, its channel), or, in the bot's own DM, everywhere the player
    played (None, None). A server's board never shows a DM's games, nor a group's a server's."""
    place = place_of(interaction)
    if place.guild_id is not None:
        return place.guild_id, None
    if place.kind is Kind.BOT_DM:
        return None, None
    return None, place.channel_id


async def send_stats(
    games: GameService,
    interaction: discord.Interaction[Any],
    user_id: int,
    name: str,
    private_answer: bool,
) -> None:
    """A player's statistics: private with a Share button (in the asker's language), or
    shared in the channel (in the server's)."""
    _ = private(interaction) if private_answer else await channel(games, interaction)
    guild_id, channel_id = scope(interaction)
    stats = await games.leaderboards.stats(guild_id, user_id, name, _.code, channel_id)
    where = "server" if guild_id is not None else "chat" if channel_id is not None else "everywhere"
    if not interaction.app_permissions.attach_files:  # the figures are in the embed
        stats = replace(stats, image=None)
    files = [] if stats.image is None else [png(stats.image, STATS_FILE)]
    shared_by = None if private_answer else interaction.user.mention
    await answers.send(
        interaction,
        view=stats_layout(_, name, stats, user_id, shared_by, where),
        files=files,
        ephemeral=private_answer,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def leaderboard_page(
    leaderboards: Leaderboards,
    interaction: discord.Interaction[Any],
    kind: str,
    period: str,
    number: int | None,
    language: Lang,
) -> LeaderboardPage:
    """Page ``number`` of this server's leaderboard as the asker sees it (their own rank
    under it; ``None``: the page they are on), its picture in ``language``: for /yahtzee
    leaderboard, its pages, Share."""
    guild_id, channel_id = scope(interaction)
    return await leaderboards.page(
        guild_id, kind, period, number, interaction.user.id,
        display_name(interaction.user), language.code, channel_id or interaction.channel_id,
    )  # fmt: skip


class ResultsFeature(Feature):
    """The leaderboards and a player's statistics."""

    @app_commands.command(
        name="leaderboard", description="The Yahtzee leaderboard of this server or chat"
    )
    @app_commands.rename(kind="board")  # what players see is still "board"
    @app_commands.describe(kind="What to rank by (default: high scores)", period="Over which time")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=title, value=key) for key, title in LEADERBOARD_KINDS.items()
        ],
        period=[app_commands.Choice(name=title, value=key) for key, title in PERIODS.items()],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        kind: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
    ) -> None:
        """A page of a leaderboard as an image, with the caller's own rank under it."""
        _ = private(interaction)
        page = await leaderboard_page(
            self.bot.games.leaderboards,
            interaction,
            kind.value if kind else "high",
            period.value if period else "all",
            None,  # the asker's own page
            _,
        )
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            view=leaderboard_layout(_, page, picture),
            files=leaderboard_files(page, picture),
            ephemeral=True,  # Share posts it for the channel
        )

    @app_commands.command(name="stats", description="A player's Yahtzee statistics")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Games, wins, averages and charts. In the bot's DM (everywhere the player played),
        only the asker's own: another player's games there are not the asker's to see."""
        who = player or interaction.user
        if who.id != interaction.user.id and scope(interaction) == (None, None):
            raise Refusal(OWN_STATS_ONLY)
        await send_stats(self.games, interaction, who.id, display_name(who), private_answer=True)

    @handles(ShareButton)
    async def share(self, interaction: discord.Interaction[Any], share: ShareButton) -> None:
        """Share on a private leaderboard or stats answer: the same, for the channel."""
        what, args = share.what, share.args
        check_member_may_post(interaction)  # it is posted here for the member
        shared = (interaction.channel_id, what)  # a leaderboard, then stats: both at once
        self.publisher.pace.check(interaction.user.id, "share", shared)
        parts = tuple(args.split(":"))
        if what == "stats":
            user_id = int(parts[0])
            name = display_name(interaction.user) if user_id == interaction.user.id else (
                await self.bot.games.leaderboards.name(interaction.guild_id, user_id)
                or (await channel(self.games, interaction))("a player")
            )  # fmt: skip
            await send_stats(self.games, interaction, user_id, name, private_answer=False)
            self.publisher.pace.used(interaction.user.id, "share", shared)
            return
        kind, period, number = (parts + ("", "", ""))[:3]
        if kind not in LEADERBOARD_KINDS or period not in PERIODS or not number.isdigit():
            raise Refusal("That leaderboard does not exist; use /yahtzee leaderboard.")
        boards = self.bot.games.leaderboards
        _ = await channel(self.games, interaction)  # for everyone: the server's language
        page = await leaderboard_page(boards, interaction, kind, period, int(number), _)
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            view=leaderboard_layout(
                _, page, picture, interaction.user.mention, not place_of(interaction).can_post
            ),
            files=leaderboard_files(page, picture),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.publisher.pace.used(interaction.user.id, "share", shared)

    @handles(PageButton)
    async def turn_page(self, interaction: discord.Interaction[Any], button: PageButton) -> None:
        """Previous or Next on a leaderboard: the message shows the other page."""
        kind, period, page, step = button.kind, button.period, button.page, button.step
        number = page - 1 if step == "prev" else page + 1
        boards = self.bot.games.leaderboards
        _ = private(interaction)
        shown = await leaderboard_page(boards, interaction, kind, period, number, _)
        picture = interaction.app_permissions.attach_files
        await answers.edit(
            interaction,
            attachments=leaderboard_files(shown, picture),
            view=leaderboard_layout(_, shown, picture),
        )


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    looks_of(bot).results = messages  # what the shared parts show of it
    await bot.add_cog(ResultsFeature(parts_of(bot)))
