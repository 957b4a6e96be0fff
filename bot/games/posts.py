"""``Posts``: the records of the messages that show each game (its board, the Undo offer,
the half-time reminder, the final message, the thread it is played in), the nonces they are
posted with, what a repair looks at, and which clicks still reach a game."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.engine import Game
from bot.store import GameChange, GameRow, MoveRecord, plans

from .keeper import Keeper
from .results import OTHER_GAME, GameView, Refusal, link_to, readable_views, view_of

log = logging.getLogger(__name__)

#: Live games a sweep reads and decodes at once (a repair of every board): between pages,
#: and between slices of views, the clicks get the event loop.
SWEEP_PAGE = 50

#: Moves that change a game but not whose turn it is, nor post a board.
IN_TURN = frozenset({"roll", "hold", "bot-roll", "timeout-roll"})


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


class Posts:
    """What is shown where (see the module docstring)."""

    def __init__(self, keeper: Keeper) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self._install_id: str | None = None

    async def nonce(self, row: GameView, tag: str) -> str:
        """The nonce for posting one of a game's messages: the same when a post is retried
        (Discord then returns the message already made), different for every game ever made:
        its opening request's id (a Discord id, in base 36), which a game that a restored
        backup gives the same id does not share; the database's id and the game's for games
        from before that was kept."""
        if row.opened_by is not None:
            return f"yz{_base36(row.opened_by)}{tag}"
        if self._install_id is None:
            self._install_id = await self.store.read(plans.install_id)
        return f"yz{self._install_id}{row.id}{tag}"

    async def turn_began(self, row: GameView) -> int:
        """The version the current turn began at, whose nonce its board was first posted
        with (the rolls and holds since do not post). A repair that posts with that nonce
        gets back the board a process posted and then died before recording, rather than a
        second live board beside it."""
        began = row.version
        for move in reversed(await self.store.read(plans.moves, row.id)):
            if move.action not in IN_TURN:
                break
            began = move.version - 1
        return began

    async def board_shown(self, row: GameView, message_id: int, game: Game | None) -> bool:
        """Record that ``message_id`` now shows ``row`` as it is. False if it does not, and
        never will: a newer board is on record, or an Undo took the game back to another
        turn while this board was being posted (that message shows a turn that is gone)."""
        turn = game.turn_number if game is not None else None
        shown = await self.store.write(plans.show_board, row.id, message_id, turn, row.version)
        if shown:
            self.keeper.remember_shown(row.id, message_id, turn, row.version)
        return shown

    def board_answered(self, row: GameView, message_id: int, game: Game | None) -> None:
        """Record that a click's answer made the board it was clicked on (the one on record)
        show ``row``: ``board_shown`` with nothing to decide, written with the other answers
        of the moment (``Keeper.shown_later``)."""
        turn = game.turn_number if game is not None else None
        self.keeper.shown_later(row.id, message_id, turn, row.version)

    async def undo_offered(self, game_id: int, message_id: int | None) -> None:
        """Record which message offers Undo (or that none does)."""
        await self.store.write(plans.set_messages, game_id, undo_message_id=message_id)
        self.keeper.patch(game_id, lambda row: replace(row, undo_message_id=message_id))

    async def reminder_posted(self, game_id: int, message_id: int | None) -> None:
        """Record the turn's half-time reminder (or that it is gone)."""
        await self.store.write(plans.set_messages, game_id, reminder_message_id=message_id)
        self.keeper.patch(game_id, lambda row: replace(row, reminder_message_id=message_id))

    async def parked(self, game_id: int, parked: tuple[int, tuple[int, str]] | None) -> None:
        """Record the next turn's board an Undo parked (message, (turn, player id)), or that
        none waits any more."""
        kept = None if parked is None else (parked[0], f"{parked[1][0]}:{parked[1][1]}")
        await self.store.write(plans.set_messages, game_id, parked=kept)
        self.keeper.patch(
            game_id,
            lambda row: replace(
                row,
                parked_message_id=kept[0] if kept else None,
                parked_for=kept[1] if kept else None,
            ),
        )

    async def final_posted(self, game_id: int, message_id: int) -> None:
        """Record the final message of a finished game."""
        await self.store.write(plans.set_messages, game_id, final_message_id=message_id)
        self.keeper.patch(game_id, lambda row: replace(row, final_message_id=message_id))

    async def set_thread(self, game_id: int, thread_id: int) -> GameView:
        """Record the thread a game is played in."""
        row = await self.keeper.row(game_id)
        thread = GameChange(thread_id=thread_id)
        return view_of(await self.keeper.save(row, MoveRecord(None, "thread"), None, thread))

    async def undo_open(self, game_id: int) -> bool:
        """Whether the game's last scoring still offers its Undo."""
        row = await self.store.read(plans.get_game, game_id)
        return row is not None and row.undo_message_id is not None

    async def undo_possible(self, game_id: int) -> bool:
        """Whether the game's last scoring can still be taken back (the game live, no roll
        since it)."""
        try:
            row = await self.keeper.row(game_id)
        except Refusal:
            return False
        if not row.is_live or row.state is None:
            return False
        return self.keeper.game_of(row).undo_player_id is not None

    async def as_now(self, game_id: int) -> GameView | None:
        """A game as saved now, with the boards click answers showed on record (None if it
        is gone): what a repair acts on. A row read before the repair's turn came (a sweep's
        page, a timer's list waiting for a mass repair) may be whole turns behind."""
        await self.keeper.flush_shown()
        try:
            return view_of(await self.keeper.row(game_id))
        except Refusal:
            return None

    async def needing_messages(self) -> list[GameView]:
        """What a repair looks at: every live game, and finished games whose final message
        was never posted."""
        await self.keeper.flush_shown()
        views: list[GameView] = []
        after = 0
        while True:  # a page at a time: 1,000 live games read in one go held the loop 80 ms
            page = await self.store.read(plans.live_games_after, after, SWEEP_PAGE)
            await self._views_of(page, views)
            if len(page) < SWEEP_PAGE:
                break
            after = page[-1].id
        await self._views_of(await self.store.read(plans.games_missing_final_message), views)
        return views

    @staticmethod
    async def _views_of(rows: list[GameRow], views: list[GameView]) -> None:
        """Add each row's view (a damaged game left out), the clicks' turn after every
        ``SWEEP_PAGE // 2``: reading a game takes ~0.2 ms."""
        for done, row in enumerate(rows, 1):
            views += readable_views([row])
            if done % (SWEEP_PAGE // 2) == 0 or done == len(rows):
                await asyncio.sleep(0)

    async def check_click(
        self, game_id: int, guild_id: int | None, channel_id: int | None, message_id: int | None
    ) -> None:
        """Refuse a click that names ``game_id`` from a message that cannot be that game's:
        in another server or channel (other than the game's thread), or older than the
        request that opened the game (Discord's ids grow with time). After an operator
        restores an older backup, the games it lost leave messages whose buttons name ids
        that newer games are given again: such a click reaches nothing. A game that does
        not exist is left to the click's own answer. A daily challenge's board is private to
        its player, who may show it again in any channel: only its age is checked."""
        try:
            row = await self.keeper.row(game_id)  # a live game's is cached: no read per click
        except Refusal:
            return
        here = channel_id is not None and channel_id in (row.channel_id, row.thread_id)
        opened = row.opened_by
        older = opened is not None and message_id is not None and message_id < opened
        elsewhere = row.daily is None and (row.guild_id != guild_id or not here)
        if elsewhere or older:
            log.info(
                "game %s: a click from channel %s, message %s, is not this game's",
                game_id, channel_id, message_id,
            )  # fmt: skip
            raise Refusal(OTHER_GAME)

    async def stale_click(self, game_id: int | None) -> Refusal:
        """The refusal for a button that is out of date, pointing at the game's live message."""
        row = await self.store.read(plans.get_game, game_id) if game_id is not None else None
        if row is None or not row.is_live:
            return Refusal("That button is out of date: this game is over.")
        return Refusal("That button is out of date. Use the live board instead.", link_to(row))
