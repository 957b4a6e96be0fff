"""A turn's reminders: the half-time reminder in the game's channel (deleted when the turn
ends) and the private turn notice of ``/yahtzee notify``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.games import GameService, GameView
from bot.i18n import Lang, lang

from .language import public
from .routes import PlaceRoutes
from .surface import Surface, surface_of
from .text import ping, shown_name

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

USER_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


class Reminders:
    """Posts a turn's reminders, and deletes a reminder once its turn is over."""

    def __init__(self, bot: YahtzeeBot, routes: PlaceRoutes) -> None:
        self.bot = bot
        self.routes = routes  # the game's place: its channel, or the tokens that reach it
        #: game id -> its reminder: where it is, and its id
        self._reminders: dict[int, tuple[Surface, int]] = {}

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def remind(self, row: GameView, player_id: str, seconds_left: int) -> None:
        """The half-time reminder of a turn: deleted when the turn ends."""
        minutes, seconds = divmod(seconds_left, 60)
        link = ""
        if row.board_message_id:
            link = (
                f" https://discord.com/channels/{row.guild_id or '@me'}/{row.board_channel_id}/"
                f"{row.board_message_id}"
            )
        _ = public(row)
        surface = surface_of(self.routes, row)
        reminder = await surface.send(
            optional=True,  # where only tokens reach: never in place of a board
            content=_(
                "{who}, half your turn's time is gone: {time} left to play.",
                who=ping(player_id),
                time=f"{minutes}:{seconds:02d}",
            )
            + link,
            allowed_mentions=USER_MENTIONS,
        )
        # recorded, so that the turn's end deletes it even after a restart in between
        self._reminders[row.id] = (surface, reminder.id)
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
                f"https://discord.com/channels/{row.guild_id or '@me'}/{row.board_channel_id}/"
                f"{row.board_message_id}"
            )
        # in the language of the client they last used /yahtzee notify from, else the game's
        chosen = await self.games.servers.notice_language(user_id)
        _ = public(row)  # what the game's channel is told
        mine = lang(chosen) if chosen is not None else _
        try:
            await self.routes.dm(user_id, notice(mine, minutes, seconds, where))
        except discord.Forbidden:
            await self.games.servers.set_notify(user_id, False)
            name = next((n for uid, n in row.players if uid == user_id), _("a player"))
            who = f"**{shown_name(name)}**"
            said = (
                _(
                    "I could not send {who} a private turn notice (their DMs are closed), so "
                    "turn notices are off for them. Once their DMs are open, `/yahtzee notify "
                    "on` turns them back on, in a server that added me, or here if they "
                    "added the app.",
                    who=who,
                )
                if row.by_token  # (a group DM: not a server's DMs)
                else _(
                    "I could not send {who} a private turn notice (their DMs are closed), so "
                    "turn notices are off for them. `/yahtzee notify on` turns them back on "
                    "once DMs from this server are allowed.",
                    who=who,
                )
            )
            await surface_of(self.routes, row).send(
                optional=True,
                content=said,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def turn_over(self, game_id: int, row: GameView | None = None) -> None:
        """A turn has ended: its half-time reminder, if any, has done its job and goes (the
        channel keeps no extra message per reminded turn). ``row``: the game as saved, whose
        record names a reminder a process posted before it restarted."""
        reminder = self._reminders.pop(game_id, None)
        if reminder is None and row is not None and row.reminder_message_id is not None:
            reminder = (surface_of(self.routes, row), row.reminder_message_id)
        if reminder is None:
            return
        surface, message_id = reminder
        try:
            await surface.delete(message_id)
        except discord.HTTPException as exc:  # gone already
            log.info("game %s: could not delete its reminder %s: %s", game_id, message_id, exc)
        await self.games.posts.reminder_posted(game_id, None)


def notice(_: Lang, minutes: int, seconds: int, where: str) -> str:
    """A private turn notice (a DM), in its reader's language."""
    return (
        "\N{GAME DIE} "
        + _("It's your turn in Yahtzee: {time} left to play.", time=f"{minutes}:{seconds:02d}")
        + f" {where}\n-# "
        + _("`/yahtzee notify off` stops these messages.")
    )
