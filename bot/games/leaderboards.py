"""Leaderboards and player statistics: what the boards rank, over which period, and pages.

Nothing here knows Discord. SQL stays in the store; the images come from the renderer.
"""

from __future__ import annotations

import asyncio
import math
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.i18n import lang
from bot.i18n.words import N_
from bot.render import TableRow, render_stats, render_table
from bot.render.cards import ordinal
from bot.store import AVERAGE_MIN_GAMES, LeaderboardRow, PlayerGame, Store, plans

from .clock import TurnClock

LEADERBOARD_KINDS: dict[str, str] = {
    "high": N_("High scores"),
    "wins": N_("Wins"),
    "average": N_("Average score"),
    "yahtzees": N_("Yahtzees"),
}
FIGURE_HEADERS = {
    "high": N_("Best"),
    "wins": N_("Wins"),
    "average": N_("Average"),
    "yahtzees": N_("Yahtzees"),
}
PERIODS: dict[str, str] = {
    "all": N_("All time"),
    "month": N_("This month"),
    "week": N_("This week"),
}
PAGE_SIZE = 10
RECENT_GAMES = 20
BUCKET = 50  # score distribution: 0-49, 50-99, ...


def period_start(period: str, now: datetime) -> str:
    """The first instant of a period, as stored timestamps are written ('' for all time)."""
    if period == "all":
        return ""
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = day - timedelta(days=day.weekday())  # weeks start on Monday, in UTC
    elif period == "month":
        start = day.replace(day=1)
    else:
        raise ValueError(f"unknown period {period!r}")
    return start.isoformat(timespec="seconds")


def format_figure(kind: str, figure: float) -> str:
    """A leaderboard's figure as shown: averages with one decimal, the rest whole."""
    return f"{figure:.1f}" if kind == "average" else str(round(figure))


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a leaderboard, the viewer's own line, and its image."""

    kind: str
    period: str
    page: int
    pages: int
    players: int
    rows: list[LeaderboardRow]
    viewer: LeaderboardRow | None
    image: bytes
    footer: str = ""  # the viewer's own line, under the table (and in the embed)


