"""What the features of one bot share, made once by the core extension (``cogs.core``) and
found by each feature's extension when it loads (``parts_of``): the publisher, the repairer,
what players see after a move, the clicks' router, the ``/yahtzee`` command group, and what a
feature offers the others through a small interface it registers (the computer seats)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from discord import app_commands

from .computers import Computers

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

    from .after_move import AfterMove
    from .publisher import Publisher
    from .repairs import Repairs
    from .router import Router


@dataclass
class Parts:
    """The shared parts of one bot (two bots in one process each have their own)."""

    bot: YahtzeeBot
    publisher: Publisher
    repairs: Repairs
    after: AfterMove
    router: Router
    #: ``/yahtzee``: each feature's cog adds its subcommands when it loads
    group: app_commands.Group

    @property
    def computers(self) -> Computers:
        """The computer seats the turn feature registered (on the publisher, which starts
        them when a board shows their turn)."""
        return self.publisher.computers


_PARTS: WeakKeyDictionary[YahtzeeBot, Parts] = WeakKeyDictionary()


def keep_parts(parts: Parts) -> None:
    """The core extension made the bot's parts: its features find them (``parts_of``)."""
    _PARTS[parts.bot] = parts


def parts_of(bot: YahtzeeBot) -> Parts:
    """The bot's shared parts (``RuntimeError`` before the core extension is loaded)."""
    try:
        return _PARTS[bot]
    except KeyError:
        raise RuntimeError("load the extension cogs.core before a feature's") from None


def drop_parts(bot: YahtzeeBot) -> None:
    """The core extension was unloaded."""
    _PARTS.pop(bot, None)
