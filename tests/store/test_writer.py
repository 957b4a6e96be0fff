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

from bot.engine import Preset
from bot.store import (
    GameRow,
    MoveRecord,
    NewGame,
    Plan,
    Query,
    Store,
    StoreUnavailable,
    WritePlan,
    open_store,
    plans,
)
from bot.store.sqlite import SqliteStore
from bot.store.writer import CHECKPOINT_EVERY, Writer


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    """These tests are about the SQLite backend's writer thread: SQLite only, and every unit
    handed to the thread (an idle writer would run the first one inline, on the loop)."""
    s = await open_store(db_path)
    writer(s).inline = False
    yield s
    await s.close()


def writer(store: Store) -> Writer:
    assert isinstance(store, SqliteStore)
    return store._writer


def statement(sql: str) -> Plan[None]:
    """A unit of work of one raw statement."""
    yield Query(sql)


async def lobby(store: Store, channel: int) -> GameRow:
    return await store.write(
        plans.create_game,
        NewGame(
            guild_id=1,
            channel_id=channel,
            host_id=channel,
            preset=Preset.OFFICIAL,
            players=[(channel, f"P{channel}")],
        ),
    )


def stored_details(path: Path, game_id: int) -> list[str | None]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT detail FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
    return [r[0] for r in rows]


async def in_one_batch(store: Store, *works: Callable[[], Plan[Any]]) -> list[Any]:
    """Run ``works`` so that the writer takes them as one batch: the writer is held busy by a
    unit that waits until all of them are queued. Returns each one's result or exception."""
    running, release = threading.Event(), threading.Event()

    def hold() -> Plan[None]:
        running.set()
        release.wait(5)
        yield from ()

    holding = asyncio.ensure_future(store.write(WritePlan(hold)))
    await asyncio.to_thread(running.wait, 5)
    queued = [asyncio.ensure_future(store.write(WritePlan(work))) for work in works]
    await asyncio.sleep(0)  # every unit handed to the writer's queue
    release.set()
    await holding
    return list(await asyncio.gather(*queued, return_exceptions=True))


async def test_units_queued_together_share_one_commit(store: Store) -> None:
    """Fifty moves of fifty games handed over at once need far fewer COMMITs than moves."""
    games = [await lobby(store, 100 + i) for i in range(50)]
    before = store.group_commit
    await in_one_batch(
        store, *(lambda g=g: plans.update_game(g.id, g.version, MoveRecord(1, "x")) for g in games)
    )
    commits, units = (after - was for after, was in zip(store.group_commit, before, strict=True))
    assert units == 51  # the fifty moves and the unit that held the writer
    assert commits == 2


async def test_a_failing_unit_undoes_only_its_own_writes(store: Store, db_path: Path) -> None:
    """In one batch, a unit that writes and then raises leaves nothing; its neighbours commit."""
    a, b, c = [await lobby(store, n) for n in (1, 2, 3)]

    def fails() -> Plan[None]:
        yield from plans.update_game(b.id, b.version, MoveRecord(2, "half", "half-written"))
        raise ValueError("changed its mind")

    results = await in_one_batch(
        store,
        lambda: plans.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
        fails,
        lambda: plans.update_game(c.id, c.version, MoveRecord(3, "ok", "c moved")),
    )
    assert isinstance(results[1], ValueError)
    assert stored_details(db_path, a.id) == [None, "a moved"]
    assert stored_details(db_path, b.id) == [None]  # only the lobby's opening entry
    assert stored_details(db_path, c.id) == [None, "c moved"]
    assert (await store.read(plans.get_game, b.id)).version == b.version  # type: ignore[union-attr]


