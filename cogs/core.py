"""The core extension (loaded before the features'): the parts every feature shares
(``Parts``: one publisher, one repairer, what players see after a move, the clicks' router,
the ``/yahtzee`` group), the gate of every click (``Clicks``) and the gateway's listeners
(``Gateway``). Each feature is an extension of its own (``cogs.lobby``, ``cogs.turn`` ...,
after this one in ``bot.app.EXTENSIONS``): a cog whose commands join ``/yahtzee`` and whose
click handlers join the router when it loads (``cogs.shared.feature``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from .shared.after_move import AfterMove
from .shared.clicks import Clicks
from .shared.gateway import Gateway
from .shared.parts import Parts, drop_parts, keep_parts
from .shared.publisher import Publisher
from .shared.repairs import Repairs
from .shared.router import Router
from .shared.translator import CatalogTranslator

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


def yahtzee_group() -> app_commands.Group:
    """``/yahtzee``, offered wherever Discord lets the app go (servers that added it, and by
    the user install: its DM, group DMs and servers that never added it)."""
    return app_commands.Group(
        name="yahtzee",
        description="Play Yahtzee in this channel",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )


class Core(commands.Cog):
    """The shared parts' own start and stop: the dice emojis."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    async def cog_load(self) -> None:
        self.parts.publisher.faces.start(self.parts.bot)  # the dice emojis, made once if missing

    async def cog_unload(self) -> None:
        self.parts.publisher.faces.stop()


async def setup(bot: YahtzeeBot) -> None:
    """The core extension (discord.py's entry point)."""
    publisher = Publisher(bot)
    repairs = Repairs(bot, publisher)
    parts = Parts(bot, publisher, repairs, AfterMove(publisher, repairs), Router(), yahtzee_group())
    keep_parts(parts)
    await bot.tree.set_translator(CatalogTranslator())  # the commands in the user's language
    bot.tree.add_command(parts.group)
    await bot.add_cog(Core(parts))
    await bot.add_cog(Clicks(bot, publisher, parts.router, repairs))  # the clicks
    await bot.add_cog(Gateway(parts))


async def teardown(bot: YahtzeeBot) -> None:
    bot.tree.remove_command("yahtzee")
    drop_parts(bot)
