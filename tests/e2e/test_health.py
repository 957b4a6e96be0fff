"""What an operator watches: /metrics counts what players did, /healthz answers, /readyz
follows the gateway and the database."""

from __future__ import annotations

import asyncio
import re
import socket

import aiohttp

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import live_board, open_lobby


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sample(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus's text format (0 if it is not there)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        found = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if found is None or found.group(1) != name:
            continue
        have = ",".join(sorted((found.group(2) or "").split(","))) if found.group(2) else ""
        if have == wanted:
            return float(found.group(3))
    return 0.0


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=5)
        ) as response,
    ):
        return response.status, await response.text()


async def test_metrics_count_a_game_and_readiness_follows_the_gateway(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    port = free_port()
    await start_bot(metrics_port=port)
    assert await get(port, "/healthz") == (200, "ok\n")
    assert (await get(port, "/readyz"))[0] == 200
    _, before = await get(port, "/metrics")

    ann = fake.user("Ann")
    channel = fake.channel("general")
    opened = await open_lobby(fake, channel, ann)
    _, lobby = await get(port, "/metrics")
    assert sample(lobby, "yahtzee_games", status="lobby") == 1
    await fake.click(ann, opened, "Start")
    board = await live_board(fake, channel)
    dice.extend([2, 2, 2, 5, 6, 2, 2])
    await fake.click(ann, board, "Roll")
    await fake.click(ann, fake.messages[board["id"]], "5")  # hold the 5
    await fake.click(ann, fake.messages[board["id"]], "5")  # and release it
    refused = await fake.click(fake.user("Bob"), fake.messages[board["id"]], "Roll")
    assert refused.ephemeral_text  # Bob does not play here: told so
    fake.rate_limit("POST", r"^/channels/\d+/messages$")  # the next turn's board: one 429
    await fake.choose(ann, fake.messages[board["id"]], "threes")
    await fake.wait_for(lambda: fake.rate_limits == [] and len(fake.live_boards(channel)) == 1)

    _, after = await get(port, "/metrics")

    def moved(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert moved("yahtzee_interactions_total", kind="yahtzee start", outcome="ok") == 1
    assert moved("yahtzee_interactions_total", kind="lobby", outcome="ok") == 1
    assert moved("yahtzee_interactions_total", kind="roll", outcome="ok") == 1
    assert moved("yahtzee_interactions_total", kind="roll", outcome="refused") == 1
    assert moved("yahtzee_interactions_total", kind="die", outcome="ok") == 2
    assert moved("yahtzee_interactions_total", kind="box", outcome="ok") == 1
    assert moved("yahtzee_answer_seconds_count", kind="die") == 2
    assert moved("yahtzee_answer_seconds_count", kind="roll") == 2  # Ann's and Bob's
    assert moved("yahtzee_store_write_seconds_count") >= 5
    assert sample(after, "yahtzee_games", status="active") == 1
    assert sample(after, "yahtzee_games", status="lobby") == 0  # the lobby became the game
    assert sample(after, "yahtzee_shards_connected") == 1
    assert moved("yahtzee_late_answers_total") == 0
    assert moved("yahtzee_rate_limits_total", route="/channels/{id}/messages") == 1

    fake.gateway_down = True
    await fake.drop_connections()
    for _ in range(100):
        status, text = await get(port, "/readyz")
        if status == 503:
            break
        await asyncio.sleep(0.05)
    assert status == 503 and "disconnected" in text, text
    assert (await get(port, "/healthz"))[0] == 200  # alive all the same
    fake.gateway_down = False
    for _ in range(300):
        status, text = await get(port, "/readyz")
        if status == 200:
            break
        await asyncio.sleep(0.1)
    assert (status, text) == (200, "ready\n")


def kinds(text: str, name: str) -> set[str]:
    """The values of the ``kind`` label among a metric's samples."""
    return set(re.findall(rf'^{name}\{{[^}}]*kind="([^"]*)"', text, re.MULTILINE))


async def test_forged_clicks_share_one_unknown_series_and_the_games_are_counted(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Clicks with ids no control of the bot has (made up, or a real key with fields that
    do not parse) are counted under one ``kind="unknown"``, never under what they sent; and
    the games gauge follows a lobby through its start and its end."""
    port = free_port()
    await start_bot(metrics_port=port)
    _, before = await get(port, "/metrics")
    ann = fake.user("Ann")
    channel = fake.channel("general")
    lobby = await open_lobby(fake, channel, ann)
    forged = [f"yz:made-up-{i}:1" for i in range(12)] + ["yz:roll:x:y", "evil", "yz", ""]
    for custom_id in forged:
        answer = await fake.forge(ann, lobby, custom_id)
        assert answer.ephemeral_text  # told, privately, that the button is not one of ours
    _, after = await get(port, "/metrics")
    new_kinds = kinds(after, "yahtzee_interactions_total") - kinds(
        before, "yahtzee_interactions_total"
    )
    assert new_kinds <= {"yahtzee start", "unknown"}, new_kinds
    unknown = sum(
        sample(after, "yahtzee_interactions_total", kind="unknown", outcome=outcome)
        - sample(before, "yahtzee_interactions_total", kind="unknown", outcome=outcome)
        for outcome in ("ok", "refused", "error")
    )
    assert unknown == len(forged)
    assert kinds(after, "yahtzee_answer_seconds_count") - kinds(
        before, "yahtzee_answer_seconds_count"
    ) <= {"yahtzee start", "unknown"}

    assert sample(after, "yahtzee_games", status="lobby") == 1
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    await live_board(fake, channel)
    _, started = await get(port, "/metrics")
    assert sample(started, "yahtzee_games", status="lobby") == 0
    assert sample(started, "yahtzee_games", status="active") == 1
    asked = await fake.slash(ann, channel, "yahtzee end")
    assert asked.response is not None
    await fake.click(ann, asked.response, "End the game")
    _, ended = await get(port, "/metrics")
    assert sample(ended, "yahtzee_games", status="active") == 0
    assert sample(ended, "yahtzee_games", status="abandoned") == 1
    assert sample(ended, "yahtzee_games", status="finished") == 0
