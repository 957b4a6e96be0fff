"""What a lobby says and shows: its words, its buttons, the rematch's invitation, and the
name of a game's thread."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import MAX_SEATS
from bot.games import GameView, player_id
from bot.i18n import Lang
from cogs.shared.controls import Layout
from cogs.shared.language import public
from cogs.shared.text import GREEN, GREY, layout_of, mention, preset, shown_name
from cogs.turn.controls import RulesButton

from .controls import (
    AddComputerButton,
    CancelButton,
    HintsButton,
    JoinButton,
    LeaveLobbyButton,
    StartButton,
    UnseatButton,
)


def lobby_embed(row: GameView, by_token: int | None = None) -> discord.Embed:
    """The lobby: players so far, the host, the preset, and what to do; ``by_token``: in
    a place where the bot only answers clicks (a group DM), the minutes of a turn (0: no
    timer), said with how its turn timer works there; the rules are then its Rules button's,
    not /yahtzee rules (offered there only to those who added the app)."""
    _ = public(row)
    embed = discord.Embed(title=_("Yahtzee: lobby"), colour=GREEN)
    if row.status == "lobby" and len(row.players) >= MAX_SEATS:
        embed.description = _(
            "This lobby is full ({most} players): nobody else can join. The host presses "
            "**Start**.",
            most=MAX_SEATS,
        )
    elif row.status == "lobby":
        embed.description = _(
            "Press **Join** to take a seat (up to 8). The host presses **Start** when "
            "everyone is in; a solo game is fine too."
        )
    elif row.status == "active":
        embed.description = _("The game has started: the board is below.")
    else:
        embed.description = _("This lobby is closed.")
        embed.colour = GREY
    if row.status == "lobby" and by_token:  # where the bot only answers clicks (a group DM)
        timers = _(
            "Turns are timed ({minutes} min). Here I can only speak when someone clicks, so "
            "a turn whose time ran out moves on at the next click of anyone in the game.",
            minutes=by_token,
        )
        embed.description = f"{embed.description}\n{timers}"
    host = _("(host)")
    seated = "\n".join(
        f"`#{i}` {mention(player_id(uid), name)}" + (f" {host}" if uid == row.host_id else "")
        for i, (uid, name) in enumerate(row.players, 1)
    )
    embed.add_field(
        name=_("Players ({count}/8)", count=len(row.players)),
        value=seated or _("nobody yet"),
        inline=False,
    )
    footer = (
        _("{preset} rules (/yahtzee rules tells them)", preset=preset(_, row))
        if by_token is None
        else _("{preset} rules", preset=preset(_, row))  # its Rules button tells them
    )
    embed.set_footer(text=footer)
    return embed


def invitation(_: Lang, host: str, invited: list[tuple[int, str]]) -> str | None:
    """Play again's one ping: who is invited to the rematch and how to take a seat."""
    if not invited:
        return None
    who = " ".join(f"<@{uid}>" for uid, _name in invited)
    return _(
        "{who}: {host} wants a rematch. Press **Join** to take a seat.",
        who=who,
        host=shown_name(host),
    )


def lobby_layout(
    row: GameView, note: str | None = None, controls: bool = True, by_token: int | None = None
) -> Layout:
    """The lobby as a Components V2 message (readable with embeds turned off): its words
    (``lobby_embed``) and, while it is open, its buttons, in one container. ``note``: why
    a lobby message was retired (closed, moved, its game could not start), in place of what
    to do, greyed and without buttons."""
    embed = lobby_embed(row, by_token)
    if note is not None:
        embed.description = note
        embed.colour = GREY
        controls = False
    return layout_of(embed, *(lobby_rows(row, by_token is not None) if controls else []))


def lobby_edit(
    row: GameView, note: str | None = None, by_token: int | None = None
) -> dict[str, Any]:
    """The edit that shows the lobby (``lobby_layout``) on its message. It clears content,
    embeds and files, so a lobby posted as an embed before the V2 lobby becomes one."""
    view = lobby_layout(row, note, by_token=by_token)
    return {"content": None, "embed": None, "attachments": [], "view": view}


def lobby_rows(row: GameView, rules: bool = False) -> list[discord.ui.ActionRow[Any]]:
    """Join, Leave, Start and Cancel, the computer players and the switches while the lobby
    is open (none once it closes): a row each, since on a phone a row of five wraps anywhere
    and these break where the meaning does. A full lobby greys out Join and Add bot.
    ``rules``: a Rules button beside the switches (where most players cannot type /yahtzee
    rules: a group DM)."""
    if row.status != "lobby":
        return []
    _ = public(row)
    full = len(row.players) >= MAX_SEATS
    grey, game = discord.ButtonStyle.secondary, row.id
    hints = _("Hints: on") if row.hints else _("Hints: off")
    rows: list[list[discord.ui.Item[Any]]] = [
        [
            JoinButton(game).button(_("Join"), discord.ButtonStyle.success, disabled=full),
            LeaveLobbyButton(game).button(_("Leave"), grey),
            StartButton(game).button(_("Start"), discord.ButtonStyle.primary),
            CancelButton(game).button(_("Cancel"), discord.ButtonStyle.danger),
        ],
        [
            AddComputerButton(level, game).button(label, grey, disabled=full)
            for level, label in (
                ("bot-optimal", _("Add bot (Optimal)")),
                ("bot-casual", _("Add bot (Casual)")),
                ("bot-winning", _("Add bot (To win)")),
            )
        ],
        [HintsButton(game).button(hints, grey)],
    ]
    bots = [name for uid, name in row.players if uid < 0]
    if bots:  # the host takes the bot seated last back out
        label = _("Remove {name}", name=bots[-1])[:80]
        rows[2].append(UnseatButton(game).button(label, grey))
    if rules:
        rows[2].append(RulesButton(row.id).button(_("Rules"), emoji="\N{OPEN BOOK}"))
    return [discord.ui.ActionRow(*items) for items in rows]


#: Discord's limit for a channel's name, a thread's too.
THREAD_NAME_LIMIT = 100


def thread_name(_: Lang, names: list[str]) -> str:
    """A game's thread's name, "Yahtzee: Ann, Bob", within Discord's limit (``THREAD_NAME_LIMIT``
    characters): as many names as fit whole, then "…"; a first name too long for it alone
    cut at a word."""
    ellipsis = "\N{HORIZONTAL ELLIPSIS}"
    for count in range(len(names), 0, -1):
        shown = ", ".join(names[:count]) + ("" if count == len(names) else ", " + ellipsis)
        title = _("Yahtzee: {names}", names=shown)
        if len(title) <= THREAD_NAME_LIMIT:
            return title
    room = THREAD_NAME_LIMIT - len(_("Yahtzee: {names}", names=ellipsis))
    first = names[0] if names else ""
    cut = first[: room + 1].rsplit(" ", 1)[0] if " " in first[:room] else first[:room]
    return _("Yahtzee: {names}", names=cut[:room].rstrip() + ellipsis)
