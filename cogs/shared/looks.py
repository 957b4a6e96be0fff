"""How the features' messages look, as the shared parts show them: the publisher, the
repairer and what players see after a move post the features' messages, but import no
feature. Each feature registers its builders (pure functions of its ``messages.py`` or
``board.py``) with the bot's ``Looks`` when its extension loads; until then its part says so
plainly (``FeatureNotLoaded``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast
from weakref import WeakKeyDictionary

import discord

from bot.games import Board, DailyEntry, GameView, Scored
from bot.games.replay import Turn
from bot.i18n import Lang

from .controls import Layout, Payload
from .emojis import DiceFaces

if TYPE_CHECKING:
    from bot.app import YahtzeeBot
    from bot.engine import Game


class TurnLooks(Protocol):
    """The turn feature's: the live board and what a turn leaves behind."""

    def board_embed(
        self, board: Board, faces: DiceFaces = ..., by_token: bool = False
    ) -> discord.Embed: ...
    def board_files(self, board: Board) -> list[discord.File]: ...
    def board_view(self, board: Board, faces: DiceFaces = ...) -> Payload: ...
    def summary_embed(
        self,
        scored: Scored,
        timed_out: bool = False,
        away: bool = False,
        faces: DiceFaces = ...,
        played_as: str | None = None,
        by_click: bool = False,
    ) -> discord.Embed: ...
    def undo_view(self, _: Lang, game_id: int, turn: int) -> discord.ui.View: ...
    def moved_to_embed(self, _: Lang, link: str) -> discord.Embed: ...
    def moved_on_embed(
        self, _: Lang, finished: bool = False, since: Sequence[Turn] = ()
    ) -> discord.Embed: ...
    def waiting_embed(self, _: Lang) -> discord.Embed: ...
    def left_embed(self, _: Lang, name: str) -> discord.Embed: ...
    def ended_fields(
        self, row: GameView, reason: str, by_click: bool, start: bool = True
    ) -> dict[str, Any]: ...


class LobbyLooks(Protocol):
    """The lobby feature's: the lobby message and a game's thread's name."""

    def lobby_layout(
        self,
        row: GameView,
        note: str | None = None,
        controls: bool = True,
        by_token: int | None = None,
    ) -> Layout: ...
    def lobby_edit(
        self, row: GameView, note: str | None = None, by_token: int | None = None
    ) -> dict[str, Any]: ...
    def thread_name(self, _: Lang, names: list[str]) -> str: ...


class ResultLooks(Protocol):
    """The results feature's: the final card."""

    FINAL_FILE: str

    def final_layout(
        self,
        row: GameView,
        game: Game,
        picture: bool = True,
        daily: DailyEntry | None = None,
        said: str | None = None,
    ) -> Layout: ...


class DailyLooks(Protocol):
    """The daily challenge's: the result its channel sees."""

    def daily_result_layout(
        self, _: Lang, row: GameView, game: Game, entry: DailyEntry | None, by_click: bool = False
    ) -> Layout: ...


class FeatureNotLoaded(RuntimeError):
    """A feature's message was to be shown before its extension was loaded."""


class _NotLoaded:
    """A feature's part of ``Looks`` until its extension registers it."""

    def __init__(self, feature: str) -> None:
        self.feature = feature

    def __getattr__(self, name: str) -> Any:
        raise FeatureNotLoaded(f"{name}: load the extension cogs.{self.feature}.cog first")


class Looks:
    """One bot's features' builders, as each registered them."""

    def __init__(self) -> None:
        self.turn: TurnLooks = cast(Any, _NotLoaded("turn"))
        self.lobby: LobbyLooks = cast(Any, _NotLoaded("lobby"))
        self.results: ResultLooks = cast(Any, _NotLoaded("results"))
        self.daily: DailyLooks = cast(Any, _NotLoaded("daily"))


_LOOKS: WeakKeyDictionary[YahtzeeBot, Looks] = WeakKeyDictionary()


def looks_of(bot: YahtzeeBot) -> Looks:
    """The bot's features' builders (each part registered when its extension loads)."""
    found = _LOOKS.get(bot)
    if found is None:
        found = _LOOKS[bot] = Looks()
    return found
