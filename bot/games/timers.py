"""Timers: turns that run out, half-time reminders, lobbies and idle games that close, boards
left behind."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.engine import Category, Game, TimeoutPolicy
from bot.store import NO_CHANGE, GameChange, GameRow, GameStatus, MoveRecord, plans
from bot.strategy.players import keep_mask

from .clock import IDLE_LIMIT, REPAIR_AFTER, TurnClock, stamp
from .keeper import Keeper
from .replay import held_mask, scoring_detail
from .results import (
    IDLE_ENDED,
    LOBBY_EXPIRED,
    ComputerDue,
    Expired,
    GameView,
    Notified,
    Outcome,
    Pinged,
    Refusal,
    TimedOut,
    moment,
    readable_views,
    view_of,
)
from .seats import is_bot
from .turns import Turns

log = logging.getLogger(__name__)

#: A turn notice (/yahtzee notify) sent this close to the turn's half-time reminder stands in
#: for it: one notice, not a DM and a channel ping within seconds of each other.
NOTICE_IS_REMINDER = timedelta(seconds=15)


class Timers:
    """Timers: turns that run out, half-time reminders, lobbies and idle games that close,
    boards left behind."""

    def __init__(self, keeper: Keeper, clock: TurnClock, turns: Turns) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock
        self.turns = turns

    async def due(self, ours: Callable[[int | None], bool] = lambda guild_id: True) -> list[int]:
        """Ids of the live games that have a timer due now, in the servers ``ours`` picks
        (by server id: a process acts only on the servers of its own shards)."""
        now = self.clock.now()
        rows = await self.store.read(plans.due_games, stamp(now), stamp(now - IDLE_LIMIT))
        return [row.id for row in rows if ours(row.guild_id)]

    async def boards_behind(
        self, ours: Callable[[int | None], bool] = lambda guild_id: True
    ) -> list[GameView]:
        """Live games (in the servers ``ours`` picks) whose board a failed post or answer
        left behind, quiet for a while: the timer repairs them."""
        await self.keeper.flush_shown()
        rows = await self.store.read(plans.boards_behind, stamp(self.clock.now() - REPAIR_AFTER))
        return readable_views(row for row in rows if ours(row.guild_id))

    async def behind(self, game_id: int) -> GameView | None:
        """One game, if its messages do not show it as it is and nothing is on its way to
        fix them (no move for ``REPAIR_AFTER``): a board a restart, a failed post or a timer
        nobody saw left behind, or a final card not posted. For a place only clicks reach
        (a group DM: issue 43), a click repairs its game through its own token."""
        try:
            row = await self.keeper.row(game_id)
        except Refusal:
            return None
        if row.daily is not None:  # a private board: its player's click shows it
            return None
        last_move = moment(row.last_move_at or row.updated_at)
        if last_move is not None and last_move > self.clock.now() - REPAIR_AFTER:
            return None
        if row.status == GameStatus.FINISHED:
            return view_of(row) if row.final_message_id is None else None
        if row.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            return None
        await self.keeper.flush_shown()
        row = await self.keeper.row(game_id)
        if row.board_message_id is not None and row.board_version == row.version:
            return None
        return view_of(row)

    async def act(self, game_id: int) -> Outcome | None:
        """Do what a due game's timer says, once: close, abandon, play the turn, or remind.

        Safe to call from two processes at once: the store's version check lets one win.
        """

        async def work() -> Outcome | None:
            row = await self.keeper.row(game_id)
            if not row.is_live:
                return None
            now = self.clock.now()
            deadline, ping = moment(row.deadline_at), moment(row.ping_at)
            if row.status == GameStatus.LOBBY:
                if deadline is not None and deadline <= now:
                    saved = await self.keeper.save(
                        row,
                        MoveRecord(None, "lobby-timeout"),
                        change=GameChange(status=GameStatus.CANCELLED, deadline_at=None),
                    )
                    return Expired(view_of(saved), LOBBY_EXPIRED)
                return None
            game = self.keeper.game_of(row)
            last_move = moment(row.last_move_at or row.updated_at)
            if last_move is not None and last_move <= now - IDLE_LIMIT:
                saved = await self.keeper.save(
                    row,
                    MoveRecord(None, "idle-timeout"),
                    change=GameChange(status=GameStatus.ABANDONED, deadline_at=None, ping_at=None),
                )
                return Expired(view_of(saved), IDLE_ENDED)
            if deadline is not None and deadline <= now:
                seat = game.current_seat
                round_no = game.round
                policy = TimeoutPolicy(row.timeout_policy)
                box, played_as = None, None
                if policy is TimeoutPolicy.PLAY:
                    row, box, played_as = await self._play_for(row, game)
                result = game.timeout(policy, box)
                away = game.seats[game.seat_of(seat.player_id)].away
                move = MoveRecord(None, "timeout", scoring_detail(result), str(result.dice))
                scored = await self.turns.after_scoring(
                    row, game, move, result, seat.name, round_no, NO_CHANGE
                )
                abandoned = scored.board.row.status == GameStatus.ABANDONED
                return TimedOut(scored, away, abandoned, played_as)
            notify = moment(row.notify_at)
            if notify is not None and notify <= now and row.status == GameStatus.ACTIVE:
                row, notified = await self._notify(row, game, deadline, now)
                if notified is not None:
                    return notified  # else on to the reminder, due at the same time maybe
            if ping is not None and ping <= now and is_bot(game.current_player_id):
                # the watchdog of a computer's turn: start it again, and watch again
                timer = self.clock.turn_timer(row, game)
                saved = await self.keeper.save(row, MoveRecord(None, "ping"), change=timer)
                return ComputerDue(view_of(saved, game))
            if ping is not None and ping <= now:
                # the turn it reminded of: an Undo back to this turn does not remind again
                reminded = MoveRecord(None, "ping", str(game.turn_number))
                saved = await self.keeper.save(
                    row, reminded, change=GameChange(ping_at=None, unseen=True)
                )
                left = 0 if deadline is None else max(0, int((deadline - now).total_seconds()))
                return Pinged(view_of(saved, game), game.current_player_id, left)
            return None

        try:
            return await self.keeper.locked(game_id, work)
        except Refusal:
            return None  # another process acted first

    async def _play_for(self, row: GameRow, game: Game) -> tuple[GameRow, Category, str]:
        """The rolls of a turn whose time ran out, made as its stand-in (``Turns.stand_in``)
        chooses from where the player left it, each saved as a ``timeout-roll`` (the holds
        it rolled with, the dice it brought: the log alone replays the turn); the box it
        then picks, and which bot it was. The engine makes each roll and checks the box."""
        player, level = self.turns.stand_in(game.preset)
        if game.dice is None:
            game.roll_for_them()
            roll = MoveRecord(None, "timeout-roll", held_mask(game.held), str(game.dice))
            row = await self.keeper.save(row, roll, game)
        while True:
            assert game.dice is not None
            choice = player.decide(game)
            if isinstance(choice, Category):
                return row, choice, level
            game.roll_for_them(keep_mask(game.dice, choice))
            roll = MoveRecord(None, "timeout-roll", held_mask(game.held), str(game.dice))
            row = await self.keeper.save(row, roll, game)

    async def _notify(
        self, row: GameRow, game: Game, deadline: datetime | None, now: datetime
    ) -> tuple[GameRow, Notified | None]:
        """The turn's private notice is due: once per turn (the time is cleared, whoever
        wanted it), and only to a player who asked for it and has not moved this turn.
        The game as saved, and the notice to send, if any."""
        saved = await self.keeper.save(
            row,
            MoveRecord(None, "notify", str(game.turn_number)),
            change=GameChange(notify_at=None, unseen=True),
        )
        player = game.current_player_id
        if is_bot(player) or game.current_seat.away:
            return saved, None  # nobody there to tell
        store = self.store
        opened = game.rolls_used == 1 and await store.read(
            plans.auto_roll_for, row.guild_id, int(player)
        )
        if any(game.held) or game.rolls_used > (1 if opened else 0):
            return saved, None  # they are at it already (a roll made for them is not theirs)
        if not await store.read(plans.player_notify, int(player)):
            return saved, None
        ping = moment(saved.ping_at)
        if ping is not None and ping <= now + NOTICE_IS_REMINDER:
            # the half-time reminder is due about now: the DM they asked for is their
            # reminder, so the channel does not ping them on top of it
            saved = await self.keeper.save(
                saved,
                MoveRecord(None, "ping", str(game.turn_number)),
                change=GameChange(ping_at=None, unseen=True),
            )
        left = 0 if deadline is None else max(0, int((deadline - now).total_seconds()))
        return saved, Notified(view_of(saved, game), player, left)
