"""What a game's end and the rankings show: the final message, a leaderboard's page, a
player's statistics."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import Game
from bot.games import DailyEntry, GameView, card_text, code_block, player_id
from bot.games.leaderboards import LEADERBOARD_KINDS, LeaderboardPage, PlayerStats, format_figure
from bot.i18n import Lang
from bot.i18n.words import N_
from cogs.daily.messages import daily_line
from cogs.shared.controls import Layout
from cogs.shared.language import public
from cogs.shared.text import GOLD, GREEN, MEDALS, attachment, mention, png, preset, shown_name

from .controls import PageButton, ShareButton, final_buttons

FINAL_FILE = "final.png"


def final_layout(
    row: GameView,
    game: Game,
    picture: bool = True,
    daily: DailyEntry | None = None,
    said: str | None = None,
) -> Layout:
    """Game over, as a Components V2 message in one container: the title, the ranking with
    totals and bonuses (a daily challenge's score beside the Optimal bot's on the same
    dice), the final picture, the cards as text (for screen readers, and in place of the
    picture where the bot may not attach files), and Play again (a daily: Replay) with each
    player's Analysis. ``said``: a line above it all (the last scoring, on a private board)."""
    _ = public(row)
    lines = []
    if daily is not None:
        lines.append(daily_line(_, daily))
    for standing in game.standings():
        card = game.seats[standing.seat].card
        who = mention(standing.player_id, standing.name)
        if standing.place is None:
            lines.append(_("left: {who}: {total}", who=who, total=standing.total))
            continue
        medal = MEDALS.get(standing.place, f"{standing.place}.")
        extras = []
        if card.upper_bonus:
            extras.append(_("upper bonus {points}", points=card.upper_bonus))
        if card.yahtzee_bonus:
            extras.append(_("Yahtzee bonus {points}", points=card.yahtzee_bonus))
        tail = f" ({', '.join(extras)})" if extras else ""
        lines.append(f"{medal} " + _.pair(who, f"**{standing.total}**") + tail)
    winners = [s for s in game.standings() if s.place == 1]
    if len(game.seats) == 1:  # a solo game, a daily challenge's try: nobody to beat
        seat = game.seats[0]
        title = _("Game over: {name} scored {total}!", name=shown_name(seat.name),
                  total=seat.card.total)  # fmt: skip
    elif len(winners) == 1:
        title = _("Game over: {name} wins with {total}!", name=shown_name(winners[0].name),
                  total=winners[0].total)  # fmt: skip
    elif winners:
        title = _("Game over: a {count}-way tie at {total}!", count=len(winners),
                  total=winners[0].total)  # fmt: skip
    else:
        title = _("Game over")
    after = (
        _("Replay tells the game turn by turn")
        if row.daily is not None
        else _("Play again opens a lobby for the same players")
    )
    parts: list[discord.ui.Item[Any]] = []
    if said:
        parts.append(discord.ui.TextDisplay(said))
    parts += [discord.ui.TextDisplay(f"## {title}"), discord.ui.TextDisplay("\n".join(lines))]
    if picture:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(FINAL_FILE))))
    rules = _("{preset} rules", preset=preset(_, row))
    parts += [
        discord.ui.TextDisplay(code_block(card_text(game, language=_.code))),
        discord.ui.TextDisplay(f"-# {rules} \N{MIDDLE DOT} {after}"),
        final_buttons(_, row.id, analysis=True, daily=row.daily is not None),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


LEADERBOARD_FILE = "leaderboard.png"


STATS_FILE = "stats.png"


#: What an empty board says: why nobody is on it, since a game was maybe just played.
EMPTY_BOARD = {
    "high": N_("Nobody is on this board yet: finish a game to get on it"),
    "wins": N_(
        "Nobody has won a game against another seat yet (a computer's win, or a solo "
        "game, puts nobody on this board)"
    ),
    "average": N_("Nobody has the 5 finished games this board needs yet"),
    "yahtzees": N_("Nobody has scored a Yahtzee yet"),
}


#: The same, for a week's or a month's board.
EMPTY_PERIOD = {
    "high": N_("Nobody is on this board yet: finish a game to get on it in this period"),
    "wins": N_(
        "Nobody has won a game against another seat yet (a computer's win, or a solo "
        "game, puts nobody on this board) in this period"
    ),
    "average": N_("Nobody has the 5 finished games this board needs yet in this period"),
    "yahtzees": N_("Nobody has scored a Yahtzee yet in this period"),
}


#: A leaderboard's period inside its title ("High scores (this week)").
PERIODS_WITHIN = {"all": N_("all time"), "month": N_("this month"), "week": N_("this week")}


LEADERBOARD_FOOTER = N_("Bot opponents never count. /yahtzee stats for your own figures.")
#: The same, shared where most players are not offered /yahtzee (a group DM).
LEADERBOARD_FOOTER_BY_CLICK = N_(
    "Bot opponents never count. If you added the app, /yahtzee stats shows your own figures."
)


def leaderboard_layout(
    _: Lang,
    page: LeaderboardPage,
    picture: bool = True,
    shared_by: str | None = None,
    by_click: bool = False,
) -> Layout:
    """A board's page as a Components V2 message: its title, the table's picture (without
    ``picture``, where the bot may not attach files, the page's lines as text), the asker's
    own line, and in the same container Share, Previous and Next (a page ``shared_by``
    someone is for reading: no buttons; ``by_click``: shared where most readers are not
    offered /yahtzee, a group DM)."""
    title = "## " + _(
        "Leaderboard: {kind} ({period})",
        kind=_(LEADERBOARD_KINDS[page.kind]),
        period=_(PERIODS_WITHIN[page.period]),
    )
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay("-# " + _("Shared by {name}", name=shared_by)))
    parts.append(discord.ui.TextDisplay(title))
    lines: list[str] = []
    if picture:
        parts.append(
            discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(LEADERBOARD_FILE)))
        )
    else:
        lines += [
            f"`{r.rank}.` "
            + _.pair(
                mention(player_id(r.user_id), r.name or _("a player")),
                _.ngettext(
                    "**{figure}** in {n} game",
                    "**{figure}** in {n} games",
                    r.games,
                    figure=format_figure(page.kind, r.figure),
                    n=r.games,
                ),
            )
            for r in page.rows
        ]
        if page.pages > 1:
            lines.append(_("Page {page} of {pages}", page=page.page + 1, pages=page.pages))
    if page.players == 0:
        empty = EMPTY_BOARD if page.period == "all" else EMPTY_PERIOD
        lines.append(_(empty[page.kind]))
    elif page.footer:
        lines.append(shown_name(page.footer))  # the asker's line, readable on a phone
    if lines:
        parts.append(discord.ui.TextDisplay("\n".join(lines)))
    footer = LEADERBOARD_FOOTER_BY_CLICK if by_click else LEADERBOARD_FOOTER
    parts.append(discord.ui.TextDisplay(f"-# {_(footer)}"))
    if shared_by is None:
        buttons: list[discord.ui.Item[Any]] = [
            ShareButton("lb", f"{page.kind}:{page.period}:{page.page}").button(_("Share"))
        ]
        if page.pages > 1:
            buttons += [
                PageButton(page.kind, page.period, page.page, "prev").button(
                    page.page == 0, _("Previous")),
                PageButton(page.kind, page.period, page.page, "next").button(
                    page.page >= page.pages - 1, _("Next")),
            ]  # fmt: skip
        parts.append(discord.ui.ActionRow(*buttons))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))


