"""How the publisher reaches the place a game is played in, the one seam through which the
cogs post anything that is not an interaction's own answer: a server channel's routes (post,
edit and delete a message; start, archive and unarchive a thread) and a player's DM where the
bot may post (``ChannelRoutes``), the tokens of the interactions that came from the place
where it may not (``TokenRoutes``: a group DM, a server that never added the bot; issue 43,
docs/places.md). ``PlaceRoutes`` picks one by the channel's ``Place``."""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any

import discord

from .place import FOLLOWUP_CAP, Place

if TYPE_CHECKING:
    from bot.app import YahtzeeBot


log = logging.getLogger(__name__)


class ChannelRoutes:
    """Discord's channel routes, by the ids a game keeps."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot

    def _channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        # (with its server's id, so that a message's link is the server's, not a DM's @me)
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def send(
        self, channel_id: int, guild_id: int | None = None, **fields: Any
    ) -> discord.Message:
        """Post a message (``content``, ``embed``, ``files``, ``view``, ``nonce`` ...)."""
        return await self._channel(channel_id, guild_id).send(**fields)

    async def edit(self, channel_id: int, message_id: int, **fields: Any) -> discord.Message:
        """Edit a message by its id."""
        message = self._channel(channel_id).get_partial_message(message_id)
        return await message.edit(**fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message by its id."""
        await self._channel(channel_id).get_partial_message(message_id).delete()

    async def start_thread(self, message: discord.Message, name: str) -> discord.Thread:
        """A thread started from ``message`` (a game's lobby), archived after a week unused."""
        return await message.create_thread(name=name, auto_archive_duration=10080)

    async def archive(self, thread_id: int, archived: bool, reason: str) -> None:
        """Archive a thread (a game over), or unarchive it (a game goes on)."""
        await self.bot.http.edit_channel(thread_id, archived=archived, reason=reason)

    async def dm(self, user_id: int, content: str) -> None:
        """A private message to a player (``discord.Forbidden`` if their DMs are closed)."""
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        await channel.send(content)


#: A token is used for this long after its interaction arrived (Discord's 15 minutes, less a
#: margin for a request in flight and clocks apart).
TOKEN_FRESH = 14 * 60
#: Interactions kept per token place (the newest): a message is edited by the token that
#: made or last showed it.
KEPT_PER_PLACE = 16
#: Token places whose interactions are kept (the most recently clicked in): far above the
#: places a process has games going in within 15 minutes.
PLACES_KEPT = 10_000
#: Follow-ups an interaction spends on messages that notify nobody (a computer's board): the
#: rest of the cap is kept for a person's turn and the final card.
QUIET_FOLLOWUPS = 3

_SHOWS = "place-shows"  # the message an interaction's own answer is (its @original)
_FOLLOWUPS = "place-followups"  # the follow-ups an interaction sent (their ids, in order)
_AT = "place-at"  # when it arrived, by the bot's clock (seconds)


class Unreachable(Exception):
    """No fresh token reaches the place (nobody clicked for 14 minutes, or a restart came
    between): nothing is shown now; the next click of anyone in the game shows it."""


def shows(interaction: discord.Interaction[Any], message_id: int | None) -> None:
    """``interaction``'s own answer is ``message_id`` (a click answered by editing the clicked
    message, a command answered with a message): its token edits it."""
    if message_id is not None:
        interaction.extras[_SHOWS] = message_id


def followed(interaction: discord.Interaction[Any], message_id: int) -> None:
    """``interaction`` sent a follow-up (an answer after its acknowledgement, a second answer
    such as a rematch's lobby under its invitation): it counts towards the cap, and its
    token edits it, as the follow-ups ``TokenRoutes`` sends."""
    sent = interaction.extras.get(_FOLLOWUPS)
    if sent is not None:  # an interaction from a place only tokens reach
        sent.append(message_id)


