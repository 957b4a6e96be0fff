"""Shard processes on one database (issue 16 item 2): Discord sends each server's events to
one shard; each process acts (timers, repairs) only on the servers of its own shards; two
processes overlapping on the same shards (a deploy) still make every move once.

The bots here are the real YahtzeeBot with SHARD_COUNT=2 and their own SHARD_IDS, each with
its own store on the test's database (a SQLite file, or PostgreSQL); the fake gateway reads
the shard from IDENTIFY and routes by ``(guild_id >> 22) % 2``.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.app import YahtzeeBot
from bot.engine import ScriptedDice
from bot.store import plans

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import GUILD_ID, FakeDiscord, Interaction, find_component
from .helpers import die_ids, die_labels, start_game

pytestmark = pytest.mark.both_databases  # what the store does under the bot: PostgreSQL too

SHARD_OF_GUILD_ID = 1  # (900000000000000100 >> 22) % 2, worked out by hand: 214576... is odd


async def tick(bot: YahtzeeBot) -> int:
    cog = bot.get_cog("TurnTimers")
    return int(await cog.tick())  # type: ignore[union-attr]


async def test_two_shard_processes_play_side_by_side_and_act_on_their_own_servers(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    assert fake.on_shard(str(GUILD_ID), (SHARD_OF_GUILD_ID, 2))
    other = fake.add_guild("Night Owls", shard=0)
    ones = fake.channel("general")  # on shard 1
    zeros = fake.add_channel("owls", other)["id"]  # on shard 0
    ann, bob = fake.user("Ann"), fake.user("Bob")
    zero = await start_bot(shards=(0,))
    one = await start_bot(shards=(1,))
    assert zero.owns(int(other)) and not zero.owns(GUILD_ID)
    assert one.owns(GUILD_ID) and not one.owns(int(other))

    boards = {zeros: await start_game(fake, zeros, ann), ones: await start_game(fake, ones, bob)}
    dice.extend([6, 6, 6, 6, 6] * 2)
    rolls: list[Interaction] = await asyncio.gather(
        fake.click(ann, boards[zeros], "Roll"), fake.click(bob, boards[ones], "Roll")
    )
    for roll in rolls:
        assert roll.response_type == 7, roll.ephemeral_text
        assert roll.callbacks == 1  # only the server's own shard heard the click
    for channel in (zeros, ones):
        assert die_labels(fake.messages[boards[channel]["id"]]) == ["6"] * 5
    for bot in (zero, one):  # which boards the answers showed: on record (not 50 ms later)
        await bot.games.flush_shown()
    zero_game = await zero.store.read(plans.live_game_in, int(zeros))
    one_game = await one.store.read(plans.live_game_in, int(ones))
    assert zero_game is not None and zero_game.guild_id == int(other)
    assert one_game is not None and one_game.guild_id == GUILD_ID
    # each process sees the other's game in the shared database
    assert await one.store.read(plans.get_game, zero_game.id) == zero_game

    # The turn limit (five minutes by default) runs out in both servers at once. Each
    # process acts only on the game of its own shard, whichever ticks first.
    dice.extend([1, 2, 3, 4, 6] * 4)
    clock.advance(301)
    assert await tick(one) == 1
    await fake.settle()
    assert "Time ran out" in fake.messages[boards[ones]["id"]]["embeds"][0]["description"]
    assert find_component(fake.messages[boards[zeros]["id"]], "Roll") is not None
    untouched = await zero.store.read(plans.get_game, zero_game.id)
    assert untouched is not None and untouched.version == zero_game.version
    assert await tick(one) == 0  # the other game is not its to act on
    assert await tick(zero) == 1
    await fake.settle()
    assert "Time ran out" in fake.messages[boards[zeros]["id"]]["embeds"][0]["description"]


async def test_a_deploy_overlapping_two_processes_on_the_same_shard_moves_once(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """While a deploy overlaps, Discord sends the shard's events to both processes: each
    click is still one move (the other process loses the version check and the answer), and
    an overdue turn is acted on once."""
    channel = fake.channel("general")
    ann = fake.user("Ann")
    old = await start_bot(shards=(SHARD_OF_GUILD_ID,))
    board = await start_game(fake, channel, ann)
    new = await start_bot(shards=(SHARD_OF_GUILD_ID,))
    game = await old.store.read(plans.live_game_in, int(channel))
    assert game is not None
    dice.extend([2, 2, 3, 3, 3] * 2)
    roll = await fake.click(ann, board, "Roll")
    assert roll.response_type == 7, roll.ephemeral_text
    await fake.settle()
    assert roll.callbacks in (1, 2)  # both heard it; Discord took one answer
    assert die_labels(fake.messages[board["id"]]) == ["2", "2", "3", "3", "3"]
    for die in (0, 1):  # a hold made twice would be undone: each must be made once
        held = await fake.click(ann, board, die_ids(fake.messages[board["id"]])[die])
        assert held.response_type == 7, held.ephemeral_text
    await fake.settle()
    row = await new.store.read(plans.get_game, game.id)
    assert row is not None
    assert list(new.games.keeper.game_of(row).held) == [True, True, False, False, False]
    moves = [m[2] for m in await new.store.read(plans.moves, game.id)]
    assert (moves.count("roll"), moves.count("hold")) == (1, 2), moves

    dice.extend([1, 2, 3, 4, 6] * 4)
    # Each process records the boards its answers showed within 50 ms (real time); the fake
    # clock's jump of 301 s must not outrun that, or one process would take the other's
    # unrecorded answer for a board left behind and repair it (seen under a loaded CI).
    await asyncio.gather(old.games.keeper.flush_shown(), new.games.keeper.flush_shown())
    clock.advance(301)
    acted = await asyncio.gather(tick(old), tick(new))
    # one acts on the overdue turn; the other may also repair a board whose record its peer
    # had not yet written (a loaded machine): the turn itself is acted on once (below)
    assert 1 in acted, acted
    await fake.settle()
    after = await new.store.read(plans.moves, game.id)
    assert [m[2] for m in after].count("timeout") == 1, after
