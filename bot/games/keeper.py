"""``Keeper``: the games as saved. One lock per game, the row cache, saving a change with the
version check (once per request), and the write-behind of what is not waited for (the boards
click answers showed; ``WriteBatch`` for what decisions cost)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from bot.engine import FORMAT_VERSION, DailyDice, DiceSource, Game
from bot.logs import about_game
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

from . import requests
from .results import GAME_GONE, NO_ROOM, Refusal

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How many lobbies and running games one member may be seated in at once: a person can
#: follow a few games, and one member opening lobbies in fifty channels slows everyone.
MAX_LIVE_GAMES = 10

#: Live games whose latest row the service keeps in memory (a row is ~6 KB with its state).
ROW_CACHE = 2000
#: A click's answer on its own board is recorded with the others answered meanwhile, in one
#: unit of work at most this long after it (half the writes of a click). A crash before then
#: costs the timer's repair one edit of a board that was already right, never a move.
SHOWN_FLUSH_AFTER = 0.05


def _no_room(limit: int) -> Refusal:
    return Refusal(NO_ROOM, limit=limit)


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


class Keeper:
    """The games as saved (see the module docstring): every topic reads a game's row and
    saves its changes here, under the game's lock."""

    def __init__(self, store: Store, dice: DiceSource | None = None) -> None:
        self.store = store
        self._dice = dice
        self._locks = _Locks()
        #: The row of each live game as this process last saved or read it, so that a click
        #: needs no read before its write: at most ``ROW_CACHE`` games, the least recently
        #: used dropped. Safe with other processes on the database: every write checks the
        #: version, and a move refused on a cached row is tried again on a fresh read.
        self._rows: OrderedDict[int, GameRow] = OrderedDict()
        #: boards shown by click answers, not yet on record: game -> (message, turn, version)
        self._shown: dict[int, tuple[int, int | None, int]] = {}
        self._flushing: asyncio.Task[None] | None = None

    # -- reading ----------------------------------------------------------------------------

    async def row(self, game_id: int) -> GameRow:
        """A game's row: this process's latest of a live game, else the database's; a
        ``Refusal`` if there is no such game."""
        cached = self._rows.get(game_id)
        if cached is not None:
            self._rows.move_to_end(game_id)
            return cached
        row = await self.store.read(plans.get_game, game_id)
        if row is None:
            raise Refusal(GAME_GONE)
        return self._remember(row)

    def game_of(self, row: GameRow) -> Game:
        """The engine game a stored row holds."""
        if row.state is None:
            raise Refusal("This game has not started yet.")
        return Game.from_dict(row.state, self.dice_for(row))

    def dice_for(self, row: GameRow) -> DiceSource | None:
        """A daily challenge rolls the day's dice (under the deployment's key, which the
        store keeps); every other game the service's."""
        return DailyDice(row.daily, self.store.daily_key) if row.daily is not None else self._dice

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

    def placed(self, channel_id: int, place: str) -> None:
        """The live games of ``channel_id`` (or of a thread in it) are played in ``place``
        now, as the store was just told: the cached rows say so too."""
        for game_id, known in list(self._rows.items()):
            if channel_id in (known.channel_id, known.thread_id) and known.place != place:
                self._rows[game_id] = replace(known, place=place)

    # -- saving -----------------------------------------------------------------------------

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
        """What ``create`` and ``save`` take as ``room_for`` for a change that seats a
        member: the store refuses it if they already sit in ``MAX_LIVE_GAMES`` live games."""
        return (user_id, MAX_LIVE_GAMES)

    async def answered_elsewhere(self) -> bool:
        """Whether the request being handled had its change made by another process (so a
        refusal here would contradict that process's answer)."""
        request = requests.current()
        if request is None or request.recorded:
            return False
        return await self.store.read(plans.request_recorded, request.id)

    # -- the boards click answers showed, written behind -----------------------------------

    def shown_later(self, game_id: int, message_id: int, turn: int | None, version: int) -> None:
        """``Posts.board_shown`` for a click's answer on the board already on record: the
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
