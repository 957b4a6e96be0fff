"""Keeping Discord in step with the database: the one place that posts, edits and retires a
game's messages, and the only caller of the service's records of what is shown where
(``board_shown``, ``final_posted``, ``undo_offered``, ``set_thread``).

Every change is saved first and shown after; if showing fails (Discord is down, the bot
restarts), the database still knows what should be there, and ``cogs.shared.repairs`` brings
the messages back in line through this publisher.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.games import Board, GameService, GameView, Where, is_bot
from bot.i18n import Lang

from . import answers
from .activity import Activity
from .computers import Computers, NoComputers
from .emojis import DiceFaces
from .errors import jump_url
from .language import of_server, public
from .lobbies import Lobbies
from .looks import Looks, looks_of
from .pace import Cooldowns
from .place import place_of
from .private import PrivateBoards
from .reminders import USER_MENTIONS, Reminders
from .routes import PlaceRoutes
from .surface import PrivateSurface, Surface, surface_of
from .text import ping, png
from .turn_notices import TurnNotices

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)
T = TypeVar("T")
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, MISSING_ACCESS, MISSING_PERMISSIONS = 10003, 10008, 50001, 50013
THREAD_ARCHIVED = 50083
NO_MENTIONS = discord.AllowedMentions.none()


class Publisher:
    """Posts, edits and retires the messages of games, and repairs them."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot
        #: who plays when a board shows a computer's turn: the turn feature registers its
        #: players here when it loads
        self.computers: Computers = NoComputers()
        self._places_read = False
        self.routes = PlaceRoutes(bot)  # the means of the game's place (channel or token)
        self.reminders = Reminders(bot, self.routes)
        #: each game's pinged turns (an Undo goes back a turn, and a board posted again for
        #: either turn must not ping again) and the board an Undo parked
        self.notices = TurnNotices()
        self.faces = DiceFaces()  # the dice as emojis, once made (``start`` in cog_load)
        # each member's wait between public posts of a kind, by the bot's clock (a test moves it)
        self.pace = Cooldowns(lambda: bot.clock().timestamp())
        #: each daily challenge's private board as last shown
        self.private = PrivateBoards(bot.clock, self)
        #: what this process is showing now (``Activity``)
        self.activity = Activity(lambda game_id: self.computers.running(game_id))
        #: the lobbies' messages
        self.lobbies = Lobbies(self)

    async def places_known(self) -> None:
        """The places only tokens reach, and the tokens still good there, as the store kept
        them: read once, before a repair or a timer would post anywhere (a restart in a
        group DM posts nothing there but through the tokens of the last 15 minutes)."""
        if not self._places_read:
            self.routes.known(await self.games.servers.token_places())
            now = self.bot.clock().timestamp()
            self.routes.tokens.restore(await self.games.servers.fresh_tokens(now))
            self._places_read = True

    @property
    def looks(self) -> Looks:
        """The features' builders of what is shown (each registered as its feature loads)."""
        return looks_of(self.bot)

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def unarchiving(self, channel_id: int, act: Callable[[], Awaitable[T]]) -> T:
        """``act()``; if Discord answers that the game's thread is archived (a long game,
        a day without a post), unarchive the thread and ``act()`` once more."""
        try:
            return await act()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
        log.info("thread %s was archived; unarchiving it to go on", channel_id)
        await self.routes.archive(channel_id, False, reason="a game goes on")
        return await act()

    async def post_board(self, board: Board, nonce: str | None = None) -> discord.Message | None:
        """A new live board that mentions the player to move (None if, while it was being
        posted, an Undo took the game back: the message is deleted again)."""
        board = await board.drawn()
        assert board.game is not None
        await self.reminders.turn_over(board.row.id, board.row)
        seat = board.game.current_seat
        surface = self.surface(board.row)
        # The nonce makes a re-post after a crash return the message already posted, if any.
        post = surface.send
        text = turn_line(board)
        # A player is pinged once a turn: a board posted again for the same turn (after an
        # Undo, a /yahtzee board, a repair) names them without a second notification.
        turn = (board.game.turn_number, seat.player_id)
        reused = await self._unpark(board, turn, text)
        if reused is not None:
            return reused
        pings = NO_MENTIONS if self.notices.pinged(board.row.id, turn) else USER_MENTIONS
        if surface.by_token:
            return await self._post_by_token(board, surface, text, pings)
        try:
            message = await post(
                notify=not is_bot(seat.player_id),
                nonce=nonce or await self.games.posts.nonce(board.row, f"v{board.row.version}"),
                content=text,
                embed=self.board_embed(board),
                files=self.looks.turn.board_files(board),
                view=self.looks.turn.board_view(board, self.faces),
                allowed_mentions=pings,
            )
        except discord.Forbidden as exc:
            textual = await self._refused_a_file(exc, board)
            if textual is None:
                raise
            board = textual
            message = await post(
                notify=not is_bot(seat.player_id),
                nonce=await self.games.posts.nonce(board.row, f"v{board.row.version}"),
                content=text,
                embed=self.board_embed(board),
                view=self.looks.turn.board_view(board, self.faces),
                allowed_mentions=pings,
            )
        # On record once posted: a post Discord refused notified nobody, so the board the
        # repair posts for the same turn pings its player.
        self.notices.ping(board.row.id, turn)
        game = board.game
        assert game is not None
        if not await self.games.posts.board_shown(board.row, message.id, game):
            log.info("game %s: turn %s was undone while its board was posted", board.row.id,
                     game.turn_number)  # fmt: skip
            await self.park(board.row, message.id, turn)
            return None
        if is_bot(game.current_player_id):
            self.computers.start(board.row.id)
        return message

    async def bring_back(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """Answer a click on an old board (a place only clicks reach keeps old boards no
        token reaches as they were) by showing the game's board as it is now on it: the
        clicked message becomes the game's board, and the one on record before says where it
        went (if a token reaches it). That turn's player was notified when its board was
        first posted: this names them quietly."""
        board = await board.drawn()
        game = board.game
        assert game is not None and interaction.message is not None
        before, here = board.row.board_message_id, interaction.message.id
        await answers.edit(
            interaction,
            content=turn_line(board),
            embed=self.board_embed(board),
            attachments=self.looks.turn.board_files(board),
            view=self.looks.turn.board_view(board, self.faces),
            allowed_mentions=NO_MENTIONS,
        )
        if not await self.games.posts.board_shown(board.row, here, game):
            return  # the game moved on meanwhile: that move shows itself
        if before is not None and before != here:
            link = jump_url(board.row.guild_id, board.row.board_channel_id, here)
            await self.retire(
                board.row, before, embed=self.looks.turn.moved_to_embed(public(board.row), link)
            )
        if is_bot(game.current_player_id):
            self.computers.start(board.row.id)

    def board_embed(self, board: Board) -> discord.Embed:
        """A board's embed as its place shows it (its timer's words where only clicks reach)."""
        return self.looks.turn.board_embed(board, self.faces, self.by_click(board.row))

    def parked(self, game_id: int) -> int | None:
        """The message an Undo parked for a game (the next turn's board, waiting), if any."""
        parked = self.notices.parked(game_id)
        return parked[0] if parked is not None else None

    async def _post_by_token(
        self, board: Board, surface: Surface, text: str, pings: discord.AllowedMentions
    ) -> discord.Message | None:
        """``post_board`` where only tokens reach. There no nonce makes a post idempotent: a
        board posted whole, then lost with the process before it was on record, would stay
        live beside the one the restart posts. So it comes in steps, each on record before
        the next: its turn line alone (a follow-up, kept with its token: it notifies the
        player and has no controls), then on record as the turn's board, then its picture
        and controls by an edit (``Repairs`` makes that edit again after a restart). A kill
        between any two leaves either no live board (the restart's repair shows one) or this
        one, never two."""
        game = board.game
        assert game is not None
        seat = game.current_seat
        message = await surface.send(
            notify=not is_bot(seat.player_id), content=text, allowed_mentions=pings
        )
        turn = (game.turn_number, seat.player_id)
        self.notices.ping(board.row.id, turn)
        if not await self.games.posts.board_shown(board.row, message.id, game):
            log.info("game %s: turn %s was undone while its board was posted", board.row.id,
                     game.turn_number)  # fmt: skip
            await self.park(board.row, message.id, turn)
            return None
        shown = await surface.edit(
            message.id,
            embed=self.board_embed(board),
            attachments=self.looks.turn.board_files(board),
            view=self.looks.turn.board_view(board, self.faces),
            allowed_mentions=NO_MENTIONS,
        )
        if is_bot(game.current_player_id):
            self.computers.start(board.row.id)
        return shown if shown is not None else message

    async def park(
        self, row: GameView, message_id: int | None, turn: tuple[int, str] | None
    ) -> None:
        """An Undo took back the scoring that posted ``message_id`` (the next turn's board,
        which pinged its player): it waits, without controls, to become that turn's board
        again when the scoring is made anew. So nothing untrue is left in the channel, the
        player is notified once, and no notification points at a deleted message."""
        if message_id is None:
            return
        if turn is None:  # not known (a restart came between): nothing to wait for
            await self.delete(row, message_id)
            return
        stale = self.notices.park(row.id, message_id, turn)
        if stale is not None:
            await self.delete(row, stale[0])
        await self.games.posts.parked(row.id, (message_id, turn))  # a restart finds it too
        await self.retire(row, message_id, embed=self.looks.turn.waiting_embed(public(row)))

    async def _unpark(
        self, board: Board, turn: tuple[int, str], text: str
    ) -> discord.Message | None:
        """Show ``board`` on the game's waiting message if it was posted for this very turn
        (an edit: no second notification); a waiting message for another turn goes."""
        parked = self.notices.unpark(board.row.id) or board.row.parked
        if parked is None:
            return None
        await self.games.posts.parked(board.row.id, None)
        message_id, waited_for = parked
        if waited_for != turn:
            await self.delete(board.row, message_id)
            return None
        surface = self.surface(board.row)
        try:
            message = await self.unarchiving(
                board.row.board_channel_id,
                lambda: surface.edit(
                    message_id,
                    content=text,
                    embed=self.board_embed(board),
                    attachments=self.looks.turn.board_files(board),
                    view=self.looks.turn.board_view(board, self.faces),
                    allowed_mentions=NO_MENTIONS,
                ),
            )
        except discord.NotFound:
            return None  # deleted meanwhile: a new board is posted instead
        if message is None:  # no token reaches it any more (a group DM): a new board
            return None
        assert board.game is not None
        if not await self.games.posts.board_shown(board.row, message_id, board.game):
            return None
        if is_bot(board.game.current_player_id):
            self.computers.start(board.row.id)
        return message

    async def _refused_a_file(self, exc: discord.Forbidden, board: Board) -> Board | None:
        """After a 403 on a board with a picture: if files are what the bot lost (Attach
        Files taken away mid-game), the game goes on in text; the board to show instead.
        None if that is not it (the error stands)."""
        if exc.code != MISSING_PERMISSIONS or board.image is None:
            return None
        # If something else is missing (Send Messages), the text board is refused too and
        # that error stands: the game then ends as one that cannot be shown.
        log.warning("game %s: refused a picture (%s); going on in text", board.row.id, exc)
        return await self.games.drawing.pictures_off(board.row.id)

    async def edit_board(self, message_id: int, board: Board) -> None:
        """Show ``board`` on its message; if that message is gone (a moderator deleted it)
        or no token reaches it any more (a place only clicks reach), post the board anew, as
        the repair after a restart does (``Unreachable`` if nothing reaches the place now)."""
        assert board.game is not None
        surface = self.surface(board.row)
        try:
            edited = await self.unarchiving(
                board.row.board_channel_id,
                lambda: surface.edit(
                    message_id,
                    embed=self.board_embed(board),
                    attachments=self.looks.turn.board_files(board),
                    view=self.looks.turn.board_view(board, self.faces),
                ),
            )
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            log.info("game %s: its board %s was deleted; posting it again", board.row.id,
                     message_id)  # fmt: skip
            edited = None
        if edited is None:  # deleted, or no token reaches it any more (a group DM): anew
            await self.post_board(
                board, nonce=await self.games.posts.nonce(board.row, f"v{board.row.version}r")
            )
            return
        await self.games.posts.board_shown(board.row, message_id, board.game)

    async def show(
        self, interaction: discord.Interaction[Any], board: Board, said: str | None = None
    ) -> None:
        """Answer a click by showing ``board`` on the message clicked (``said``: the line
        above a private board, in place of the one it had)."""
        line: dict[str, Any] = {} if said is None else {"content": said}
        await self.unarchiving(
            board.row.board_channel_id,
            lambda: answers.edit(
                interaction,
                embed=self.board_embed(board),
                attachments=self.looks.turn.board_files(board),
                view=self.looks.turn.board_view(board, self.faces),
                **line,
            ),
        )
        if interaction.message is not None:
            self.games.posts.board_answered(board.row, interaction.message.id, board.game)
        self.private.note(interaction, board.row)

    async def show_controls(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """Answer a hold by editing the clicked board's buttons alone: its embed and picture
        stay as they are (a hold changes neither), so nothing is drawn or uploaded."""
        await self.unarchiving(
            board.row.board_channel_id,
            lambda: answers.edit(interaction, view=self.looks.turn.board_view(board, self.faces)),
        )
        if interaction.message is not None:
            self.games.posts.board_answered(board.row, interaction.message.id, board.game)
        self.private.note(interaction, board.row)

    def by_click(self, row: GameView, interaction: discord.Interaction[Any] | None = None) -> bool:
        """Whether the game's place is reached by tokens only (as ``interaction`` from it
        says, else as the game keeps it): a group DM, where the bot only answers clicks and
        most players are not offered /yahtzee (``cogs.shared.wording``)."""
        if interaction is not None:
            return not place_of(interaction).can_post
        return row.by_token

    async def scored(self, game_id: int, message_id: int | None) -> None:
        """A scoring's summary shows, with its Undo: record the offer (once it shows, so that
        a lost answer leaves a board to repair, not an Undo offer)."""
        await self.games.posts.undo_offered(game_id, message_id)

    async def close_undo(self, row: GameView) -> None:
        """The Undo offer of the last scoring has lapsed: its button goes."""
        await self.retire(row, row.undo_message_id)
        if row.undo_message_id is not None:
            await self.games.posts.undo_offered(row.id, None)

    async def server_language(self, row: GameView) -> Lang:
        """The language of the server a game is played in, for what its channel sees of a
        game whose own language is its player's (a daily challenge's result): the server's
        choice, else its language in Discord."""
        guild = self.bot.get_guild(row.guild_id or 0)
        if guild is None:  # not in the cache (a shard not ready): the game's own
            return public(row)
        return await of_server(self.games, row.guild_id, guild.preferred_locale)

    def surface(self, row: GameView, *, lobby: bool = False) -> Surface:
        """Where the game's messages go, chosen from its place (``GameView.where``): its
        private board for a daily challenge's, else its channel's (``lobby``: the channel
        its lobby message is in, not the game's thread)."""
        if row.where is Where.PRIVATE and not lobby:
            return PrivateSurface(self.private, row.id)
        return surface_of(self.routes, row, row.channel_id if lobby else None)

    def reachable(self, row: GameView) -> bool:
        """Whether the game's channel can be shown something now, without a click (always
        by the bot's own routes; where only tokens reach, while one is fresh)."""
        return surface_of(self.routes, row).reachable()

    async def post(self, row: GameView, **fields: Any) -> discord.Message:
        """A message in the game's channel (its thread), whatever its board's place."""
        return await surface_of(self.routes, row).send(**fields)

    async def retire(
        self, row: GameView, message_id: int | None, *, lobby: bool = False, **changes: Any
    ) -> None:
        """Take a message's components away (a turn that is over), ignoring a deleted message.
        A new embed also drops the message's picture and its ping text; a ``view`` (a V2
        lobby's layout without controls, ``lobby_edit``) stands in for its components. On a
        daily challenge's private board only a token reaches it (``PrivateSurface``)."""
        if message_id is None:
            return
        if "embed" in changes:
            changes.setdefault("attachments", [])
            changes.setdefault("content", None)
        changes.setdefault("view", None)
        surface = self.surface(row, lobby=lobby)
        channel_id = row.channel_id if lobby else row.board_channel_id
        try:
            await self.unarchiving(channel_id, lambda: surface.edit(message_id, **changes))
        except discord.HTTPException as exc:
            log.info("could not retire message %s in %s: %s", message_id, channel_id, exc)

    async def delete(self, row: GameView, message_id: int | None) -> None:
        """Delete a message that no longer says anything true (a next turn's board that an
        Undo took back), ignoring one already gone."""
        if message_id is None:
            return
        try:
            await self.surface(row).delete(message_id)
        except discord.HTTPException as exc:
            log.info("game %s: could not delete message %s: %s", row.id, message_id, exc)

    async def post_final(self, row: GameView, image: bytes | None = None) -> None:
        """The game-over message: ranking, the cards as text, the final picture."""
        await self.reminders.turn_over(row.id, row)
        await self.forget(row.id, row)
        game = row.require_game()
        if image is None and row.pictures:
            image = await self.games.drawing.final_image(row)
        daily = await self.games.daily.daily_entry(row.id) if row.daily is not None else None
        if row.daily is not None:  # the channel sees a daily's result only (not its dice)
            self.private.forget(row.id)
            message = await surface_of(self.routes, row).send(
                nonce=await self.games.posts.nonce(row, "final"),
                view=self.looks.daily.daily_result_layout(
                    await self.server_language(row), row, game, daily, self.by_click(row)
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.games.posts.final_posted(row.id, message.id)
            return

        async def post(picture: bytes | None) -> discord.Message:
            return await self.surface(row).send(
                nonce=await self.games.posts.nonce(
                    row, "final" if picture is not None else "final-t"
                ),
                files=[png(picture, self.looks.results.FINAL_FILE)] if picture is not None else [],
                view=self.looks.results.final_layout(row, game, picture is not None, daily),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        try:
            message = await post(image)
        except discord.Forbidden as exc:
            if exc.code != MISSING_PERMISSIONS or image is None:
                raise
            log.warning("game %s: its final picture was refused (%s); posting text", row.id, exc)
            message = await post(None)  # the card is in the embed as text
        await self.games.posts.final_posted(row.id, message.id)
        await self.archive(row)

    async def archive(self, row: GameView) -> None:
        """Archive the thread of a game that is over: it leaves the channel's list of active
        threads now, not after the 7 days of its auto-archive (one a game would pile up).
        Its final message stays readable and clickable; a post in it unarchives it."""
        if row.thread_id is None or row.is_live:
            return
        try:
            await self.routes.archive(row.thread_id, True, reason="the game in this thread is over")
        except discord.HTTPException as exc:  # gone, or no longer the bot's to archive
            log.info("game %s: could not archive thread %s: %s", row.id, row.thread_id, exc)

    async def forget(self, game_id: int, row: GameView | None = None) -> None:
        """A game has ended, whichever way: what was kept about its pings goes, and a board
        an Undo parked is deleted (if the game's ``row`` is there to say where)."""
        parked = self.notices.forget(game_id)
        if parked is not None and row is not None:
            await self.delete(row, parked[0])


def turn_line(board: Board) -> str:
    """The line above a board: whose turn it is (a mention, notifying only if allowed)."""
    assert board.game is not None
    seat = board.game.current_seat
    _ = public(board.row)
    who = ping(seat.player_id, seat.name)
    if is_bot(seat.player_id):
        return _("{who} is playing.", who=who)
    return _("{who}, your turn!", who=who)
