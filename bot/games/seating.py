"""Seats in a running game: leaving it (or a daily try), rejoining after being away, and
removing an away player."""

from __future__ import annotations

from bot.engine import Game, RuleError
from bot.i18n.words import Name
from bot.store import NO_CHANGE, GameChange, GameRow, GameStatus, MoveRecord, plans

from .clock import TurnClock
from .drawing import Drawing
from .keeper import Keeper
from .lobby import Lobby
from .lookups import Lookups
from .results import NO_GAME_HERE, NOT_FOR_DAILY, Board, GameView, Refusal, refusing, view_of
from .seats import next_host, people_left, player_id, result_rows


class Seating:
    """Leaving, rejoining and removing players of a running game."""

    def __init__(
        self, keeper: Keeper, clock: TurnClock, drawing: Drawing, lookups: Lookups, lobby: Lobby
    ) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock
        self.drawing = drawing
        self.lookups = lookups
        self.lobby = lobby

    async def game_to_leave(self, channel_id: int, user_id: int) -> GameView:
        """What /yahtzee leave leaves: the channel's game if the member sits in it, else
        their daily challenge try (played privately, in no channel)."""
        row = await self.store.read(plans.live_game_in, channel_id)
        if row is not None and any(uid == user_id for uid, _ in row.players):
            return view_of(row)
        daily = await self.store.read(plans.live_daily_of, user_id)
        if daily is not None:
            return view_of(daily)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return view_of(row)  # the refusal comes from the game: "you are not playing"

    async def leave_game(self, channel_id: int, user_id: int) -> Board:
        """A player leaves the running game; the others play on; the last one out ends it."""
        return await self._leave(await self.game_to_leave(channel_id, user_id), user_id)

    async def leave(self, game_id: int, user_id: int) -> tuple[GameView, Board]:
        """A player leaves the running game by a click (where commands are not offered to
        everyone: a group DM); the others play on. The game as it was, and as it is."""
        row = await self.keeper.row(game_id)
        if row.daily is not None:
            raise Refusal(NOT_FOR_DAILY)
        before = view_of(row)
        return before, await self._leave(before, user_id)

    async def leave_daily(self, game_id: int, user_id: int) -> Board:
        """The member gives up their daily challenge try (confirmed: it counts as the day's
        try)."""
        row = await self.keeper.row(game_id)
        if row.daily is None or row.host_id != user_id:
            raise Refusal("That is not your daily challenge; nothing changed.")
        return await self._leave(view_of(row), user_id)

    async def _leave(self, row: GameView, user_id: int) -> Board:
        if row.status == GameStatus.LOBBY:
            return Board(await self.lobby.leave_lobby(row.id, user_id))

        async def work() -> Board:
            current = await self.keeper.row(row.id)
            if current.status != GameStatus.ACTIVE:
                raise Refusal("This game is over already.")
            game = self.keeper.game_of(current)
            was_current = game.current_player_id == player_id(user_id)
            with refusing():
                game.leave(player_id(user_id))
            return await self._after_leaving(
                current, game, MoveRecord(user_id, "leave"), was_current
            )

        return await self.keeper.locked(row.id, work)

    async def _after_leaving(
        self, row: GameRow, game: Game, move: MoveRecord, turn_moved: bool
    ) -> Board:
        if game.is_over or not people_left(game):
            completed = game.is_over and game.completed
            status = GameStatus.FINISHED if completed else GameStatus.ABANDONED
            results = result_rows(game) if completed else ()
            saved = await self.keeper.save(
                row,
                move,
                game,
                GameChange(status=status, results=results, deadline_at=None, ping_at=None),
            )
            return Board(view_of(saved, game), game)
        # a new player's turn starts
        change = self.clock.turn_timer(row, game) if turn_moved else NO_CHANGE
        hosting = next((s for s in game.seats if s.player_id == player_id(row.host_id)), None)
        if hosting is not None and hosting.left:  # the host left, or was removed
            change = change | GameChange(host_id=next_host(game, row.host_id))
        saved = await self.keeper.save(row, move, game, change)
        if turn_moved and await self.clock.opening_wanted(saved, game):
            saved = await self.keeper.save(saved, self.clock.opening_roll(game), game)
        return await self.drawing.board(saved, game)

    async def rejoin(self, channel_id: int, user_id: int) -> GameView:
        """An away player takes their seat back from their next turn."""
        row = await self.lookups.live_game(channel_id)
        return await self.rejoin_game(row.id, user_id)

    async def rejoin_game(self, game_id: int, user_id: int) -> GameView:
        """An away player takes their seat back in ``game_id`` from their next turn (by a
        click, or ``rejoin`` by the channel)."""

        async def work() -> GameRow:
            current = await self.keeper.row(game_id)
            if current.status != GameStatus.ACTIVE:
                raise Refusal("There is no game in progress here to rejoin.")
            game = self.keeper.game_of(current)
            with refusing():
                game.rejoin(player_id(user_id))
            return await self.keeper.save(
                current, MoveRecord(user_id, "rejoin"), game, self.clock.moved(current)
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def kick(self, channel_id: int, user_id: int, target_id: int, is_admin: bool) -> Board:
        """The host or an admin removes an away player from the running game."""
        row = await self.lookups.live_game(channel_id)
        if row.status != GameStatus.ACTIVE:
            raise Refusal("There is no game in progress here.")
        if user_id != row.host_id and not is_admin:
            raise Refusal("Only the host or a member with Manage Server can remove a player.")

        async def work() -> Board:
            current = await self.keeper.row(row.id)
            game = self.keeper.game_of(current)
            try:
                seat = game.seats[game.seat_of(player_id(target_id))]
            except RuleError:
                raise Refusal("That member is not playing in this game.") from None
            if seat.left:
                raise Refusal("{name} has left the game already.", name=Name(seat.name))
            if not seat.away:
                raise Refusal(
                    "{name} is not away: only a player who timed out and is being "
                    "skipped can be removed.",
                    name=Name(seat.name),
                )
            game.leave(seat.player_id)
            # An away seat is never the one to play, so the turn does not move.
            return await self._after_leaving(
                current, game, MoveRecord(user_id, "kick", seat.player_id), turn_moved=False
            )

        return await self.keeper.locked(row.id, work)