def leaderboard_files(page: LeaderboardPage, picture: bool = True) -> list[discord.File]:
    """The page's picture, or nothing where files may not go."""
    return [png(page.image, LEADERBOARD_FILE)] if picture else []


def stats_layout(
    _: Lang,
    name: str,
    stats: PlayerStats,
    user_id: int,
    shared_by: str | None = None,
    where: str = "server",
) -> Layout:
    """A player's figures as a Components V2 message: the figures as text, the chart beside
    them, and Share in the same container (a copy ``shared_by`` someone for the channel has
    none). ``where`` the games were played: on this ``server``, in this ``chat`` (a group
    DM), or ``everywhere`` (asked in the bot's DM)."""
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay("-# " + _("Shared by {name}", name=shared_by)))
    parts.append(discord.ui.TextDisplay("## " + _("Yahtzee stats: {name}", name=shown_name(name))))
    if stats.games == 0:
        none = {
            "server": N_("{name} has no finished game on this server yet (a game left before "
                         "its end does not count)."),
            "chat": N_("{name} has no finished game in this chat yet (a game left before its "
                       "end does not count)."),
            "everywhere": N_("{name} has no finished game yet (a game left before its end does "
                             "not count)."),
        }  # fmt: skip
        parts.append(discord.ui.TextDisplay(_(none[where], name=shown_name(name))))
    else:
        figures = [
            (_("Games"), str(stats.games)),
            (
                _("Wins"),
                _(
                    "{wins} of {games} ({share})",
                    wins=stats.wins,
                    games=stats.multiplayer_games,
                    share=_.percent(stats.win_rate),
                )
                if stats.multiplayer_games
                else _("no multiplayer games"),
            ),
            (_("Average"), _.decimal(stats.average)),
            (_("Best"), str(stats.best)),
            (_("Upper bonus"), _("{share} of games", share=_.percent(stats.upper_bonus_rate))),
            (_("Yahtzees per game"), _.decimal(stats.yahtzees_per_game, 2)),
        ]
        if stats.skill is not None:
            figures.append(
                (
                    _("Points left on the table"),
                    _(
                        "{points} a game on average, against optimal play",
                        points=_.decimal(stats.skill),
                    ),
                )
            )
        parts.append(
            discord.ui.TextDisplay("\n".join(_.pair(f"**{label}**", v) for label, v in figures))
        )
        if stats.image is not None:
            parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(STATS_FILE))))
    if shared_by is None:
        parts.append(discord.ui.ActionRow(ShareButton("stats", str(user_id)).button(_("Share"))))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))