def count_of(n: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures on this server, and the chart image."""

    games: int
    wins: int
    multiplayer_games: int
    average: float
    best: int
    upper_bonus_rate: float
    yahtzees_per_game: float
    recent: list[int]
    image: bytes | None
    skill: float | None = None  # mean expected points lost to optimal play, per analysed game

    @property
    def win_rate(self) -> float:
        """Wins over multiplayer games (0 without any)."""
        return self.wins / self.multiplayer_games if self.multiplayer_games else 0.0


class Leaderboards:
    """Leaderboards: the boards of every server, a player's statistics, resets and restores
    (the service's ``leaderboards``: it needs the core's store and clock, no other topic)."""

    def __init__(self, store: Store, clock: TurnClock) -> None:
        self.store = store
        self.clock = clock

    async def page(
        self,
        guild_id: int | None,
        kind: str,
        period: str,
        page: int | None,
        viewer_id: int,
        viewer_name: str = "",
        language: str = "en",
        channel_id: int | None = None,
    ) -> LeaderboardPage:
        """Page ``page`` (from 0; None: the viewer's own page, or the first if they are not
        on the leaderboard) of a leaderboard, with the viewer's rank under the table; its
        words in ``language`` (a catalog of ``bot.i18n``). A server's (``guild_id``), or
        with ``guild_id`` None a group's: the games of ``channel_id`` outside servers."""
        _ = lang(language)
        if kind not in LEADERBOARD_KINDS or period not in PERIODS:
            raise ValueError(f"unknown leaderboard or period: {kind!r}, {period!r}")
        since = period_start(period, self.clock.now())
        ranking = await self.store.read(
            plans.leaderboard, guild_id, kind, since, channel_id=channel_id
        )
        players = len(ranking)
        pages = max(1, math.ceil(players / PAGE_SIZE))
        where = next((i for i, r in enumerate(ranking) if r.user_id == viewer_id), None)
        viewer = ranking[where] if where is not None else None
        if page is None:
            page = where // PAGE_SIZE if where is not None else 0
        page = min(max(page, 0), pages - 1)
        rows = ranking[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        title = f"{_(LEADERBOARD_KINDS[kind])} · {_(PERIODS[period])}"
        if pages > 1:
            title += " · " + _("page {page}/{pages}", page=page + 1, pages=pages)
        table_rows = [
            TableRow(r.rank, r.name or _("player {id}", id=r.user_id),
                     format_figure(kind, r.figure), str(r.games), r.user_id == viewer_id)
            for r in rows
        ]  # fmt: skip
        who = viewer_name or _("you")
        if viewer is not None:
            rank = ordinal(viewer.rank, language)
            footer = _.ngettext(
                "{who}: {rank} of {players}, {figure} in {n} game",
                "{who}: {rank} of {players}, {figure} in {n} games",
                viewer.games,
                who=who,
                rank=rank,
                players=players,
                figure=format_figure(kind, viewer.figure),
                n=viewer.games,
            )
        elif kind == "average":
            footer = _("{who}: not ranked yet ({n} games needed)", who=who, n=AVERAGE_MIN_GAMES)
        else:
            footer = _("{who}: not on this leaderboard yet", who=who)
        headers = ("#", _("Player"), _(FIGURE_HEADERS[kind]), _("Games"))
        image = await asyncio.to_thread(render_table, title, table_rows, headers, footer, language)
        return LeaderboardPage(kind, period, page, pages, players, rows, viewer, image, footer)

    async def name(self, guild_id: int | None, user_id: int) -> str | None:
        """The name a player had in their last game on this server."""
        return await self.store.read(plans.player_name, guild_id, user_id)

    async def stats(
        self,
        guild_id: int | None,
        user_id: int,
        name: str,
        language: str = "en",
        channel_id: int | None = None,
    ) -> PlayerStats:
        """A player's statistics from their finished games here (the chart's words in
        ``language``): on a server (``guild_id``), in a group (``channel_id``), or with
        neither everywhere they played."""
        _ = lang(language)
        games: list[PlayerGame] = await self.store.read(
            plans.player_games, guild_id, user_id, channel_id
        )
        totals = [g.total for g in games]
        multiplayer = [g for g in games if g.seats > 1]
        wins = sum(1 for g in multiplayer if g.place == 1)
        recent = totals[-RECENT_GAMES:]
        image = None
        if games:
            top = max(totals) // BUCKET
            spread = [sum(1 for t in totals if t // BUCKET == b) for b in range(top + 1)]
            title = _.ngettext(
                "{name}: last {n} game", "{name}: last {n} games", len(recent),
                name=name, n=len(recent),
            )  # fmt: skip
            image = await asyncio.to_thread(render_stats, title, recent, spread, BUCKET, language)
        count = len(games)
        losses = [g.expected_loss for g in games if g.expected_loss is not None]
        return PlayerStats(
            games=count,
            wins=wins,
            multiplayer_games=len(multiplayer),
            average=statistics.fmean(totals) if totals else 0.0,
            best=max(totals, default=0),
            upper_bonus_rate=sum(1 for g in games if g.upper_bonus) / count if count else 0.0,
            yahtzees_per_game=sum(g.yahtzees for g in games) / count if count else 0.0,
            recent=recent,
            image=image,
            skill=statistics.fmean(losses) if losses else None,
        )

    async def reset(self, guild_id: int, user_id: int) -> int:
        """Archive the server's results (restorable); returns how many were archived."""
        return await self.store.write(plans.archive_results, guild_id, user_id)

    async def restore(self, guild_id: int) -> int:
        """Bring the last archive back; returns how many results came back."""
        return await self.store.write(plans.restore_results, guild_id)