class TokenRoutes:
    """A place without channel routes (a group DM, a DM between users, a server that never
    added the bot): everything goes through the tokens of the interactions that came from it.
    New messages are follow-ups of the newest interaction (at most ``FOLLOWUP_CAP`` each,
    fewer for messages that notify nobody); a message is edited or deleted by the token of
    an interaction that made or showed it. Tokens are never used after ``TOKEN_FRESH``."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot
        self._seen: OrderedDict[int, deque[discord.Interaction[Any]]] = OrderedDict()

    def _now(self) -> float:
        return self.bot.clock().timestamp()

    def note(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction from a token place: its token may show the game there."""
        assert interaction.channel_id is not None
        interaction.extras[_AT] = self._now()
        interaction.extras.setdefault(_FOLLOWUPS, [])
        kept = self._seen.setdefault(interaction.channel_id, deque(maxlen=KEPT_PER_PLACE))
        kept.append(interaction)
        self._seen.move_to_end(interaction.channel_id)
        while len(self._seen) > PLACES_KEPT:  # the places clicked in longest ago go first
            self._seen.popitem(last=False)

    def _fresh(self, channel_id: int) -> list[discord.Interaction[Any]]:
        """The place's interactions whose tokens are still good, newest first."""
        now = self._now()
        kept = self._seen.get(channel_id, ())
        return [i for i in reversed(kept) if now - float(i.extras.get(_AT, 0)) < TOKEN_FRESH]

    def fresh(self, channel_id: int) -> bool:
        """Whether any token reaches the place now."""
        return any(i.response.is_done() for i in self._fresh(channel_id))

    def forget(self, channel_id: int) -> None:
        self._seen.pop(channel_id, None)

    async def send(
        self,
        channel_id: int,
        guild_id: int | None = None,
        *,
        notify: bool = True,
        optional: bool = False,
        **fields: Any,
    ) -> discord.Message:
        """A follow-up of the newest answered interaction of the place that has one left
        (``QUIET_FOLLOWUPS`` for a message that notifies nobody or may be left out); once
        every one's are spent, the newest one's last message shows this one instead (an
        edit). An ``optional`` message (a reminder) is never shown by an edit: it would take
        the place of what that message showed (a board), and notify nobody."""
        fields.pop("nonce", None)
        cap = FOLLOWUP_CAP if notify and not optional else QUIET_FOLLOWUPS
        answered = [i for i in self._fresh(channel_id) if i.response.is_done()]
        for interaction in answered:
            sent: list[int] = interaction.extras[_FOLLOWUPS]
            if len(sent) < cap:
                message = await interaction.followup.send(wait=True, **fields)
                sent.append(message.id)
                return message
        for interaction in [] if optional else answered[:1]:
            sent = interaction.extras[_FOLLOWUPS]
            last = sent[-1] if sent else interaction.extras.get(_SHOWS)
            if last is not None:
                edited = await self.edit(channel_id, last, **_as_edit(fields))
                if edited is not None:
                    return edited
        raise Unreachable(f"no fresh token reaches channel {channel_id}")

    def _holder(
        self, channel_id: int, message_id: int
    ) -> tuple[discord.Interaction[Any], bool] | None:
        """The newest fresh interaction whose token reaches ``message_id``: (it, whether the
        message is its own answer)."""
        for interaction in self._fresh(channel_id):
            if interaction.extras.get(_SHOWS) == message_id and interaction.response.is_done():
                return interaction, True
            if message_id in interaction.extras.get(_FOLLOWUPS, ()):
                return interaction, False
        return None

    def reaches(self, channel_id: int, message_id: int | None) -> bool:
        """Whether a fresh token reaches ``message_id`` now."""
        return message_id is not None and self._holder(channel_id, message_id) is not None

    async def edit(self, channel_id: int, message_id: int, **fields: Any) -> discord.Message | None:
        """Edit a message through a token that reaches it; None if none does (an old message:
        left as it is, and a click on it is answered by showing what is true now)."""
        holder = self._holder(channel_id, message_id)
        if holder is None:
            log.info("no fresh token reaches message %s in %s: left as it is", message_id,
                     channel_id)  # fmt: skip
            return None
        interaction, original = holder
        if original:
            return await interaction.edit_original_response(**fields)
        return await interaction.followup.edit_message(message_id, **fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        holder = self._holder(channel_id, message_id)
        if holder is None:
            return
        interaction, original = holder
        if original:
            await interaction.delete_original_response()
        else:
            await interaction.followup.delete_message(message_id)


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A message's ``send`` fields as an edit takes them (files become attachments)."""
    out = dict(fields)
    files = out.pop("files", None)
    if files is not None:
        out["attachments"] = files
    out.pop("ephemeral", None)
    return out


class PlaceRoutes:
    """The means of the place a game is played in, by its channel: channel routes where the
    bot may post (a server that added it, its own DM), the interactions' tokens elsewhere.
    A channel is a token place once an interaction from it said so (``note``)."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.channels = ChannelRoutes(bot)
        self.tokens = TokenRoutes(bot)
        self._token_places: set[int] = set()

    def note(self, interaction: discord.Interaction[Any], place: Place) -> bool:
        """Every interaction says where it comes from; True if that is a token place not
        known before (to be kept in the store: ``known``)."""
        if place.can_post:
            return False
        self.tokens.note(interaction)
        if place.channel_id in self._token_places:
            return False
        self._token_places.add(place.channel_id)
        return True

    def known(self, channels: set[int]) -> None:
        """The token places the store kept (at start: before any repair or timer acts)."""
        self._token_places |= channels

    def reachable(self, channel_id: int) -> bool:
        """Whether anything can be shown in the channel now without a click: always where
        channel routes work; in a token place while a token is fresh."""
        return not self.by_token(channel_id) or self.tokens.fresh(channel_id)

    def by_token(self, channel_id: int) -> bool:
        """Whether the place of ``channel_id`` is reached by tokens only."""
        return channel_id in self._token_places

    async def send(
        self,
        channel_id: int,
        guild_id: int | None = None,
        *,
        notify: bool = True,
        optional: bool = False,
        **fields: Any,
    ) -> discord.Message:
        if self.by_token(channel_id):
            return await self.tokens.send(
                channel_id, guild_id, notify=notify, optional=optional, **fields
            )
        return await self.channels.send(channel_id, guild_id, **fields)

    async def edit(self, channel_id: int, message_id: int, **fields: Any) -> discord.Message | None:
        if self.by_token(channel_id):
            return await self.tokens.edit(channel_id, message_id, **fields)
        return await self.channels.edit(channel_id, message_id, **fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        if self.by_token(channel_id):
            await self.tokens.delete(channel_id, message_id)
            return
        await self.channels.delete(channel_id, message_id)

    async def start_thread(self, message: discord.Message, name: str) -> discord.Thread:
        return await self.channels.start_thread(message, name)

    async def archive(self, thread_id: int, archived: bool, reason: str) -> None:
        await self.channels.archive(thread_id, archived, reason)

    async def dm(self, user_id: int, content: str) -> None:
        await self.channels.dm(user_id, content)
