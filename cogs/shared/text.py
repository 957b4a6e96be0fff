"""What every feature's messages share: a player's name made inert (``shown_name``),
how a message names or pings a player, the colours, an attached PNG, an embed's words as
a Components V2 layout, the name of a game's rules."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.engine import Game
from bot.games import GameView, is_bot
from bot.i18n import Lang
from cogs.shared.controls import Layout

GREEN = discord.Colour(0x24593B)


GOLD = discord.Colour(0xD69712)


GREY = discord.Colour(0x4F545C)


NAME_LIMIT = 40


#: Embeddings, overrides, isolates and marks of the bidi algorithm, and the Arabic letter mark.
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")


MEDALS = {1: "\N{FIRST PLACE MEDAL}", 2: "\N{SECOND PLACE MEDAL}", 3: "\N{THIRD PLACE MEDAL}"}


def shown_name(name: str) -> str:
    """A player's name as text in a message: its markdown and mention syntax made inert
    (``**x``, a backtick, ``||`` or ``@everyone`` in a name shows as typed), and Discord's
    angle brackets too (``<t:0:R>``, ``<#id>``, ``</yahtzee start:1>`` would show as a
    time, a channel or a command: a zero-width space after each ``<``, as escape_mentions
    puts after an ``@``), bidi controls dropped (an override would flip the rest of the
    line), blank names shown as "a player", and at most ``NAME_LIMIT`` characters (eight
    long names must fit an embed field)."""
    text = " ".join(BIDI_CONTROLS.sub("", name).split()) or "a player"
    if len(text) > NAME_LIMIT:
        text = text[: NAME_LIMIT - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    return escaped.replace("<", "<\N{ZERO WIDTH SPACE}")


def mention(player: str, name: str = "") -> str:
    """How a message names a player: a person by name in bold (a mention would read
    "@Ann (Ann)", and in an embed it notifies nobody anyway), a computer with its robot."""
    if is_bot(player):
        return f"\N{ROBOT FACE} **{shown_name(name or 'Computer')}**"
    return f"**{shown_name(name)}**" if name else f"<@{player}>"


def ping(player: str, name: str = "") -> str:
    """The start of a message that notifies a person (their turn, a reminder): the bare
    mention; a computer player is only named."""
    return mention(player, name) if is_bot(player) else f"<@{player}>"


def png(data: bytes, name: str) -> discord.File:
    """A PNG attachment."""
    return discord.File(io.BytesIO(data), filename=name)


def attachment(name: str) -> str:
    """How a message's component shows one of its own attached files."""
    return f"attachment://{name}"


def layout_of(embed: discord.Embed, *rows: discord.ui.Item[Any]) -> Layout:
    """An embed's words as a Components V2 message in one container of its colour (the
    title as a heading, each field's name in bold above its value, the footer small), with
    ``rows`` of controls at the bottom."""
    parts: list[discord.ui.Item[Any]] = []
    if embed.title:
        parts.append(discord.ui.TextDisplay(f"## {embed.title}"))
    if embed.description:
        parts.append(discord.ui.TextDisplay(embed.description))
    parts += [discord.ui.TextDisplay(f"**{f.name}**\n{f.value}") for f in embed.fields]
    if embed.footer.text:
        parts.append(discord.ui.TextDisplay(f"-# {embed.footer.text}"))
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else None
    return Layout(discord.ui.Container(*parts, *rows, accent_colour=colour))


def preset(_: Lang, row: GameView | Game) -> str:
    """The name of the rules a game is played by, in ``_``'s language."""
    return _(row.preset.title)
