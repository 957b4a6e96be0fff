"""The base of a feature's cog: each feature (``cogs/lobby``, ``cogs/turn`` ...) is a cog of
its own, loaded as an extension of its own, whose ``app_commands.command`` methods are
subcommands of the one ``/yahtzee`` group (``Parts.group``) and whose ``@handles`` methods
answer its controls' clicks (``Parts.router``). Loading the cog adds both; unloading it takes
them away again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.games import GameService

from .parts import Parts

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

    from .after_move import AfterMove
    from .publisher import Publisher
    from .repairs import Repairs


class Feature(commands.Cog):
    """What every feature's methods reach: the bot, the service, and the shared parts."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.bot: YahtzeeBot = parts.bot
        self.after: AfterMove = parts.after  # what players see after a move
        self.publisher: Publisher = parts.publisher
        self.repairs: Repairs = parts.repairs

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        """The feature's commands join ``/yahtzee`` (not the command tree's top level) and
        its click handlers the router."""
        for command in self.__cog_app_commands__:
            self.parts.group.add_command(command)
        self.__cog_app_commands__ = []
        self.parts.router.add(self)

    async def cog_unload(self) -> None:
        for command in list(self.parts.group.commands):
            if getattr(command, "binding", None) is self:
                self.parts.group.remove_command(command.name)
        self.parts.router.remove(self)
