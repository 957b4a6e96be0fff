"""What a command and a click both answer with, and what every feature needs to know of an
interaction: the permissions a game's channel needs, the name a player is shown by, the
hint and statistics answers, the clicked message."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from bot.games import GameService, Refusal
from bot.games.leaderboards import LeaderboardPage, Leaderboards
from bot.i18n import Lang

from .ui import answers
from .ui.language import channel, private
from .ui.messages import STATS_FILE, hint_text, png, stats_layout

# What the bot needs in a game's channel to post boards there, as (attribute, name shown).
# (Without Attach Files a game is played with its scorecard as text instead of pictures.)
NEEDED_HERE = (
    ("view_channel", "View Channel"),
    ("embed_links", "Embed Links"),
)
NEEDED_FOR_THREADS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)


def missing_permissions(interaction: discord.Interaction[Any], threads: bool) -> list[str]:
    """The permissions the bot lacks to play a game where ``interaction`` came from (an
    interaction's own answer needs none; the boards posted after it do)."""
    allowed = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = ("send_messages_in_threads", "Send Messages in Threads") if in_thread else (
        "send_messages", "Send Messages")  # fmt: skip
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
            name=missing[0],
        )
    # TRANSLATORS: {names} is Discord's names of permissions joined by ", " (not translated)
    return Refusal(
        "I can't run a game in this channel: I'm missing the {names} and {last} permissions "
        "here. Ask a server admin to give me them, or play in another channel.",
        names=", ".join(missing[:-1]),
        last=missing[-1],
    )


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
    """Refuse, naming them, if the bot lacks what it needs to post this game's boards."""
    server = await games.servers.server_settings(interaction.guild_id or 0)
    missing = missing_permissions(interaction, server.use_threads)
    if missing:
        raise permissions_refusal(missing)


async def send_hint(
    games: GameService, interaction: discord.Interaction[Any], game_id: int
) -> None:
    """The three best choices with their expected final scores, and the To-win line (only
    for the asker): for /yahtzee hint and the Hint button."""
    choices = await games.coaching.hint(game_id, interaction.user.id)
    to_win = await games.coaching.win_hint(game_id, choices[0]) if choices else None
    row = await games.lookups.find(game_id)
    assert row is not None
    off = to_win is None and await games.coaching.to_win_off(game_id)
    text = hint_text(private(interaction), choices, row.require_game(), to_win, to_win_off=off)
    await answers.send(interaction, text, ephemeral=True)


async def send_stats(
    games: GameService,
    interaction: discord.Interaction[Any],
    user_id: int,
    name: str,
    private_answer: bool,
) -> None:
    """A player's statistics: private with a Share button (in the asker's language), or
    shared in the channel (in the server's)."""
    assert interaction.guild_id is not None
    _ = private(interaction) if private_answer else await channel(games, interaction)
    stats = await games.leaderboards.stats(interaction.guild_id, user_id, name, _.code)
    if not interaction.app_permissions.attach_files:  # the figures are in the embed
        stats = replace(stats, image=None)
    files = [] if stats.image is None else [png(stats.image, STATS_FILE)]
    shared_by = None if private_answer else interaction.user.mention
    await answers.send(
        interaction,
        view=stats_layout(_, name, stats, user_id, shared_by),
        files=files,
        ephemeral=private_answer,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def leaderboard_page(
    leaderboards: Leaderboards,
    interaction: discord.Interaction[Any],
    kind: str,
    period: str,
    number: int | None,
    language: Lang,
) -> LeaderboardPage:
    """Page ``number`` of this server's leaderboard as the asker sees it (their own rank
    under it; ``None``: the page they are on), its picture in ``language``: for /yahtzee
    leaderboard, its pages, Share."""
    assert interaction.guild_id is not None
    return await leaderboards.page(
        interaction.guild_id, kind, period, number, interaction.user.id,
        display_name(interaction.user), language.code,
    )  # fmt: skip
