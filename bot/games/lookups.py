"""``Lookups``: finding games, by id, by channel, by server, as the Discord side sees them."""

from __future__ import annotations

from bot.store import Store, plans

from .results import NO_GAME_HERE, GameView, Refusal, readable_views, view_of, view_or_none


class Lookups:
    """Finding games (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def find(self, game_id: int) -> GameView | None:
        """A game as stored, or None."""
        return view_or_none(await self.store.read(plans.get_game, game_id))

    async def find_live(self, channel_id: int) -> GameView | None:
        """The lobby or game in a channel (or its thread), or None."""
        return view_or_none(await self.store.read(plans.live_game_in, channel_id))

    async def live_game(self, channel_id: int) -> GameView:
        """The channel's lobby or game, or a refusal saying there is none."""
        row = await self.store.read(plans.live_game_in, channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return view_of(row)

    async def live_games(self) -> list[GameView]:
        """Every lobby and running game."""
        return readable_views(await self.store.read(plans.live_games))

    async def live_games_at(
        self, guild_id: int, channel_id: int | None = None, thread_id: int | None = None
    ) -> list[GameView]:
        """The lobbies and running games of a server; of one of its channels (with the
        threads of its games) or of one thread: what ends when that place is gone."""
        rows = await self.store.read(plans.live_games_at, guild_id, channel_id, thread_id)
        return readable_views(rows)
