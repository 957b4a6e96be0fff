"""The environment fails too (issue 17 item 3): 429s on every route and a gateway that drops
again and again while a game is played. Every click is answered, nothing is lost, and the
boards end up showing the games as stored."""

from __future__ import annotations

import random

import pytest

from bot.app import YahtzeeBot
from bot.engine import Game, RandomDice, ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import live_board
from .test_real_discord import start_game

pytestmark = pytest.mark.sqlite_only  # about Discord and the bot, not the database


async def test_rate_limits_everywhere_and_a_flapping_gateway_lose_nothing(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Three turns are played while every REST route answers 429 now and then (some of
    them Discord's global limit) and the gateway connection drops before every turn."""
    dice.fallback = RandomDice(random.Random(9))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await start_game(fake, channel, ann, bob)
    for turn in range(3):
        for _ in range(3):  # a storm: the next requests on any route are limited
            fake.rate_limit("POST", r".*", 0.2, everywhere=turn % 2 == 1)
            fake.rate_limit("PATCH", r".*", 0.2)
        drops = fake.resumes
        await fake.drop_connections()
        await fake.wait_for(lambda drops=drops: fake.resumes > drops, timeout=10)
        board = await live_board(fake, channel)
        player = ann if turn % 2 == 0 else bob
        rolled = await fake.click(player, board, "Roll")
        assert rolled.response_type == 7, rolled.ephemeral_text
        options = fake.messages[board["id"]]["components"][2]["components"][0]["options"]
        scored = await fake.choose(player, board, options[0]["value"])
        assert scored.response_type == 7, scored.ephemeral_text
        gone = board["id"]
        await fake.wait_for(
            lambda gone=gone: fake.live_boards(channel)[-1]["id"] != gone, timeout=10
        )
    # A storm longer than discord.py's retries on the click's own answer: a plain word.
    board = await live_board(fake, channel)
    for _ in range(6):
        fake.rate_limit("POST", r"^/interactions/", 0.1)
    stormed = await fake.click(ann, board, "Scorecard")
    assert "Something went wrong" not in stormed.ephemeral_text
    assert "rate limits" in stormed.ephemeral_text, stormed.ephemeral_text
    row = await bot.games.find_live(int(channel))
    assert row is not None and row.state is not None
    game = Game.from_dict(row.state)
    assert game.turn_number == 3
    live = await live_board(fake, channel)
    assert live["content"].startswith(f"<@{bob['id']}>")  # Bob's second turn, as stored
    assert fake.live_boards(channel) == [live]