async def test_a_unit_that_loses_the_transaction_costs_the_others_nothing(
    store: Store, db_path: Path
) -> None:
    """When SQLite drops the whole transaction during one unit (as on a full disk), the units
    before it in the batch, whose writes went with it, are run again and commit."""
    a, b, c = [await lobby(store, n) for n in (1, 2, 3)]

    def drops() -> Plan[None]:
        yield from plans.update_game(b.id, b.version, MoveRecord(2, "half", "lost"))
        yield Query("ROLLBACK")  # what SQLite does by itself on SQLITE_FULL or an I/O error
        raise sqlite3.OperationalError("database or disk is full")

    results = await in_one_batch(
        store,
        lambda: plans.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
        drops,
        lambda: plans.update_game(c.id, c.version, MoveRecord(3, "ok", "c moved")),
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

    def tables() -> Plan[None]:
        yield from statement("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        yield from statement(
            "CREATE TABLE child (parent_id INTEGER "
            "REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )

    await store.write(WritePlan(tables))
    results = await in_one_batch(
        store,
        lambda: statement("INSERT INTO child (parent_id) VALUES (42)"),  # checked at COMMIT
        lambda: plans.update_game(a.id, a.version, MoveRecord(1, "ok", "a moved")),
    )
    assert isinstance(results[0], sqlite3.IntegrityError)
    assert isinstance(results[1], GameRow)
    assert stored_details(db_path, a.id) == [None, "a moved"]
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM child").fetchone()[0] == 0


async def test_close_waits_for_what_was_handed_over(db_path: Path) -> None:
    """Writes already handed to the store when it closes are committed, and later ones are
    refused with a clear error."""
    store = await open_store(db_path)
    game = await lobby(store, 1)
    pending = asyncio.ensure_future(
        store.write(plans.update_game, game.id, game.version, MoveRecord(1, "ok", "just in time"))
    )
    await asyncio.sleep(0)
    await store.close()
    assert (await pending).version == game.version + 1
    assert stored_details(db_path, game.id) == [None, "just in time"]
    with pytest.raises(RuntimeError, match="closed"):
        await store.write(plans.set_messages, game.id, final_message_id=1)


async def test_an_idle_writer_commits_on_the_loop_and_a_busy_file_goes_to_the_thread(
    db_path: Path,
) -> None:
    """A unit runs inline (on the event loop's thread) when nothing else holds the file; while
    another connection holds SQLite's write lock, the unit goes to the thread instead, the
    event loop is not held up meanwhile, and the unit commits once the lock is let go."""
    store = await open_store(db_path)
    try:
        game = await lobby(store, 1)
        ran_on: list[int] = []

        @WritePlan
        def move(version: int, detail: str) -> Plan[GameRow]:
            ran_on.append(threading.get_ident())
            return plans.update_game(game.id, version, MoveRecord(1, "ok", detail))

        row = await store.write(move, game.version, "inline")
        assert ran_on == [threading.get_ident()]

        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process's write lock
        try:
            pending = asyncio.ensure_future(store.write(move, row.version, "later"))
            ticks = 0
            for _ in range(20):  # the loop keeps turning while the unit waits for the lock
                await asyncio.sleep(0.01)
                ticks += 1
            assert not pending.done() and ticks == 20
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (await asyncio.wait_for(pending, 5)).version == row.version + 1
        assert ran_on[-1] != threading.get_ident()  # the thread ran it
        assert stored_details(db_path, game.id) == [None, "inline", "later"]
    finally:
        await store.close()


async def test_the_wal_is_checkpointed_while_commits_run_inline(db_path: Path) -> None:
    """Inline commits never checkpoint by themselves; the thread does, so the WAL file does
    not grow with every commit (it would hold every page written since the start)."""
    store = await open_store(db_path)
    try:
        game = await lobby(store, 1)
        row = game
        for i in range(CHECKPOINT_EVERY * 6):
            row = await store.write(
                plans.update_game, row.id, row.version, MoveRecord(1, "ok", f"m{i}")
            )
            if i % 64 == 0:
                await asyncio.sleep(0.01)  # the thread gets its turn
        await asyncio.sleep(0.2)
        assert writer(store).inlined >= CHECKPOINT_EVERY * 5
        wal = db_path.with_name(db_path.name + "-wal").stat().st_size
        page = 4096
        # every commit here writes at least two pages (the game's row, the move): without a
        # checkpoint the WAL would hold more than 2 * 1,536 pages
        assert wal < 2 * CHECKPOINT_EVERY * 2 * page, wal
        assert len(stored_details(db_path, game.id)) == CHECKPOINT_EVERY * 6 + 1
    finally:
        await store.close()
