"""The fake answers like Discord where a bot could get it wrong (so the other tests can fail)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from .fake_discord import FakeDiscord, validate_message


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
