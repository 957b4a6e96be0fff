"""The game's extension (discord.py loads it by name): ``/yahtzee`` composed of the
features' commands and clicks, ``/yahtzee-admin``, the gate of every click, the turn timer
and the gateway listeners, all sharing one publisher, one repairer and one set of computer
players.

Each feature is a package of its own: ``cog.py`` (its commands and click handlers, as a
``Feature`` class), ``controls.py`` (its buttons and menus), ``messages.py`` (what its
messages say and show). Here they are composed into one ``GroupCog``: discord.py's
``CogMeta`` collects the app commands of every class along the cog's MRO, so the commands of
one group can live in several modules. The shared pieces are in ``cogs/shared``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from .admin.cog import Admin
from .coaching.cog import CoachingFeature
from .daily.cog import DailyFeature
from .lobby.cog import LobbyFeature
from .results.cog import ResultsFeature
from .shared.after_move import AfterMove
from .shared.clicks import Clicks
from .shared.gateway import Gateway
from .shared.publisher import Publisher
from .shared.repairs import Repairs
from .shared.router import Router
from .shared.translator import CatalogTranslator
from .turn.cog import TurnFeature
from .turn.computer import ComputerPlayers
from .turn.seats import SeatsFeature
from .turn.timers import TurnTimers

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Yahtzee(
    CoachingFeature,
    ResultsFeature,
    SeatsFeature,
    TurnFeature,
    DailyFeature,
    LobbyFeature,
    commands.GroupCog,
    group_name="yahtzee",
    group_description="Play Yahtzee in this channel",
):
    """The ``/yahtzee`` commands and the game's clicks, one feature a base class (the group
    lists the commands of the last base first: the lobby's, the daily challenge's ...)."""

    def __init__(
        self,
        bot: YahtzeeBot,
        after: AfterMove,
        repairs: Repairs,
        computers: ComputerPlayers,
    ) -> None:
        self.bot = bot
        self.after = after
        self.publisher = after.publisher
        self.repairs = repairs
        self.computers = computers
        super().__init__()

    async def cog_load(self) -> None:
        self.publisher.faces.start(self.bot)  # the dice emojis, made once if missing

    async def cog_unload(self) -> None:
        self.publisher.faces.stop()
        await self.computers.stop_all()  # before discord.py closes its connections


async def setup(bot: YahtzeeBot) -> None:
    """The game's extension (discord.py's entry point)."""
    publisher = Publisher(bot)
    repairs = Repairs(bot, publisher)
    after = AfterMove(publisher, repairs)
    computers = ComputerPlayers(bot, after)  # starts when a board shows a computer's turn
    await bot.tree.set_translator(CatalogTranslator())  # the commands in the user's language
    yahtzee, admin = Yahtzee(bot, after, repairs, computers), Admin(bot)
    await bot.add_cog(yahtzee)
    await bot.add_cog(admin)
    await bot.add_cog(Clicks(bot, publisher, Router([yahtzee, admin]), repairs))  # the clicks
    await bot.add_cog(TurnTimers(bot, after, repairs, computers))
    await bot.add_cog(Gateway(bot, repairs, computers))
