"""``Scorecards``: a player's scorecard, as text and as a picture, in a channel's game or in
any game by id."""

from __future__ import annotations

from bot.engine import RuleError
from bot.render import scorecard_png
from bot.render.text_card import card_text
from bot.store import plans
from bot.workers import Workers

from .keeper import Keeper
from .results import NO_GAME_HERE, Card, Refusal
from .seats import player_id


class Scorecards:
    """A player's scorecard (see the module docstring)."""

    def __init__(self, keeper: Keeper, pool: Workers) -> None:
        self.keeper = keeper
        self.pool = pool

    async def in_channel(
        self,
        channel_id: int,
        viewer_id: int,
        member_id: int | None,
        picture: bool = True,
        language: str | None = None,
    ) -> Card:
        """A player's scorecard: the named player, else the viewer, else whoever plays.
        With no game going on, the cards of the game that finished last here. ``language``:
        the viewer's (it is shown to them alone); the game's if not given."""
        store = self.keeper.store
        row = await store.read(plans.live_game_in, channel_id)
        if row is None:
            row = await store.read(plans.last_finished_game_in, channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return await self.of_game(row.id, viewer_id, member_id, picture, language)

    async def of_game(
        self,
        game_id: int,
        viewer_id: int,
        member_id: int | None,
        picture: bool = True,
        language: str | None = None,
    ) -> Card:
        """Like ``in_channel``, for a game by id (also a finished one); ``member_id`` may
        name a computer seat (its negative id), as the menu of cards does."""
        row = await self.keeper.row(game_id)
        if row.state is None:
            raise Refusal("The game has not started yet: there are no scorecards to show.")
        game = self.keeper.game_of(row)
        wanted = member_id if member_id is not None else viewer_id
        try:
            seat = game.seat_of(player_id(wanted))
        except RuleError:
            if member_id is not None:
                raise Refusal("That member is not playing in this game.") from None
            seat = game.current
        language = language or row.language
        image = None
        if picture:
            image = await self.pool.run(scorecard_png, game.to_dict(), seat, language)
        seats = tuple((s.player_id, s.name) for s in game.seats)
        text = card_text(game, [seat], language)
        return Card(game.seats[seat].name, text, image, row.id, seats, game.seats[seat].player_id)
