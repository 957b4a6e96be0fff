"""A daily challenge's private board (an ephemeral message) as its player's client shows it:
no channel route reaches it, only the token of an interaction answered on it, for 15
minutes. ``PrivateBoards`` shows it (the answer to /yahtzee daily, a scoring on it), and
keeps, for each game, the copy last shown and the interaction whose token reaches it (this
process's: after a restart the game's clicks say that a copy was replaced, not where)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.games import Board, GameView, Scored

from . import answers
from .language import private
from .text import png

if TYPE_CHECKING:
    from bot.games import GameService

    from .emojis import DiceFaces
    from .looks import Looks, TurnLooks

log = logging.getLogger(__name__)

ANSWERED_WITH = "answered-with"  # interaction.extras: the message a command answered with
#: How long an interaction's token reaches its messages (Discord: 15 minutes), less a
#: minute for the request's own way and the clocks' difference.
TOKEN_USABLE = timedelta(minutes=14)
NO_MENTIONS = discord.AllowedMentions.none()


class Shows(Protocol):
    """What a private board is shown with (the publisher's): the features' builders, the
    dice's faces, the service, a board's embed as its place shows it; the final message of
    a finished try, and the record of a scoring's Undo."""

    @property
    def looks(self) -> Looks: ...
    @property
    def faces(self) -> DiceFaces: ...
    @property
    def games(self) -> GameService: ...
    def board_embed(self, board: Board) -> discord.Embed: ...
    async def post_final(self, row: GameView, image: bytes | None = None) -> None: ...
    async def scored(self, game_id: int, message_id: int | None) -> None: ...


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


class PrivateBoards:
    """Shows a daily challenge's private board, and keeps each game's as last shown, with
    how to reach it."""

    def __init__(self, clock: Callable[[], datetime], publisher: Shows) -> None:
        self.clock = clock  # the bot's clock (a test moves it)
        self.publisher = publisher
        self._copies: dict[int, PrivateCopy] = {}

    @property
    def turn(self) -> TurnLooks:
        """The turn feature's builders (registered as it loads)."""
        return self.publisher.looks.turn

    def note(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """A daily challenge's private board was just shown or changed as the answer to
        ``interaction``: its token reaches that message for the next 15 minutes."""
        if row.daily is None:
            return
        message_id = (
            interaction.message.id
            if interaction.message is not None
            else interaction.extras.get(ANSWERED_WITH)
        )
        if message_id is None or interaction.channel_id is None:
            return
        known = self._copies.get(row.id)
        channel_id = interaction.channel_id
        if known is not None and known.message_id == message_id:
            channel_id = known.channel_id  # (a click's channel is the copy's)
        self._copies[row.id] = PrivateCopy(
            row.id, message_id, channel_id, interaction, self.clock()
        )

    def known(self, game_id: int) -> PrivateCopy | None:
        """The game's private board as last shown, if this process showed it."""
        return self._copies.get(game_id)

    def live_elsewhere(self, game_id: int, message_id: int) -> PrivateCopy | None:
        """The live copy of a daily challenge's private board, if ``message_id`` is another
        (an older copy, replaced by /yahtzee daily)."""
        copy = self._copies.get(game_id)
        return copy if copy is not None and copy.message_id != message_id else None

    def forget(self, game_id: int) -> None:
        """A daily challenge is over: nothing of its private board is edited any more."""
        self._copies.pop(game_id, None)

    async def edit(self, copy: PrivateCopy, **changes: Any) -> bool:
        """Edit a private board through its token (a channel route does not reach an
        ephemeral message); False if the token is too old or Discord refused it."""
        if self.clock() - copy.since > TOKEN_USABLE:
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

    async def retire(self, message_id: int, changes: dict[str, Any]) -> None:
        """``retire`` for a daily challenge's private board: through its token if this
        process knows it, else left as it is (its clicks are refused when they come)."""
        copy = next((c for c in self._copies.values() if c.message_id == message_id), None)
        if copy is not None:
            await self.edit(copy, **changes)

    async def show(self, interaction: discord.Interaction[Any], board: Board, content: str) -> None:
        """Answer a command with a daily challenge's private board (only the clicker sees
        it; its clicks edit it in place), and note it as the game's board."""
        message_id = await answers.send(
            interaction,
            content,
            embed=self.publisher.board_embed(board),
            files=self.turn.board_files(board),
            view=self.turn.board_view(board, self.publisher.faces),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        if message_id is None:
            return
        row = board.row
        await self.publisher.games.posts.board_shown(row, message_id, board.game)
        if row.undo_message_id is not None and row.undo_message_id != message_id:
            await self.publisher.games.posts.undo_offered(
                row.id, message_id
            )  # its Undo comes along
        old = self.known(row.id)
        interaction.extras[ANSWERED_WITH] = message_id
        self.note(interaction, row)
        if old is not None and old.message_id != message_id:  # shown again: the old copy goes
            _ = private(interaction)
            where = f"<#{interaction.channel_id}>"
            note = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS} " + _(
                "This copy of your daily challenge was replaced: use the one from /yahtzee "
                "daily in {channel}.",
                channel=where,
            )
            await self.edit(old, content=note, embed=None, attachments=[], view=None)

    async def scored(self, interaction: discord.Interaction[Any], scored: Scored) -> None:
        """A daily challenge's scoring: its private board shows the next turn (or the final
        card), the scoring said above it; the channel sees only the final result."""
        row = scored.board.row
        message_id = interaction.message.id if interaction.message is not None else None
        said = (
            self.turn.summary_embed(scored, faces=self.publisher.faces).description or ""
        )  # the player's own
        if scored.finished:
            game = row.require_game()
            daily = await self.publisher.games.daily.daily_entry(row.id)
            picture = scored.final_image
            await answers.edit(
                interaction,
                content=None,
                embed=None,
                attachments=[png(picture, self.publisher.looks.results.FINAL_FILE)]
                if picture is not None
                else [],
                view=self.publisher.looks.results.final_layout(
                    row, game, picture is not None, daily, said
                ),
            )
            await self.publisher.post_final(row, picture)
            return
        board = await scored.board.drawn()
        await answers.edit(
            interaction,
            content=said,
            embed=self.publisher.board_embed(board),
            attachments=self.turn.board_files(board),
            view=self.turn.board_view(board, self.publisher.faces),
        )
        self.note(interaction, row)
        await self.publisher.games.posts.board_shown(row, message_id or 0, board.game)
        await self.publisher.scored(row.id, message_id)
