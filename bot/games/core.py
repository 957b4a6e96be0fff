"""The service's shared core: the store, the clock, the drawing and analysing processes, one
lock per game, saving a move and drawing its board."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from bot.engine import (
    FORMAT_VERSION,
    DailyDice,
    DiceSource,
    Game,
    RuleError,
)
from bot.i18n.words import N_
from bot.logs import about_game
from bot.render import turn_png
from bot.store import (
    NO_CHANGE,
    AlreadyApplied,
    ChannelBusy,
    GameChange,
    GameRow,
    MoveRecord,
    NewGame,
    SeatLimit,
    StaleVersion,
    Store,
    plans,
)
from bot.strategy.analyst import Analyst, BoxHint
from bot.workers import Workers

from . import requests
from .results import Board, Refusal, view_of

log = logging.getLogger(__name__)
T = TypeVar("T")

LOBBY_TIMEOUT = timedelta(minutes=15)  # an unstarted lobby closes after this
IDLE_LIMIT = timedelta(hours=24)  # a game with no move by a person for this long is abandoned
#: A computer's turn that has not ended this long after it began is started again by the
#: timer (its run failed: a lost connection, say); a turn takes seconds.
COMPUTER_WATCHDOG = timedelta(minutes=1)
#: A player who asked (/yahtzee notify) is told privately once their turn in a timed game has
#: waited this long without a move of theirs (or half the turn's time, if that is sooner).
NOTIFY_AFTER = timedelta(minutes=1)
#: Turn time limits an admin may choose, in seconds (0: no limit).
TURN_LIMITS = (0, 60, 120, 180, 300, 600, 900, 1800, 3600)


def utc_now() -> datetime:
    """The real clock (tests pass their own)."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A time as the store keeps it."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _no_room(limit: int) -> Refusal:
    return Refusal(
        "You are already in {limit} games or lobbies. Finish or leave one "
        "(/yahtzee leave in its channel) before you start or join another.",
        limit=limit,
    )


# A board left behind by a failed post or answer is repaired by the timer after this long
# without a move (a click in flight would fix it sooner).
REPAIR_AFTER = timedelta(seconds=10)


#: How many lobbies and running games one member may be seated in at once: a person can
#: follow a few games, and one member opening lobbies in fifty channels slows everyone.
MAX_LIVE_GAMES = 10

#: Live games whose latest row the service keeps in memory (a row is ~6 KB with its state).
ROW_CACHE = 2000
#: A click's answer on its own board is recorded with the others answered meanwhile, in one
#: unit of work at most this long after it (half the writes of a click). A crash before then
#: costs the timer's repair one edit of a board that was already right, never a move.
SHOWN_FLUSH_AFTER = 0.05


@dataclass(slots=True)
class _Locks:
    """One lock per game, kept only while someone holds or waits for it."""

    by_game: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def get(self, game_id: int) -> asyncio.Lock:
        lock = self.by_game.get(game_id)
        if lock is None:
            lock = self.by_game[game_id] = asyncio.Lock()
        return lock


@contextmanager
def refusing() -> Iterator[None]:
    """An engine rule that says no becomes a ``Refusal`` with the engine's own sentence (its
    template and values, for the reader's language)."""
    try:
        yield
    except RuleError as exc:
        raise Refusal(exc.template, None, **exc.values) from None


def _drop(work: asyncio.Future[Any]) -> None:
    """Cancel work whose result is no longer wanted, and read its outcome, so that asyncio
    does not report it as never retrieved."""
    work.cancel()
    work.add_done_callback(lambda done: done.cancelled() or done.exception())


#: A seat in the engine is a player id (``str``): a member's user id (``int``) as text, or
#: a negative number for a computer player. These three functions are the only conversions.
def player_id(user_id: int) -> str:
    """The engine's id for a member's seat."""
    return str(user_id)


BOT_LEVELS = {1: "optimal", 2: "casual", 3: "winning"}


# Short, and plainly not a person nor the Yahtzee box (a column header shows ~8 letters)
#: A computer seat's name, in English: it is seated in its game's language (``Lobby.add_bot``).
BOT_NAMES = {
    "optimal": N_("Optimal bot"),
    "casual": N_("Casual bot"),
    "winning": N_("To-win bot"),
}


def is_bot(player_id: str) -> bool:
    """Computer players have negative ids: -(10 * n + level)."""
    return int(player_id) < 0


def people_left(game: Game) -> bool:
    """Whether a person still plays (or waits for the last turns): a game of computer seats
    alone, everyone else having left or gone away, ends without a result."""
    return any(not is_bot(s.player_id) and not s.left and not s.away for s in game.seats)


