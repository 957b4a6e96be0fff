"""The keeper's write batch: records that nobody's answer waits for, written together."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import GameService, Where
from bot.games.keeper import WriteBatch
from bot.games.results import view_of


async def test_records_within_the_wait_share_one_write_and_its_outcome() -> None:
    """Two records added within the wait go in one write, and both callers return only once
    it is done; a record after that starts a second write. A failed write fails each caller
    of its batch (their tasks log it), none of another batch."""
    writes: list[list[int]] = []
    fail = {3}

    async def write(items: list[int]) -> None:
        await asyncio.sleep(0)
        if fail & set(items):
            raise OSError("disk full")
        writes.append(items)

    batch: WriteBatch[int] = WriteBatch(write, 0.01)
    first = asyncio.create_task(batch.add(1))
    second = asyncio.create_task(batch.add(2))
    await asyncio.sleep(0)
    assert writes == [] and not first.done()  # waiting for the batch's write
    await asyncio.gather(first, second)
    assert writes == [[1, 2]]
    third, fourth = asyncio.create_task(batch.add(3)), asyncio.create_task(batch.add(4))
    results = await asyncio.gather(third, fourth, return_exceptions=True)
    assert all(isinstance(r, OSError) for r in results)
    await batch.add(5)
    assert writes == [[1, 2], [5]]
    with pytest.raises(OSError):
        await batch.add(3)


async def test_a_place_noted_anew_reaches_the_games_kept_in_memory(service: GameService) -> None:
    """A server adds the bot while a game opened by a member's own install is kept in the
    row cache: the game's place (where its messages go) is "channel" at once, in memory as
    in the database, without waiting for its next save; a place noted "token" likewise."""
    row = await service.lobby.open_lobby(1, 55, 5, "Ann", None, place="token")
    assert (await service.keeper.row(row.id)).place == "token"  # kept in memory
    other = await service.lobby.open_lobby(1, 56, 6, "Bob", None, place="token")
    await service.servers.note_token_place(55, "user_server", by_token=False)
    assert (await service.keeper.row(row.id)).place == "channel"
    assert view_of(await service.keeper.row(row.id)).where is Where.CHANNEL
    assert (await service.keeper.row(other.id)).place == "token"  # another channel's game
    await service.servers.note_token_place(55, "user_server", by_token=True)
    assert view_of(await service.keeper.row(row.id)).where is Where.TOKEN
