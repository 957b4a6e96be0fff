"""Where a game's messages go is chosen once from the game's place (``GameView.where``):
its channel, its thread or the bot's DM by the bot's own routes; a place only tokens reach
by its interactions' tokens; a daily challenge's board, privately."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.games import Where
from cogs.shared.routes import ChannelRoutes, TokenRoutes
from cogs.shared.surface import ChannelSurface, TokenSurface, surface_of

from .views import game_view


@pytest.mark.parametrize(
    ("values", "where"),
    [({}, Where.CHANNEL), ({"thread_id": 11}, Where.THREAD), ({"guild_id": None}, Where.DM),
     ({"place": "token"}, Where.TOKEN), ({"place": "token", "guild_id": None}, Where.TOKEN),
     ({"daily": "2026-12-02"}, Where.PRIVATE),
     ({"daily": "2026-12-02", "place": "token"}, Where.PRIVATE)],
)  # fmt: skip
def test_a_games_place_is_one_value(values: dict[str, Any], where: Where) -> None:
    assert game_view(**values).where is where


class _Routes:
    """The two means, never used to send here (only which one is picked is checked)."""

    def __init__(self) -> None:
        self.channels = ChannelRoutes.__new__(ChannelRoutes)
        self.tokens = TokenRoutes.__new__(TokenRoutes)


def test_the_means_follow_the_games_place() -> None:
    routes: Any = _Routes()
    in_channel = surface_of(routes, game_view())
    assert isinstance(in_channel, ChannelSurface) and not in_channel.by_token
    assert (in_channel.channel_id, in_channel.guild_id) == (100, 1)
    threaded = surface_of(routes, game_view(thread_id=11))
    assert isinstance(threaded, ChannelSurface) and threaded.channel_id == 11
    lobby = surface_of(routes, game_view(thread_id=11), channel_id=100)  # its lobby's channel
    assert isinstance(lobby, ChannelSurface) and lobby.channel_id == 100
    by_token = surface_of(routes, game_view(place="token"))
    assert isinstance(by_token, TokenSurface) and by_token.by_token
    moved = surface_of(routes, replace(game_view(place="token"), place="channel"))
    assert isinstance(moved, ChannelSurface)  # the server added the bot: its own routes
