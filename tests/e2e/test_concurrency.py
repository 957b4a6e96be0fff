"""Many people in many channels at the same moment, through the real bot and the fake Discord.

Every earlier test played one game at a time; these send the clicks of different games
together, as a busy server does.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.engine import ScriptedDice
from bot.store import plans

from ..conftest import integrity
from .conftest import StartBot
from .fake_discord import FakeDiscord, find_component
from .helpers import die_labels

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too

WENT_WRONG = "Something went wrong"


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


async def test_ten_channels_start_a_lobby_at_once(
    fake: FakeDiscord, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten people type /yahtzee start in ten channels at the same moment: ten lobbies."""
    channels = [fake.add_channel(f"table-{i}")["id"] for i in range(10)]
    hosts = [fake.user(f"Host{i}") for i in range(10)]
    bot = await start_bot()
    answers = await asyncio.gather(
        *(fake.slash(host, ch, "yahtzee start") for host, ch in zip(hosts, channels, strict=True))
    )
    for answer, channel in zip(answers, channels, strict=True):
        assert WENT_WRONG not in answer.ephemeral_text
        assert answer.response_type == 4, answer.ephemeral_text
        lobby = fake.last(channel)
        assert find_component(lobby, "Join") is not None
        row = await bot.store.read(plans.live_game_in, int(channel))
        assert row is not None and row.status == "lobby"
        assert row.board_message_id == int(lobby["id"])
    no_errors_logged(caplog)


async def test_twenty_games_roll_at_once(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Twenty games' players click Roll together: every click is answered with its own
    board, and every board shows the dice its game stored."""
    games = 20
    channels = [fake.add_channel(f"room-{i}")["id"] for i in range(games)]
    players = [fake.user(f"Player{i}") for i in range(games)]
    bot = await start_bot()
    pairs = list(zip(players, channels, strict=True))
    await asyncio.gather(*(fake.slash(p, ch, "yahtzee start") for p, ch in pairs))
    lobbies = [fake.last(ch) for ch in channels]
    starts = await asyncio.gather(
        *(fake.click(p, lobby, "Start") for (p, _), lobby in zip(pairs, lobbies, strict=True))
    )
    assert all(s.response_type == 7 for s in starts), [s.ephemeral_text for s in starts]
    await fake.wait_for(lambda: all(fake.live_boards(ch) for ch in channels))
    boards = [fake.live_boards(ch)[0] for ch in channels]

    faces = [1, 2, 3, 4, 5, 6]
    for i in range(games):  # each game's roll is five dice; any game may take any five
        dice.extend([faces[(i + k) % 6] for k in range(5)])
    rolls = await asyncio.gather(
        *(fake.click(p, board, "Roll") for (p, _), board in zip(pairs, boards, strict=True))
    )

    for roll, board, channel in zip(rolls, boards, channels, strict=True):
        assert WENT_WRONG not in roll.ephemeral_text
        # in place; or, on a machine too busy to answer within 1.5 s, acknowledged first
        # and the board edited after (answers.DEFER_AFTER): the dice shown are checked below
        assert roll.response_type in (6, 7), roll.ephemeral_text
        row = await bot.store.read(plans.live_game_in, int(channel))
        assert row is not None and row.state is not None
        stored = bot.games.keeper.game_of(row)
        assert stored.dice is not None
        shown = die_labels(fake.messages[board["id"]])
        assert shown == [str(face) for face in stored.dice]
        assert [m[2] for m in await bot.store.read(plans.moves, row.id)][-1] == "roll"
    assert dice.remaining == 0  # all twenty rolls happened, once each
    no_errors_logged(caplog)


async def test_clicks_of_many_games_leave_every_game_whole(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Eight two-player games play two full turns each, all clicks of a step sent together:
    each game's move log replays to the state it stored, with no gap."""
    games = 8
    channels = [fake.add_channel(f"hall-{i}")["id"] for i in range(games)]
    hosts = [fake.user(f"Ann{i}") for i in range(games)]
    guests = [fake.user(f"Bob{i}") for i in range(games)]
    bot = await start_bot()
    await asyncio.gather(
        *(fake.slash(h, ch, "yahtzee start") for h, ch in zip(hosts, channels, strict=True))
    )
    lobbies = [fake.last(ch) for ch in channels]
    await asyncio.gather(
        *(fake.click(g, lobby, "Join") for g, lobby in zip(guests, lobbies, strict=True))
    )
    await asyncio.gather(
        *(fake.click(h, lobby, "Start") for h, lobby in zip(hosts, lobbies, strict=True))
    )
    await fake.wait_for(lambda: all(fake.live_boards(ch) for ch in channels))

    dice.extend([2, 2, 2, 2, 2] * games * 4)
    for movers in (hosts, guests):
        boards = [fake.live_boards(ch)[0] for ch in channels]
        answers = await asyncio.gather(
            *(fake.click(p, b, "Roll") for p, b in zip(movers, boards, strict=True))
        )
        assert all(a.response_type == 7 for a in answers), [a.ephemeral_text for a in answers]
        answers = await asyncio.gather(
            *(fake.choose(p, b, "twos") for p, b in zip(movers, boards, strict=True))
        )  # fmt: skip
        assert all(a.response_type == 7 for a in answers), [a.ephemeral_text for a in answers]
        await fake.wait_for(
            lambda boards=boards: all(
                fake.live_boards(ch) and fake.live_boards(ch)[0]["id"] != b["id"]
                for ch, b in zip(channels, boards, strict=True)
            )
        )

    for channel in channels:
        row = await bot.store.read(plans.live_game_in, int(channel))
        assert row is not None and row.state is not None
        versions = [m[0] for m in await bot.store.read(plans.moves, row.id)]
        assert versions == list(range(row.version + 1))
        game = bot.games.keeper.game_of(row)
        assert [seat.card.total for seat in game.seats] == [10, 10]
        assert game.turn_number == 2
    assert await integrity(bot.settings.database) == "ok"
    no_errors_logged(caplog)
