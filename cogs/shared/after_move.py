"""What players see after a move, decided once, whatever made the move: a player's click
(``cogs.turn``), the turn timer, a computer seat, a command (``/yahtzee leave``, ``end``,
``kick``, ``rejoin``), a repair. Each method is one kind of move and shows all that follows
from it: the board edited, the turn's summary and its Undo, the next player's board (and
ping), the computer seats' turn (the publisher starts them when a board shows their turn),
the final card, or the end of a game nobody is left in. It shows through the ``Publisher``
alone, whose means of posting are one seam (``routes``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.games import NOBODY_LEFT, Board, GameStatus, GameView, Scored, Undone

from . import answers
from .checks import message_id
from .language import public
from .looks import TurnLooks
from .publisher import Publisher
from .repairs import Repairs
from .wording import ending


class AfterMove:
    """Shows what comes of each kind of move."""

    def __init__(self, publisher: Publisher, repairs: Repairs) -> None:
        self.publisher = publisher
        self.repairs = repairs

    @property
    def turn(self) -> TurnLooks:
        """The turn feature's builders (registered as it loads)."""
        return self.publisher.looks.turn

    # a player's clicks on the live board

    async def held(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """A die held or released: only the clicked board's buttons change."""
        await self.publisher.show_controls(interaction, board)

    async def rolled(self, interaction: discord.Interaction[Any], board: Board) -> None:
        """A roll: the clicked board shows it; the previous scorer's Undo closes."""
        await self.publisher.show(interaction, board)
        if board.retire_undo_message_id != message_id(interaction):  # not this very board
            await self.publisher.retire(board.row, board.retire_undo_message_id)

    async def scored(
        self, interaction: discord.Interaction[Any], scored: Scored, turn: int
    ) -> None:
        """A player scored with the box menu: the clicked board becomes the turn's summary
        with their Undo (a daily challenge's private board shows the next turn itself), then
        what comes next (``_next``)."""
        publisher, row = self.publisher, scored.board.row
        if row.daily is not None:
            await publisher.private.scored(interaction, scored)
            return
        await publisher.unarchiving(
            row.board_channel_id,
            lambda: answers.edit(
                interaction,
                content=None,
                embed=self.turn.summary_embed(scored, faces=publisher.faces),
                attachments=[],
                view=None if scored.finished else self.turn.undo_view(public(row), row.id, turn),
            ),
        )
        if not scored.finished:
            await publisher.scored(row.id, message_id(interaction))  # its Undo, on record
        await self._next(scored)

    async def undone(self, interaction: discord.Interaction[Any], undone: Undone) -> None:
        """Undo: the clicked message is the live board again; the next turn's board waits,
        without controls, to be that turn's board again (or goes)."""
        publisher, row = self.publisher, undone.board.row
        said = None
        if row.daily is not None:  # the private board's line said the scoring: not any more
            _ = public(row)
            said = "\N{LEFTWARDS ARROW WITH HOOK} " + _(
                "Your last scoring was taken back: the dice are as they were before it."
            )
        await publisher.show(interaction, undone.board, said)
        # The undone turn (the next player's) is over: its half-time reminder goes.
        await publisher.reminders.turn_over(row.id, row)
        await publisher.park(
            row,
            undone.retire_message_id,
            undone.retire_turn,  # known also after a restart, unlike what was pinged
        )

    # moves nobody clicked

    async def computer_moved(self, board: Board) -> None:
        """A computer seat rolled: its board shows the roll."""
        if board.row.board_message_id is not None:
            await self.publisher.edit_board(board.row.board_message_id, board)

    async def scored_unseen(
        self, scored: Scored, summary: discord.Embed, ended: str | None = None
    ) -> bool:
        """A scoring nobody clicked (a computer seat's, or the timer's for a player whose
        time ran out): the board becomes the turn's ``summary`` and the last Undo offer
        closes; then what comes next (``_next``; ``ended``: why, if nobody is left). True if
        the game goes on with a next board."""
        row, game = scored.board.row, scored.board.game
        if game is None or row.board_turn == game.turn_number - 1:
            await self.publisher.retire(row, row.board_message_id, embed=summary)
        else:  # the board on record shows an earlier turn (its scoring's line, where a lost
            # post left no later board on record): it keeps its words, and only its controls go
            await self.publisher.retire(row, row.board_message_id)
        await self.publisher.close_undo(row)
        return await self._next(scored, ended)

    async def _next(self, scored: Scored, ended: str | None = None) -> bool:
        """After a scoring: the final card, or the end of a game nobody is left playing
        (``ended``: why, in the game's language; default: nobody is), or the next turn's
        board (whose computer seat then plays). True if a next board shows (not if an Undo
        took the game back meanwhile)."""
        row = scored.board.row
        if scored.finished:
            await self.publisher.post_final(row, scored.final_image)
            return False
        if row.status != GameStatus.ACTIVE:
            reason = ended if ended is not None else public(row)(NOBODY_LEFT)
            await self.ended(row, reason, after_scoring=True, start=True)
            return False
        return await self.publisher.post_board(scored.board) is not None

    # commands

    async def left(self, before: GameView, board: Board, name: str) -> None:
        """A player left with /yahtzee leave (``name`` made inert): the lobby or the board
        shows it; the next player's turn, the final card, or the game's end if nobody is left."""
        publisher, row = self.publisher, board.row
        _ = public(row)
        if row.status in (GameStatus.LOBBY, GameStatus.CANCELLED):
            if before.board_message_id:
                await publisher.lobbies.edit_lobby(row, before.board_message_id)
            return
        if row.status == GameStatus.ACTIVE:
            await publisher.close_undo(before)  # a leaving takes every Undo offer away
            if (
                board.game is not None
                and before.board_message_id is not None
                and (before.require_game().current_player_id == board.game.current_player_id)
            ):  # not the leaver's turn: the board shows the seat gone, nobody is pinged
                await publisher.edit_board(before.board_message_id, board)
                return
            await publisher.retire(
                row, before.board_message_id, embed=self.turn.left_embed(_, name)
            )
            await publisher.post_board(board)
        elif row.status == GameStatus.FINISHED:
            await publisher.retire(
                row, before.board_message_id, embed=self.turn.moved_on_embed(_, True)
            )
            await publisher.close_undo(before)
            await publisher.post_final(row)
        else:
            reason = _("{name} left. {reason}", name=name, reason=_(NOBODY_LEFT))
            await self.ended(row, reason, before, start=True)

    async def changed(self, game_id: int) -> None:
        """A command changed a game (a player back from away, an away player removed): its
        messages are brought in line with the database; a game nobody is left in ends."""
        fresh = await self.publisher.games.lookups.find(game_id)
        if fresh is None:
            return
        if fresh.status == GameStatus.ABANDONED:  # a kick left no person playing
            await self.ended(fresh, public(fresh)(NOBODY_LEFT), start=True)
            return
        if fresh.status == GameStatus.CANCELLED:  # the lobby says it is closed
            await self.publisher.forget(fresh.id, fresh)
            await self.publisher.lobbies.retire_lobby(fresh, fresh.board_message_id)
            return
        await self.repairs.repair(fresh)

    async def ended(
        self,
        row: GameView,
        reason: str,
        before: GameView | None = None,
        after_scoring: bool = False,
        start: bool = False,
    ) -> None:
        """A game ended without a result, whichever way (nobody left, everyone away, a
        day without a move, /yahtzee end, a lobby expired): its reminder and what was kept
        of it go; its lobby or board says why (``reason``, in the game's language), without
        buttons (but Play again where only clicks reach: ``ended_fields``), as does its
        Undo; its thread is archived. ``before``: the game as its messages show it (default
        ``row``). ``after_scoring``: its board just became the last turn's summary, so the
        reason is posted below it. ``start``: say how a new game starts (``ending``)."""
        publisher = self.publisher
        shown = before or row
        by_click = row.by_token
        await publisher.reminders.turn_over(row.id, shown)
        await publisher.forget(row.id, row)
        if shown.status == GameStatus.LOBBY or row.status == GameStatus.CANCELLED:
            said = ending(public(row), reason, by_click, again=False, start=start)
            await publisher.lobbies.retire_lobby(shown, shown.board_message_id, said)
            return
        fields = self.turn.ended_fields(row, reason, by_click, start)
        if after_scoring:  # its Undo offer is closed already
            await publisher.post(row, **fields)
        else:
            await publisher.retire(row, shown.board_message_id, **fields)
            if shown.undo_message_id != shown.board_message_id:
                await publisher.retire(row, shown.undo_message_id)
        publisher.private.forget(row.id)
        await publisher.archive(row)
