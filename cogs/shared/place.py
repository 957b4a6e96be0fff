"""Where an interaction comes from, as Discord tells places apart for an app (issue 43;
docs/places.md): one ``Place`` value per interaction, from which the publisher picks its
means of showing a game and the commands see what makes sense there."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import discord

#: Discord's limit of follow-ups per interaction where only a user install authorizes it
#: ("Create Followup Message": the sixth answers 40094).
FOLLOWUP_CAP = 5


class Kind(enum.Enum):
    """The kinds of place (docs/places.md, the table)."""

    SERVER = "server"  # a server that added the bot: channel routes, threads, settings
    BOT_DM = "bot_dm"  # the bot's own DM with a user: channel routes, no threads
    PRIVATE = "private"  # a group DM, or a DM between two users: only the interaction's token
    USER_SERVER = "user_server"  # a server where only members installed the app: the token


@dataclass(frozen=True)
class Place:
    """One interaction's place: what the bot may do there."""

    kind: Kind
    channel_id: int
    guild_id: int | None

    @property
    def can_post(self) -> bool:
        """Whether the bot may post, edit and delete by channel routes (else: by token)."""
        return self.kind in (Kind.SERVER, Kind.BOT_DM)

    @property
    def stored(self) -> str:
        """The place as a game keeps it (``games.place``): "channel" or "token"."""
        return "channel" if self.can_post else "token"

    def public_answers(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether Discord shows everyone what this interaction's token posts: not in a
        server that never added the bot, for a member it lets use no external apps there
        ("User-Installed Apps General Availability": their answers are ephemeral)."""
        if self.kind is not Kind.USER_SERVER:
            return True
        return interaction.permissions.use_external_apps

    @property
    def can_thread(self) -> bool:
        """Whether a game may move to a thread of its own."""
        return self.kind is Kind.SERVER

    @property
    def has_settings(self) -> bool:
        """Whether ``/yahtzee-admin`` settings apply (a server that added the bot)."""
        return self.kind is Kind.SERVER

    @property
    def followup_cap(self) -> int | None:
        """How many follow-ups one interaction may send here (None: no cap)."""
        return None if self.can_post else FOLLOWUP_CAP

    @property
    def leaderboard_guild(self) -> int | None:
        """The server whose leaderboard a game here counts in (None: the channel's own,
        a DM's or group's)."""
        return self.guild_id


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The place of an interaction: its ``context`` (0 a server, 1 the bot's DM, 2 a group
    DM or another DM) and, in a server, whether the server added the bot (its install
    authorizes the interaction, or the bot has the server: a server may add the bot after
    its members played there through their own installs). Decided anew each interaction."""
    channel_id = interaction.channel_id or 0
    context = interaction.context
    if context.private_channel:
        return Place(Kind.PRIVATE, channel_id, None)
    if context.dm_channel:
        return Place(Kind.BOT_DM, channel_id, None)
    guild_id = interaction.guild_id
    if guild_id is None:  # no context sent (an old payload): a DM is the bot's own
        group = isinstance(interaction.channel, discord.GroupChannel)
        kind = Kind.PRIVATE if group else Kind.BOT_DM
        return Place(kind, channel_id, None)
    # A server that added the bot: its install authorizes the interaction, or (a click on a
    # message the user install made before the server added the bot) the bot is in it.
    if interaction.is_guild_integration() or interaction.client.get_guild(guild_id) is not None:
        return Place(Kind.SERVER, channel_id, guild_id)
    return Place(Kind.USER_SERVER, channel_id, guild_id)
