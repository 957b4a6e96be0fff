"""A small Discord on 127.0.0.1: the REST routes and the gateway the bot uses, answering like
Discord where a bot could get it wrong, plus a driver that clicks like a person.

It keeps every request, every message the bot posted or edited per channel (content, embeds,
components, attachments with their bytes), every ephemeral reply, and enforces:
- one response per interaction (40060), and the 3-second answer window (10062);
- component limits: 5 rows, 5 buttons a row, a select alone in its row, 25 options,
  custom_id up to 100 characters, labels up to 80 (50035);
- 429 with ``retry_after`` on demand (``rate_limit``);
- an ephemeral message is reached only through an interaction's token (the webhook routes):
  the channel routes answer 404 10008 for it, as for a message that is not there; a token
  is good for 15 minutes (``TOKEN_LIFETIME``, by the fake's clock: ``advance``), then its
  webhook routes answer 401 50027.
- the rules of the places (``Place``; made with ``bot_dm``, ``group_dm``, ``dm_between``,
  ``user_install_guild``, and ``install`` for a user's own install of the app): each
  interaction carries its place's ``context``, ``authorizing_integration_owners``,
  ``app_permissions``, ``member`` in a server or ``user`` elsewhere, and its ``channel``
  (type 1 or 3, no ``guild_id``, in DMs); the channel routes answer 403 50001 where the bot is
  not in the channel (group DMs, other people's DMs, servers that never added it), threads
  400 50024 in its DM; a sixth follow-up of an interaction authorized only by a user install
  answers 400 40094; no gateway event but interactions comes from where the bot is not, and
  DM events go to shard 0 only; ``slash`` refuses (``NotOffered``) a command the client would
  not offer there, by its ``contexts`` and ``integration_types``; in a server without the bot,
  a member without Use External Apps sees its answers alone (ephemeral).

What Discord accepts but shows wrongly is noted in ``mistakes`` (the e2e fixture fails a test
that leaves any): an embed edited without saying which attachments stay (Discord may then
show its ``attachment://`` picture twice), an embed whose picture the message does not carry.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
APPLICATION_ID = 900000000000000001
BOT_USER_ID = APPLICATION_ID
GUILD_ID = 900000000000000100
EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2  # the one flag an edit may set or unset (besides adding V2)
#: How long an interaction's token may be used to edit its messages and send follow-ups.
TOKEN_LIFETIME = 15 * 60
# The permissions of everyone in the fake guild, and of an admin (Manage Server added).
EVERYONE_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 31) | (1 << 38)
)  # view, send, embed, attach, app commands, send in threads (Discord's @everyone defaults)
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 35, 1 << 38
MANAGE_THREADS = 1 << 34
# What Modify Channel takes for a thread (the spec's UpdateThreadRequestPartial): a key
# outside it is a 400 (Discord's own answer is 50035 Invalid Form Body).
THREAD_EDIT_KEYS = frozenset({
    "name", "archived", "locked", "invitable", "auto_archive_duration", "rate_limit_per_user",
    "flags", "applied_tags", "bitrate", "user_limit", "rtc_region", "video_quality_mode",
})  # fmt: skip
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # the spec's ThreadAutoArchiveDuration
# What the bot may do in every channel unless a test takes some of it away (``deny``).
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS

# -- places (see ``Place``) ----------------------------------------------------------------
#: Interaction context types (Discord's "Receiving and Responding": Interaction Context Types).
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
#: Application integration types, the keys of ``authorizing_integration_owners`` ("Application").
GUILD_INSTALL, USER_INSTALL = 0, 1
MENTION_EVERYONE, USE_EXTERNAL_EMOJIS = 1 << 17, 1 << 18
#: "If Use External Apps is disabled and your app is not installed to the server, your app's
#: responses will be ephemeral for the end user"; "enabled for servers by default" (Change Log,
#: "User-Installed Apps General Availability"): ``deny_member`` takes it away.
USE_EXTERNAL_APPS = 1 << 50
#: What an interaction's ``app_permissions`` carry where the app has no bot member: "for
#: (G)DMs with other users, ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE, and additionally
#: USE_EXTERNAL_EMOJIS for DMs with the app's bot user" ("Receiving and Responding",
#: Interaction Structure, footnote ***); the tutorial "Developing a User-Installable App"
#: shows 442368 in the bot's DM. In a server without the bot: @everyone's permissions there,
#: "limited to ... ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, and USE_EXTERNAL_EMOJIS"
#: (Change Log, "Calculated Permissions in Interaction Payloads"), Attach Files and Embed
#: Links always (discord-api-docs issue 5316).
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS
ANSWER_PERMISSIONS = BOT_DM_APP_PERMISSIONS
#: "Apps are limited to 5 followup messages per interaction if it was initiated from a
#: user-installed app and isn't installed in the server (meaning the authorizing integration
#: owners object only contains USER_INSTALL)" ("Receiving and Responding", Create Followup).
MAX_FOLLOWUPS = 5
#: Channel types (Discord's "Channel": Channel Types).
DM_CHANNEL, GROUP_DM_CHANNEL = 1, 3

_snowflakes = itertools.count(1_100_000_000_000_000_000)
_last_snowflake = 0


DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, where Discord's snowflakes count from


def snowflake() -> str:
    """A new, increasing id that, as Discord's, holds its creation time (milliseconds since
    Discord's epoch, shifted 22 bits): a bot may work out from an interaction's id how long
    ago Discord sent it."""
    global _last_snowflake
    made = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
    _last_snowflake = max(_last_snowflake + 1, made, next(_snowflakes))
    return str(_last_snowflake)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only when Content-Type is exactly application/json.
    return web.Response(
        status=status, body=orjson.dumps(data), headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


@dataclass
class Interaction:
    """One interaction the driver sent, and everything the bot answered to it."""

    id: str
    token: str
    user: dict[str, Any]
    created: float
    kind: str  # "command" or "component"
    channel_id: str = ""
    message_id: str | None = None  # the message a component was clicked on
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    response_type: int | None = None
    response: dict[str, Any] | None = None  # the message the response created or updated
    followups: list[dict[str, Any]] = field(default_factory=list)
    original_message_id: str | None = None
    error: str | None = None
    answered: float | None = None  # time.monotonic() when the answer arrived
    callbacks: int = 0  # how many times a bot tried to answer it (Discord takes the first)
    delivered: bool = False  # sent over a gateway connection (False: no bot was connected)
    issued: float = 0.0  # the fake's clock (``FakeDiscord.now``) when it was sent: its token's age
    #: what it was sent with: its ``authorizing_integration_owners``, ``context`` and the
    #: kind of place (``Place.kind``)
    owners: dict[str, str] = field(default_factory=dict)
    context: int = GUILD_CONTEXT
    place: str = "server"
    #: its answers are shown to the user alone, whatever their flags (a server without the
    #: bot where the member may not use external apps: ``USE_EXTERNAL_APPS``)
    private_only: bool = False
    #: set once no answer can come any more: answered, or the bot's answer refused (an
    #: error the test had the fake give, or too late)
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ephemeral_text(self) -> str:
        """The text of every ephemeral answer, joined."""
        parts = []
        for message in ([self.response] if self.response else []) + self.followups:
            if message and message.get("flags", 0) & EPHEMERAL:
                parts.append(message.get("content") or "")
        return "\n".join(parts)


@dataclass(frozen=True)
class Place:
    """Where a channel is, as Discord tells places apart for an app.

    ``kind``: ``"server"`` (a server that added the bot: guild install), ``"bot_dm"`` (the
    bot's own DM with a user), ``"group_dm"`` (a group DM), ``"dm"`` (a DM between two
    users), ``"user_server"`` (a server that never added the bot, where a member installed
    the app to their account). ``context``: the interaction context sent from there.
    ``bot_member``: whether the bot is in the channel, so that the channel routes (post,
    edit, delete, threads, get the channel) work there; elsewhere they answer 403 50001 and
    only the interaction's token reaches its messages.
    """

    kind: str
    channel_id: str
    guild_id: str | None
    context: int
    bot_member: bool
    members: tuple[str, ...] = ()  # who is in a DM or group DM (empty: everyone in a server)


class NotOffered(LookupError):
    """The Discord client would not offer this command to this user here (its ``contexts``
    or ``integration_types`` leave the place out, or the user has not installed the app)."""


class FakeDiscord:
    """The fake server: start it, point discord.py at ``api_base``, then drive it."""

    def __init__(self) -> None:
        self.app = web.Application(client_max_size=32 * 1024 * 1024)
        self.app.router.add_route("*", API_PREFIX + "/{path:.*}", self._rest)
        self.app.router.add_get("/gateway", self._gateway)
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.requests: list[tuple[str, str, Any]] = []
        self.request_times: list[float] = []  # time.monotonic() of each of ``requests``
        self.last_request = time.monotonic()
        #: what ``settle`` knows is in flight: requests being handled, and the fake's own
        #: hold-ups (a ``slow`` or ``hang``, a 429's ``retry_after``: the bot waits on purpose)
        self.handling = 0
        self.holding = 0
        self.held_until = 0.0  # time.monotonic() until which a 429's retry_after runs
        self._unanswered: dict[str, Interaction] = {}  # delivered, not answered yet
        #: the work in progress of the bots running in this process (a test's harness
        #: sets it: tests/e2e/conftest.py); ``watch`` lets ``settle`` go by it
        self.bot_tasks: Callable[[], list[str]] | None = None
        self.watching = False
        self.messages: dict[str, dict[str, Any]] = {}  # every message by id, deleted ones removed
        self.descriptions: dict[str, list[str]] = {}  # every embed description a message showed
        self.order: dict[str, list[str]] = {}  # channel id -> message ids in posting order
        self.files: dict[str, bytes] = {}  # attachment id -> bytes
        self.interactions: dict[str, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.sockets: list[web.WebSocketResponse] = []
        self.sequence = 0
        self.users: dict[str, dict[str, Any]] = {}
        self.admins: set[str] = set()
        self.locales: dict[str, str] = {}  # user id -> their client's language (default en-US)
        self.guild_locales: dict[str, str] = {}  # guild id -> its language (default en-US)
        self.channels: list[dict[str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        #: the application's emojis by id (Discord's emoji objects); ``emoji_refusal``: an
        #: error code the emoji routes answer with instead (a test of the fallback)
        self.app_emojis: dict[str, dict[str, Any]] = {}
        self.emoji_refusal: int | None = None
        self.emoji_images: dict[str, bytes] = {}  # what each emoji was made from, by name
        #: direct messages: each user's DM channel id, what the bot sent there, and the users
        #: who allow no DMs from the server (Discord answers 50007)
        self.dm_channels: dict[str, str] = {}
        self.dms: dict[str, list[dict[str, Any]]] = {}
        self.closed_dms: set[str] = set()
        #: places beside the servers (``Place``): group DMs and DMs between users by channel
        #: id (their channel objects), the users who installed the app to their account
        #: (``install``), the app's installation contexts (Developer Portal, Installation)
        self.private_channels: dict[str, dict[str, Any]] = {}
        self.installs: set[str] = set()
        self.installation_contexts: set[int] = {GUILD_INSTALL, USER_INSTALL}
        #: gateway events not sent because they come from a place the bot is not in
        self.withheld: list[tuple[str, dict[str, Any]]] = []
        self.rate_limits: list[tuple[str, re.Pattern[str], float]] = []
        self.global_limits: set[int] = set()  # indexes in rate_limits that are global
        self.hangs: list[tuple[str, re.Pattern[str], bool]] = []
        self.delays: list[tuple[str, re.Pattern[str], float]] = []
        self.failures: list[tuple[str, re.Pattern[str], int, int, str]] = []
        self.denied: dict[str, int] = {}  # channel id -> permissions the bot lacks there
        # channel id -> user id -> permissions a member lacks there (and in its threads)
        self.member_denied: dict[str, dict[str, int]] = {}
        self.nonces: dict[str, str] = {}  # enforce_nonce: nonce -> message id
        self.posted_at: dict[str, float] = {}  # message id -> time.monotonic() of its posting
        self._posts: dict[str, asyncio.Event] = {}  # channel id -> set at its next post
        self.hung = asyncio.Event()
        self.mistakes: list[str] = []  # what Discord would show wrongly; see the module doc
        #: every notification a posted message sent: (channel id, message id, user id),
        #: kept when the message is deleted (the push notification is not taken back)
        self.pings: list[tuple[str, str, str]] = []
        self._released = asyncio.Event()  # set on stop: hung requests end
        self.identified = asyncio.Event()
        self.resumes = 0
        self.answer_window = 3.0
        self.skew = 0.0  # how far ``advance`` moved the fake's clock past time.monotonic()
        self.bot_user = {
            "id": str(BOT_USER_ID),
            "username": "Yahtzee",
            "discriminator": "0",
            "global_name": "Yahtzee",
            "avatar": None,
            "bot": True,
        }
        self.guilds: dict[str, str] = {str(GUILD_ID): "Dice Club"}  # id -> name
        #: servers the bot is not in (``user_install_guild``): id -> name
        self.foreign_guilds: dict[str, str] = {}
        self.shards: dict[web.WebSocketResponse, tuple[int, int]] = {}  # socket -> (id, count)
        self.sessions: dict[str, tuple[int, int]] = {}  # session id -> its shard, for RESUME
        self.intents: list[int] = []  # what each IDENTIFY asked for
        self.gateway_down = False  # True: new gateway connections are refused (an outage)
        self.closed_at: list[float] = []  # time.monotonic() when each gateway connection ended
        for name in ("general", "games"):
            self.add_channel(name)

    # -- set-up --------------------------------------------------------------------------------

    async def start(self) -> None:
        """Serve on an ephemeral loopback port."""
        self.runner = web.AppRunner(self.app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self._released.set()
        for ws in list(self.sockets):
            await ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` should be."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    def add_guild(self, name: str, shard: int | None = None, shard_count: int = 2) -> str:
        """Another server the bot is in; with ``shard``, one whose id Discord's rule
        (``(guild_id >> 22) % shard_count``) puts on that shard. Returns its id."""
        while True:
            guild_id = snowflake()
            if shard is None or (int(guild_id) >> 22) % shard_count == shard:
                break
        self.guilds[guild_id] = name
        return guild_id

    def add_channel(self, name: str, guild_id: str | None = None) -> dict[str, Any]:
        channel = {
            "id": snowflake(),
            "type": 0,
            "name": name,
            "guild_id": guild_id or str(GUILD_ID),
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }
        self.channels.append(channel)
        self.order[channel["id"]] = []
        return channel

    def channel(self, name: str) -> str:
        """A channel id by name."""
        return next(c["id"] for c in self.channels if c["name"] == name)

    def threads(self, parent_id: str) -> list[dict[str, Any]]:
        """The threads started in a channel."""
        return [c for c in self.channels if c.get("parent_id") == parent_id]

    def user(self, name: str, admin: bool = False, locale: str | None = None) -> dict[str, Any]:
        """A member of the guild (created on first use); ``locale``: their client's
        language, sent with each of their interactions (Discord's codes: "pt-BR", "de")."""
        if name not in self.users:
            self.users[name] = {
                "id": snowflake(),
                "username": name.lower(),
                "discriminator": "0",
                "global_name": name,
                "avatar": None,
            }
        if admin:
            self.admins.add(self.users[name]["id"])
        if locale is not None:
            self.locales[self.users[name]["id"]] = locale
        return self.users[name]

    async def drop_connections(self) -> None:
        """Close every gateway connection as a network blip would (the bot resumes)."""
        for ws in list(self.sockets):
            self.sockets.remove(ws)
            await ws.close(code=4000, message=b"blip")

    def hang(self, method: str, path_pattern: str, after: bool = False) -> None:
        """Never answer the next matching request: the bot stalls there, as if it died.

        ``after``: carry the request out first, and only then never answer (the bot dies
        after Discord did the work but before it heard so).
        """
        self.hangs.append((method.upper(), re.compile(path_pattern), after))

    def deny(self, channel_id: str, permissions: int) -> None:
        """Take permissions away from the bot in a channel (and its threads), as a channel
        overwrite would: Discord then answers 403 (50013) and says so in app_permissions."""
        self.denied[channel_id] = self.denied.get(channel_id, 0) | permissions

    def deny_member(self, channel_id: str, user: dict[str, Any], permissions: int) -> None:
        """Take permissions away from a member in a channel and its threads, as a channel
        overwrite would: their interactions there carry what is left (``member.permissions``
        is the member's permissions in the interaction's channel, overwrites applied)."""
        denied = self.member_denied.setdefault(channel_id, {})
        denied[user["id"]] = denied.get(user["id"], 0) | permissions

    def member_permissions(self, user: dict[str, Any], channel_id: str) -> int:
        """What a member may do in a channel (a thread has its parent's overwrites)."""
        channel = next((c for c in self.channels if c["id"] == channel_id), None)
        parent = (channel or {}).get("parent_id") or channel_id
        permissions = EVERYONE_PERMISSIONS | USE_EXTERNAL_APPS
        permissions |= MANAGE_GUILD if user["id"] in self.admins else 0
        return permissions & ~self.member_denied.get(parent, {}).get(user["id"], 0)

    def bot_permissions(self, channel_id: str) -> int:
        """What the bot may do in a channel (a thread has its parent's permissions)."""
        channel = next((c for c in self.channels if c["id"] == channel_id), None)
        parent = (channel or {}).get("parent_id") or channel_id
        return BOT_PERMISSIONS & ~self.denied.get(parent, 0)

    def archive(self, thread_id: str) -> None:
        """Archive a thread, as Discord does after its auto-archive time without a post:
        edits in it then fail with 50083 until it is unarchived (a post unarchives it)."""
        self._channel_payload(thread_id)["thread_metadata"]["archived"] = True

    def archived(self, channel_id: str) -> bool:
        """Whether a channel is an archived thread."""
        channel = self._channel_payload(channel_id)
        return bool(channel.get("thread_metadata", {}).get("archived"))

    def fail(self, method: str, path_pattern: str, status: int, code: int, message: str) -> None:
        """Answer the next matching request with an error, as Discord would: e.g. 404 10008
        Unknown Message (the message is deleted then, as by a moderator just before), 403
        50001 Missing Access."""
        self.failures.append((method.upper(), re.compile(path_pattern), status, code, message))

    def slow(self, method: str, path_pattern: str, seconds: float) -> None:
        """Carry out the next matching request only after ``seconds`` (a busy rate-limit
        bucket, a slow network): the window in which players can click meanwhile."""
        self.delays.append((method.upper(), re.compile(path_pattern), seconds))

    def rate_limit(
        self, method: str, path_pattern: str, retry_after: float = 0.3, everywhere: bool = False
    ) -> None:
        """Answer the next matching request with 429 and ``retry_after``; ``everywhere``: the
        global limit (50 requests a second for the whole bot), not the route's."""
        self.rate_limits.append((method.upper(), re.compile(path_pattern), retry_after))
        if everywhere:
            self.global_limits.add(len(self.rate_limits) - 1)

    def now(self) -> float:
        """The fake's clock (time.monotonic(), moved on by ``advance``)."""
        return time.monotonic() + self.skew

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on (interaction tokens age; nothing else is hurried)."""
        self.skew += seconds

    # -- places ------------------------------------------------------------------------------
    # Every place is a channel id: ``slash``, ``click``, ``last`` and the rest take it alike.

    def install(self, *users: dict[str, Any]) -> None:
        """These users add the app to their account ("Add to my apps", a user install): its
        commands that allow USER_INSTALL are offered to them in DMs, group DMs and servers
        without the bot, and their interactions carry ``{"1": their id}``."""
        self.installs.update(u["id"] for u in users)

    def bot_dm(self, user: dict[str, Any]) -> str:
        """The bot's own DM with ``user`` (the channel Create DM returns): context 1, the bot
        shares it and may post there (unless the user takes no DMs from it: 50007)."""
        return self.dm_channels.setdefault(user["id"], snowflake())

    def group_dm(self, *users: dict[str, Any], name: str | None = None) -> str:
        """A group DM of these users (the bot is never in one): context 2."""
        return self._private_channel(GROUP_DM_CHANNEL, users, name)

    def dm_between(self, one: dict[str, Any], other: dict[str, Any]) -> str:
        """A DM between two users (not the bot's): context 2, as a group DM."""
        return self._private_channel(DM_CHANNEL, (one, other), None)

    def user_install_guild(self, name: str = "Friends", channel: str = "lounge") -> str:
        """A server that never added the bot, with one text channel; returns that channel's
        id (more: ``add_channel(name, guild_id=fake.guild_of(id))``). Its members reach the
        app only through their own install (``install``): context 0 with ``{"1": user}``."""
        guild_id = snowflake()
        self.guild_locales.setdefault(guild_id, "en-US")
        self.foreign_guilds[guild_id] = name
        return self.add_channel(channel, guild_id=guild_id)["id"]

    async def add_bot_to(self, channel_id: str) -> None:
        """The server of a channel made by ``user_install_guild`` adds the bot (its invite
        link): from now on it is a server like any other (channel routes work there, its
        interactions carry ``{"0": guild}``), and the bot hears GUILD_CREATE."""
        guild_id = self.guild_of(channel_id)
        self.guilds[guild_id] = self.foreign_guilds.pop(guild_id)
        await self.dispatch("GUILD_CREATE", self._guild(guild_id))

    def _private_channel(self, kind: int, users: Any, name: str | None) -> str:
        if len(users) < 2 or (kind == DM_CHANNEL and len(users) != 2):
            raise ValueError("a DM has two users, a group DM two to ten")
        channel_id = snowflake()
        self.private_channels[channel_id] = {
            "id": channel_id, "type": kind, "last_message_id": None, "flags": 0,
            "recipients": [dict(u) for u in users],
        }  # fmt: skip
        if kind == GROUP_DM_CHANNEL:
            self.private_channels[channel_id] |= {
                "name": name,
                "icon": None,
                "owner_id": users[0]["id"],
            }
        self.order[channel_id] = []
        return channel_id

    def place(self, channel_id: str) -> Place:
        """What kind of place a channel is (an unknown id: the default server's, as before)."""
        if channel_id in self.private_channels:
            channel = self.private_channels[channel_id]
            kind = "group_dm" if channel["type"] == GROUP_DM_CHANNEL else "dm"
            members = tuple(u["id"] for u in channel["recipients"])
            return Place(kind, channel_id, None, PRIVATE_CHANNEL_CONTEXT, False, members)
        owner = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
        if owner is not None:
            return Place("bot_dm", channel_id, None, BOT_DM_CONTEXT, True, (owner,))
        guild_id = self.guild_of(channel_id)
        if guild_id in self.foreign_guilds:
            return Place("user_server", channel_id, guild_id, GUILD_CONTEXT, False)
        return Place("server", channel_id, guild_id, GUILD_CONTEXT, True)

    def command(self, name: str) -> dict[str, Any] | None:
        """A published command by name."""
        return next((c for c in self.commands if c.get("name") == name), None)

    def offers(self, user: dict[str, Any], channel_id: str, name: str) -> bool:
        """Whether Discord's client offers the command ``name`` to ``user`` in this place."""
        return self._not_offered(user, channel_id, name) is None

    def _not_offered(self, user: dict[str, Any], channel_id: str, name: str) -> str | None:
        """Why the client would not offer a command here, or None. A command is offered where
        its ``contexts`` (all three if absent) include the place's, through an installation
        it allows (``integration_types``, default: the app's): the bot's server or its DM
        (GUILD_INSTALL), or the user's own install (USER_INSTALL) ("Application Commands":
        Contexts). Before any command is published the fake does not judge."""
        if not self.commands:
            return None
        command = self.command(name)
        if command is None:
            return f"no command /{name} is published"
        place = self.place(channel_id)
        contexts = command.get("contexts")
        if contexts is not None and place.context not in contexts:
            return f"/{name} is published for contexts {contexts}, not {place.context}"
        if not self._owners(place, user, self._integration_types(command)):
            return f"/{name} is not installed for {user['username']} in a {place.kind}"
        return None

    def _integration_types(self, command: dict[str, Any] | None) -> list[int]:
        types = (command or {}).get("integration_types")
        return sorted(self.installation_contexts) if types is None else list(types)

    def _owners(self, place: Place, user: dict[str, Any], types: list[int]) -> dict[str, str]:
        """``authorizing_integration_owners`` of a command used here: "0" the server's id
        where the bot's server install covers it ("0" in the bot's DM), "1" the user's id if
        they installed the app ("Receiving and Responding": Authorizing Integration Owners)."""
        owners: dict[str, str] = {}
        if GUILD_INSTALL in types and place.kind == "server":
            owners[str(GUILD_INSTALL)] = str(place.guild_id)
        if GUILD_INSTALL in types and place.kind == "bot_dm":
            owners[str(GUILD_INSTALL)] = "0"
        if USER_INSTALL in types and user["id"] in self.installs:
            owners[str(USER_INSTALL)] = user["id"]
        return owners

    def app_permissions(self, channel_id: str) -> int:
        """What an interaction from this channel says the app may do (see the constants)."""
        place = self.place(channel_id)
        if place.kind == "server":
            return self.bot_permissions(channel_id)
        if place.kind == "bot_dm":
            return BOT_DM_APP_PERMISSIONS
        if place.kind == "user_server":
            return EVERYONE_PERMISSIONS & ANSWER_PERMISSIONS | ATTACH_FILES | EMBED_LINKS
        return PRIVATE_APP_PERMISSIONS

    def _private_payload(self, place: Place, user: dict[str, Any]) -> dict[str, Any]:
        """The ``channel`` of an interaction from a DM or group DM (no ``guild_id``)."""
        if place.kind == "bot_dm":
            return {"id": place.channel_id, "type": DM_CHANNEL, "last_message_id": None,
                    "flags": 0, "recipients": [user]}  # fmt: skip
        return dict(self.private_channels[place.channel_id])

    # -- what the bot did ----------------------------------------------------------------------

    def channel_messages(self, channel_id: str) -> list[dict[str, Any]]:
        """The channel's visible messages, oldest first (ephemeral ones are not in channels)."""
        return [self.messages[m] for m in self.order.get(channel_id, []) if m in self.messages]

    def last(self, channel_id: str) -> dict[str, Any]:
        """The newest message in a channel."""
        return self.channel_messages(channel_id)[-1]

    def live_boards(self, channel_id: str) -> list[dict[str, Any]]:
        """Messages that still carry a Roll button (known by its custom_id: in any language)."""
        return [
            m
            for m in self.channel_messages(channel_id)
            if any(str(c.get("custom_id", "")).startswith("yz:roll:") for c in controls_of(m))
        ]

    def attachment(self, message: dict[str, Any], index: int = 0) -> bytes:
        """The bytes of a message's attachment."""
        return self.files[message["attachments"][index]["id"]]

    def requests_to(self, method: str, pattern: str) -> list[tuple[str, str, Any]]:
        regex = re.compile(pattern)
        return [r for r in self.requests if r[0] == method and regex.search(r[1])]

    async def wait_for(self, check: Any, timeout: float = 10.0) -> None:
        """Wait (as a person watching the channel would) until ``check()`` is true."""
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not get there in time")
            await asyncio.sleep(0.02)
        await self.settle()

    async def next_post(self, channel_id: str, timeout: float = 10.0) -> None:
        """Wait for the next message posted in one channel (what a person in that channel
        sees; unlike ``settle`` it works while other channels are busy)."""
        waiter = self._posts.setdefault(channel_id, asyncio.Event())
        await asyncio.wait_for(waiter.wait(), timeout)

    def watch(self) -> None:
        """A bot runs in this process: ``settle`` goes by what is in flight, its tasks at
        work (``bot_tasks``) included."""
        self.watching = self.bot_tasks is not None

    def in_flight(self) -> list[str]:
        """What the bot has been given and not finished: interactions sent to it and not
        answered (within Discord's answer window), its requests being handled, and (with
        ``watch``) its own work in progress."""
        now = self.now()
        busy = [
            f"interaction {record.id} unanswered"
            for record in self._unanswered.values()
            if now - record.issued < self.answer_window
        ]
        if self.handling:
            busy.append(f"{self.handling} request(s) being handled")
        if self.bot_tasks is not None:
            busy += self.bot_tasks()
        return busy

    #: Turns of the event loop, and seconds, for which nothing may be in flight before
    #: ``settle`` calls the bot done: a gateway message or a callback handed on within the
    #: loop is picked up in a turn or two; these are a wide margin over that.
    CALM_TURNS = 20
    CALM_SECONDS = 0.002

    async def settle(self, quiet: float | None = None, limit: float = 10.0) -> None:
        """Wait until the bot is done with what it was given (a person's pause).

        With a view into the bot (``watch``: a bot in this process), that is when nothing is
        ``in_flight`` and has not been for ``CALM_TURNS`` turns of the event loop: bounded
        by what is known to be in flight, not by a fixed quiet time. Without one (a bot in
        another process), with an explicit ``quiet``, or while the fake holds the bot back
        (a ``slow`` or ``hang`` request, a 429's ``retry_after``: the bot waits on purpose,
        and a test acts meanwhile): until the bot has sent nothing for ``quiet`` seconds
        (0.06 by default)."""
        deadline = time.monotonic() + limit
        if quiet is None and self.watching:
            calm, since = 0, time.monotonic()
            while not (self.holding or time.monotonic() < self.held_until):
                busy = self.in_flight()
                now = time.monotonic()
                if busy:
                    calm, since = 0, now
                    if now > deadline:
                        raise TimeoutError(f"the bot did not settle in {limit} s: {busy}")
                    await asyncio.sleep(0.001)
                    continue
                calm += 1
                if calm >= self.CALM_TURNS and now - since >= self.CALM_SECONDS:
                    return
                await asyncio.sleep(0)
        quiet = 0.06 if quiet is None else quiet
        while time.monotonic() < deadline:
            idle = time.monotonic() - self.last_request
            if idle >= quiet:
                return
            await asyncio.sleep(quiet - idle + 0.005)

    # -- the driver ----------------------------------------------------------------------------

    def _member(self, user: dict[str, Any], channel_id: str = "") -> dict[str, Any]:
        permissions = self.member_permissions(user, channel_id)
        return {
            "user": user,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "nick": None,
            "permissions": str(permissions),
            "flags": 0,
        }

    def _channel_payload(self, channel_id: str) -> dict[str, Any]:
        found = next((c for c in self.channels if c["id"] == channel_id), None)
        if found is None and channel_id in self.private_channels:
            return self.private_channels[channel_id]
        if found is None and channel_id in self.dm_channels.values():
            user_id = next(u for u, c in self.dm_channels.items() if c == channel_id)
            user = next((u for u in self.users.values() if u["id"] == user_id), {"id": user_id})
            return self._private_payload(self.place(channel_id), user)
        if found is None:
            raise LookupError(f"the fake Discord has no channel {channel_id}")
        return found

    def guild_of(self, channel_id: str) -> str:
        """The server a channel (or thread) belongs to."""
        channel = next((c for c in self.channels if c["id"] == channel_id), None)
        return str((channel or {}).get("guild_id") or GUILD_ID)

    async def _send_interaction(
        self,
        user: dict[str, Any],
        channel_id: str,
        kind: int,
        data: dict[str, Any],
        message: dict[str, Any] | None,
    ) -> Interaction:
        place = self.place(channel_id)
        if place.members and user["id"] not in place.members:
            raise LookupError(f"{user['username']} is not in this {place.kind} ({channel_id})")
        if kind == 2:
            types = self._integration_types(self.command(str(data.get("name"))))
            owners = self._owners(place, user, types)
        else:  # a click: the installation that made the message ("Authorizing Integration
            # Owners": the authorizing user is not always the one who clicks)
            metadata = (message or {}).get("interaction_metadata") or {}
            owners = dict(metadata.get("authorizing_integration_owners") or {})
            owners = owners or self._owners(place, user, [GUILD_INSTALL])
        record = Interaction(
            id=snowflake(),
            token=f"tok-{snowflake()}",
            user=user,
            created=time.monotonic(),
            kind="command" if kind == 2 else "component",
            channel_id=channel_id,
            message_id=message["id"] if message is not None else None,
            issued=self.now(),
            owners=owners,
            context=place.context,
            place=place.kind,
            private_only=place.kind == "user_server"
            and not self.member_permissions(user, channel_id) & USE_EXTERNAL_APPS,
        )
        self.interactions[record.id] = record
        self.by_token[record.token] = record
        payload: dict[str, Any] = {
            "id": record.id,
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "data": data,
            "channel_id": channel_id,
            "token": record.token,
            "version": 1,
            "app_permissions": str(self.app_permissions(channel_id)),
            "locale": self.locales.get(user["id"], "en-US"),
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "context": place.context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if place.guild_id is not None:  # a server: who clicked as a member of it
            payload["guild_id"] = place.guild_id
            payload["guild_locale"] = self.guild_locales.get(place.guild_id, "en-US")
            payload["channel"] = self._channel_payload(channel_id)
            payload["member"] = self._member(user, channel_id)
        else:  # "user is sent when invoked in a DM"
            payload["channel"] = self._private_payload(place, user)
            payload["user"] = user
        if message is not None:
            payload["message"] = message
        self._unanswered[record.id] = record  # until the bot answers (``in_flight``)
        record.delivered = await self.dispatch("INTERACTION_CREATE", payload)
        if not record.delivered or record.responded.is_set():
            self._unanswered.pop(record.id, None)
        return record

    async def press(
        self, user: dict[str, Any], message: dict[str, Any], custom_id: str, values: Any = None
    ) -> Interaction:
        """Send one click on a component by custom_id (a select if ``values`` is given), and
        return at once: wait on ``record.responded`` (for load, where nobody is quiet)."""
        current = self.messages.get(message["id"], message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._send_interaction(user, current["channel_id"], 3, data, current)

    async def _await_answer(
        self, record: Interaction, timeout: float, quiet: bool = True
    ) -> Interaction:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(record.ended.wait(), timeout)
        if quiet:
            await self.settle()
        if not record.responded.is_set():
            record.error = record.error or "no answer"
        return record

    async def slash(
        self,
        user: dict[str, Any],
        channel_id: str,
        command: str,
        timeout: float = 5.0,
        quiet: bool = True,
        **options: Any,
    ) -> Interaction:
        """Use a slash command such as ``"yahtzee start"`` with options (``NotOffered`` if
        Discord's client would not offer it to ``user`` in this place).

        ``quiet``: after the answer, also wait until the bot has sent nothing for a moment
        (off under load, where other channels never go quiet).
        """
        group, _, sub = command.partition(" ")
        if (why := self._not_offered(user, channel_id, group)) is not None:
            raise NotOffered(why)
        in_server = self.place(channel_id).guild_id is not None
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if isinstance(value, dict) and "username" in value:  # a user option
                opts.append({"name": name, "type": 6, "value": value["id"]})
                resolved.setdefault("users", {})[value["id"]] = value
                if in_server:
                    member = self._member(value, channel_id)
                    member.pop("user")
                    resolved.setdefault("members", {})[value["id"]] = member
            else:
                opts.append({"name": name, "type": 3, "value": value})
        data: dict[str, Any] = {"id": snowflake(), "name": group, "type": 1}
        if self.place(channel_id).kind == "server":
            data["guild_id"] = self.guild_of(channel_id)
        data["options"] = [{"name": sub, "type": 1, "options": opts}] if sub else opts
        if resolved:
            data["resolved"] = resolved
        record = await self._send_interaction(user, channel_id, 2, data, None)
        return await self._await_answer(record, timeout, quiet)

    async def click(
        self,
        user: dict[str, Any],
        message: dict[str, Any],
        label_or_id: str,
        timeout: float = 5.0,
        stale: bool = False,
    ) -> Interaction:
        """Click the button whose label starts with ``label_or_id`` (or whose custom_id it is).

        ``stale``: click the button as ``message`` showed it, even if the message has changed
        since (a client that has not refreshed); Discord then sends the current message.
        """
        current = self.messages.get(message["id"], message)
        component = find_component(message if stale else current, label_or_id)
        if component is None:
            raise LookupError(f"no button {label_or_id!r} on message {message['id']}")
        if component.get("disabled"):
            raise LookupError(f"button {label_or_id!r} is disabled")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        record = await self._send_interaction(user, current["channel_id"], 3, data, current)
        return await self._await_answer(record, timeout)

    async def forge(
        self,
        user: dict[str, Any],
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None = None,
        timeout: float = 5.0,
    ) -> Interaction:
        """Send a click the message does not offer, as a modified client can: any custom_id
        (a select's ``values`` if given), on ``message``."""
        current = self.messages.get(message["id"], message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        record = await self._send_interaction(user, current["channel_id"], 3, data, current)
        return await self._await_answer(record, timeout)

    async def choose(
        self, user: dict[str, Any], message: dict[str, Any], value: str, timeout: float = 5.0
    ) -> Interaction:
        """Pick ``value`` in the message's (first) select menu."""
        return await self.choose_in(user, message, None, value, timeout)

    async def choose_in(
        self,
        user: dict[str, Any],
        message: dict[str, Any],
        row: int | None,
        value: str,
        timeout: float = 5.0,
    ) -> Interaction:
        """Pick ``value`` in the select menu of action row ``row`` (None: the first select)."""
        current = self.messages.get(message["id"], message)
        rows = current.get("components", [])
        if row is not None:
            rows = rows[row : row + 1]
        select = next((c for r in rows for c in r["components"] if c["type"] == 3), None)
        if select is None:
            raise LookupError(f"no select on message {message['id']}")
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}
        record = await self._send_interaction(user, current["channel_id"], 3, data, current)
        return await self._await_answer(record, timeout)

    # -- gateway -------------------------------------------------------------------------------

    def on_shard(self, guild_id: str, shard: tuple[int, int]) -> bool:
        """Whether Discord sends a server's events to a shard: ``(guild_id >> 22) % count``."""
        shard_id, count = shard
        return (int(guild_id) >> 22) % count == shard_id

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the connected bots, as Discord does: a server's events only to
        the shard that server is on, the others (DMs) only to shard 0 ("Gateway": Sharding);
        nothing but interactions from a place the bot is not in (``withheld``)."""
        guild_id = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
        if event != "INTERACTION_CREATE" and not self._bot_sees(event, data, guild_id):
            self.withheld.append((event, data))
            return False
        sent = False
        for ws in list(self.sockets):
            shard = self.shards.get(ws, (0, 1))
            if guild_id is not None and not self.on_shard(guild_id, shard):
                continue
            if guild_id is None and shard[0] != 0:
                continue
            self.sequence += 1
            try:
                message = {"op": 0, "t": event, "s": self.sequence, "d": data}
                await ws.send_str(orjson.dumps(message).decode())
                sent = True
            except ConnectionError:
                self.sockets.remove(ws)
        return sent

    def _bot_sees(self, event: str, data: dict[str, Any], guild_id: str | None) -> bool:
        """Whether an event comes from a place the bot is in: a server that added it, a
        channel of one, its own DMs (not group DMs, other people's DMs, or servers where
        only a member installed the app)."""
        if guild_id is not None and guild_id in self.foreign_guilds:
            return False
        channel_id = data.get("channel_id")
        if channel_id is None and event.startswith(("CHANNEL_", "THREAD_")):
            channel_id = data.get("id")
        return channel_id is None or self.place(str(channel_id)).bot_member

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down:
            return web.Response(status=503, text="the gateway is down")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    shard = payload.get("d", {}).get("shard") or [0, 1]
                    self.intents.append(int(payload.get("d", {}).get("intents", 0)))
                    await self._identify(ws, (int(shard[0]), int(shard[1])))
                elif op == 6:
                    # RESUME: the session goes on (events sent meanwhile are not replayed).
                    # Refusing it would make discord.py identify at Discord's real gateway.
                    session = payload.get("d", {}).get("session_id", "")
                    self.shards[ws] = self.sessions.get(session, (0, 1))
                    self.sockets.append(ws)
                    self.sequence += 1
                    self.resumes += 1
                    resumed = {"op": 0, "t": "RESUMED", "s": self.sequence, "d": {}}
                    await ws.send_str(json.dumps(resumed))
        finally:
            if ws in self.sockets:
                self.sockets.remove(ws)
            self.shards.pop(ws, None)
            self.closed_at.append(time.monotonic())
        return ws

    async def _identify(self, ws: web.WebSocketResponse, shard: tuple[int, int]) -> None:
        """READY with the servers of this shard, then a GUILD_CREATE for each of them."""
        self.sockets.append(ws)
        self.shards[ws] = shard
        session = snowflake()
        self.sessions[session] = shard
        mine = [g for g in self.guilds if self.on_shard(g, shard)]
        self.sequence += 1
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": g, "unavailable": True} for g in mine],
            "session_id": session,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(APPLICATION_ID), "flags": 0},
            "shard": list(shard),
            "private_channels": [],
            "relationships": [],
        }
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self.sequence, "d": ready}))
        for guild_id in mine:
            self.sequence += 1
            await ws.send_str(
                json.dumps(
                    {"op": 0, "t": "GUILD_CREATE", "s": self.sequence, "d": self._guild(guild_id)}
                )
            )
        self.identified.set()

    def _guild(self, guild_id: str) -> dict[str, Any]:
        """A server as GUILD_CREATE shows it, with its channels and every member."""
        return {
            "id": guild_id,
            "name": self.guilds[guild_id],
            "owner_id": next(iter(self.users.values()), self.bot_user)["id"],
            "icon": None,
            "roles": [
                {
                    "id": guild_id,
                    "name": "@everyone",
                    "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels if c.get("guild_id") == guild_id],
            "members": [self._member(self.bot_user)]
            + [self._member(u) for u in self.users.values()],
            "member_count": len(self.users) + 1,
            "large": False,
            "unavailable": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "preferred_locale": self.guild_locales.get(guild_id, "en-US"),
            "system_channel_flags": 0,
            "joined_at": "2026-01-01T00:00:00+00:00",
        }

    # -- REST ----------------------------------------------------------------------------------

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """The JSON payload and the uploaded files, from a JSON or multipart request."""
        files: list[tuple[str, bytes]] = []
        raw = await request.read() if request.can_read_body else b""
        if request.content_type.startswith("multipart/"):
            # Split on the boundary with bytes operations: aiohttp's streaming reader costs
            # milliseconds per image, which under load would make the fake the bottleneck.
            found = re.search(r'boundary="?([^";]+)"?', request.headers.get("Content-Type", ""))
            boundary = found.group(1) if found else ""
            payload: dict[str, Any] = {}
            for part in raw.split(b"--" + boundary.encode())[1:]:
                if part.startswith(b"--"):
                    break  # the closing boundary
                head, _, data = part.partition(b"\r\n\r\n")
                data = data.removesuffix(b"\r\n")
                headers = head.decode("utf-8", "replace")
                name = re.search(r'name="([^"]*)"', headers)
                filename = re.search(r'filename="([^"]*)"', headers)
                if name is not None and name.group(1) == "payload_json":
                    payload = orjson.loads(data)
                else:
                    files.append((filename.group(1) if filename else "file", bytes(data)))
            return payload, files
        return (orjson.loads(raw) if raw else {}), files

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self.handling += 1
        try:
            return await self._handle(request)
        finally:
            self.handling -= 1
            self.last_request = time.monotonic()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        body, files = await self._body(request)
        self.requests.append((request.method, path, body))
        self.last_request = time.monotonic()
        self.request_times.append(self.last_request)
        for i, (method, pattern, retry_after) in enumerate(self.rate_limits):
            if method == request.method and pattern.search(path):
                del self.rate_limits[i]
                self.held_until = max(self.held_until, time.monotonic() + retry_after + 0.1)
                everywhere = i in self.global_limits
                self.global_limits = {j - (j > i) for j in self.global_limits if j != i}
                headers = {
                    "Content-Type": "application/json",
                    "Retry-After": str(retry_after),
                    "X-RateLimit-Scope": "global" if everywhere else "user",
                    "Via": "1.1 google",  # without it discord.py suspects Cloudflare
                }
                if everywhere:
                    headers["X-RateLimit-Global"] = "true"
                return web.Response(
                    status=429,
                    body=json.dumps(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": retry_after,
                            "global": everywhere,
                        }
                    ).encode(),
                    headers=headers,
                )
        for i, (method, pattern, seconds) in enumerate(self.delays):
            if method == request.method and pattern.search(path):
                del self.delays[i]
                self.holding += 1
                try:
                    await asyncio.sleep(seconds)
                finally:
                    self.holding -= 1
                break
        for i, (method, pattern, status, code, message) in enumerate(self.failures):
            if method == request.method and pattern.search(path):
                del self.failures[i]
                callback = re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", path)
                if callback and callback[1] in self.interactions:  # the answer refused
                    self._no_answer(self.interactions[callback[1]])
                gone = re.search(r"/messages/(\d+)$", path)
                if code == 10008 and gone:  # Unknown Message: it was deleted just before
                    self.messages.pop(gone.group(1), None)
                return _error(status, code, message)
        for i, (method, pattern, after) in enumerate(self.hangs):
            if method == request.method and pattern.search(path):
                del self.hangs[i]
                if after:
                    await self._route(request.method, path, request.query, body, files)
                self.hung.set()
                self.holding += 1  # for good: the bot waits on it until the end
                await self._released.wait()  # until the server stops
                return _error(503, 0, "the fake Discord is stopping")
        return await self._route(request.method, path, request.query, body, files)

    async def _route(
        self,
        method: str,
        path: str,
        query: Any,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
    ) -> web.Response:
        if method == "GET" and path == "/users/@me":
            return _json(self.bot_user)
        if method == "GET" and path == "/gateway/bot":
            return _json(
                {
                    "url": f"ws://127.0.0.1:{self.port}/gateway",
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if method == "GET" and path == "/gateway":
            return _json({"url": f"ws://127.0.0.1:{self.port}/gateway"})
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APPLICATION_ID),
                    "name": "Yahtzee",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "flags": 0,
                    "description": "",
                    "icon": None,
                    "verify_key": "0",
                    "owner": self.bot_user,
                    "team": None,
                }
            )
        if match := re.fullmatch(r"/applications/(\d+)(/guilds/(\d+))?/commands", path):
            if method == "PUT":
                if error := validate_commands(body):  # type: ignore[arg-type]
                    return _error(400, 50035, f"Invalid Form Body: {error}")
                if error := self._contexts_error(body):  # type: ignore[arg-type]
                    return _error(400, 50035, f"Invalid Form Body: {error}")
                self.commands = [
                    dict(c, id=snowflake(), application_id=str(APPLICATION_ID), version="1")
                    for c in body
                ]  # type: ignore[arg-type]
                return _json(self.commands)
            return _json(self.commands)
        if re.fullmatch(r"/applications/(\d+)/emojis", path):
            return self._app_emojis(method, body)
        if match := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            return self._callback(match.group(1), match.group(2), query, body, files)
        if (match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)(/.*)?", path)) and self._expired(
            match.group(2)
        ):
            return _error(401, 50027, "Invalid Webhook Token")
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)/messages/@original", path):
            record = self.by_token.get(match.group(2))
            if record is None or record.original_message_id is None:
                return _error(404, 10008, "Unknown Message")
            if method == "PATCH":
                was = self.messages[record.original_message_id].get("flags")
                error = validate_message(body, self.emoji_ids, was_flags=int(was or 0))
                if error:
                    return _error(400, 50035, error)
                return _json(self._edit(record.original_message_id, body, files))
            if method == "DELETE":
                self.messages.pop(record.original_message_id, None)
                return web.Response(status=204)
            return _json(self.messages[record.original_message_id])
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)/messages/(\d+)", path):
            return self._webhook_message(method, match.group(2), match.group(3), body, files)
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path):
            record = self.by_token.get(match.group(2))
            if record is None:
                return _error(404, 10015, "Unknown Webhook")
            if not record.responded.is_set():
                return _error(404, 10015, "Unknown Webhook")  # a follow-up needs a response first
            if set(record.owners) == {str(USER_INSTALL)} and len(record.followups) >= MAX_FOLLOWUPS:
                return _error(
                    400, 40094, "This interaction has hit the maximum number of follow up messages"
                )
            error = validate_message(body, self.emoji_ids)
            if error:
                return _error(400, 50035, error)
            if record.private_only:
                body = dict(body, flags=int(body.get("flags") or 0) | EPHEMERAL)
            message = self._create(record.channel_id, body, files, ephemeral_ok=True)
            message["interaction_metadata"] = self._metadata(record)
            if record.original_message_id is not None:
                message["interaction_metadata"]["original_response_message_id"] = (
                    record.original_message_id
                )
            record.followups.append(message)
            return _json(message)
        if match := re.match(r"/channels/(\d+)", path):
            refusal = self._channel_refusal(method, path, match.group(1))
            if refusal is not None:
                return refusal
        if (match := re.match(r"/guilds/(\d+)", path)) and match.group(1) in self.foreign_guilds:
            return _error(403, 50001, "Missing Access")  # a server the bot is not in
        if path == "/users/@me/channels" and method == "POST":
            return self._open_dm(body)
        if (
            (match := re.fullmatch(r"/channels/(\d+)/messages", path))
            and method == "POST"
            and (match.group(1) in self.dm_channels.values())
        ):
            return self._send_dm(match.group(1), body, files)
        if (match := re.fullmatch(r"/channels/(\d+)/messages", path)) and method == "POST":
            if not self._may_post(match.group(1), body, files):
                return _error(403, 50013, "Missing Permissions")
            error = validate_message(body, self.emoji_ids)
            if error:
                return _error(400, 50035, error)
            if self.archived(match.group(1)):  # a post in an unlocked thread unarchives it
                self._channel_payload(match.group(1))["thread_metadata"]["archived"] = False
            nonce = body.get("nonce")
            if nonce and body.get("enforce_nonce"):
                if len(str(nonce)) > 25:
                    return _error(400, 50035, "nonce: at most 25 characters")
                known = self.nonces.get(str(nonce))
                if known in self.messages:  # Discord returns the message made with this nonce
                    return _json(self.messages[known])
            message = self._create(match.group(1), body, files)
            if nonce and body.get("enforce_nonce"):
                self.nonces[str(nonce)] = message["id"]
            return _json(message)
        if (
            match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path)
        ) and method == "POST":
            parent = self._channel_payload(match.group(1))
            if not self.bot_permissions(match.group(1)) & CREATE_PUBLIC_THREADS:
                return _error(403, 50013, "Missing Permissions")
            if parent.get("type") == 11:
                return _error(400, 50024, "Cannot execute action on this channel type")
            if match.group(2) not in self.messages:
                return _error(404, 10008, "Unknown Message")
            if not 1 <= len(body.get("name") or "") <= 100:  # Discord's limit, not cut for you
                return _error(400, 50035, "Invalid Form Body")
            thread = {
                "id": match.group(2),  # a thread started from a message takes the message's id
                "type": 11,
                "name": body["name"],
                "guild_id": parent["guild_id"],
                "parent_id": match.group(1),
                "owner_id": str(BOT_USER_ID),
                "member_count": 1,
                "message_count": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": now_iso(),
                    "locked": False,
                },
            }
            self.channels.append(thread)
            self.order.setdefault(thread["id"], [])
            return _json(thread)
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            message_id = match.group(2)
            if message_id not in self.messages or self._ephemeral(message_id):
                return _error(404, 10008, "Unknown Message")
            if method in ("PATCH", "DELETE") and self.archived(match.group(1)):
                return _error(400, 50083, "Thread is archived")
            if method == "PATCH":
                was = int(self.messages[message_id].get("flags") or 0)
                error = validate_message(body, self.emoji_ids, was_flags=was)
                if error:
                    return _error(400, 50035, error)
                return _json(self._edit(message_id, body, files))
            if method == "DELETE":
                del self.messages[message_id]
                return web.Response(status=204)
            return _json(self.messages[message_id])
        if match := re.fullmatch(r"/channels/(\d+)", path):
            channel = self._channel_payload(match.group(1))
            if method == "PATCH" and "thread_metadata" in channel:
                error = self._thread_edit_error(channel, body)
                if error is not None:
                    return error
                metadata = channel["thread_metadata"]
                for key in ("archived", "locked", "auto_archive_duration"):
                    if body.get(key) is not None:
                        metadata[key] = body[key]
                if "archived" in body:
                    metadata["archive_timestamp"] = now_iso()
                if body.get("name") is not None:
                    channel["name"] = body["name"]
            return _json(channel)
        return _error(404, 0, f"the fake Discord has no route {method} {path}")

    def _contexts_error(self, commands: list[dict[str, Any]]) -> str | None:
        """A command's ``contexts`` are interaction context types (0 to 2) and its
        ``integration_types`` installation contexts the app supports ("Application
        Commands": Installation Context: "as long as any included contexts are already
        supported on the application-level", set in the Developer Portal)."""
        for i, command in enumerate(commands):
            contexts = command.get("contexts")
            if contexts is not None and not set(contexts) <= {0, 1, 2}:
                return f"[{i}].contexts: {contexts} are not interaction context types"
            types = command.get("integration_types")
            if types is not None and not set(types) <= self.installation_contexts:
                return (
                    f"[{i}].integration_types: {types}, but the app supports "
                    f"{sorted(self.installation_contexts)}"
                )
        return None

    def _channel_refusal(self, method: str, path: str, channel_id: str) -> web.Response | None:
        """The channel routes where the bot is not in the channel (a group DM, other people's
        DM, a server that never added it) answer 403 50001 Missing Access; in its own DM
        there are no threads (400 50024)."""
        place = self.place(channel_id)
        if not place.bot_member:
            return _error(403, 50001, "Missing Access")
        if place.kind == "bot_dm" and method == "POST" and path.endswith("/threads"):
            return _error(400, 50024, "Cannot execute action on this channel type")
        return None

    def _webhook_message(
        self, method: str, token: str, message_id: str, body: Any, files: list[tuple[str, bytes]]
    ) -> web.Response:
        """Get, edit or delete a message an interaction's token made (its response or a
        follow-up): "Edit Followup Message" in "Receiving and Responding"."""
        record = self.by_token.get(token)
        if record is None:
            return _error(404, 10015, "Unknown Webhook")
        ours = {record.original_message_id} | {m["id"] for m in record.followups}
        if message_id not in ours or message_id not in self.messages:
            return _error(404, 10008, "Unknown Message")
        if method == "PATCH":
            was = int(self.messages[message_id].get("flags") or 0)
            error = validate_message(body, self.emoji_ids, was_flags=was)
            if error:
                return _error(400, 50035, error)
            return _json(self._edit(message_id, body, files))
        if method == "DELETE":
            del self.messages[message_id]
            return web.Response(status=204)
        return _json(self.messages[message_id])

    def _thread_edit_error(self, thread: dict[str, Any], body: Any) -> web.Response | None:
        """Modify Channel on a thread, checked as Discord does: only the keys of
        UpdateThreadRequestPartial, of their types; archiving or locking needs Manage
        Threads unless the thread is the bot's own; unarchiving an unlocked thread needs
        Send Messages (in threads)."""
        if not isinstance(body, dict) or not body:
            return _error(400, 50035, "Invalid Form Body")
        unknown = set(body) - THREAD_EDIT_KEYS
        if unknown:
            return _error(400, 50035, f"Invalid Form Body: {sorted(unknown)}")
        for key in ("archived", "locked", "invitable"):
            if key in body and not isinstance(body[key], (bool, type(None))):
                return _error(400, 50035, f"Invalid Form Body: {key} must be a boolean")
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
            return _error(400, 50035, "Invalid Form Body: auto_archive_duration")
        name = body.get("name")
        if name is not None and not (isinstance(name, str) and 1 <= len(name) <= 100):
            return _error(400, 50035, "Invalid Form Body: name")
        allowed = self.bot_permissions(thread["id"])
        own = thread.get("owner_id") == str(BOT_USER_ID)
        metadata = thread["thread_metadata"]
        if body.get("archived") is False and not (body.get("locked") or metadata.get("locked")):
            needed = SEND_MESSAGES_IN_THREADS
        elif own and not body.get("locked"):
            needed = 0
        else:
            needed = MANAGE_THREADS
        if allowed & needed != needed:
            return _error(403, 50013, "Missing Permissions")
        return None

    def _expired(self, token: str) -> bool:
        """Whether an interaction's token is too old to use (Discord: 15 minutes)."""
        record = self.by_token.get(token)
        return record is not None and self.now() - record.issued > TOKEN_LIFETIME

    def _ephemeral(self, message_id: str) -> bool:
        """Whether a message is ephemeral: only its interaction's token reaches it."""
        return bool(int(self.messages[message_id].get("flags") or 0) & EPHEMERAL)

    def _may_post(self, channel_id: str, body: dict[str, Any], files: list[Any]) -> bool:
        allowed = self.bot_permissions(channel_id)
        is_thread = self._channel_payload(channel_id).get("type") == 11
        needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if is_thread else SEND_MESSAGES)
        needed |= (EMBED_LINKS if body.get("embeds") else 0) | (ATTACH_FILES if files else 0)
        return allowed & needed == needed

    def _open_dm(self, body: Any) -> web.Response:
        """Create DM: the DM channel with a user (the same one every time)."""
        user_id = str((body or {}).get("recipient_id") or "")
        user = next((u for u in self.users.values() if u["id"] == user_id), None)
        if user is None:
            return _error(400, 50035, "Invalid Form Body: recipient_id")
        channel_id = self.dm_channels.setdefault(user_id, snowflake())
        return _json({"id": channel_id, "type": 1, "last_message_id": None, "recipients": [user]})

    def _send_dm(
        self, channel_id: str, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> web.Response:
        """A message in a DM channel; 50007 if the user allows no DMs from the server."""
        user_id = next(u for u, c in self.dm_channels.items() if c == channel_id)
        if user_id in self.closed_dms:
            return _error(403, 50007, "Cannot send messages to this user")
        error = validate_message(body, self.emoji_ids)
        if error:
            return _error(400, 50035, error)
        message = self._create(channel_id, body, files)  # in the channel too (``last``)
        self.dms.setdefault(user_id, []).append(message)
        return _json(message)

    @property
    def emoji_ids(self) -> set[str]:
        return set(self.app_emojis)

    def _app_emojis(self, method: str, body: Any) -> web.Response:
        """List Application Emojis (``{"items": [...]}``) and Create Application Emoji, as
        Discord documents them: a name of 2 to 32 letters, digits or underscores, unique
        in the application; a PNG/JPEG/GIF/WebP/AVIF data URI of at most 256 KiB."""
        if self.emoji_refusal is not None:
            return _error(403, self.emoji_refusal, "Missing Access")
        if method == "GET":
            return _json({"items": list(self.app_emojis.values())})
        if method != "POST":
            return _error(405, 0, "405: Method Not Allowed")
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            return _error(400, 50035, "Invalid Form Body: name")
        if any(e["name"] == name for e in self.app_emojis.values()):
            return _error(400, 50035, "Invalid Form Body: APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
        image = _data_uri_bytes(body.get("image"))
        if image is None:
            return _error(400, 50035, "Invalid Form Body: image must be an image data URI")
        if len(image) > 256 * 1024:
            return _error(400, 50045, "File cannot be larger than 256.0 kb")
        emoji = {
            "id": snowflake(), "name": name, "roles": [], "user": self.bot_user,
            "require_colons": True, "managed": False, "animated": False, "available": True,
        }  # fmt: skip
        self.app_emojis[emoji["id"]] = emoji
        self.emoji_images[name] = image
        return _json(emoji, status=201)

    def _callback(
        self,
        interaction_id: str,
        token: str,
        query: Any,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
    ) -> web.Response:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            return _error(404, 10062, "Unknown interaction")
        record.callbacks += 1
        if record.responded.is_set():
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - record.created > self.answer_window:
            record.error = "answered too late"
            self._no_answer(record)
            return _error(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        was = None
        if kind == 7 and record.message_id in self.messages:
            was = int(self.messages[record.message_id].get("flags") or 0)
        error = validate_message(data, self.emoji_ids, was_flags=was, deferred=kind in (5, 6))
        if error:
            return _error(400, 50035, error)
        channel_id = record.channel_id
        message: dict[str, Any] | None = None
        if record.private_only and kind in (4, 5):
            data = dict(data, flags=int(data.get("flags") or 0) | EPHEMERAL)
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            message = self._create(channel_id, data, files, ephemeral_ok=True, interaction=record)
            record.original_message_id = message["id"]
        elif kind == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            placeholder = {"content": "", "flags": data.get("flags", 0)}
            message = self._create(
                channel_id, placeholder, [], ephemeral_ok=True, interaction=record
            )
            record.original_message_id = message["id"]
        elif kind == 7:  # UPDATE_MESSAGE
            if self.archived(channel_id):
                return _error(400, 50083, "Thread is archived")
            target = record.message_id
            if target is None or target not in self.messages:
                return _error(400, 50035, "UPDATE_MESSAGE needs a component's message")
            message = self._edit(target, data, files)
            record.original_message_id = target
        elif kind == 6:  # DEFERRED_UPDATE_MESSAGE
            record.original_message_id = record.message_id
        record.response_type = kind
        record.response = message
        record.answered = time.monotonic()
        record.responded.set()
        self._no_answer(record)
        if str(query.get("with_response", "")).lower() in ("1", "true"):
            return _json(
                {
                    "interaction": {
                        "id": record.id,
                        "type": 2 if record.kind == "command" else 3,
                        "response_message_id": record.original_message_id,
                        "response_message_loading": kind == 5,
                        "response_message_ephemeral": bool(
                            message and message.get("flags", 0) & EPHEMERAL
                        ),
                    },
                    "resource": {"type": kind, "message": message} if message else {"type": kind},
                }
            )
        return web.Response(status=204)

    def _no_answer(self, record: Interaction) -> None:
        """No (other) answer to ``record`` can come: it is no longer in flight."""
        record.ended.set()
        self._unanswered.pop(record.id, None)

    def _attachments(
        self, body: dict[str, Any], files: list[tuple[str, bytes]], keep: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        listed = body.get("attachments")
        if listed is None:
            out = list(keep)
        else:
            existing = {a["id"]: a for a in keep}
            for item in listed:
                if str(item.get("id")) in existing:
                    out.append(existing[str(item["id"])])
        for name, data in files:
            attachment_id = snowflake()
            self.files[attachment_id] = data
            out.append(
                {
                    "id": attachment_id,
                    "filename": name,
                    "size": len(data),
                    "url": f"https://cdn.fake/attachments/{attachment_id}/{name}",
                    "proxy_url": f"https://media.fake/attachments/{attachment_id}/{name}",
                    "content_type": "image/png"
                    if name.endswith(".png")
                    else "application/octet-stream",
                }
            )
        return out

    def _create(
        self,
        channel_id: str,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        ephemeral_ok: bool = False,
        interaction: Interaction | None = None,
    ) -> dict[str, Any]:
        flags = int(body.get("flags") or 0)
        message = {
            "id": snowflake(),
            "channel_id": channel_id,
            "author": self.bot_user,
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": self._attachments(body, files, []),
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [{"id": uid} for uid in pinged(body)],
            "mention_roles": [],
            "pinned": False,
            "type": 20 if interaction is not None else 0,
            "flags": flags if ephemeral_ok else flags & ~EPHEMERAL,
        }
        if (guild_id := self.place(channel_id).guild_id) is not None:
            message["guild_id"] = guild_id
        if interaction is not None:
            message["webhook_id"] = str(APPLICATION_ID)
            message["interaction_metadata"] = self._metadata(interaction)
        self._check_pictures(message)
        self._note_description(message)
        self.messages[message["id"]] = message
        self.pings += [(channel_id, message["id"], m["id"]) for m in message["mentions"]]
        if not message["flags"] & EPHEMERAL:
            self.order.setdefault(channel_id, []).append(message["id"])
            self.posted_at[message["id"]] = time.monotonic()
            waiter = self._posts.pop(channel_id, None)
            if waiter is not None:
                waiter.set()
        return message

    def _metadata(self, record: Interaction) -> dict[str, Any]:
        """A message's ``interaction_metadata`` ("Message": Message Interaction Metadata): who
        used the interaction that made it, and through which installations."""
        return {
            "id": record.id,
            "type": 2 if record.kind == "command" else 3,
            "user": record.user,
            "authorizing_integration_owners": dict(record.owners),
        }

    def _edit(
        self, message_id: str, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body:
            # An edit sets or unsets SUPPRESS_EMBEDS and may add IS_COMPONENTS_V2 (never take
            # it away: validate_message refuses that); every other flag is the message's
            # own, EPHEMERAL first: an edit never makes a private message public, nor the
            # other way round.
            was, asked = int(message.get("flags") or 0), int(body["flags"] or 0)
            editable = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
            message["flags"] = (was & ~SUPPRESS_EMBEDS) | (asked & editable)
        if (
            body.get("embeds")
            and message["attachments"]
            and "attachments" not in body
            and not files
        ):
            self.mistakes.append(f"message {message_id}: embeds edited without attachments=")
        if "attachments" in body or files:
            message["attachments"] = self._attachments(body, files, message["attachments"])
        message["edited_timestamp"] = now_iso()
        self._check_pictures(message)
        self._note_description(message)
        return message

    def _note_description(self, message: dict[str, Any]) -> None:
        for embed in message["embeds"][:1]:
            self.descriptions.setdefault(message["id"], []).append(embed.get("description") or "")

    def _check_pictures(self, message: dict[str, Any]) -> None:
        names = {a["filename"] for a in message["attachments"]}
        for embed in message["embeds"]:
            url = (embed.get("image") or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                self.mistakes.append(f"message {message['id']}: its embed shows a missing {url}")


def pinged(body: dict[str, Any]) -> list[str]:
    """The users a new message notifies: those it mentions that ``allowed_mentions``
    lets through (all of them when it is absent, as in Discord)."""
    mentioned = re.findall(r"<@!?(\d+)>", body.get("content") or "")
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return list(dict.fromkeys(mentioned))
    users = {str(u) for u in allowed.get("users") or []}
    return [uid for uid in dict.fromkeys(mentioned) if uid in users]


def _data_uri_bytes(image: Any) -> bytes | None:
    """The bytes of a ``data:image/png;base64,...`` URI, or None if it is not one."""
    if not isinstance(image, str):
        return None
    match = re.fullmatch(r"data:image/(png|jpeg|gif|webp|avif);base64,([A-Za-z0-9+/=]+)", image)
    if match is None:
        return None
    try:
        return base64.b64decode(match.group(2), validate=True)
    except ValueError:
        return None


def text_of(message: dict[str, Any]) -> str:
    """What a message says, as a reader sees it: its content, its embeds' titles,
    descriptions and fields, and (a Components V2 message) its text displays, in order."""
    out = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields") or []]

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == 10:
                out.append(component.get("content") or "")
            walk(component.get("components") or [])

    walk(message.get("components") or [])
    return "\n".join(part for part in out if part)


def gallery_urls(message: dict[str, Any]) -> list[str]:
    """The pictures a Components V2 message's media galleries show."""
    urls: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            urls.extend(i["media"]["url"] for i in component.get("items") or [])
            walk(component.get("components") or [])

    walk(message.get("components") or [])
    return urls


def controls_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button and select a message shows, in order: in its action rows, or at any
    depth of a Components V2 layout (containers, sections' accessories)."""
    out: list[dict[str, Any]] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            for candidate in (component, component.get("accessory") or {}):
                if candidate.get("custom_id") is not None:
                    out.append(candidate)
            walk(component.get("components") or [])

    walk(message.get("components") or [])
    return out


def shown_label(component: dict[str, Any]) -> str:
    """What a button says: its label, or for a die drawn as an emoji (``yz1_die3``) its
    face ("3"), as a player reads it."""
    label = str(component.get("label") or "")
    emoji = component.get("emoji") or {}
    face = re.match(r"yz\d+_die(\d)", emoji.get("name") or "")
    if not label and emoji.get("id") and face:
        return face.group(1)
    return label


def find_component(message: dict[str, Any], label_or_id: str) -> dict[str, Any] | None:
    """A button by custom_id or by the start of what it says (``shown_label``), in action
    rows, or at any depth of a Components V2 layout (containers, sections' accessories)."""

    def search(components: list[dict[str, Any]]) -> dict[str, Any] | None:
        for component in components:
            for candidate in (component, component.get("accessory") or {}):
                if not candidate:
                    continue
                if candidate.get("custom_id") == label_or_id:
                    return candidate
                if candidate.get("type") == 2 and shown_label(candidate).startswith(label_or_id):
                    return candidate
            found = search(component.get("components") or [])
            if found is not None:
                return found
        return None

    return search(message.get("components") or [])


def _emoji_error(emoji: Any, known: set[str] | None) -> str | None:
    """A component's emoji: a Unicode one by name, or a custom one by an id the bot may use
    (here: its application's emojis)."""
    if not isinstance(emoji, dict) or not (emoji.get("id") or emoji.get("name")):
        return "components: an emoji is an object with an id or a name"
    if emoji.get("id") is not None:
        if not str(emoji["id"]).isdigit():
            return "components: an emoji id is a snowflake"
        if known is not None and str(emoji["id"]) not in known:
            return f"Invalid emoji: {emoji['id']} is not an emoji this bot can use"
    return None


#: Message flag: the message is laid out with Components V2 (no content, no embeds).
IS_COMPONENTS_V2 = 1 << 15
#: V2 layout components: section, text display, thumbnail, media gallery, file, separator,
#: container (an action row, type 1, may stand in a layout too).
LAYOUT_TYPES = {9, 10, 11, 12, 13, 14, 17}


#: The locales Discord accepts in ``name_localizations`` and ``description_localizations``.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
#: A command's, option's name: 1 to 32 letters, digits, "-", "_" or "'", lower case.
COMMAND_NAME = re.compile(r"[-_'\w]{1,32}")


def validate_commands(commands: list[dict[str, Any]]) -> str | None:
    """Discord's checks of a published command list, as an error or None: names of 1 to 32
    lower-case letters, digits, "-" or "_" (in every localization too), descriptions and
    choice names of at most 100 characters, localizations only for Discord's locales, and
    no two options of one command with the same name in any language."""

    def check(item: dict[str, Any], path: str, is_choice: bool = False) -> str | None:
        names = {None: item.get("name")} | dict(item.get("name_localizations") or {})
        for locale, name in names.items():
            if locale is not None and locale not in DISCORD_LOCALES:
                return f"{path}.name_localizations: {locale!r} is not a locale"
            if not isinstance(name, str):
                return f"{path}.name: missing"
            if is_choice:
                if not 1 <= len(name) <= 100:
                    return f"{path}.name ({locale}): 1 to 100 characters"
            elif not COMMAND_NAME.fullmatch(name) or name != name.lower():
                return f"{path}.name ({locale}): {name!r} is not a valid command name"
        descriptions = {None: item.get("description")} | dict(
            item.get("description_localizations") or {}
        )
        for locale, text in descriptions.items():
            if locale is not None and locale not in DISCORD_LOCALES:
                return f"{path}.description_localizations: {locale!r} is not a locale"
            if text is not None and len(text) > 100:
                return f"{path}.description ({locale}): at most 100 characters"
        for key in ("options", "choices"):
            children = item.get(key) or []
            for locale in {None} | DISCORD_LOCALES:
                seen = [
                    (c.get("name_localizations") or {}).get(locale, c.get("name"))
                    if locale
                    else c.get("name")
                    for c in children
                ]
                if key == "options" and len(seen) != len(set(seen)):
                    return f"{path}.options: two share a name in {locale or 'the default'}"
            for i, child in enumerate(children):
                if error := check(child, f"{path}.{key}[{i}]", key == "choices"):
                    return error
        return None

    for i, command in enumerate(commands):
        if error := check(command, f"[{i}]"):
            return error
    return None


def validate_message(
    body: dict[str, Any],
    known_emojis: set[str] | None = None,
    was_flags: int | None = None,
    deferred: bool = False,
) -> str | None:
    """Discord's limits on a message's components, as an error message, or None. With
    ``known_emojis``, a custom emoji on a button or an option must be one of them.

    A Components V2 message (flag ``IS_COMPONENTS_V2``) carries no content and no embeds, at
    most 40 components counted through every level, and keeps the flag for good: an edit
    (``was_flags``: the message's flags before it) cannot take it away. A deferred answer
    (``deferred``) cannot carry it. Without the flag, only action rows, at most five."""
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if deferred and v2:
        return "flags: a deferred response cannot set IS_COMPONENTS_V2"
    if was_flags is not None and was_flags & IS_COMPONENTS_V2:
        if "flags" in body and not v2:
            return "flags: IS_COMPONENTS_V2 cannot be removed from a message"
        v2 = True  # an edit of a V2 message is V2, whether it says the flag again or not
    rows = body.get("components")
    if v2:
        if body.get("content") or body.get("embeds"):
            return "content and embeds cannot be sent with IS_COMPONENTS_V2"
        return _layout_error(rows or [], known_emojis)
    if not rows:
        return None
    if len(rows) > 5:
        return "components: a message has at most 5 action rows"
    for row in rows:
        if row.get("type") != 1:
            return "components: top-level components must be action rows"
        if error := _row_error(row, known_emojis):
            return error
    return None


def _count(components: list[dict[str, Any]]) -> int:
    """Components at every level (a container's, a section's and its accessory, a row's)."""
    total = 0
    for component in components:
        total += 1 + _count(component.get("components") or [])
        if component.get("accessory"):
            total += 1
    return total


def _layout_error(components: list[dict[str, Any]], known: set[str] | None) -> str | None:
    if not components:
        return "components: a V2 message needs at least one component"
    if _count(components) > 40:
        return "components: a V2 message holds at most 40 components in all"
    for component in components:
        kind = component.get("type")
        if kind == 1:
            if error := _row_error(component, known):
                return error
        elif kind == 17:  # container: rows, texts, sections, galleries, files, separators
            inner = component.get("components") or []
            if any(c.get("type") == 17 for c in inner):
                return "components: a container cannot hold a container"
            if error := _layout_error(inner, known):
                return error
        elif kind == 10:
            if not 1 <= len(component.get("content") or "") <= 4000:
                return "components: a text display holds 1 to 4000 characters"
        elif kind == 12:
            items = component.get("items") or []
            if not 1 <= len(items) <= 10:
                return "components: a media gallery holds 1 to 10 items"
            if any(not (i.get("media") or {}).get("url") for i in items):
                return "components: a media gallery item needs a media url"
        elif kind == 9:
            texts = component.get("components") or []
            if not 1 <= len(texts) <= 3 or any(t.get("type") != 10 for t in texts):
                return "components: a section holds 1 to 3 text displays"
            if not component.get("accessory"):
                return "components: a section needs an accessory"
        elif kind not in LAYOUT_TYPES:
            return f"components: type {kind} cannot be laid out in a V2 message"
    return None


def _row_error(row: dict[str, Any], known_emojis: set[str] | None) -> str | None:
    """An action row's limits, as an error message, or None."""
    children = row.get("components", [])
    if not 1 <= len(children) <= 5:
        return "components: an action row holds 1 to 5 components"
    selects = [c for c in children if c["type"] in (3, 5, 6, 7, 8)]
    if selects and len(children) > 1:
        return "components: a select menu must be alone in its row"
    for child in children:
        custom_id = child.get("custom_id")
        if custom_id is not None and not 1 <= len(custom_id) <= 100:
            return "components: custom_id must be 1 to 100 characters"
        if len(child.get("label") or "") > 80:
            return "components: a label is at most 80 characters"
        unlabelled = child["type"] == 2 and not child.get("label") and "emoji" not in child
        if unlabelled and child.get("style") not in (5, 6):  # link, premium
            return "components: a button needs a label or an emoji"
        if "emoji" in child and (error := _emoji_error(child["emoji"], known_emojis)):
            return error
        if child["type"] == 3:
            options = child.get("options", [])
            if not 1 <= len(options) <= 25:
                return "components: a select has 1 to 25 options"
            for option in options:
                if not 1 <= len(option.get("label", "")) <= 100:
                    return "components: an option label is 1 to 100 characters"
                if "emoji" in option and (error := _emoji_error(option["emoji"], known_emojis)):
                    return error
    return None
