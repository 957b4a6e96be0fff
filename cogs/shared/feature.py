"""The base of a feature's commands and clicks: each feature (``cogs/lobby``,
``cogs/turn`` ...) writes its ``/yahtzee`` commands and its click handlers as methods of
one class derived from ``Feature``, and ``cogs.yahtzee`` composes them into the one
``/yahtzee`` group (discord.py's ``CogMeta`` collects the app commands of every class in a
cog's MRO)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.games import GameService

if TYPE_CHECKING:
    from bot.app import YahtzeeBot
    from cogs.turn.computer import ComputerPlayers

    from .after_move import AfterMove
    from .publisher import Publisher
    from .repairs import Repairs


class Feature(commands.Cog):
    """What every feature's methods reach: the bot, the service, and the shared pieces the
    composed cog is built with. A ``Cog`` itself only so that discord.py's decorators type
    its methods; it is never loaded alone."""

    bot: YahtzeeBot
    after: AfterMove  # what players see after a move
    publisher: Publisher
    repairs: Repairs
    computers: ComputerPlayers

    @property
    def games(self) -> GameService:
        return self.bot.games
