"""The keeper's write batch: records that nobody's answer waits for, written together."""

from __future__ import annotations

import asyncio

import pytest

from bot.games.keeper import WriteBatch


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
