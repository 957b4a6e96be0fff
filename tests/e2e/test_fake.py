"""The fake answers like Discord where a bot could get it wrong (so the other tests can fail)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from .fake_discord import (
    APPLICATION_ID,
    GUILD_ID,
    USE_EXTERNAL_APPS,
    FakeDiscord,
    NotOffered,
    snowflake,
    validate_message,
)


async def post(fake: FakeDiscord, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            fake.api_base + path,
            data=json.dumps(body),
            headers={"Content-Type": "application/json"},
        ) as r,
    ):
        return r.status, (await r.json() if r.content_type == "application/json" else {})


async def interaction(fake: FakeDiscord) -> tuple[str, str]:
    ann = fake.user("Ann")
    record = await fake._send_interaction(ann, fake.channel("general"), 2, {"name": "x"}, None)
    return record.id, record.token


async def test_a_second_response_is_refused_with_40060(fake: FakeDiscord) -> None:
    """Answering an interaction twice is an error, as on Discord."""
    iid, token = await interaction(fake)
    message = {"type": 4, "data": {"content": "hi"}}
    assert (await post(fake, f"/interactions/{iid}/{token}/callback", message))[0] == 204
    status, body = await post(fake, f"/interactions/{iid}/{token}/callback", message)
    assert (status, body["code"]) == (400, 40060)


async def test_an_answer_after_three_seconds_is_refused_with_10062(fake: FakeDiscord) -> None:
    """A late answer finds an unknown interaction."""
    fake.answer_window = 0.05
    iid, token = await interaction(fake)
    await asyncio.sleep(0.1)
    status, body = await post(
        fake, f"/interactions/{iid}/{token}/callback", {"type": 4, "data": {"content": "x"}}
    )
    assert (status, body["code"]) == (404, 10062)


def button(custom_id: str, label: str = "x") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def test_component_limits() -> None:
    """Rows, buttons per row, lone selects, option counts and custom_id length are checked."""
    row = {"type": 1, "components": [button("a")]}
    assert validate_message({"components": [row] * 5}) is None
    assert "5 action rows" in (validate_message({"components": [row] * 6}) or "")
    six = {"type": 1, "components": [button(str(i)) for i in range(6)]}
    assert "1 to 5" in (validate_message({"components": [six]}) or "")
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
    }
    assert "1 to 25 options" in (
        validate_message({"components": [{"type": 1, "components": [select]}]}) or ""
    )
    crowded = {"type": 1, "components": [dict(select, options=select["options"][:3]), button("b")]}
    assert "alone in its row" in (validate_message({"components": [crowded]}) or "")
    long_id = {"type": 1, "components": [button("x" * 101)]}
    assert "custom_id" in (validate_message({"components": [long_id]}) or "")


def test_components_v2_limits() -> None:
    """A V2 message (flag 1 << 15) as Discord checks it: no content or embeds beside it, at
    most 40 components counted through containers and rows, the flag never removed by an
    edit (and an edit of a V2 message is V2 without saying so again), no flag on a
    deferred answer; a message without the flag may not use layout components."""
    v2 = 1 << 15
    text = {"type": 10, "content": "hello"}
    row = {"type": 1, "components": [button("a")]}
    layout = {"flags": v2, "components": [{"type": 17, "components": [text, row]}]}
    assert validate_message(layout) is None
    assert "content and embeds" in (validate_message(dict(layout, content="hi")) or "")
    assert "content and embeds" in (validate_message(dict(layout, embeds=[{"title": "t"}])) or "")
    big = {"flags": v2, "components": [{"type": 17, "components": [text] * 40}]}  # 41 in all
    assert "at most 40" in (validate_message(big) or "")
    assert validate_message(dict(big, components=[{"type": 17, "components": [text] * 39}])) is None
    assert "cannot be removed" in (
        validate_message({"flags": 0, "content": "x"}, was_flags=v2) or ""
    )
    assert "content and embeds" in (validate_message({"content": "x"}, was_flags=v2) or "")
    assert "deferred" in (validate_message({"flags": v2 | 64}, deferred=True) or "")
    assert "action rows" in (validate_message({"components": [text]}) or "")
    nested = {"flags": v2, "components": [{"type": 17, "components": [{"type": 17}]}]}
    assert "container cannot hold a container" in (validate_message(nested) or "")


async def test_rate_limit_answers_429_once(fake: FakeDiscord) -> None:
    """A requested rate limit answers 429 with retry_after, then lets the retry through."""
    fake.rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.25)
    channel = fake.channel("general")
    status, body = await post(fake, f"/channels/{channel}/messages", {"content": "a"})
    assert (status, body["retry_after"]) == (429, 0.25)
    assert (await post(fake, f"/channels/{channel}/messages", {"content": "a"}))[0] == 200


async def patch(fake: FakeDiscord, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as session,
        session.patch(
            fake.api_base + path,
            data=json.dumps(body),
            headers={"Content-Type": "application/json"},
        ) as r,
    ):
        return r.status, (await r.json() if r.content_type == "application/json" else {})


async def test_an_ephemeral_message_is_reached_only_through_its_token(fake: FakeDiscord) -> None:
    """The channel routes do not know an ephemeral message (404 10008); its interaction's
    token edits it for 15 minutes, then answers 401 50027."""
    iid, token = await interaction(fake)
    answer = {"type": 4, "data": {"content": "only you", "flags": 64}}
    assert (await post(fake, f"/interactions/{iid}/{token}/callback", answer))[0] == 204
    message_id = fake.interactions[iid].original_message_id
    channel = fake.channel("general")
    status, body = await patch(fake, f"/channels/{channel}/messages/{message_id}", {"content": "x"})
    assert (status, body["code"]) == (404, 10008)
    original = f"/webhooks/1/{token}/messages/@original"
    assert (await patch(fake, original, {"content": "edited"}))[0] == 200
    assert fake.messages[str(message_id)]["content"] == "edited"
    fake.advance(14 * 60)
    assert (await patch(fake, original, {"content": "still"}))[0] == 200
    fake.advance(2 * 60)  # 16 minutes after the interaction
    status, body = await patch(fake, original, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)
    assert (await post(fake, f"/webhooks/1/{token}", {"content": "a follow-up"}))[0] == 401
    assert fake.messages[str(message_id)]["content"] == "still"


async def test_an_edit_keeps_a_messages_ephemeral_flag(fake: FakeDiscord) -> None:
    """Found by a play-through: the fake dropped EPHEMERAL when an edit sent ``flags``
    without it (a private board looked public after its last edit). Discord's edit sets or
    unsets only SUPPRESS_EMBEDS (and may add IS_COMPONENTS_V2): an ephemeral message stays
    ephemeral, a public one stays public."""
    iid, token = await interaction(fake)
    answer = {"type": 4, "data": {"content": "only you", "flags": 64}}
    assert (await post(fake, f"/interactions/{iid}/{token}/callback", answer))[0] == 204
    message_id = str(fake.interactions[iid].original_message_id)
    original = f"/webhooks/1/{token}/messages/@original"
    assert (await patch(fake, original, {"content": "edited", "flags": 0}))[0] == 200
    assert fake.messages[message_id]["flags"] == 64
    assert (await patch(fake, original, {"content": "quiet", "flags": 4}))[0] == 200
    assert fake.messages[message_id]["flags"] == 64 | 4  # SUPPRESS_EMBEDS is the edit's
    follow = await post(fake, f"/webhooks/1/{token}", {"content": "for all"})
    assert follow[0] == 200 and not follow[1]["flags"] & 64
    public = f"/webhooks/1/{token}/messages/{follow[1]['id']}"
    assert (await patch(fake, public, {"content": "still for all", "flags": 64}))[0] == 200
    assert fake.messages[follow[1]["id"]]["flags"] == 0


# -- places: what Discord sends and allows in each (expected values from Discord's docs) ------

PLAY = {"name": "play", "description": "a game", "type": 1}  # published per test


async def request(
    fake: FakeDiscord, method: str, path: str, body: Any = None
) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            fake.api_base + path,
            data=json.dumps(body) if body is not None else None,
            headers={"Content-Type": "application/json"},
        ) as r,
    ):
        return r.status, (await r.json() if r.content_type == "application/json" else {})


async def publish(fake: FakeDiscord, *commands: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return await request(fake, "PUT", f"/applications/{APPLICATION_ID}/commands", list(commands))


class Gateway:
    """A bare gateway connection, as a bot on shard ``shard`` of ``count`` has: what Discord
    sends it."""

    def __init__(self, fake: FakeDiscord, shard: int = 0, count: int = 1) -> None:
        self.fake, self.shard = fake, [shard, count]
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def __aenter__(self) -> Gateway:
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(f"ws://127.0.0.1:{self.fake.port}/gateway")
        await self.ws.receive_json()  # HELLO
        identify = {"token": "x", "intents": 0, "properties": {}, "shard": self.shard}
        await self.ws.send_json({"op": 2, "d": identify})
        self.reader = asyncio.create_task(self._read())
        await self.fake.wait_for(lambda: any(e == "READY" for e, _ in self.events))
        return self

    async def _read(self) -> None:
        async for message in self.ws:
            payload = json.loads(message.data)
            if payload.get("op") == 0:
                self.events.append((payload["t"], payload["d"]))

    async def __aexit__(self, *exc: object) -> None:
        self.reader.cancel()
        await self.ws.close()
        await self.session.close()

    def interactions(self) -> list[dict[str, Any]]:
        return [d for e, d in self.events if e == "INTERACTION_CREATE"]


async def used(fake: FakeDiscord, user: dict[str, Any], channel: str, name: str = "play") -> Any:
    """Send a slash command nobody answers (no bot here): its record."""
    return await fake.slash(user, channel, name, timeout=0.01, quiet=False)


async def test_each_place_sends_what_discord_sends_there(fake: FakeDiscord) -> None:
    """An interaction carries its place: ``context`` (0 server, 1 the bot's DM, 2 group DMs
    and other DMs), ``authorizing_integration_owners`` ("0": the server's id, "0" in the
    bot's DM; "1": the id of the user who installed the app), ``member`` in a server and
    ``user`` elsewhere, a ``channel`` of type 1 (DM) or 3 (group DM) and no ``guild_id`` in
    DMs, ``entitlements``, and ``app_permissions``: the bot's own in its server; 442368 in
    its DM (the tutorial's sample payload: Attach Files, Embed Links, Mention Everyone, Use
    External Emojis); 180224 in group DMs (the same but Use External Emojis); in a server
    without the bot, @everyone's among those four with Attach Files and Embed Links
    always: Embed Links and Attach Files here, 49152 ("Receiving and Responding", Interaction
    Structure; Change Log, "Calculated Permissions in Interaction Payloads")."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    server, dm = fake.channel("general"), fake.bot_dm(ann)
    group, foreign = fake.group_dm(ann, bob, name="Dice night"), fake.user_install_guild()
    async with Gateway(fake) as gateway:
        for channel in (server, dm, group, foreign):
            await used(fake, ann, channel)
        await fake.wait_for(lambda: len(gateway.interactions()) == 4)
    at_server, at_dm, at_group, at_foreign = gateway.interactions()
    bot_in_server = (
        (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 31) | (1 << 35) | (1 << 38)
    )
    assert at_server["context"] == 0
    assert at_server["authorizing_integration_owners"] == {"0": str(GUILD_ID), "1": ann["id"]}
    assert at_server["app_permissions"] == str(bot_in_server)
    assert at_server["member"]["user"]["id"] == ann["id"] and "user" not in at_server
    assert at_server["guild_id"] == str(GUILD_ID) and at_server["channel"]["type"] == 0

    assert at_dm["context"] == 1
    assert at_dm["authorizing_integration_owners"] == {"0": "0", "1": ann["id"]}
    assert at_dm["app_permissions"] == "442368"
    assert at_dm["user"]["id"] == ann["id"] and "member" not in at_dm
    assert "guild_id" not in at_dm and "guild_locale" not in at_dm
    assert at_dm["channel"]["type"] == 1 and at_dm["channel"]["id"] == dm

    assert at_group["context"] == 2
    assert at_group["authorizing_integration_owners"] == {"1": ann["id"]}
    assert at_group["app_permissions"] == "180224"
    assert at_group["user"]["id"] == ann["id"] and "member" not in at_group
    assert "guild_id" not in at_group and "guild_id" not in at_group["channel"]
    assert at_group["channel"]["type"] == 3 and at_group["channel"]["name"] == "Dice night"
    assert {u["id"] for u in at_group["channel"]["recipients"]} == {ann["id"], bob["id"]}

    assert at_foreign["context"] == 0
    assert at_foreign["authorizing_integration_owners"] == {"1": ann["id"]}
    assert at_foreign["app_permissions"] == "49152"
    assert at_foreign["member"]["user"]["id"] == ann["id"]
    assert at_foreign["guild_id"] == fake.guild_of(foreign) != str(GUILD_ID)
    for payload in (at_server, at_dm, at_group, at_foreign):
        assert payload["entitlements"] == []


async def test_a_click_carries_the_install_that_made_its_message(fake: FakeDiscord) -> None:
    """Bob, who never installed the app, clicks a button on the answer to Ann's command in
    their group DM: the click is authorized by Ann's install, ``{"1": Ann}``, and the
    message says so in its ``interaction_metadata`` ("Authorizing Integration Owners":
    "can be used to tell the difference between the authorizing user and the user that
    triggered an interaction (like a message component)")."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    group = fake.group_dm(ann, bob)
    record = await used(fake, ann, group)
    row = {"type": 1, "components": [button("join", "Join")]}
    answer = {"type": 4, "data": {"content": "a lobby", "components": [row]}}
    callback = f"/interactions/{record.id}/{record.token}/callback"
    assert (await post(fake, callback, answer))[0] == 204
    lobby = fake.last(group)
    assert lobby["interaction_metadata"]["authorizing_integration_owners"] == {"1": ann["id"]}
    assert lobby["interaction_metadata"]["user"]["id"] == ann["id"]
    assert "guild_id" not in lobby
    async with Gateway(fake) as gateway:
        await fake.click(bob, lobby, "Join", timeout=0.01)
        await fake.wait_for(lambda: gateway.interactions() != [])
    click = gateway.interactions()[0]
    assert click["user"]["id"] == bob["id"] and click["context"] == 2
    assert click["authorizing_integration_owners"] == {"1": ann["id"]}


async def test_commands_are_offered_only_where_their_contexts_allow(fake: FakeDiscord) -> None:
    """Discord's client offers a command where its ``contexts`` include the place, through
    an installation its ``integration_types`` allow: the bot's server install covers its
    servers and its DM, a user's own install every place, and PRIVATE_CHANNEL (group DMs)
    only through a user install ("Application Commands": Contexts). What is not offered
    cannot be sent: nothing reaches the bot."""
    await publish(
        fake,
        PLAY | {"name": "server-only", "contexts": [0], "integration_types": [0]},
        PLAY | {"name": "everywhere", "contexts": [0, 1, 2], "integration_types": [0, 1]},
        PLAY | {"name": "mine", "contexts": [0, 1, 2], "integration_types": [1]},
        PLAY | {"name": "dm-only", "contexts": [1], "integration_types": [0, 1]},
    )
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)  # Bob did not
    server, group, foreign = (
        fake.channel("general"),
        fake.group_dm(ann, bob),
        fake.user_install_guild(),
    )
    expected = {  # (command, user): offered in (server, own bot DM, group DM, foreign server)
        ("server-only", "Ann"): (True, False, False, False),
        ("server-only", "Bob"): (True, False, False, False),
        ("everywhere", "Ann"): (True, True, True, True),
        ("everywhere", "Bob"): (True, True, False, False),
        ("mine", "Ann"): (True, True, True, True),
        ("mine", "Bob"): (False, False, False, False),
        ("dm-only", "Ann"): (False, True, False, False),
        ("dm-only", "Bob"): (False, True, False, False),
    }
    for (name, who), offered in expected.items():
        user = fake.user(who)
        places = (server, fake.bot_dm(user), group, foreign)
        got = tuple(fake.offers(user, place, name) for place in places)
        assert got == offered, (name, who)
    sent = len(fake.interactions)
    with pytest.raises(NotOffered):
        await used(fake, bob, group, "everywhere")
    with pytest.raises(NotOffered):
        await used(fake, ann, group, "server-only")
    with pytest.raises(NotOffered):
        await used(fake, ann, server, "no-such-command")
    assert len(fake.interactions) == sent


async def test_publishing_what_the_app_does_not_support_is_refused(fake: FakeDiscord) -> None:
    """A command's ``integration_types`` must be installation contexts the app supports
    (turned on in the Developer Portal's Installation page), its ``contexts`` interaction
    context types 0 to 2: otherwise Invalid Form Body (50035)."""
    fake.installation_contexts = {0}  # User Install not turned on
    status, body = await publish(fake, PLAY | {"integration_types": [0, 1]})
    assert (status, body["code"]) == (400, 50035)
    status, body = await publish(fake, PLAY | {"contexts": [0, 3]})
    assert (status, body["code"]) == (400, 50035)
    assert (await publish(fake, PLAY | {"integration_types": [0], "contexts": [0, 1]}))[0] == 200


async def answered(fake: FakeDiscord, user: dict[str, Any], channel: str) -> Any:
    """``user`` uses /play in ``channel`` and the app answers with a message: the record."""
    record = await used(fake, user, channel)
    answer = {"type": 4, "data": {"content": "an answer"}}
    assert (await post(fake, f"/interactions/{record.id}/{record.token}/callback", answer))[
        0
    ] == 204
    return record


async def test_channel_routes_answer_missing_access_where_the_bot_is_not(fake: FakeDiscord) -> None:
    """Where the bot is not in the channel (a group DM, a DM between two users, a server
    that never added it), posting, editing, deleting, starting a thread and reading the
    channel answer 403 50001 Missing Access ("Opcodes and Status Codes"), even for the
    app's own answer there, which its interaction's token still edits; the foreign server's
    routes too."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    for channel in (fake.group_dm(ann, bob), fake.dm_between(ann, bob), fake.user_install_guild()):
        record = await answered(fake, ann, channel)
        mine = record.original_message_id
        for method, path, body in [
            ("POST", f"/channels/{channel}/messages", {"content": "hi"}),
            ("PATCH", f"/channels/{channel}/messages/{mine}", {"content": "edited"}),
            ("DELETE", f"/channels/{channel}/messages/{mine}", None),
            ("POST", f"/channels/{channel}/messages/{mine}/threads", {"name": "game"}),
            ("GET", f"/channels/{channel}", None),
        ]:
            status, answer = await request(fake, method, path, body)
            assert (status, answer.get("code")) == (403, 50001), (
                fake.place(channel).kind,
                method,
                path,
            )
        original = f"/webhooks/{APPLICATION_ID}/{record.token}/messages/@original"
        assert (await request(fake, "PATCH", original, {"content": "by token"}))[0] == 200
        assert fake.messages[str(mine)]["content"] == "by token"
    foreign_guild = fake.guild_of(fake.user_install_guild())
    status, answer = await request(fake, "GET", f"/guilds/{foreign_guild}/members")
    assert (status, answer["code"]) == (403, 50001)


async def test_the_bot_posts_in_its_own_dm_unless_the_user_refuses(fake: FakeDiscord) -> None:
    """The bot shares its DM with a user: it posts and edits there (no ``guild_id`` on the
    message), but a DM has no threads (400 50024 Cannot execute action on this channel
    type), and a user who takes no DMs from it answers 50007 Cannot send messages to this
    user ("Opcodes and Status Codes")."""
    ann = fake.user("Ann")
    dm = fake.bot_dm(ann)
    status, message = await post(fake, f"/channels/{dm}/messages", {"content": "your turn"})
    assert status == 200 and "guild_id" not in message
    assert fake.last(dm)["content"] == "your turn"
    status, _ = await patch(fake, f"/channels/{dm}/messages/{message['id']}", {"content": "done"})
    assert status == 200 and fake.last(dm)["content"] == "done"
    status, body = await post(
        fake, f"/channels/{dm}/messages/{message['id']}/threads", {"name": "x"}
    )
    assert (status, body["code"]) == (400, 50024)
    assert (await request(fake, "GET", f"/channels/{dm}"))[1]["type"] == 1
    fake.closed_dms.add(ann["id"])
    status, body = await post(fake, f"/channels/{dm}/messages", {"content": "again"})
    assert (status, body["code"]) == (403, 50007)


async def followups(fake: FakeDiscord, record: Any, count: int) -> list[tuple[int, Any]]:
    return [
        await post(fake, f"/webhooks/{APPLICATION_ID}/{record.token}", {"content": str(i)})
        for i in range(count)
    ]


async def test_a_sixth_follow_up_is_refused_where_only_a_user_install_authorizes(
    fake: FakeDiscord,
) -> None:
    """ "Apps are limited to 5 followup messages per interaction if it was initiated from a
    user-installed app and isn't installed in the server (meaning the authorizing
    integration owners object only contains USER_INSTALL)" ("Receiving and Responding",
    Create Followup Message): the sixth answers 40094. The bot's own server is unaffected
    (the Change Log, "User-Installed Apps General Availability")."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    for channel in (fake.group_dm(ann, bob), fake.user_install_guild()):
        record = await answered(fake, ann, channel)
        sent = await followups(fake, record, 6)
        assert [status for status, _ in sent[:5]] == [200] * 5
        assert (sent[5][0], sent[5][1]["code"]) == (400, 40094)
        assert len(record.followups) == 5
    record = await answered(fake, ann, fake.channel("general"))  # owners {"0": ..., "1": Ann}
    assert [status for status, _ in await followups(fake, record, 7)] == [200] * 7


async def test_a_token_used_after_fifteen_minutes_is_refused_everywhere(fake: FakeDiscord) -> None:
    """ "Interaction tokens are valid for 15 minutes" ("Receiving and Responding"): its
    follow-ups, their edits and the original's are refused after that (401 50027 Invalid
    Webhook Token), and a token reaches only its own messages (10008 for another's)."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    group = fake.group_dm(ann, bob)
    record, other = await answered(fake, ann, group), await answered(fake, ann, group)
    (status, followup), *_ = await followups(fake, record, 1)
    assert status == 200
    token = f"/webhooks/{APPLICATION_ID}/{record.token}"
    assert (await patch(fake, f"{token}/messages/{followup['id']}", {"content": "edit"}))[0] == 200
    assert fake.messages[followup["id"]]["content"] == "edit"
    status, body = await patch(
        fake, f"{token}/messages/{other.original_message_id}", {"content": "x"}
    )
    assert (status, body["code"]) == (404, 10008)
    fake.advance(15 * 60 + 1)
    for method, path, body in [
        ("PATCH", f"{token}/messages/{followup['id']}", {"content": "late"}),
        ("PATCH", f"{token}/messages/@original", {"content": "late"}),
        ("POST", token, {"content": "late"}),
        ("GET", f"{token}/messages/@original", None),
    ]:
        status, answer = await request(fake, method, path, body)
        assert (status, answer.get("code")) == (401, 50027), (method, path)
    assert fake.messages[followup["id"]]["content"] == "edit"


async def test_no_gateway_events_from_where_the_bot_is_not(fake: FakeDiscord) -> None:
    """A bot receives events of the places it is in; from a group DM or a server that never
    added it, only the interactions people send it. Events without a ``guild_id`` (DMs) go
    to shard 0 only ("Gateway", Sharding); a server's to ``(guild_id >> 22) % count``:
    GUILD_ID's is 1 of 2, worked out in test_shards."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    server, group, foreign = (
        fake.channel("general"),
        fake.group_dm(ann, bob),
        fake.user_install_guild(),
    )
    message = {"id": snowflake(), "content": "hi", "author": ann}
    async with Gateway(fake, 0, 2) as zero, Gateway(fake, 1, 2) as one:
        assert not await fake.dispatch("MESSAGE_CREATE", message | {"channel_id": group})
        foreign_guild = fake.guild_of(foreign)
        update = fake._channel_payload(foreign) | {"name": "renamed"}
        assert not await fake.dispatch("CHANNEL_UPDATE", update)
        assert not await fake.dispatch(
            "MESSAGE_CREATE", message | {"channel_id": foreign, "guild_id": foreign_guild}
        )
        assert await fake.dispatch(
            "MESSAGE_CREATE", message | {"channel_id": server, "guild_id": str(GUILD_ID)}
        )
        await used(fake, ann, fake.bot_dm(ann))
        await used(fake, ann, group)
        await fake.wait_for(lambda: len(zero.interactions()) == 2)
        await fake.settle()
    assert [e for e, _ in fake.withheld] == ["MESSAGE_CREATE", "CHANNEL_UPDATE", "MESSAGE_CREATE"]
    assert [e for e, _ in zero.events if e != "READY"] == ["INTERACTION_CREATE"] * 2
    assert [e for e, _ in one.events if e not in ("READY", "GUILD_CREATE")] == ["MESSAGE_CREATE"]


async def test_only_the_people_in_a_dm_click_there(fake: FakeDiscord) -> None:
    """Nobody outside a group DM (or the bot's DM with someone else) sees its messages, so
    nobody outside clicks or types there."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    fake.install(ann, cat)
    group = fake.group_dm(ann, bob)
    with pytest.raises(LookupError):
        await used(fake, cat, group, "x")
    with pytest.raises(LookupError):
        await used(fake, cat, fake.bot_dm(ann), "x")


async def test_without_use_external_apps_the_answers_are_private(fake: FakeDiscord) -> None:
    """ "If Use External Apps is disabled and your app is not installed to the server, your
    app's responses will be ephemeral for the end user" (Change Log, "User-Installed Apps
    General Availability"): Ann's answer and follow-ups show to her alone in a server without
    the bot; in the bot's own server the same denial changes nothing."""
    await publish(fake, PLAY | {"contexts": [0, 1, 2], "integration_types": [0, 1]})
    ann = fake.user("Ann")
    fake.install(ann)
    foreign, server = fake.user_install_guild(), fake.channel("general")
    for channel in (foreign, server):
        fake.deny_member(channel, ann, USE_EXTERNAL_APPS)
    record = await answered(fake, ann, foreign)
    (status, _), *_ = await followups(fake, record, 1)
    assert status == 200
    assert fake.channel_messages(foreign) == []
    assert record.ephemeral_text == "an answer\n0"
    allowed = fake.user_install_guild()
    await answered(fake, ann, allowed)
    assert [m["content"] for m in fake.channel_messages(allowed)] == ["an answer"]
    await answered(fake, ann, server)
    assert [m["content"] for m in fake.channel_messages(server)] == ["an answer"]
