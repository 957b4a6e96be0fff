"""Leaderboard, stats and the admin reset through the real bot."""

from __future__ import annotations

import pytest

from bot.engine import Category, ScriptedDice
from bot.store import open_store, plans

from ..conftest import Database
from ..games.test_leaderboards import seed
from .conftest import StartBot
from .fake_discord import (
    EPHEMERAL,
    GUILD_ID,
    IS_COMPONENTS_V2,
    FakeDiscord,
    find_component,
    gallery_urls,
    text_of,
)
from .helpers import play_turn, png_size, start_game

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too


async def play_solo(
    fake: FakeDiscord, dice: ScriptedDice, player: dict, channel: str, faces: list[int]
) -> None:
    """A whole solo game with the same roll every turn, boxes in sheet order."""
    await start_game(fake, channel, player)
    for box in Category:
        await play_turn(fake, dice, player, channel, [faces], box.value)


async def test_two_games_then_the_leaderboard(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann and Bob each finish a game; the board ranks them; stats and reset work."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    bot = await start_bot()
    general, games = fake.channel("general"), fake.channel("games")
    # By hand, 2-3-4-5-6 every turn in sheet order: upper 2+3+4+5+6 = 20, Small Straight 30,
    # Large Straight 40, Chance 20: 110. With 1-2-3-4-6: upper 1+2+3+4+6 = 16, SS 30, Chance 16: 62.
    await play_solo(fake, dice, ann, general, [2, 3, 4, 5, 6])
    await play_solo(fake, dice, bob, games, [1, 2, 3, 4, 6])

    before = len(fake.channel_messages(general))
    answer = await fake.slash(bob, general, "yahtzee leaderboard")
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL  # private
    assert png_size(fake.attachment(answer.response))[0] == 520
    assert answer.response["flags"] & IS_COMPONENTS_V2 and answer.response["embeds"] == []
    assert gallery_urls(answer.response) == ["attachment://leaderboard.png"]
    assert text_of(answer.response).startswith("## Leaderboard: High scores (all time)")
    assert find_component(answer.response, "Next") is None  # one page only
    assert len(fake.channel_messages(general)) == before
    shared = await fake.click(bob, answer.response, "Share")
    assert shared.response is not None and not shared.response["flags"] & EPHEMERAL, (
        shared.ephemeral_text
    )
    assert text_of(shared.response).startswith(f"-# Shared by <@{bob['id']}>")
    assert shared.response["mentions"] == []  # named, not pinged
    assert find_component(shared.response, "Share") is None  # for reading
    assert fake.attachment(shared.response) == fake.attachment(answer.response)
    assert fake.last(general)["id"] == shared.response["id"]
    guild = int(fake.last(general)["guild_id"])
    rows = await bot.store.read(plans.leaderboard, guild, "high")
    assert [(r.rank, r.name, r.figure) for r in rows] == [(1, "Ann", 110), (2, "Bob", 62)]

    answer = await fake.slash(bob, general, "yahtzee stats", player=ann)
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    said = text_of(answer.response)
    assert "**Best**: 110" in said and "**Games**: 1" in said
    shared = await fake.click(bob, answer.response, "Share")
    assert shared.response is not None and not shared.response["flags"] & EPHEMERAL
    assert "## Yahtzee stats: Ann" in text_of(shared.response)  # her name, kept
    assert text_of(shared.response).endswith(said.split("\n", 1)[1])  # the same figures

    refused = await fake.slash(bob, general, "yahtzee-admin reset-leaderboard")
    assert "Manage Server" in refused.ephemeral_text
    asked = await fake.slash(mod, general, "yahtzee-admin reset-leaderboard")
    done = await fake.click(mod, asked.response, "Reset the leaderboard")  # type: ignore[arg-type]
    assert "2 results archived" in (done.response or {}).get("content", "")
    assert await bot.store.read(plans.leaderboard, guild, "high") == []
    restored = await fake.slash(mod, general, "yahtzee-admin restore-leaderboard")
    assert "2 results are back" in restored.ephemeral_text
    assert len(await bot.store.read(plans.leaderboard, guild, "high")) == 2


async def test_paging_buttons(fake: FakeDiscord, start_bot: StartBot, database: Database) -> None:
    """With 12 players on the board, Next shows page 2 and Previous page 1 again."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    store = await open_store(database)
    await store.close()
    rows = [(100 + i, f"P{i}", 300 - i, 1, 1, 0, 0, "2026-11-01T00:00:00+00:00") for i in range(12)]
    await seed(database, rows, guild=GUILD_ID)
    await start_bot()
    answer = await fake.slash(ann, channel, "yahtzee leaderboard")
    message = answer.response
    assert message is not None
    first_image = fake.attachment(message)
    assert find_component(message, "Previous")["disabled"]  # type: ignore[index]
    turned = await fake.click(ann, message, "Next")
    assert turned.response_type == 7
    page_two = fake.messages[message["id"]]
    assert fake.attachment(page_two) != first_image
    assert find_component(page_two, "Next")["disabled"]  # type: ignore[index]
    await fake.click(ann, page_two, "Previous")
    assert fake.attachment(fake.messages[message["id"]]) == first_image
