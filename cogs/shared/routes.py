"""How the publisher reaches the place a game is played in, the one seam through which the
cogs post anything that is not an interaction's own answer: a server channel's routes (post,
edit and delete a message; start, archive and unarchive a thread) and a player's DM where the
bot may post (``ChannelRoutes``), the tokens of the interactions that came from the place
where it may not (``TokenRoutes``: a group DM, a server that never added the bot; issue 43,
docs/places.md). ``PlaceRoutes`` holds both; ``cogs.shared.surface`` picks a game's."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.games import TokenRecord

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
#: margin for a request in flight and clocks apart); older ones are dropped.
TOKEN_FRESH = 14 * 60
#: Tokens kept per token place (the newest): a message is edited by the token that made or
#: last showed it.
KEPT_PER_PLACE = 16
#: Token places whose tokens are kept (the most recently clicked in): far above the places a
#: process has games going in within 15 minutes. With ``TOKEN_FRESH`` and the slim ``Token``
#: (about 0.6 KB), the store stays within a few tens of MB whatever comes.
PLACES_KEPT = 50_000
#: Follow-ups an interaction spends on messages that notify nobody (a computer's board): the
#: rest of the cap is kept for a person's turn and the final card.
QUIET_FOLLOWUPS = 3

_TOKEN = "place-token"  # an interaction's Token, while it is being handled
#: The interactions whose token may show a game's messages: a command, a click, a form; not
#: an autocomplete (it has no token to post with).
_CARRIERS = frozenset(
    {
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    }
)


@dataclass(slots=True)
class Token:
    """What a later post needs of an interaction from a token place, and nothing more: its
    token (as a webhook of the application), when it arrived, whether it has been answered
    (a follow-up needs an answer first), the message its own answer is, and its follow-ups.
    Kept instead of the ``Interaction`` (about 12 KB with its message and members), and in
    the store once answered (``TokenRoutes.keep``), so that a restart still reaches what it
    made or showed for its 15 minutes."""

    webhook: discord.Webhook
    at: float
    answered: bool = False
    shows: int | None = None
    followups: list[int] = field(default_factory=list)
    interaction_id: int = 0
    channel_id: int = 0
    routes: TokenRoutes | None = None  # which keeps it in the store as it changes
    #: Whether what it posts is seen by everyone: not from a member whose server lets them
    #: use no external apps there (Discord shows such a member's answers to them alone)
    public: bool = True

    def record(self) -> TokenRecord:
        assert self.webhook.token is not None
        return TokenRecord(
            self.interaction_id, self.channel_id, self.webhook.id, self.webhook.token,
            self.at, self.answered, self.shows, tuple(self.followups), self.public,
        )  # fmt: skip

    def changed(self) -> None:
        """Keep the token's new state in the store (in the background: the answer that
        changed it does not wait)."""
        if self.routes is not None and self.answered:
            self.routes.keep_later(self)


class Unreachable(Exception):
    """No fresh token reaches the place (nobody clicked for 14 minutes, or a restart came
    between): nothing is shown now; the next click of anyone in the game shows it."""


def answered(interaction: discord.Interaction[Any]) -> None:
    """``interaction`` has had its first answer (an acknowledgement or the answer itself):
    its token may send follow-ups now."""
    token = interaction.extras.get(_TOKEN)
    if token is not None:
        token.answered = True
        token.changed()


def shows(interaction: discord.Interaction[Any], message_id: int | None) -> None:
    """``interaction``'s own answer is ``message_id`` (a click answered by editing the clicked
    message, a command answered with a message): its token edits it."""
    token = interaction.extras.get(_TOKEN)
    if token is not None and message_id is not None and token.shows != message_id:
        token.shows = message_id
        token.changed()  # (before its answer: kept once answered, with this)


def followed(interaction: discord.Interaction[Any], message_id: int) -> None:
    """``interaction`` sent a follow-up (an answer after its acknowledgement, a second answer
    such as a rematch's lobby under its invitation): it counts towards the cap, and its
    token edits it, as the follow-ups ``TokenRoutes`` sends."""
    token = interaction.extras.get(_TOKEN)
    if token is not None:  # an interaction from a place only tokens reach
        token.followups.append(message_id)
        token.changed()


#: The message an interaction's own answer is, as its token's routes name it.
_ORIGINAL = cast(int, "@original")


class TokenRoutes:
    """A place without channel routes (a group DM, a DM between users, a server that never
    added the bot): everything goes through the tokens of the interactions that came from it.
    New messages are follow-ups of the newest answered token (at most ``FOLLOWUP_CAP`` each,
    fewer for messages that notify nobody); a message is edited or deleted by a token that
    made or showed it. Tokens are never used, and not kept, after ``TOKEN_FRESH``."""

    def __init__(
        self, bot: YahtzeeBot, keep: Callable[[TokenRecord], Awaitable[None]] | None = None
    ) -> None:
        self.bot = bot
        #: Each place's tokens, oldest first (a list: a deque's block is 600 bytes).
        self._seen: OrderedDict[int, list[Token]] = OrderedDict()
        #: Where a token's state is kept across a restart (None: in memory only).
        self._keep = keep
        self._keeping: set[asyncio.Task[None]] = set()

    async def keep(self, token: Token) -> None:
        """Keep ``token`` as it is now in the store (a failure is logged: the token still
        works in this process)."""
        if self._keep is None:
            return
        try:
            await self._keep(token.record())
        except Exception:
            log.exception("could not keep the token of interaction %s", token.interaction_id)

    def keep_later(self, token: Token) -> None:
        """``keep`` in the background (saves go to the store in the order asked)."""
        if self._keep is None:
            return
        task = asyncio.create_task(self.keep(token), name=f"token-{token.interaction_id}")
        self._keeping.add(task)
        task.add_done_callback(self._keeping.discard)

    async def kept(self) -> None:
        """Until the tokens being kept are in the store (a test; a stop)."""
        while self._keeping:
            await asyncio.gather(*self._keeping, return_exceptions=True)

    def restore(self, records: Sequence[TokenRecord]) -> None:
        """The tokens kept in the store that are still good (at start, before any repair):
        their messages are reached again, and new ones may be posted through them."""
        state = self.bot._connection
        for record in records:
            data = {"id": record.application_id, "type": 3, "token": record.token}
            webhook = discord.Webhook.from_state(cast(Any, data), state=state)
            token = Token(
                webhook, record.at, record.answered, record.shows, list(record.followups),
                record.interaction_id, record.channel_id, self, record.public,
            )  # fmt: skip
            kept = self._seen.setdefault(record.channel_id, [])
            if any(t.interaction_id == record.interaction_id for t in kept):
                continue
            kept.append(token)
            kept.sort(key=lambda t: t.at)
            del kept[:-KEPT_PER_PLACE]
            self._seen.move_to_end(record.channel_id)

    def _now(self) -> float:
        return self.bot.clock().timestamp()

    def note(self, interaction: discord.Interaction[Any], public: bool = True) -> None:
        """An interaction from a token place: if it can carry a game's messages, its token
        may show the game there (kept as a ``Token``, not as the interaction). Not
        ``public``: Discord shows what it posts to its member alone (their server lets them
        use no external apps): it never posts a game's messages for everyone."""
        assert interaction.channel_id is not None
        if interaction.type not in _CARRIERS:
            return
        now = self._now()
        token = Token(
            interaction.followup, now, interaction.response.is_done(),
            interaction_id=interaction.id, channel_id=interaction.channel_id, routes=self,
            public=public,
        )  # fmt: skip
        interaction.extras[_TOKEN] = token
        kept = self._seen.setdefault(interaction.channel_id, [])
        kept.append(token)
        if len(kept) > KEPT_PER_PLACE:
            del kept[0]
        self._seen.move_to_end(interaction.channel_id)
        self._drop_stale(now)

    def _drop_stale(self, now: float) -> None:
        """Drop the places clicked in longest ago: past ``PLACES_KEPT``, and those whose
        newest token is too old to use (the places are in the order of their newest)."""
        while self._seen:
            channel_id, kept = next(iter(self._seen.items()))
            if len(self._seen) <= PLACES_KEPT and kept and now - kept[-1].at < TOKEN_FRESH:
                break
            del self._seen[channel_id]

    def size(self) -> tuple[int, int]:
        """(places, tokens) kept now."""
        return len(self._seen), sum(len(kept) for kept in self._seen.values())

    def _fresh(self, channel_id: int) -> list[Token]:
        """The place's tokens that are still good, newest first."""
        now = self._now()
        kept = self._seen.get(channel_id, ())
        return [t for t in reversed(kept) if now - t.at < TOKEN_FRESH]

    def fresh(self, channel_id: int) -> bool:
        """Whether any token reaches the place now."""
        return any(t.answered for t in self._fresh(channel_id))

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
        """A follow-up of the newest answered token of the place that has one left
        (``QUIET_FOLLOWUPS`` for a message that notifies nobody or may be left out); once
        every one's are spent, the newest one's last message shows this one instead (an
        edit). An ``optional`` message (a reminder) is never shown by an edit: it would take
        the place of what that message showed (a board), and notify nobody."""
        fields.pop("nonce", None)
        cap = FOLLOWUP_CAP if notify and not optional else QUIET_FOLLOWUPS
        answered = [t for t in self._fresh(channel_id) if t.answered and t.public]
        for token in answered:
            if len(token.followups) < cap:
                message = await token.webhook.send(wait=True, **fields)
                token.followups.append(message.id)
                await self.keep(token)  # on record before anything else is done with it
                return message
        for token in [] if optional else answered[:1]:
            last = token.followups[-1] if token.followups else token.shows
            if last is not None:
                edited = await self.edit(channel_id, last, **_as_edit(fields))
                if edited is not None:
                    return edited
        raise Unreachable(f"no fresh token reaches channel {channel_id}")

    def _holder(self, channel_id: int, message_id: int) -> tuple[Token, bool] | None:
        """The newest fresh token that reaches ``message_id``: (it, whether the message is
        its interaction's own answer)."""
        for token in self._fresh(channel_id):
            if token.shows == message_id and token.answered:
                return token, True
            if message_id in token.followups:
                return token, False
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
        token, original = holder
        return await token.webhook.edit_message(_ORIGINAL if original else message_id, **fields)

    async def delete(self, channel_id: int, message_id: int) -> None:
        holder = self._holder(channel_id, message_id)
        if holder is None:
            return
        token, original = holder
        await token.webhook.delete_message(_ORIGINAL if original else message_id)


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A message's ``send`` fields as an edit takes them (files become attachments)."""
    out = dict(fields)
    files = out.pop("files", None)
    if files is not None:
        out["attachments"] = files
    out.pop("ephemeral", None)
    return out


class PlaceRoutes:
    """The means of the places games are played in: channel routes where the bot may post (a
    server that added it, its own DM), the interactions' tokens elsewhere, and which channels
    only tokens reach: a channel is a token place while the latest interaction from it says
    so (``note``; the games there keep it as their place). A game's messages go by the
    means its place picks (``cogs.shared.surface.surface_of``)."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.channels = ChannelRoutes(bot)
        self.tokens = TokenRoutes(bot, lambda record: bot.games.servers.save_token(record))
        self._token_places: set[int] = set()

    def note(self, interaction: discord.Interaction[Any], place: Place) -> bool | None:
        """Every interaction says where it comes from, and the place is what the latest one
        says (a server may add the bot after its members played there by their own
        installs): True if the channel has just become a token place, False if it has just
        stopped being one (both to be kept in the store: ``known``), None if nothing changed."""
        if place.can_post:
            if place.channel_id not in self._token_places:
                return None
            self._token_places.discard(place.channel_id)
            self.tokens.forget(place.channel_id)
            return False
        self.tokens.note(interaction, place.public_answers(interaction))
        if place.channel_id in self._token_places:
            return None
        self._token_places.add(place.channel_id)
        return True

    def known(self, channels: set[int]) -> None:
        """The token places the store kept (at start: before any repair or timer acts)."""
        self._token_places |= channels

    def by_token(self, channel_id: int) -> bool:
        """Whether the place of ``channel_id`` is reached by tokens only."""
        return channel_id in self._token_places

    async def start_thread(self, message: discord.Message, name: str) -> discord.Thread:
        return await self.channels.start_thread(message, name)

    async def archive(self, thread_id: int, archived: bool, reason: str) -> None:
        await self.channels.archive(thread_id, archived, reason)

    async def dm(self, user_id: int, content: str) -> None:
        await self.channels.dm(user_id, content)
