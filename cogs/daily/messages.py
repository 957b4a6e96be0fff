"""What the daily challenge says: the line above its private board, the result the channel
sees, its line against the Optimal bot, the day's board, a try told turn by turn, and the
confirmation of leaving it."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import Game
from bot.games import DailyEntry, DailyPlace, GameView
from bot.games.replay import Turn
from bot.i18n import Lang
from cogs.results.controls import final_buttons
from cogs.shared.controls import Controls, Layout
from cogs.shared.text import GOLD, MEDALS, shown_name

from .controls import LeaveConfirmButton


def daily_intro(_: Lang, day: str) -> str:
    """The line above a daily challenge's private board."""
    return "\N{CALENDAR} " + _(
        "Your daily challenge for {day}: the same dice for everyone today, whatever they "
        "keep, so only you see this board. One try; the score is compared with the Optimal "
        "bot's on the same dice, and only the result is posted in the channel. Lost this "
        "message? `/yahtzee daily` shows it again.",
        day=_.date(day),
    )


def daily_result_layout(
    _: Lang, row: GameView, game: Game, entry: DailyEntry | None, by_click: bool = False
) -> Layout:
    """What the channel sees of a daily challenge (in ``_``, the channel's language), as a
    Components V2 message: the result alone (the card would tell others which boxes the
    day's dice fill), and Replay. ``by_click``: where most readers are not offered /yahtzee
    (a group DM), the daily's command is said to be for those who added the app."""
    seat = game.seats[0]
    parts: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(
            "## "
            + _(
                "Daily challenge {day}: {name} scored {total}!",
                day=_.date(row.daily or ""),
                name=shown_name(seat.name),
                total=seat.card.total,
            )
        )
    ]
    if entry is not None:
        parts.append(discord.ui.TextDisplay(daily_line(_, entry)))
    after = (
        _(
            "If you added the app, play yours with /yahtzee daily \N{MIDDLE DOT} Replay "
            "opens to everyone once every try of the day is over"
        )
        if by_click
        else _(
            "Play yours with /yahtzee daily \N{MIDDLE DOT} Replay opens to everyone "
            "once every try of the day is over"
        )
    )
    parts += [
        discord.ui.TextDisplay("-# " + after),
        final_buttons(_, row.id, analysis=False, daily=True),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


def daily_line(_: Lang, entry: DailyEntry) -> str:
    """A finished try at a daily challenge against the Optimal bot on the same dice (under a
    heading that says the score: the line does not say it again)."""
    score, optimal = entry.score, entry.optimal
    if score is None:
        text = _("Daily challenge {day}: not finished.", day=_.date(entry.day))
    elif optimal is None:
        text = _("The Optimal bot's score on the same dice is not ready yet.")
    elif score == optimal:
        text = _(
            "Level with the Optimal bot, which scored **{optimal}** on the same dice.",
            optimal=optimal,
        )
    elif score > optimal:
        text = _.ngettext(
            "{n} point above the Optimal bot, which scored **{optimal}** on the same dice.",
            "{n} points above the Optimal bot, which scored **{optimal}** on the same dice.",
            score - optimal,
            n=score - optimal,
            optimal=optimal,
        )
    else:
        text = _.ngettext(
            "{n} point below the Optimal bot, which scored **{optimal}** on the same dice.",
            "{n} points below the Optimal bot, which scored **{optimal}** on the same dice.",
            optimal - score,
            n=optimal - score,
            optimal=optimal,
        )
    return f"\N{CALENDAR} {text}"


def daily_board_embed(
    _: Lang, entries: list[DailyPlace], day: str, everywhere: bool, in_server: bool = True
) -> discord.Embed:
    """Today's daily challenge board: place (equal scores share one), player, score, and
    the Optimal bot's score (outside a server every player's: there is no server to keep
    to)."""
    if not entries:
        text = _("Nobody has finished today's challenge yet: `/yahtzee daily` to be the first.")
    else:
        text = "\n".join(
            f"{MEDALS.get(e.place, f'{e.place}.')} " + _.pair(shown_name(e.name), f"**{e.score}**")
            for e in entries
        )
        if entries[0].optimal is not None:
            text += "\n" + _("The Optimal bot scored **{score}** on today's dice.",
                             score=entries[0].optimal)  # fmt: skip
    title = (
        _("Daily challenge {day}: everyone", day=_.date(day))
        if not in_server
        else _("Daily challenge {day}: every server", day=_.date(day))
        if everywhere
        else _("Daily challenge {day}: this server", day=_.date(day))
    )
    return discord.Embed(title=title, description=text, colour=GOLD)


def replay_text(_: Lang, turns: list[Turn]) -> str:
    """A game told turn by turn: each roll (what was kept, what it showed), then the box."""
    lines = []
    for n, turn in enumerate(turns, 1):
        rolls = []
        for kept, shown in turn.rolls:
            if kept:
                rolls.append(_("kept {kept}, rolled {dice}", kept="-".join(map(str, kept)),
                               dice=shown))  # fmt: skip
            else:
                rolls.append(_("rolled {dice}", dice=shown))
        box = _(turn.box.label) if turn.box is not None else "?"
        bonus = f" +{turn.bonus}" if turn.bonus else ""
        timer = " " + _("(time ran out)") if turn.by == "timeout" else ""
        scored = f"{box} {turn.points}{bonus}{timer}"
        lines.append(f"{n}. {'; '.join(rolls)} \N{RIGHTWARDS ARROW} {scored}")
    return "\n".join(lines) or _("No turn was played.")


def leave_confirm_view(_: Lang, game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee leave on a daily challenge."""
    view = Controls()
    view.add_item(
        LeaveConfirmButton(game_id).button(
            _("Leave the daily challenge"), discord.ButtonStyle.danger
        )
    )
    return view
