"""What is shown where: the records of boards and final messages, looking games up, scorecards,
and drawing a stored game's board again."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine import (
    Game,
    RuleError,
)
from bot.render import final_png, scorecard_png
from bot.render.text_card import card_text
from bot.store import GameChange, GameRow, GameStatus, MoveRecord, plans

from .core import Core, player_id, stamp
from .replay import Replay, Turn, replay, story
from .results import (
    NO_GAME_HERE,
    OTHER_GAME,
    Board,
    Card,
    GameView,
    Refusal,
    readable_views,
    view_of,
    view_or_none,
)

log = logging.getLogger(__name__)


#: Moves that change a game but not whose turn it is, nor post a board.
#: Live games a sweep reads and decodes at once (a repair of every board): between pages,
#: and between slices of views, the clicks get the event loop.
SWEEP_PAGE = 50

IN_TURN = frozenset({"roll", "hold", "bot-roll", "timeout-roll"})


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


class Tracking:
    """What is shown where: the records of boards and final messages, looking games up,
    scorecards, and drawing a stored game's board again."""

    def __init__(self, core: Core) -> None:
        self.core = core
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
            self._install_id = await self.core.store.read(plans.install_id)
        return f"yz{self._install_id}{row.id}{tag}"

    async def turn_began(self, row: GameView) -> int:
        """The version the current turn began at, whose nonce its board was first posted
        with (the rolls and holds since do not post). A repair that posts with that nonce
        gets back the board a process posted and then died before recording, rather than a
        second live board beside it."""
        began = row.version
        for version, _, action, _, _ in reversed(await self.core.store.read(plans.moves, row.id)):
            if action not in IN_TURN:
                break
            began = version - 1
        return began

    async def board_shown(self, row: GameView, message_id: int, game: Game | None) -> bool:
        """Record that ``message_id`` now shows ``row`` as it is. False if it does not, and
        never will: a newer board is on record, or an Undo took the game back to another
        turn while this board was being posted (that message shows a turn that is gone)."""
        turn = game.turn_number if game is not None else None
        shown = await self.core.store.write(plans.show_board, row.id, message_id, turn, row.version)
        if shown:
            self.core.remember_shown(row.id, message_id, turn, row.version)
        return shown

    def board_answered(self, row: GameView, message_id: int, game: Game | None) -> None:
        """Record that a click's answer made the board it was clicked on (the one on record)
        show ``row``: ``board_shown`` with nothing to decide, written with the other answers
        of the moment (``Core.shown_later``)."""
        turn = game.turn_number if game is not None else None
        self.core.shown_later(row.id, message_id, turn, row.version)

    async def undo_offered(self, game_id: int, message_id: int | None) -> None:
        """Record which message offers Undo (or that none does)."""
        await self.core.store.write(plans.set_messages, game_id, undo_message_id=message_id)
        self.core.patch(game_id, lambda row: replace(row, undo_message_id=message_id))

    async def reminder_posted(self, game_id: int, message_id: int | None) -> None:
        """Record the turn's half-time reminder (or that it is gone)."""
        await self.core.store.write(plans.set_messages, game_id, reminder_message_id=message_id)
        self.core.patch(game_id, lambda row: replace(row, reminder_message_id=message_id))

    async def final_posted(self, game_id: int, message_id: int) -> None:
        """Record the final message of a finished game."""
        await self.core.store.write(plans.set_messages, game_id, final_message_id=message_id)
        self.core.patch(game_id, lambda row: replace(row, final_message_id=message_id))

    async def prune_moves(
        self, keep_days: int, now: datetime | None = None, batch: int = 10
    ) -> int:
        """Retention: delete the move logs of games that ended more than ``keep_days`` ago,
        ``batch`` games a unit of work with a pause between (never a long write in front of
        the clicks: on SQLite a unit may run on the event loop; ten two-player games are
        1,000 to 1,500 moves, 5 to 8 ms; benchmarks/scale.py); how many games were pruned.
        Results and leaderboards stay; Replay and Analysis of those games then say they are
        too old."""
        before = stamp((now or self.core.clock()) - timedelta(days=keep_days))
        pruned = 0
        while True:
            done = await self.core.store.write(plans.prune_moves, before, batch)
            pruned += done
            if done < batch:
                return pruned
            await asyncio.sleep(0.1)

    async def check_log_kept(self, row: GameRow) -> None:
        """A Refusal for a game whose move log retention pruned."""
        if not row.is_live and not await self.core.store.read(plans.has_moves, row.id):
            raise Refusal(
                "That game is too old: this bot keeps the moves of finished games for a "
                "limited time, and its moves are gone. Its result still counts on the "
                "leaderboard."
            )

    async def replayed(self, game_id: int) -> Replay:
        """The game played again from its move log (``ReplayMismatch`` where the log could
        not have happened): for checking a stored state, and for telling a game move by move."""
        row = await self.core.row(game_id)
        log = await self.core.store.read(plans.moves, game_id)
        return replay(row.players, row.preset, row.timeout_policy, log)

    async def story(self, game_id: int) -> list[Turn]:
        """The game told turn by turn, from its move log."""
        row = await self.core.row(game_id)
        await self.check_log_kept(row)
        return story(
            row.players,
            row.preset,
            row.timeout_policy,
            await self.core.store.read(plans.moves, game_id),
        )

    async def find(self, game_id: int) -> GameView | None:
        """A game as stored, or None."""
        return view_or_none(await self.core.store.read(plans.get_game, game_id))

    async def find_live(self, channel_id: int) -> GameView | None:
        """The lobby or game in a channel (or its thread), or None."""
        return view_or_none(await self.core.store.read(plans.live_game_in, channel_id))

    async def live_games(self) -> list[GameView]:
        """Every lobby and running game."""
        return readable_views(await self.core.store.read(plans.live_games))

    async def live_games_at(
        self, guild_id: int, channel_id: int | None = None, thread_id: int | None = None
    ) -> list[GameView]:
        """The lobbies and running games of a server; of one of its channels (with the
        threads of its games) or of one thread: what ends when that place is gone."""
        rows = await self.core.store.read(plans.live_games_at, guild_id, channel_id, thread_id)
        return readable_views(rows)

    async def needing_messages(self) -> list[GameView]:
        """What a repair looks at: every live game, and finished games whose final message
        was never posted."""
        await self.core.flush_shown()
        store = self.core.store
        views: list[GameView] = []
        after = 0
        while True:  # a page at a time: 1,000 live games read in one go held the loop 80 ms
            page = await store.read(plans.live_games_after, after, SWEEP_PAGE)
            await self._views_of(page, views)
            if len(page) < SWEEP_PAGE:
                break
            after = page[-1].id
        await self._views_of(await store.read(plans.games_missing_final_message), views)
        return views

    @staticmethod
    async def _views_of(rows: list[GameRow], views: list[GameView]) -> None:
        """Add each row's view (a damaged game left out), the clicks' turn after every
        ``SWEEP_PAGE // 2``: reading a game takes ~0.2 ms."""
        for done, row in enumerate(rows, 1):
            views += readable_views([row])
            if done % (SWEEP_PAGE // 2) == 0 or done == len(rows):
                await asyncio.sleep(0)

    async def undo_open(self, game_id: int) -> bool:
        """Whether the game's last scoring still offers its Undo."""
        row = await self.core.store.read(plans.get_game, game_id)
        return row is not None and row.undo_message_id is not None

    async def live_game(self, channel_id: int) -> GameView:
        """The channel's lobby or game, or a refusal saying there is none."""
        row = await self.core.store.read(plans.live_game_in, channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return view_of(row)

    async def set_thread(self, game_id: int, thread_id: int) -> GameView:
        """Record the thread a game is played in."""
        row = await self.core.row(game_id)
        return view_of(
            await self.core.save(
                row, MoveRecord(None, "thread"), change=GameChange(thread_id=thread_id)
            )
        )

    async def render(self, shown: GameView) -> Board:
        """The board for a game as it is now (for repairs after a restart)."""
        return await self.board_of(await self.core.row(shown.id))

    async def board_of(self, row: GameRow) -> Board:
        """The board for a stored game as it is now."""
        game = self.core.game_of(row) if row.state is not None else None
        return await self.core.board(row, game if row.status == GameStatus.ACTIVE else None)

    async def final_image(self, row: GameView) -> bytes:
        """The final scorecard of a finished game."""
        return await self.core.drawing_pool.run(
            final_png, row.require_game().to_dict(), row.language
        )

    async def scorecard(
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
        row = await self.core.store.read(plans.live_game_in, channel_id)
        if row is None:
            row = await self.core.store.read(plans.last_finished_game_in, channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return await self.scorecard_of(row.id, viewer_id, member_id, picture, language)

    async def scorecard_of(
        self,
        game_id: int,
        viewer_id: int,
        member_id: int | None,
        picture: bool = True,
        language: str | None = None,
    ) -> Card:
        """Like ``scorecard``, for a game by id (also a finished one); ``member_id`` may
        name a computer seat (its negative id), as the menu of cards does."""
        row = await self.core.row(game_id)
        if row.state is None:
            raise Refusal("The game has not started yet: there are no scorecards to show.")
        game = self.core.game_of(row)
        wanted = member_id if member_id is not None else viewer_id
        try:
            seat = game.seat_of(player_id(wanted))
        except RuleError:
            if member_id is not None:
                raise Refusal("That member is not playing in this game.") from None
            seat = game.current
        pool = self.core.drawing_pool
        language = language or row.language
        image = await pool.run(scorecard_png, game.to_dict(), seat, language) if picture else None
        seats = tuple((s.player_id, s.name) for s in game.seats)
        text = card_text(game, [seat], language)
        return Card(game.seats[seat].name, text, image, row.id, seats, game.seats[seat].player_id)

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
            row = await self.core.row(game_id)  # a live game's is cached: no read per click
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
        row = await self.core.store.read(plans.get_game, game_id) if game_id is not None else None
        if row is None or not row.is_live:
            return Refusal("That button is out of date: this game is over.")
        return Refusal(
            "That button is out of date. Use the live board instead.", self.core.link(row)
        )

    async def pictures_off(self, game_id: int) -> Board | None:
        """Play the rest of a game without pictures (the bot was refused a file where the
        game is played): the board as it is now, in text. None if the game is over."""

        async def work() -> Board | None:
            row = await self.core.row(game_id)
            if row.status != GameStatus.ACTIVE:
                return None
            saved = row
            if row.pictures:
                saved = await self.core.save(
                    row, MoveRecord(None, "pictures-off"), change=GameChange(pictures=False)
                )
            return await self.core.board(saved, self.core.game_of(saved))

        return await self.core.locked(game_id, work)