def next_host(game: Game, host_id: int) -> int:
    """Who hosts once the host has left a running game: the first person still playing, else
    the first one away (the host's Play again and Remove pass on with it)."""
    people = [s for s in game.seats if not is_bot(s.player_id) and not s.left]
    people.sort(key=lambda seat: seat.away)  # playing seats first, in seat order
    return int(people[0].player_id) if people else host_id


def bot_level(player_id: str) -> str:
    """'optimal', 'casual' or 'winning' for a computer player's id."""
    return BOT_LEVELS[(-int(player_id)) % 10]


class WriteBatch(Generic[T]):
    """Records written together, one unit of work for all that came within ``after``
    seconds of the first: ``add`` returns once the unit holding its record is committed (or
    raises its error). For records nobody's answer waits for (what a decision cost)."""

    def __init__(self, write: Callable[[list[T]], Awaitable[None]], after: float) -> None:
        self._write = write
        self._after = after
        self._items: list[T] = []
        self._written: asyncio.Future[None] | None = None
        self._writing: set[asyncio.Task[None]] = set()  # held: the loop keeps weak references

    async def add(self, item: T) -> None:
        loop = asyncio.get_running_loop()
        if self._written is None:
            self._written = loop.create_future()
            loop.call_later(self._after, self._flush)
        self._items.append(item)
        await asyncio.shield(self._written)

    def _flush(self) -> None:
        items, written = self._items, self._written
        self._items, self._written = [], None
        if written is not None:
            task = asyncio.get_running_loop().create_task(self._run(items, written))
            self._writing.add(task)
            task.add_done_callback(self._writing.discard)

    async def _run(self, items: list[T], written: asyncio.Future[None]) -> None:
        try:
            await self._write(items)
        except Exception as exc:
            written.set_exception(exc)
        else:
            written.set_result(None)


