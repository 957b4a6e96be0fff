"""Bringing a game's messages back in line with the database: after a restart, a
reconnect, a command that changed a game (``AfterMove.changed``), or a post that failed.
The database says what should be shown; ``Repairs`` posts or edits what is missing, through
the ``Publisher``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Game
from bot.games import GameService, GameStatus, GameView, is_bot, player_id
from bot.games.replay import Turn

from . import answers
from .errors import jump_url, run_guarded
from .language import public
from .looks import TurnLooks
from .publisher import MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, Publisher
from .surface import surface_of
from .wording import STARTS_AFTER, ending

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

REPAIR_PACE = 0.05  # seconds between repaired games: 20 a second, well inside the rate limits


class Repairs:
    """Posts or edits what a game's messages miss, one game at a time or all of them."""

    def __init__(self, bot: YahtzeeBot, publisher: Publisher) -> None:
        self.bot = bot
        self.publisher = publisher
        self.busy = asyncio.Lock()  # one mass repair at a time (the timer waits for it)

    @property
    def turn(self) -> TurnLooks:
        """The turn feature's builders (registered as it loads)."""
        return self.publisher.looks.turn

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def repair_all(self) -> None:
        """Make every live game's messages match the database: post or edit what is missing."""
        await self.publisher.places_known()
        async with self.busy:
            rows = [
                row
                for row in await self.games.posts.needing_messages()
                if self.bot.owns(row.guild_id)  # another process repairs the other shards
                and self.publisher.reachable(row)  # else: at a click
            ]
            for row in rows:
                if await self.repair_one(row, refresh=True):
                    # paced: a mass repair after a resume must leave Discord's rate limits
                    # (50 requests a second) to the clicks
                    await asyncio.sleep(REPAIR_PACE)
                else:  # nothing to send: still, the clicks' turn (1,000 games are 0.2 s)
                    await asyncio.sleep(0)

    async def at_interaction(self, channel_id: int, game_id: int | None) -> None:
        """An interaction in a place only interactions reach (a group DM, a server that
        never added the bot), answered: what the messages of its game (``game_id``, a click's)
        and of the channel's live game miss (a restart or a failed post came between, a
        timer acted with no token to show it) is shown through its token. Not while this
        process is showing a move of that game (another interaction from the channel, a
        timer, its computer seats): that shows what it does."""
        games = [game_id] if game_id is not None else []
        live = await self.games.lookups.find_live(channel_id)
        if live is not None and live.id not in games:
            games.append(live.id)
        for game in games:
            if self.publisher.activity.busy(game, channel_id):
                continue
            # marked at once (no await between the look and the mark): the timer's repair of
            # boards left behind, which this click's fresh token makes possible too, leaves
            # the showing to this one instead of posting the same board beside it
            with self.publisher.activity.acting(game):
                row = await self.games.timers.behind(game)
                if row is None:
                    continue
                log.info("game %s: shown again at an interaction", game)
                try:
                    await self.repair(row)
                except Exception:
                    log.exception("could not repair the messages of game %s at a click", game)

    async def bring_back(
        self, interaction: discord.Interaction[Any], row: GameView, game: Game
    ) -> None:
        """A click on an old board of a game still being played, where only clicks reach (a
        group DM keeps boards no token reaches any more as they were): its answer brings the
        game's board back. If that turn's board was shown (its player notified), on the
        clicked message; if the game moved on unseen (a timer, a restart), the clicked board
        says so and the board comes anew at the bottom, naming (notifying) its player."""

        async def work() -> None:
            if row.board_message_id is not None and row.board_turn == game.turn_number:
                if player_id(interaction.user.id) == game.current_player_id:
                    # the player to move: their board comes to where they clicked
                    board = await self.games.drawing.render(row)
                    await self.publisher.bring_back(interaction, board)
                    return
                # anyone else's click never makes their message another player's board:
                # it is retired there, saying where the live board is
                link = jump_url(row.guild_id, row.board_channel_id, row.board_message_id)
                await answers.edit(
                    interaction, content=None, embed=self.turn.moved_to_embed(public(row), link),
                    attachments=[], view=None,
                )  # fmt: skip
                return
            since = await self.unseen(row)
            await answers.edit(
                interaction, content=None, embed=self.turn.moved_on_embed(public(row), since=since),
                attachments=[], view=None,
            )  # fmt: skip
            log.info("game %s: shown again at a click on an old board", row.id)
            await self.repair(row)

        await run_guarded(interaction, work)

    async def retire_clicked(
        self, interaction: discord.Interaction[Any], row: GameView, game: Game
    ) -> None:
        """Retire the clicked old board as the click's answer (its handler answers privately
        after): where the live board is if this turn's was shown, else what was played since
        it (the repair after the click shows the board anew)."""
        if row.board_message_id is not None and row.board_turn == game.turn_number:
            link = jump_url(row.guild_id, row.board_channel_id, row.board_message_id)
            embed = self.turn.moved_to_embed(public(row), link)
        else:
            embed = self.turn.moved_on_embed(public(row), since=await self.unseen(row))
        await answers.edit(interaction, content=None, embed=embed, attachments=[], view=None)

    async def unseen(self, row: GameView) -> list[Turn]:
        """The turns scored since the board on record was shown (a timer's, a computer's,
        where no message could show them): what its retired board tells."""
        if row.board_turn is None:
            return []
        turns = await self.games.history.story(row.id)
        return [t for t in turns[row.board_turn :] if t.box is not None]

    async def show_over(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """A click on a message of a game that is over (``row``), where only clicks reach (a
        group DM): its end may have come when no token could show it (a timer, with nobody
        clicking: everyone away, a day without a move, a lobby nobody started), leaving
        messages that still look live. The clicked message shows the end as its answer: why
        the game ended (``History.why_over``) and Play again where it can be called; a
        lobby, closed; a board of a finished game, where its final card is (the interaction's
        repair posts that card if it never was)."""

        async def work() -> None:
            _ = public(row)
            fields: dict[str, Any]
            if row.status == GameStatus.FINISHED:
                fields = {"embed": self.turn.moved_on_embed(_, True)}
            else:
                why = await self.games.history.why_over(row.id)
                start = why is not None and why.template in STARTS_AFTER
                reason = _.say(why) if why is not None else None
                if row.game is None:  # a lobby
                    note = None if reason is None else ending(_, reason, True, False, start)
                    place = await self.publisher.lobbies.lobby_place(row, interaction)
                    fields = self.publisher.looks.lobby.lobby_edit(row, note, by_token=place)
                else:
                    said = reason if reason is not None else _("This game has already ended.")
                    fields = {"view": None} | self.turn.ended_fields(row, said, True, start)
            fields = {"content": None, "attachments": []} | fields
            log.info("game %s: its end shown at a click on message %s", row.id,
                     interaction.message.id if interaction.message else None)  # fmt: skip
            await answers.edit(interaction, **fields)

        await run_guarded(interaction, work)

    async def repair_one(self, row: GameView, refresh: bool = False) -> int:
        """``repair`` one game, ending it if its place is gone; 1 if it sent anything."""
        try:
            return int(await self.repair(row, refresh))
        except discord.HTTPException as exc:
            if exc.code in (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS):
                # retrying can't help, and every refused request counts towards Discord's
                # limit of invalid requests; a game nobody can see must not play on
                log.info("game %s: its channel is gone or closed to the bot (%s); "
                         "it ends without a result", row.id, exc)  # fmt: skip
                await self.games.servers.unreachable(row.id, f"Discord error {exc.code}")
                await self.publisher.forget(row.id)
            else:
                log.exception("could not repair the messages of game %s", row.id)
        except Exception:
            log.exception("could not repair the messages of game %s", row.id)
        return 1  # it sent what failed

    async def repair(self, row: GameView, refresh: bool = False) -> bool:
        """Post or edit what a game's messages miss; True if anything had to be sent.
        ``row`` names the game: what is missing is decided on the game as saved now.
        ``refresh`` (a start): where only tokens reach, the board on record is shown again
        whole if a kept token reaches it (a board posted in steps may have lost its last,
        its controls, with the process that posted it)."""
        if self.publisher.computers.running(row.id):
            return False  # they show their own moves: a repair beside them would post twice
        now = await self.games.posts.as_now(row.id)
        if now is None:
            return False
        # A row read before this repair's turn came (the timer's, while a restart's repair
        # ran and a computer seat played on) may be turns behind: posted with its turn's
        # nonce, Discord hands back an older turn's message, which would be recorded as the
        # live board while the real one refused every click.
        row = now
        if row.status == GameStatus.LOBBY:
            if row.board_message_id is None:
                await self.publisher.lobbies.post_lobby(row)
                return True
            if row.board_version != row.version:
                await self.publisher.lobbies.edit_lobby(row, row.board_message_id)
                await self.games.posts.board_shown(row, row.board_message_id, None)
                return True
            return False
        if row.daily is not None and row.status != GameStatus.FINISHED:
            return False  # a private board: only its player's next click can show it
        if row.status == GameStatus.FINISHED:
            log.info("game %s: posting its missing final message", row.id)
            await self.publisher.retire(
                row, row.board_message_id, embed=self.turn.moved_on_embed(public(row), True)
            )
            await self.publisher.retire(row, row.undo_message_id)
            await self.publisher.post_final(row)
            return True
        game = row.require_game()
        sent = False
        if row.undo_message_id is not None and game.undo_player_id is None:
            await self.publisher.close_undo(row)
            sent = True
        if row.board_message_id is None or row.board_turn != game.turn_number:
            log.info("game %s: posting the board for turn %s", row.id, game.turn_number)
            if row.board_message_id != row.undo_message_id:
                # where only clicks reach, what was played unseen (a timer) is told there
                since = await self.unseen(row) if row.by_token else []
                if since and since[0].by == "score":
                    # its player scored on it: it became that scoring's line, which keeps
                    # its words (the game's story); only a control left on it goes
                    await self.publisher.retire(row, row.board_message_id)
                else:
                    await self.publisher.retire(
                        row,
                        row.board_message_id,
                        embed=self.turn.moved_on_embed(public(row), since=since),
                    )
            # With the nonce the turn's board was first posted with: Discord returns that
            # board if a process posted it and died before recording it, as it was then.
            board = await self.games.drawing.render(row)
            # the nonce of the turn the board shows (drawn as saved now, like ``row``)
            began = await self.games.posts.turn_began(board.row)
            posted = await self.publisher.post_board(
                board, nonce=await self.games.posts.nonce(board.row, f"v{began}")
            )
            if posted is not None and began != board.row.version:
                await self.publisher.edit_board(posted.id, board)  # moves were made on it since
            sent = True
        elif row.board_version != row.version or (
            refresh and (shown := surface_of(self.publisher.routes, row)).by_token
            and shown.reaches(row.board_message_id)
        ):  # fmt: skip
            log.info("game %s: bringing its board up to version %s", row.id, row.version)
            board = await self.games.drawing.render(row)
            await self.publisher.edit_board(row.board_message_id, board)
            sent = True
        if is_bot(game.current_player_id):
            self.publisher.computers.start(row.id)
        return sent

    async def end_unreachable(self, rows: list[GameView], reason: str) -> list[int]:
        """End, recording nothing, the live games ``rows`` (those of a place that is gone):
        no timer, repair or computer player acts on a game nobody can see (nor spends
        Discord's invalid-request allowance on it). Returns the games ended."""
        ended = []
        for row in rows:
            log.info("game %s: %s; it ends without a result", row.id, reason)
            await self.games.servers.unreachable(row.id, reason)
            await self.publisher.forget(row.id)  # its channel is gone: nothing to delete
            ended.append(row.id)
        return ended
