"""The turn timer: every few seconds, act on lobbies, turns and games whose time is up
(deadlines, reminders, idle games, computer turns that stalled), and repair the boards a
failed post or answer left behind."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.games import (
    EVERYONE_AWAY,
    ComputerDue,
    Expired,
    GameService,
    Notified,
    Outcome,
    Pinged,
    StoreUnavailable,
    TimedOut,
)
from cogs.shared.language import public
from cogs.shared.parts import Parts
from cogs.shared.routes import Unreachable
from cogs.turn.messages import summary_embed

from .computer import ComputerPlayers

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

TIMER_TICK_SECONDS = 5


class TurnTimers(commands.Cog):
    """The timer loop."""

    def __init__(self, parts: Parts, computers: ComputerPlayers) -> None:
        self.bot: YahtzeeBot = parts.bot
        self.after = parts.after  # shows what came of a timer
        self.publisher = parts.publisher
        self.repairs = parts.repairs
        self.computers = computers

    async def cog_load(self) -> None:
        self.timers.start()

    async def cog_unload(self) -> None:
        self.timers.cancel()
        await self.computers.stop_all()  # before discord.py closes its connections

    @property
    def games(self) -> GameService:
        return self.bot.games

    @tasks.loop(seconds=TIMER_TICK_SECONDS)
    async def timers(self) -> None:
        """Every few seconds: act on lobbies, turns and games whose time is up."""
        try:
            await self.tick()
        except Exception:
            log.exception("the timer tick failed; trying again at the next one")

    @timers.before_loop
    async def _before_timers(self) -> None:
        await self.bot.wait_until_ready()
        await self.publisher.places_known()

    async def tick(self) -> int:
        """Act on every game whose timer is due, and repair the boards that a failed post
        or answer left behind; returns how many games were acted on."""
        acted = 0
        activity = self.publisher.activity
        for row in await self.games.timers.boards_behind(self.bot.owns):
            if not self.publisher.reachable(row):
                continue  # a place only clicks reach, with no fresh token: its next click
            if activity.busy(row.id, row.board_channel_id):
                continue  # a click (or a computer seat) there is showing it right now
            with activity.acting(row.id):  # (a click meanwhile leaves the showing to it)
                async with self.repairs.busy:
                    acted += await self.repairs.repair_one(row)
        for game_id in await self.games.timers.due(self.bot.owns):
            try:
                acted += await self._act_on(game_id)
            except StoreUnavailable:
                raise  # every game would fail alike: the tick ends, the next one tries again
            except Exception:
                # one game's failure (a bug, a damaged row) must not leave the games after
                # it without their timers: it is tried again at the next tick
                log.exception("game %s: its timer failed; going on with the other games", game_id)
        return acted

    async def _act_on(self, game_id: int) -> int:
        """Act on one due game's timer and show what came of it; 1 if it did anything."""
        with self.publisher.activity.acting(
            game_id
        ):  # (a click meanwhile leaves the showing to it)
            outcome = await self.games.timers.act(game_id)
            if outcome is None:
                return 0
            try:
                await self._apply(outcome)
            except discord.HTTPException:
                log.exception("game %s: could not show a timer's outcome; repairing later",
                              game_id)  # fmt: skip
            except Unreachable:  # a group DM nobody clicked in for a while: its next click
                log.info("game %s: a timer acted; its next click shows it", game_id)
        return 1

    async def _apply(self, outcome: Outcome) -> None:
        publisher = self.publisher
        if isinstance(outcome, ComputerDue):
            if not publisher.reachable(outcome.row):
                # a place only clicks reach, nobody clicking: the computer waits, as a
                # person's turn there does, and the next click shows its board and starts it
                log.debug("game %s: a computer's turn waits for the next click", outcome.row.id)
                return
            log.warning("game %s: a computer's turn stalled; starting it again", outcome.row.id)
            self.computers.start(outcome.row.id)
        elif isinstance(outcome, Pinged):
            await publisher.reminders.remind(outcome.row, outcome.player_id, outcome.seconds_left)
        elif isinstance(outcome, Notified):
            await publisher.reminders.notify(outcome.row, outcome.player_id, outcome.seconds_left)
        elif isinstance(outcome, TimedOut):
            scored = outcome.scored
            # The database still names the board of the turn that ran out: it becomes the summary.
            by_click = scored.board.row.by_token
            summary = summary_embed(
                scored, True, outcome.away, publisher.faces, outcome.played_as, by_click
            )
            everyone_away = public(scored.board.row)(EVERYONE_AWAY)
            await self.after.scored_unseen(scored, summary, everyone_away)
        elif isinstance(outcome, Expired):
            await self.after.ended(outcome.row, public(outcome.row)(outcome.reason))
