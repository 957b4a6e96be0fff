"""Keeping Discord in step with the database: the one place that posts, edits and retires a
game's messages, and the only caller of the service's records of what is shown where
(``board_shown``, ``final_posted``, ``undo_offered``, ``set_thread``).

Every change is saved first and shown after; if showing fails (Discord is down, the bot
restarts), the database still knows what should be there, and ``cogs.ui.repairs`` brings
the messages back in line through this publisher.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.games import Board, GameService, GameStatus, GameView, Scored, is_bot
from bot.i18n import Lang, lang

from . import answers
from .emojis import DiceFaces
from .language import of_server, private, public
from .messages import (
    FINAL_FILE,
    board_embed,
    board_files,
    board_view,
    daily_result_layout,
    ended_embed,
    final_layout,
    lobby_edit,
    lobby_layout,
    ping,
    png,
    shown_name,
    summary_embed,
    thread_name,
    waiting_embed,
)
from .pace import Cooldowns

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)
T = TypeVar("T")
_ANSWERED_WITH = "answered-with"  # interaction.extras: the message a command answered with
#: How many (turn, player) pings a game remembers: the turn, the one an Undo went back to,
#: and the next.
PINGS_KEPT = 4
#: At most this many games' pings and parked boards are kept. A game's entries go when it
#: ends (``forget``); the bound covers an end this process does not hear of (another process
#: or a deploy ended it), far above the live games a process shows.
GAMES_KEPT = 10_000

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, MISSING_ACCESS, MISSING_PERMISSIONS = 10003, 10008, 50001, 50013
THREAD_ARCHIVED = 50083
USER_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_MENTIONS = discord.AllowedMentions.none()
#: How long an interaction's token reaches its messages (Discord: 15 minutes), less a
#: minute for the request's own way and the clocks' difference.
TOKEN_USABLE = timedelta(minutes=14)


@dataclass(frozen=True, slots=True)
class PrivateCopy:
    """A daily challenge's private board (an ephemeral message) as its player's client shows
    it: no channel route reaches it, only the token of an interaction answered on it, for
    15 minutes (``interaction``: the latest, issued at ``since`` by the bot's clock)."""

    game_id: int
    message_id: int
    channel_id: int  # where /yahtzee daily showed it
    interaction: discord.Interaction[Any]
    since: datetime


class Publisher:
    """Posts, edits and retires the messages of games, and repairs them."""

    def __init__(self, bot: YahtzeeBot, on_computer_turn: Callable[[int], None]) -> None:
        self.bot = bot
        self._on_computer_turn = on_computer_turn  # a computer player is to move in a game
        self._reminders: dict[int, tuple[int, int]] = {}  # game id -> its reminder (channel, id)
        #: game id -> the last few (turn, player) pinged: an Undo goes back a turn, and a board
        #: posted again for either turn (by /yahtzee board, say) must not ping again
        self._pinged: OrderedDict[int, list[tuple[int, str]]] = OrderedDict()
        #: game id -> a board an Undo took back, waiting for its turn again: (message, turn)
        self._parked: OrderedDict[int, tuple[int, tuple[int, str]]] = OrderedDict()
        self.faces = DiceFaces()  # the dice as emojis, once made (``start`` in cog_load)
        # each member's wait between public posts of a kind, by the bot's clock (a test moves it)
        self.pace = Cooldowns(lambda: bot.clock().timestamp())
        #: game id -> its daily challenge's private board as last shown (this process's:
        #: after a restart the game's clicks say that a copy was replaced, not where)
        self._copies: dict[int, PrivateCopy] = {}

    @property
    def games(self) -> GameService:
        return self.bot.games

    def channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        """A channel to post in by id (with its server's id, so that a message's link is
        the server's, not a DM's ``@me``)."""
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def unarchiving(self, channel_id: int, act: Callable[[], Awaitable[T]]) -> T:
        """``act()``; if Discord answers that the game's thread is archived (a long game,
        a day without a post), unarchive the thread and ``act()`` once more."""
        try:
            return await act()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
        log.info("thread %s was archived; unarchiving it to go on", channel_id)
        await self.bot.http.edit_channel(channel_id, archived=False, reason="a game goes on")
        return await act()

    # -- reminders ---------------------------------------------------------------------------

    async def remind(self, row: GameView, player_id: str, seconds_left: int) -> None:
        """The half-time reminder of a turn: deleted when the turn ends."""
        minutes, seconds = divmod(seconds_left, 60)
        link = ""
        if row.board_message_id:
            link = (
                f" https://discord.com/channels/{row.guild_id}/{row.board_channel_id}/"
                f"{row.board_message_id}"
            )
        _ = public(row)
        reminder = await self.channel(row.board_channel_id).send(
            _(
                "{who}, half your turn's time is gone: {time} left to play.",
                who=ping(player_id),
                time=f"{minutes}:{seconds:02d}",
            )
            + link,
            allowed_mentions=USER_MENTIONS,
        )
        # recorded, so that the turn's end deletes it even after a restart in between
        self._reminders[row.id] = (row.board_channel_id, reminder.id)
        await self.games.posts.reminder_posted(row.id, reminder.id)

    async def notify(self, row: GameView, player_id: str, seconds_left: int) -> None:
        """/yahtzee notify: tell a player privately that their turn is waiting. Closed DMs
        turn the notices off for them, with a note in the game's channel (no ping: they are
        not at their screen) saying how to have them back."""
        user_id = int(player_id)
        minutes, seconds = divmod(seconds_left, 60)
        where = f"<#{row.board_channel_id}>"
        if row.board_message_id:
            where = (
                f"https://discord.com/channels/{row.guild_id}/{row.board_channel_id}/"
                f"{row.board_message_id}"
            )
        # (in the game's language: a DM is not an answer, so the player's own is not known)
        _ = public(row)
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            await dm.send(
                "\N{GAME DIE} "
                + _(
                    "It's your turn in Yahtzee: {time} left to play.",
                    time=f"{minutes}:{seconds:02d}",
                )
                + f" {where}\n-# "
                + _("`/yahtzee notify off` stops these messages.")
            )
        except discord.Forbidden:
            await self.games.servers.set_notify(user_id, False)
            name = next((n for uid, n in row.players if uid == user_id), _("a player"))
            who = f"**{shown_name(name)}**"
            await self.channel(row.board_channel_id, row.guild_id).send(
                _(
                    "I could not send {who} a private turn notice (their DMs are closed), so "
                    "turn notices are off for them. `/yahtzee notify on` turns them back on once "
                    "DMs from this server are allowed.",
                    who=who,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def turn_over(self, game_id: int, row: GameView | None = None) -> None:
        """A turn has ended: its half-time reminder, if any, has done its job and goes (the
        channel keeps no extra message per reminded turn). ``row``: the game as saved, whose
        record names a reminder a process posted before it restarted."""
        reminder = self._reminders.pop(game_id, None)
        if reminder is None and row is not None and row.reminder_message_id is not None:
            reminder = (row.board_channel_id, row.reminder_message_id)
        if reminder is None:
            return
        await self.delete(*reminder)
        await self.games.posts.reminder_posted(game_id, None)

    # -- a daily challenge's private board ----------------------------------------------------

    def note_copy(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """A daily challenge's private board was just shown or changed as the answer to
        ``interaction``: its token reaches that message for the next 15 minutes."""
        if row.daily is None:
            return
        message_id = (
            interaction.message.id
            if interaction.message is not None
            else interaction.extras.get(_ANSWERED_WITH)
        )
        if message_id is None or interaction.channel_id is None:
            return
        known = self._copies.get(row.id)
        channel_id = interaction.channel_id
        if known is not None and known.message_id == message_id:
            channel_id = known.channel_id  # (a click's channel is the copy's)
        self._copies[row.id] = PrivateCopy(
            row.id, message_id, channel_id, interaction, self.bot.clock()
        )

    def live_copy_elsewhere(self, game_id: int, message_id: int) -> PrivateCopy | None:
        """The live copy of a daily challenge's private board, if ``message_id`` is another
        (an older copy, replaced by /yahtzee daily)."""
        copy = self._copies.get(game_id)
        return copy if copy is not None and copy.message_id != message_id else None

    def forget_copy(self, game_id: int) -> None:
        """A daily challenge is over: nothing of its private board is edited any more."""
        self._copies.pop(game_id, None)

    async def edit_copy(self, copy: PrivateCopy, **changes: Any) -> bool:
        """Edit a private board through its token (a channel route does not reach an
        ephemeral message); False if the token is too old or Discord refused it."""
        if self.bot.clock() - copy.since > TOKEN_USABLE:
            log.info("game %s: its private board %s is out of reach (token expired)",
                     copy.game_id, copy.message_id)  # fmt: skip
            return False
        try:
            await copy.interaction.edit_original_response(**changes)
        except discord.HTTPException as exc:
            log.info("game %s: could not edit its private board %s: %s", copy.game_id,
                     copy.message_id, exc)  # fmt: skip
            return False
        return True

    async def _retire_copy(self, message_id: int, changes: dict[str, Any]) -> None:
        """``retire`` for a daily challenge's private board: through its token if this
        process knows it, else left as it is (its clicks are refused when they come)."""
        copy = next((c for c in self._copies.values() if c.message_id == message_id), None)
        if copy is not None:
            await self.edit_copy(copy, **changes)

    # -- boards ------------------------------------------------------------------------------

    async def post_board(self, board: Board, nonce: str | None = None) -> discord.Message | None:
        """A new live board that mentions the player to move (None if, while it was being
        posted, an Undo took the game back: the message is deleted again)."""
        board = await board.drawn()
        assert board.game is not None
        await self.turn_over(board.row.id, board.row)
        seat = board.game.current_seat
        # The nonce makes a re-post after a crash return the message already posted, if any.
        post = self.channel(board.row.board_channel_id).send
        _ = public(board.row)
        who = ping(seat.player_id, seat.name)
        text = (
            _("{who} is playing.", who=who)
            if is_bot(seat.player_id)
            else _("{who}, your turn!", who=who)
        )
        # A player is pinged once a turn: a board posted again for the same turn (after an
        # Undo, a /yahtzee board, a repair) names them without a second notification.
        turn = (board.game.turn_number, seat.player_id)
        reused = await self._unpark(board, turn, text)
        if reused is not None:
            return reused
        pinged = self._pinged.get(board.row.id, [])
        pings = USER_MENTIONS if turn not in pinged else NO_MENTIONS
        if turn not in pinged:
            _keep(self._pinged, board.row.id, [*pinged[-(PINGS_KEPT - 1) :], turn])
        try:
            message = await post(
                nonce=nonce or await self.games.posts.nonce(board.row, f"v{board.row.version}"),
                content=text,
                embed=board_embed(board, self.faces),
                files=board_files(board),
                view=board_view(board, self.faces),
                allowed_mentions=pings,
            )
        except discord.Forbidden as exc:
            textual = await self._refused_a_file(exc, board)
            if textual is None:
                raise
            board = textual
            message = await post(
                nonce=await self.games.posts.nonce(board.row, f"v{board.row.version}"),
                content=text,
                embed=board_embed(board, self.faces),
                view=board_view(board, self.faces),
                allowed_mentions=pings,
            )
        game = board.game
        assert game is not None
        if not await self.games.posts.board_shown(board.row, message.id, game):
            log.info("game %s: turn %s was undone while its board was posted", board.row.id,
                     game.turn_number)  # fmt: skip
            await self.park(
                board.row.id, board.row.board_channel_id, message.id, turn, board.row.language
            )
            return None
        if is_bot(game.current_player_id):
            self._on_computer_turn(board.row.id)
        return message

    def parked(self, game_id: int) -> int | None:
        """The message an Undo parked for a game (the next turn's board, waiting), if any."""
        parked = self._parked.get(game_id)
        return parked[0] if parked is not None else None

    async def park(
        self,
        game_id: int,
        channel_id: int,
        message_id: int | None,
        turn: tuple[int, str] | None,
        language: str = "en",
    ) -> None:
        """An Undo took back the scoring that posted ``message_id`` (the next turn's board,
        which pinged its player): it waits, without controls, to become that turn's board
        again when the scoring is made anew. So nothing untrue is left in the channel, the
        player is notified once, and no notification points at a deleted message."""
        if message_id is None:
            return
        if turn is None:  # not known (a restart came between): nothing to wait for
            await self.delete(channel_id, message_id)
            return
        stale = self._parked.pop(game_id, None)
        if stale is not None and stale[0] != message_id:
            await self.delete(channel_id, stale[0])
        _keep(self._parked, game_id, (message_id, turn))
        await self.retire(channel_id, message_id, embed=waiting_embed(lang(language)))

    async def _unpark(
        self, board: Board, turn: tuple[int, str], text: str
    ) -> discord.Message | None:
        """Show ``board`` on the game's waiting message if it was posted for this very turn
        (an edit: no second notification); a waiting message for another turn goes."""
        parked = self._parked.pop(board.row.id, None)
        if parked is None:
            return None
        message_id, waited_for = parked
        channel_id = board.row.board_channel_id
        if waited_for != turn:
            await self.delete(channel_id, message_id)
            return None
        partial = self.channel(channel_id).get_partial_message(message_id)
        try:
            message = await self.unarchiving(
                channel_id,
                lambda: partial.edit(
                    content=text,
                    embed=board_embed(board, self.faces),
                    attachments=board_files(board),
                    view=board_view(board, self.faces),
                    allowed_mentions=NO_MENTIONS,
                ),
            )
        except discord.NotFound:
            return None  # deleted meanwhile: a new board is posted instead
        assert board.game is not None
        if not await self.games.posts.board_shown(board.row, message_id, board.game):
            return None
        if is_bot(board.game.current_player_id):
            self._on_computer_turn(board.row.id)
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
        """Show ``board`` on its message; if that message is gone (a moderator deleted it),
        post the board anew, as the repair after a restart does."""
        assert board.game is not None
        message = self.channel(board.row.board_channel_id).get_partial_message(message_id)
        try:
            await self.unarchiving(
                board.row.board_channel_id,
                lambda: message.edit(
                    embed=board_embed(board, self.faces),
                    attachments=board_files(board),
                    view=board_view(board, self.faces),
                ),
            )
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            log.info("game %s: its board %s was deleted; posting it again", board.row.id,
                     message_id)  # fmt: skip
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
                embed=board_embed(board, self.faces),
                attachments=board_files(board),
                view=board_view(board, self.faces),
                **line,
            ),
        )
        if interaction.message is not None:
            self.games.posts.board_answered(board.row, interaction.message.id, board.game)
        self.note_copy(interaction, board.row)

    async def show_controls(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """Answer a hold by editing the clicked board's buttons alone: its embed and picture
        stay as they are (a hold changes neither), so nothing is drawn or uploaded."""
        await self.unarchiving(
            board.row.board_channel_id,
            lambda: answers.edit(interaction, view=board_view(board, self.faces)),
        )
        if interaction.message is not None:
            self.games.posts.board_answered(board.row, interaction.message.id, board.game)
        self.note_copy(interaction, board.row)

    async def show_privately(
        self, interaction: discord.Interaction[Any], board: Board, content: str
    ) -> None:
        """Answer a command with a daily challenge's private board (only the clicker sees
        it; its clicks edit it in place), and note it as the game's board."""
        message_id = await answers.send(
            interaction,
            content,
            embed=board_embed(board, self.faces),
            files=board_files(board),
            view=board_view(board, self.faces),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        if message_id is None:
            return
        row = board.row
        await self.games.posts.board_shown(row, message_id, board.game)
        if row.undo_message_id is not None and row.undo_message_id != message_id:
            await self.games.posts.undo_offered(row.id, message_id)  # its Undo comes along
        old = self._copies.get(row.id)
        interaction.extras[_ANSWERED_WITH] = message_id
        self.note_copy(interaction, row)
        if old is not None and old.message_id != message_id:  # shown again: the old copy goes
            _ = private(interaction)
            where = f"<#{interaction.channel_id}>"
            note = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS} " + _(
                "This copy of your daily challenge was replaced: use the one from /yahtzee "
                "daily in {channel}.",
                channel=where,
            )
            await self.edit_copy(old, content=note, embed=None, attachments=[], view=None)

    async def scored_privately(self, interaction: discord.Interaction[Any], scored: Scored) -> None:
        """A daily challenge's scoring: its private board shows the next turn (or the final
        card), the scoring said above it; the channel sees only the final result."""
        row = scored.board.row
        message_id = interaction.message.id if interaction.message is not None else None
        said = summary_embed(scored, faces=self.faces).description or ""  # the player's own
        if scored.finished:
            game = row.require_game()
            daily = await self.games.daily.daily_entry(row.id)
            picture = scored.final_image
            await answers.edit(
                interaction,
                content=None,
                embed=None,
                attachments=[png(picture, FINAL_FILE)] if picture is not None else [],
                view=final_layout(row, game, picture is not None, daily, said),
            )
            await self.post_final(row, picture)
            return
        board = await scored.board.drawn()
        await answers.edit(
            interaction,
            content=said,
            embed=board_embed(board, self.faces),
            attachments=board_files(board),
            view=board_view(board, self.faces),
        )
        self.note_copy(interaction, row)
        await self.games.posts.board_shown(row, message_id or 0, board.game)
        await self.scored(row.id, message_id)

    async def show_lobby(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """Answer a lobby click with the lobby as it is now."""
        await answers.edit(interaction, **lobby_edit(row))
        if interaction.message is not None:
            await self.games.posts.board_shown(row, interaction.message.id, None)

    async def edit_lobby(self, row: GameView, message_id: int) -> None:
        """Show the lobby as it is now on its message (after a /yahtzee leave)."""
        message = self.channel(row.board_channel_id).get_partial_message(message_id)
        await message.edit(**lobby_edit(row))

    async def answer_with_lobby(
        self,
        interaction: discord.Interaction[Any],
        row: GameView,
        invitation: str | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> None:
        """Answer the interaction with the lobby message, and note it as the game's board.
        ``invitation`` (a rematch's ping) comes first as a message of its own: a V2 lobby
        carries no content, and a mention inside its text would notify with an empty push."""
        if invitation:
            await answers.send(interaction, invitation, allowed_mentions=mentions or NO_MENTIONS)
        message_id = await answers.send(
            interaction, view=lobby_layout(row), allowed_mentions=NO_MENTIONS
        )
        if message_id is not None:
            await self.games.posts.board_shown(row, message_id, None)

    async def post_lobby(
        self,
        row: GameView,
        invitation: str | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> discord.Message:
        """A lobby message posted (not as an answer), noted as the game's board; its
        ``invitation`` just above it."""
        channel = self.channel(row.board_channel_id, row.guild_id)
        if invitation:
            await channel.send(invitation, allowed_mentions=mentions or NO_MENTIONS)
        message = await channel.send(view=lobby_layout(row), allowed_mentions=NO_MENTIONS)
        await self.games.posts.board_shown(row, message.id, None)
        return message

    async def retire_lobby(self, row: GameView, message_id: int | None, note: str) -> None:
        """A lobby closed (cancelled, expired, moved, or its game could not start): its
        words with ``note`` in place of what to do, and no buttons."""
        await self.retire(row.channel_id, message_id, **lobby_edit(row, note))

    async def scored(self, game_id: int, message_id: int | None) -> None:
        """A scoring's summary shows, with its Undo: record the offer (once it shows, so that
        a lost answer leaves a board to repair, not an Undo offer)."""
        await self.games.posts.undo_offered(game_id, message_id)

    async def close_undo(self, row: GameView) -> None:
        """The Undo offer of the last scoring has lapsed: its button goes."""
        await self.retire(row.board_channel_id, row.undo_message_id, row.daily is not None)
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

    async def move_to_thread(self, lobby: discord.Message, board: Board) -> Board:
        """Thread mode: the game is played in a thread started from its lobby message."""
        assert board.game is not None
        names = [seat.name for seat in board.game.seats]
        try:
            thread = await lobby.create_thread(
                name=thread_name(public(board.row), names),
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:  # e.g. the lobby is itself in a thread
            log.info(
                "game %s: could not start a thread, playing in the channel: %s", board.row.id, exc
            )
            return board
        row = await self.games.posts.set_thread(board.row.id, thread.id)
        return replace(board, row=row)

    async def retire(
        self, channel_id: int, message_id: int | None, private: bool = False, **changes: Any
    ) -> None:
        """Take a message's components away (a turn that is over), ignoring a deleted message.
        A new embed also drops the message's picture and its ping text; a ``view`` (a V2
        lobby's layout without controls, ``lobby_edit``) stands in for its components.
        ``private``: a daily challenge's message (ephemeral): only a token reaches it."""
        if message_id is None:
            return
        if "embed" in changes:
            changes.setdefault("attachments", [])
            changes.setdefault("content", None)
        changes.setdefault("view", None)
        if private:
            await self._retire_copy(message_id, changes)
            return
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            await self.unarchiving(channel_id, lambda: message.edit(**changes))
        except discord.HTTPException as exc:
            log.info("could not retire message %s in %s: %s", message_id, channel_id, exc)

    async def delete(self, channel_id: int, message_id: int | None) -> None:
        """Delete a message that no longer says anything true (a next turn's board that an
        Undo took back), ignoring one already gone."""
        if message_id is None:
            return
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            await message.delete()
        except discord.HTTPException as exc:
            log.info("could not delete message %s in %s: %s", message_id, channel_id, exc)

    async def post_final(self, row: GameView, image: bytes | None = None) -> None:
        """The game-over message: ranking, the cards as text, the final picture."""
        await self.turn_over(row.id, row)
        await self.forget(row.id, row.board_channel_id)
        game = row.require_game()
        if image is None and row.pictures:
            image = await self.games.drawing.final_image(row)
        daily = await self.games.daily.daily_entry(row.id) if row.daily is not None else None
        if row.daily is not None:  # the channel sees a daily's result only (not its dice)
            self.forget_copy(row.id)
            message = await self.channel(row.board_channel_id, row.guild_id).send(
                nonce=await self.games.posts.nonce(row, "final"),
                view=daily_result_layout(await self.server_language(row), row, game, daily),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.games.posts.final_posted(row.id, message.id)
            return

        async def post(picture: bytes | None) -> discord.Message:
            return await self.channel(row.board_channel_id).send(
                nonce=await self.games.posts.nonce(
                    row, "final" if picture is not None else "final-t"
                ),
                files=[png(picture, FINAL_FILE)] if picture is not None else [],
                view=final_layout(row, game, picture is not None, daily),
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
            await self.bot.http.edit_channel(
                row.thread_id, archived=True, reason="the game in this thread is over"
            )
        except discord.HTTPException as exc:  # gone, or no longer the bot's to archive
            log.info("game %s: could not archive thread %s: %s", row.id, row.thread_id, exc)

    async def forget(self, game_id: int, channel_id: int | None = None) -> None:
        """A game has ended, whichever way: what was kept about its pings goes, and a board
        an Undo parked is deleted (if the game's ``channel_id`` is still there to say)."""
        self._pinged.pop(game_id, None)
        parked = self._parked.pop(game_id, None)
        if parked is not None and channel_id is not None:
            await self.delete(channel_id, parked[0])

    async def ended(self, before: GameView | None, row: GameView, reason: str) -> None:
        """A game ended early: its board says why, its Undo and reminder go."""
        await self.forget(row.id, row.board_channel_id)
        if before is None:
            return
        await self.turn_over(row.id, before)
        if before.status == GameStatus.LOBBY:
            await self.retire_lobby(before, before.board_message_id, reason)
            return
        await self.retire(
            row.board_channel_id, before.board_message_id, embed=ended_embed(public(row), reason)
        )
        await self.retire(row.board_channel_id, before.undo_message_id)
        await self.archive(row)


def _keep(kept: OrderedDict[int, T], game_id: int, value: T) -> None:
    """``kept[game_id] = value`` as the newest entry; the oldest go beyond ``GAMES_KEPT``."""
    kept[game_id] = value
    kept.move_to_end(game_id)
    while len(kept) > GAMES_KEPT:
        kept.popitem(last=False)
