"""Who reads a message, in which language: what only the clicker sees is in their own
client's language (``interaction.locale``); what the channel sees is in the game's language
(``GameView.language``: the server's choice in ``/yahtzee-admin settings``, else the
server's language as Discord reports it, fixed when the lobby opened). Outside a server (the
bot's DM, a group DM, a DM between friends) there is no server language: the channel sees
the language of whoever opened the lobby or shared the card."""

from __future__ import annotations

from typing import Any

import discord

from bot.games import GameService, GameView
from bot.i18n import Lang, lang, language_of


def private(interaction: discord.Interaction[Any]) -> Lang:
    """The language of an answer only the clicker sees."""
    return lang(language_of(interaction.locale))


def server(interaction: discord.Interaction[Any], chosen: str | None = None) -> str:
    """The catalog a new game in this server speaks: the server's ``chosen`` language (its
    setting), else the one Discord reports for the server (``guild_locale``); outside a
    server, the language of whoever opens the game."""
    if interaction.guild_id is None:
        return chosen or language_of(interaction.locale)
    return chosen or language_of(interaction.guild_locale)


def public(row: GameView) -> Lang:
    """The language of what a game shows everyone in its channel."""
    return lang(row.language)


async def channel(games: GameService, interaction: discord.Interaction[Any]) -> Lang:
    """The language of what a command posts for everyone outside a game (a shared
    leaderboard or stats): the server's choice, else its language in Discord; outside a
    server, the language of whoever shares it."""
    if interaction.guild_id is None:
        return private(interaction)
    return await of_server(games, interaction.guild_id, interaction.guild_locale)


async def of_server(games: GameService, guild_id: int | None, discord_locale: object) -> Lang:
    """A server's language: its choice in /yahtzee-admin settings, else ``discord_locale``
    (the server's language as Discord reports it: an interaction's ``guild_locale``, or the
    guild's ``preferred_locale``)."""
    settings = await games.servers.server_settings(guild_id or 0)
    return lang(settings.language or language_of(discord_locale))
