"""The writer thread: units of work committed together, and one unit's failure costing no other
unit its write."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameRow, MoveRecord, Plan, Query, Store, StoreUnavailable, Transaction


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    """These tests are about the SQLite backend's writer thread: SQLite only."""
    s = await Store.open(db_path)
    yield s
    await s.close()


def statement(sql: str) -> Plan[None]:
    """A unit of work of one raw statement."""
    yield Query(sql)


async def lobby(store: Store, channel: int) -> GameRow:
    return await store.create_game(
        guild_id=1, channel_id=channel, host_id=channel, preset="official",
        players=[(channel, f"P{channel}")],
    )  # fmt: skip


def stored_details(path: Path, game_id: int) -> list[str | None]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT detail FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
    return [r[0] for r in rows]


async def in_one_batch(store: Store, *works: Callable[[Transaction], Any]) -> list[Any]:
    """Run ``works`` so that the writer takes them as one batch: the writer is held busy by a
    unit that waits until all of them are queued. Returns each one's result or exception."""
    running, release = threading.Event(), threading.Event()

    def hold(tx: Transaction) -> Plan[None]:
        running.set()
        release.wait(5)
        yield from ()

    holding = asyncio.ensure_future(store.write(hold))
    await asyncio.to_thread(running.wait, 5)
    queued = [asyncio.ensure_future(store.write(work)) for work in works]
    await asyncio.sleep(0)  # every unit handed to the writer's queue
    release.set()
    await holding
    return list(await asyncio.gather(*queued, return_exceptions=True))


async def test_units_queued_together_share_one_commit(store: Store) -> None:
    """Fifty moves of fifty games handed over at once need far fewer COMMITs than moves."""
    games = [await lobby(store, 100 + i) for i in range(50)]
    before = store.group_commit
    await in_one_batch(
        store, *(lambda tx, g=g: tx.update_game(g.id, g.version, MoveRecord(1, "x")) for g in games)
    )
    commits, units = (after - was for after, was in zip(store.group_commit, before, strict=True))
    assert units == 51  # the fifty moves and the unit that held the writer
    assert commits == 2


async def test_a_failing_unit_undoes_only_its_own_writes(store: Store, db_path: Path) -> None:
    """In one batch, a unit that writes and then raises leaves nothing; its neighbours commit."""
    a, b, c = [await lobby(store, n) for n in (1, 2, 3)]

    def fails(tx: Transaction) -> Plan[None]:
        yield from tx.update_game(b.id, b.version, MoveRecord(2, "half", "half-written"))
        raise ValueError("changed its mind")

    results = await in_one_batch(
        store,
        lambda tx: tx.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
        fails,
        lambda tx: tx.update_game(c.id, c.version, MoveRecord(3, "ok", "c moved")),
    )
    assert isinstance(results[1], ValueError)
    assert stored_details(db_path, a.id) == [None, "a moved"]
    assert stored_details(db_path, b.id) == [None]  # only the lobby's opening entry
    assert stored_details(db_path, c.id) == [None, "c moved"]
    assert (await store.get_game(b.id)).version == b.version  # type: ignore[union-attr]


async def test_a_unit_that_loses_the_transaction_costs_the_others_nothing(
    store: Store, db_path: Path
) -> None:
    """When SQLite drops the whole transaction during one unit (as on a full disk), the units
    before it in the batch, whose writes went with it, are run again and commit."""
    a, b, c = [await lobby(store, n) for n in (1, 2, 3)]

    def drops(tx: Transaction) -> Plan[None]:
        yield from tx.update_game(b.id, b.version, MoveRecord(2, "half", "lost"))
        yield Query("ROLLBACK")  # what SQLite does by itself on SQLITE_FULL or an I/O error
        raise sqlite3.OperationalError("database or disk is full")

    results = await in_one_batch(
        store,
        lambda tx: tx.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
        drops,
        lambda tx: tx.update_game(c.id, c.version, MoveRecord(3, "ok", "c moved")),
    )
    assert isinstance(results[0], GameRow) and isinstance(results[2], GameRow)
    # the full disk reaches its caller as StoreUnavailable, SQLite's error as the cause
    assert isinstance(results[1], StoreUnavailable)
    assert isinstance(results[1].__cause__, sqlite3.OperationalError)
    assert stored_details(db_path, a.id) == [None, "a moved"]
    assert stored_details(db_path, b.id) == [None]
    assert stored_details(db_path, c.id) == [None, "c moved"]


async def test_a_failed_commit_is_charged_to_the_unit_that_caused_it(
    store: Store, db_path: Path
) -> None:
    """A COMMIT that fails (here a deferred constraint) fails only the unit whose write broke
    it: the batch's other units are run again one by one and commit."""
    a = await lobby(store, 1)

    def tables(tx: Transaction) -> Plan[None]:
        yield from statement("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        yield from statement(
            "CREATE TABLE child (parent_id INTEGER "
            "REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )

    await store.write(tables)
    results = await in_one_batch(
        store,
        lambda tx: statement("INSERT INTO child (parent_id) VALUES (42)"),  # checked at COMMIT
        lambda tx: tx.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
    )
    assert isinstance(results[0], sqlite3.IntegrityError)
    assert isinstance(results[1], GameRow)
    assert stored_details(db_path, a.id) == [None, "a moved"]
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM child").fetchone()[0] == 0


async def test_close_waits_for_what_was_handed_over(db_path: Path) -> None:
    """Writes already handed to the store when it closes are committed, and later ones are
    refused with a clear error."""
    store = await Store.open(db_path)
    game = await lobby(store, 1)
    pending = asyncio.ensure_future(
        store.update_game(game.id, game.version, MoveRecord(1, "ok", "just in time"))
    )
    await asyncio.sleep(0)
    await store.close()
    assert (await pending).version == game.version + 1
    assert stored_details(db_path, game.id) == [None, "just in time"]
    with pytest.raises(RuntimeError, match="closed"):
        await store.set_messages(game.id, final_message_id=1)
