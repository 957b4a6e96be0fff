"""The environment fails too (issue 17 item 3): 429s on every route and a gateway that drops
again and again while a game is played. Every click is answered, nothing is lost, and the
boards end up showing the games as stored."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

import pytest

from bot.app import YahtzeeBot
from bot.engine import Game, RandomDice, ScriptedDice
from bot.store import plans

from .conftest import StartBot
from .fake_discord import FakeDiscord, Interaction
from .helpers import live_board, start_game

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
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.state is not None
    game = Game.from_dict(row.state)
    assert game.turn_number == 3
    live = await live_board(fake, channel)
    assert live["content"].startswith(f"<@{bob['id']}>")  # Bob's second turn, as stored
    assert fake.live_boards(channel) == [live]


async def test_a_gateway_dropping_every_few_tenths_of_a_second_loses_no_move(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, caplog: pytest.LogCaptureFixture
) -> None:
    """A gateway dropping every few seconds for a minute, compressed: it drops every 0.4 s,
    a dozen times or more, while Ann and Bob play whole turns. A click sent while the bot is
    away is never delivered (Discord tells the person it failed, and they click again);
    every click that reaches the bot is answered once, every answered move is in the log,
    the game replays from it, and the last board shows the game as stored."""
    caplog.set_level(logging.ERROR)
    dice.fallback = RandomDice(random.Random(13))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await start_game(fake, channel, ann, bob)
    resumes = fake.resumes
    flapping = asyncio.Event()

    drops = 0

    async def flap() -> None:
        nonlocal drops
        while not flapping.is_set():
            await asyncio.sleep(0.4)
            if fake.sockets:  # connected again: drop it
                drops += 1
                await fake.drop_connections()

    async def persist(click: Callable[[], Awaitable[Interaction]]) -> Interaction:
        """Click until the bot hears it, as a person does after "This interaction failed"."""
        for _ in range(30):
            answer = await click()
            if answer.response_type is not None:
                assert answer.callbacks == 1 and "Something went wrong" not in answer.ephemeral_text
                return answer
            await asyncio.sleep(0.1)
        raise AssertionError("the bot never heard the click")

    flapper = asyncio.create_task(flap())
    try:
        answered = turn = 0
        while drops < 12 and turn < 24:  # a dozen drops or more, in one game's turns
            turn += 1
            await asyncio.sleep(0.3)  # a person looks at the board before clicking
            player = ann if turn % 2 == 1 else bob
            board = await live_board(fake, channel)
            rolled = await persist(
                lambda board=board, player=player: fake.click(
                    player, fake.messages[board["id"]], "Roll", timeout=1.0
                )
            )
            assert rolled.response_type == 7, rolled.ephemeral_text
            await asyncio.sleep(0.3)
            menu = fake.messages[board["id"]]["components"][2]["components"][0]
            scored = await persist(
                lambda board=board, player=player, menu=menu: fake.choose(
                    player, fake.messages[board["id"]], menu["options"][0]["value"], timeout=1.0
                )
            )
            assert scored.response_type == 7, scored.ephemeral_text
            answered += 2
            gone = board["id"]
            await fake.wait_for(
                lambda gone=gone: (
                    fake.live_boards(channel)[-1:] not in ([], [fake.messages[gone]])
                    if gone in fake.messages
                    else fake.live_boards(channel) != []
                ),
                timeout=10,
            )
    finally:
        flapping.set()
        await flapper
    assert drops >= 12 and fake.resumes - resumes >= 6  # the bot resumed its session
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.state is not None
    moves = [action for _, _, action, *_ in await bot.store.read(plans.moves, row.id)]
    assert moves.count("roll") + moves.count("score") == answered
    replayed = await bot.games.history.replayed(row.id)
    assert replayed.game == Game.from_dict(row.state)
    assert replayed.game.turn_number == turn
    live = await live_board(fake, channel)
    assert live["content"].startswith(f"<@{(bob if turn % 2 else ann)['id']}>")  # as stored
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
