"""What every feature needs to know of an interaction: the permissions a game's channel
needs, whether the member may have the bot post for them, the name a player is shown by,
the clicked message."""

from __future__ import annotations

from typing import Any

import discord

from bot.games import GameService, Refusal
from bot.i18n.words import N_, Word, Words

from .place import Kind, place_of

# What the bot needs in a game's channel to post boards there, as (attribute, name shown).
# (Without Attach Files a game is played with its scorecard as text instead of pictures.)
# The names are Discord's, as its client shows them in each language (the catalogs').
NEEDED_HERE = (
    ("view_channel", N_("View Channel")),
    ("embed_links", N_("Embed Links")),
)


NEEDED_FOR_THREADS = (
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)


def missing_permissions(interaction: discord.Interaction[Any], threads: bool) -> list[str]:
    """The permissions the bot lacks to play a game where ``interaction`` came from (an
    interaction's own answer needs none; the boards posted after it do)."""
    allowed = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = NEEDED_FOR_THREADS[1] if in_thread else ("send_messages", N_("Send Messages"))
    needed: tuple[tuple[str, str], ...] = NEEDED_HERE[:1] + (send,) + NEEDED_HERE[1:]
    if threads and not in_thread:
        needed += NEEDED_FOR_THREADS
    return [name for attribute, name in needed if not getattr(allowed, attribute)]


def permissions_refusal(missing: list[str]) -> Refusal:
    """One plain sentence naming what a server admin has to grant."""
    if len(missing) == 1:
        return Refusal(
            "I can't run a game in this channel: I'm missing the {name} permission here. "
            "Ask a server admin to give me it, or play in another channel.",
            name=Word(missing[0]),
        )
    # TRANSLATORS: {names} is Discord's names of permissions joined by ", " (each translated)
    return Refusal(
        "I can't run a game in this channel: I'm missing the {names} and {last} permissions "
        "here. Ask a server admin to give me them, or play in another channel.",
        names=Words(missing[:-1]),
        last=Word(missing[-1]),
    )


def missing_for_threads(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions the bot lacks here to start games in threads (Discord's names)."""
    allowed = interaction.app_permissions
    return [name for attribute, name in NEEDED_FOR_THREADS if not getattr(allowed, attribute)]


def check_member_may_post(
    interaction: discord.Interaction[Any], in_thread: bool | None = None
) -> None:
    """Refuse a public post the bot would make for a member who may not send messages there
    themselves: Send Messages, or Send Messages in Threads where the post goes in a thread
    (``in_thread``; default: where the interaction came from). The interaction carries the
    member's own permissions in its channel, overwrites applied (a thread's are its
    parent's)."""
    here_thread = isinstance(interaction.channel, discord.Thread)
    if in_thread is None:
        in_thread = here_thread
    if member_may_post(interaction, in_thread):
        return
    if in_thread and not here_thread:
        raise Refusal(  # a game's thread, made off this channel
            "You may not send messages in this channel's threads, where the game is played, "
            "so I won't post there for you. Ask a server admin for Send Messages in "
            "Threads, or play where you can write."
        )
    if in_thread:
        raise Refusal(
            "You may not send messages in this thread, so I won't post in it for you. Ask a "
            "server admin for Send Messages in Threads, or play where you can write."
        )
    raise Refusal(
        "You may not send messages in this channel, so I won't post in it for you. Ask "
        "a server admin for Send Messages, or play in a channel where you can write."
    )


def member_may_post(interaction: discord.Interaction[Any], in_thread: bool) -> bool:
    """Whether the member may send messages where a post for them would go: Send Messages,
    or Send Messages in Threads in a thread (their own permissions, overwrites applied)."""
    if interaction.guild_id is None:  # a DM or group DM: the bot answers whoever is in it
        return True
    permissions = interaction.permissions
    if in_thread:
        return permissions.send_messages_in_threads
    return permissions.send_messages


def display_name(user: discord.abc.User) -> str:
    """The name a player is shown by: their server nickname or display name."""
    return user.display_name


def message_id(interaction: discord.Interaction[Any]) -> int | None:
    """The id of the message a component was clicked on."""
    return interaction.message.id if interaction.message is not None else None


async def check_permissions(games: GameService, interaction: discord.Interaction[Any]) -> None:
    """Refuse, naming them, if the bot lacks what it needs to post this game's boards (in a
    server that added it: elsewhere the game is shown through the interactions' answers,
    which need no permission)."""
    if place_of(interaction).kind is not Kind.SERVER:
        return
    server = await games.servers.server_settings(interaction.guild_id or 0)
    missing = missing_permissions(interaction, server.use_threads)
    if missing:
        raise permissions_refusal(missing)