class Core:
    """The service's shared core: the store, the clock, the drawing and analysing processes,
    one lock per game, saving a move and drawing its board."""

    def __init__(
        self,
        store: Store,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] = utc_now,
        analyst: Analyst | None = None,
        drawing_pool: Workers | None = None,
    ) -> None:
        self.store = store
        # Where pictures are drawn: the bot passes its drawing process; without one, threads.
        self.drawing_pool = drawing_pool or Workers("drawing", processes=0)
        self._dice = dice
        self.clock = clock
        self.analyst = analyst
        self._locks = _Locks()
        #: The row of each live game as this process last saved or read it, so that a click
        #: needs no read before its write: at most ``ROW_CACHE`` games, the least recently
        #: used dropped. Safe with other processes on the database: every write checks the
        #: version, and a move refused on a cached row is tried again on a fresh read.
        self._rows: OrderedDict[int, GameRow] = OrderedDict()
        #: boards shown by click answers, not yet on record: game -> (message, turn, version)
        self._shown: dict[int, tuple[int, int | None, int]] = {}
        self._flushing: asyncio.Task[None] | None = None

    def turn_timer(self, row: GameRow, game: Game | None) -> GameChange:
        """Deadline, reminder and private notice (/yahtzee notify) for a turn that starts now
        (none if off or game over)."""
        if game is None or game.is_over:
            return GameChange(deadline_at=None, ping_at=None, notify_at=None)
        now = self.clock()
        if is_bot(game.current_player_id):
            # No deadline and no reminder for a computer: it plays at once. Its ping time
            # is a watchdog: if its turn has not ended by then, the timer starts it again.
            return GameChange(
                deadline_at=None, ping_at=stamp(now + COMPUTER_WATCHDOG), notify_at=None
            )
        if row.turn_seconds <= 0:
            return GameChange(deadline_at=None, ping_at=None, notify_at=None)
        notice = min(NOTIFY_AFTER, timedelta(seconds=row.turn_seconds / 2))
        return GameChange(
            deadline_at=stamp(now + timedelta(seconds=row.turn_seconds)),
            ping_at=stamp(now + timedelta(seconds=row.turn_seconds / 2)),
            notify_at=stamp(now + notice),
        )

    async def opening_wanted(self, row: GameRow, game: Game) -> bool:
        """Whether the turn that starts now is rolled for its player at once: a person's
        turn (not a daily challenge's private board) whose dice are not on the table yet
        (an Undo may have kept them), by the player's choice or else their server's."""
        if game.is_over or game.dice is not None or row.daily is not None:
            return False
        player = game.current_player_id
        if is_bot(player) or game.current_seat.away:
            return False
        return await self.store.read(plans.auto_roll_for, row.guild_id, int(player))

    @staticmethod
    def opening_roll(game: Game) -> MoveRecord:
        """Roll the turn's first roll for its player; the move to log (a roll of theirs,
        ``opening``: not a move they made, so it never counts as their being there)."""
        player = game.current_player_id
        rolled = game.roll(player, opening=True)
        return MoveRecord(int(player), "roll", "opening", str(rolled))

    def moved(self, row: GameRow) -> GameChange:
        """A person's move re-arms the game's idle limit (``IDLE_LIMIT``), except in a daily
        challenge: a try's limit runs from its start (``started``), so no way of playing
        slowly keeps it open until the day's replays show its dice."""
        return NO_CHANGE if row.daily is not None else self.started()

    def started(self) -> GameChange:
        """A game starts now: its idle limit runs from here."""
        return GameChange(last_move_at=stamp(self.clock()))

    def game_of(self, row: GameRow) -> Game:
        """The engine game a stored row holds."""
        if row.state is None:
            raise Refusal("This game has not started yet.")
        return Game.from_dict(row.state, self.dice_for(row))

    def dice_for(self, row: GameRow) -> DiceSource | None:
        """A daily challenge rolls the day's dice (under the deployment's key, which the
        store keeps); every other game the service's."""
        return DailyDice(row.daily, self.store.daily_key) if row.daily is not None else self._dice

    async def row(self, game_id: int) -> GameRow:
        cached = self._rows.get(game_id)
        if cached is not None:
            self._rows.move_to_end(game_id)
            return cached
        row = await self.store.read(plans.get_game, game_id)
        if row is None:
            raise Refusal("That game no longer exists. Start a new one with /yahtzee start.")
        return self._remember(row)

    def _remember(self, row: GameRow) -> GameRow:
        """Keep ``row`` as the game's latest (a live game's only; the oldest goes if full)."""
        if not row.is_live:
            self._rows.pop(row.id, None)
            return row
        known = self._rows.get(row.id)
        if known is not None and known.version > row.version:
            return row  # an older read arriving late must not replace a newer save
        self._rows[row.id] = row
        self._rows.move_to_end(row.id)
        while len(self._rows) > ROW_CACHE:
            self._rows.popitem(last=False)
        return row

    def patch(self, game_id: int, change: Callable[[GameRow], GameRow]) -> None:
        """The cached row (if any) as a write that returned no row left it: ``change`` of
        it (the message ids ``set_messages`` just recorded, say)."""
        known = self._rows.get(game_id)
        if known is not None:
            self._rows[game_id] = change(known)

    def shown_later(self, game_id: int, message_id: int, turn: int | None, version: int) -> None:
        """``Tracking.board_shown`` for a click's answer on the board already on record: the
        row cache knows at once, the database within ``SHOWN_FLUSH_AFTER`` seconds, in one
        unit of work with every other answer meanwhile."""
        self.remember_shown(game_id, message_id, turn, version)
        known = self._shown.get(game_id)
        if known is None or known[2] <= version:
            self._shown[game_id] = (message_id, turn, version)
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush_soon(), name="boards-shown"
            )

    async def _flush_soon(self) -> None:
        try:
            await asyncio.sleep(SHOWN_FLUSH_AFTER)
        finally:
            self._flushing = None
        await self.flush_shown()

    async def flush_shown(self) -> None:
        """Put the boards that click answers showed on record now (before a repair reads
        what is behind, and at a graceful stop)."""
        if not self._shown:
            return
        shown, self._shown = self._shown, {}
        try:
            boards = [(g, m, t, v) for g, (m, t, v) in shown.items()]
            await self.store.write(plans.show_boards, boards)
        except Exception as exc:  # they look behind: the timer's repair edits them again
            log.warning("could not record %d boards shown: %s", len(shown), exc)

    def remember_shown(self, game_id: int, message_id: int, turn: int | None, version: int) -> None:
        """The cached row as ``show_board`` (which said yes) leaves the record: changed on
        the same condition as its UPDATE's, else as it was (it already named the message)."""
        known = self._rows.get(game_id)
        if known is None:
            return
        if (
            known.board_version is None
            or known.board_version < version
            or (known.board_version == version and known.board_turn == turn)
        ):
            self._rows[game_id] = replace(
                known, board_message_id=message_id, board_turn=turn, board_version=version
            )

    async def save(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game | None = None,
        change: GameChange = NO_CHANGE,
    ) -> GameRow:
        """Save ``move`` and what it changes (``game``: the engine game as it is after it),
        if the game is still at ``row``'s version: the row as saved. A ``Refusal`` if
        another move got there first, or the change seats a member with no room left;
        ``AnsweredElsewhere`` if another process made this request's change."""
        if game is not None:
            change = change | GameChange(state=game.to_dict(), state_format=FORMAT_VERSION)
        request_id = requests.claim()
        if request_id is not None:
            move = replace(move, request_id=request_id)
        try:
            saved = await self.store.write(plans.update_game, row.id, row.version, move, change)
        except AlreadyApplied:
            raise requests.AnsweredElsewhere() from None
        except SeatLimit as full:
            raise _no_room(full.limit) from None
        except StaleVersion:
            if request_id is not None and await self.store.read(plans.request_recorded, request_id):
                raise requests.AnsweredElsewhere() from None
            raise Refusal(
                "Another move arrived at the same moment and went first; nothing changed. "
                "Look at the board and try again."
            ) from None
        if request_id is not None:
            requests.recorded()
        return self._remember(saved)

    async def answered_elsewhere(self) -> bool:
        """Whether the request being handled had its change made by another process (so a
        refusal here would contradict that process's answer)."""
        request = requests.current()
        if request is None or request.recorded:
            return False
        return await self.store.read(plans.request_recorded, request.id)

    async def create(self, new: NewGame) -> GameRow:
        """Open a lobby (``plans.create_game``), once per request: ``ChannelBusy`` as the
        store raises it, unless the busy channel's lobby is this very request's."""
        request_id = requests.claim()
        # The request's own id, even when an earlier change recorded it (Play again): a
        # Discord id made before any message that will show this game.
        opening = requests.current()
        if new.opened_by is None and opening is not None:
            new = replace(new, opened_by=opening.id)
        new = replace(new, request_id=request_id)
        try:
            row = await self.store.write(plans.create_game, new)
        except AlreadyApplied:
            raise requests.AnsweredElsewhere() from None
        except SeatLimit as full:
            raise _no_room(full.limit) from None
        except ChannelBusy:
            if request_id is not None and await self.store.read(plans.request_recorded, request_id):
                raise requests.AnsweredElsewhere() from None
            raise
        if request_id is not None:
            requests.recorded()
        return row

    @staticmethod
    def room_for(user_id: int) -> tuple[int, int]:
        """What ``_create`` and ``_save`` take as ``room_for`` for a change that seats a
        member: the store refuses it if they already sit in ``MAX_LIVE_GAMES`` live games."""
        return (user_id, MAX_LIVE_GAMES)

    async def locked(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """``work()`` with the game's lock held: one change at a time per game."""
        async with self._locks.get(game_id):
            with about_game(game_id):
                try:
                    return await work()
                except Refusal:
                    if self._rows.pop(game_id, None) is None:
                        raise
                # Refused on the row this process had: once more on the database's (another
                # process, a deploy overlapping, may have moved the game on meanwhile).
                return await work()

    @staticmethod
    def link(row: GameRow) -> tuple[int | None, int, int] | None:
        message = row.board_message_id or row.final_message_id
        return (row.guild_id, row.board_channel_id, message) if message else None

    async def save_and_draw(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game,
        retire: int | None = None,
        change: GameChange = NO_CHANGE,
    ) -> Board:
        """Save a move and draw its board at the same time: the drawing process works while
        the writer commits. The picture is used only once the move is committed."""
        return await (await self.save_drawing(row, move, game, retire, change)).drawn()

    async def save_drawing(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game,
        retire: int | None,
        change: GameChange,
    ) -> Board:
        """``_save_and_draw``, but back as soon as the move is saved, its picture still being
        drawn (``Board.drawn``): for an answer that does not show it (a scoring's summary,
        after which the next board is posted)."""
        drawing = self._drawing(row, game)
        try:
            saved = await self.save(row, move, game, change)
        except BaseException:
            if drawing is not None:  # the move was refused: its picture is not wanted
                _drop(drawing)
            raise
        return Board(view_of(saved, game), game, None, retire, self.best_box(row, game), drawing)

    async def board(self, row: GameRow, game: Game | None, retire: int | None = None) -> Board:
        if game is None:
            return Board(view_of(row), game, None, retire)
        drawing = self._drawing(row, game)
        image = await drawing if drawing is not None else None
        return Board(view_of(row, game), game, image, retire, self.best_box(row, game))

    def _drawing(self, row: GameRow, game: Game) -> asyncio.Future[bytes] | None:
        """Start drawing the board in the drawing process: none for a game without pictures
        (its boards carry the scorecard as text), nor before the turn's first roll (nothing
        to decide yet: the board says whose turn it is, and the roll brings the picture)."""
        if not row.pictures or game.dice is None:
            return None
        return self.drawing_pool.submit(turn_png, game.to_dict(), row.language)

    def best_box(self, row: GameRow, game: Game) -> BoxHint | None:
        """The box the menu marks as the hint's best (hints on, a person's dice, the table of
        the game's preset ready): a few reads of it, so the click never waits for it."""
        analyst = self.analyst
        if not row.hints or analyst is None or game.dice is None:
            return None
        if game.is_over or is_bot(game.current_player_id):
            return None
        return analyst.best_box(game)
