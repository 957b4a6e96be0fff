"""Lookups that stay quick however many games a database holds (issue 40): by place, the
counts of games by status, retention's batches. Each answer is checked on both databases;
that no lookup reads the whole games table is checked in SQLite's query plans."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Preset
from bot.store import GameChange, GameRow, MoveRecord, NewGame, Store, open_store, plans
from bot.store.sql import Query

from ..conftest import Database, fetch


async def _game(
    store: Store,
    channel: int,
    guild: int = 1,
    status: str | None = None,
    thread: int | None = None,
) -> GameRow:
    """A lobby in ``channel`` (of server ``guild``), played in ``thread`` if given, taken to
    ``status`` if given."""
    row = await store.write(
        plans.create_game,
        NewGame(
            guild_id=guild,
            channel_id=channel,
            host_id=5,
            preset=Preset.OFFICIAL,
            players=[(5, "Ann")],
        ),
    )
    if thread is not None:
        row = await store.write(
            plans.update_game,
            row.id,
            row.version,
            MoveRecord(5, "thread"),
            GameChange(thread_id=thread),
        )
    if status is not None:
        row = await store.write(
            plans.update_game, row.id, row.version, MoveRecord(5, status), GameChange(status=status)
        )
    return row


async def _old_game(database: Database, channel: int, status: str) -> int:
    """A game of schema 17 in ``channel`` with ``status`` and its opening move; its id."""
    stamp = "2026-11-20T10:00:00+00:00"
    ended = stamp if status in ("finished", "abandoned") else None
    ((game_id,),) = await fetch(
        database,
        "INSERT INTO games (guild_id, channel_id, host_id, status, preset, players, "
        "created_at, updated_at, finished_at) VALUES (1, ?, 5, ?, 'official', '[]', ?, ?, ?) "
        "RETURNING id",
        channel, status, stamp, stamp, ended,
    )  # fmt: skip
    await fetch(
        database,
        "INSERT INTO moves (game_id, version, user_id, action, at) VALUES (?, 0, 5, 'open', ?)",
        game_id, stamp,
    )  # fmt: skip
    return int(game_id)


async def _finished_at(database: Database, game_id: int, stamp: str) -> None:
    await fetch(database, "UPDATE games SET finished_at = ? WHERE id = ?", stamp, game_id)


async def test_the_last_finished_game_of_a_channel_counts_its_threads(
    database: Database, store: Store
) -> None:
    """/yahtzee scorecard where no game is going on: the game that finished last in the
    channel, whether it was played there or in a thread of it; never another channel's, a
    live one, or one that was abandoned."""
    older = await _game(store, 10, status="finished")
    in_thread = await _game(store, 10, status="finished", thread=900)
    newest_elsewhere = await _game(store, 11, status="finished")
    abandoned = await _game(store, 10, status="active")
    abandoned = await _game_to(store, abandoned, "abandoned")
    await _game(store, 10)  # the lobby open there now
    await _finished_at(database, older.id, "2026-11-01T10:00:00+00:00")
    await _finished_at(database, in_thread.id, "2026-11-02T10:00:00+00:00")
    await _finished_at(database, newest_elsewhere.id, "2026-11-09T10:00:00+00:00")
    await _finished_at(database, abandoned.id, "2026-11-08T10:00:00+00:00")

    found = await store.read(plans.last_finished_game_in, 10)
    assert found is not None and found.id == in_thread.id  # the thread's game, a day later
    await _finished_at(database, older.id, "2026-11-03T10:00:00+00:00")
    found = await store.read(plans.last_finished_game_in, 10)
    assert found is not None and found.id == older.id
    found = await store.read(plans.last_finished_game_in, 900)  # asked inside the thread itself
    assert found is not None and found.id == in_thread.id
    assert await store.read(plans.last_finished_game_in, 12) is None


async def _game_to(store: Store, row: GameRow, status: str) -> GameRow:
    return await store.write(
        plans.update_game, row.id, row.version, MoveRecord(5, status), GameChange(status=status)
    )


async def test_the_live_games_of_a_server_a_channel_or_a_thread(store: Store) -> None:
    """What ends when a place is gone: a server's live games; a channel's, with the games
    played in threads of it; one thread's. Ended games and other servers are left out."""
    lobby = await _game(store, 10)
    threaded = await _game(store, 11, status="active", thread=901)
    other_channel = await _game(store, 12, status="active")
    await _game(store, 13, status="finished", thread=902)
    elsewhere = await _game(store, 20, guild=2, status="active")  # another server

    def ids(rows: list[GameRow]) -> list[int]:
        return [r.id for r in rows]

    assert ids(await store.read(plans.live_games_at, 1)) == [
        lobby.id,
        threaded.id,
        other_channel.id,
    ]
    assert ids(await store.read(plans.live_games_at, 2)) == [elsewhere.id]
    assert ids(await store.read(plans.live_games_at, 1, channel_id=11)) == [threaded.id]
    assert ids(await store.read(plans.live_games_at, 1, channel_id=10)) == [lobby.id]
    assert ids(await store.read(plans.live_games_at, 1, thread_id=901)) == [threaded.id]
    assert await store.read(plans.live_games_at, 1, thread_id=902) == []  # that game is over
    assert await store.read(plans.live_games_at, 1, channel_id=14) == []
    assert await store.read(plans.live_games_at, 3) == []


async def test_the_live_games_are_read_a_page_at_a_time(store: Store) -> None:
    """A sweep's pages: the live games above an id, at most so many, in id order; ended
    games left out; the page after the last live game is empty."""
    made = [await _game(store, 30 + n, status="active" if n % 2 else None) for n in range(7)]
    await _game_to(store, made[2], "finished")
    await _game_to(store, made[5], "cancelled")
    live = [made[n].id for n in (0, 1, 3, 4, 6)]

    def ids(rows: list[GameRow]) -> list[int]:
        return [r.id for r in rows]

    assert ids(await store.read(plans.live_games_after, 0, 2)) == live[:2]
    assert ids(await store.read(plans.live_games_after, live[1], 2)) == live[2:4]
    assert ids(await store.read(plans.live_games_after, live[3], 2)) == live[4:]
    assert await store.read(plans.live_games_after, live[4], 2) == []
    assert ids(await store.read(plans.live_games_after, 0, 50)) == live
    (page,) = await store.read(plans.live_games_after, live[0], 1)
    assert page.players == [(5, "Ann")] and page.preset is Preset.OFFICIAL  # a whole row


async def test_the_games_are_counted_as_they_change(store: Store) -> None:
    """The figures /metrics shows follow a lobby, its start, its end, a cancelled lobby
    and an abandoned game (counted by hand at each step)."""
    assert await store.read(plans.games_by_status) == {
        "finished": 0,
        "abandoned": 0,
        "cancelled": 0,
    }
    first = await _game(store, 10)
    second = await _game(store, 11)
    counts = await store.read(plans.games_by_status)
    assert counts == {"lobby": 2, "finished": 0, "abandoned": 0, "cancelled": 0}
    first = await _game_to(store, first, "active")
    assert (await store.read(plans.games_by_status))["lobby"] == 1
    assert (await store.read(plans.games_by_status))["active"] == 1
    second = await _game_to(store, second, "cancelled")
    first = await _game_to(store, first, "finished")
    third = await _game_to(store, await _game(store, 10, status="active"), "abandoned")
    assert third.status == "abandoned"
    assert await store.read(plans.games_by_status) == {
        "finished": 1,
        "abandoned": 1,
        "cancelled": 1,
    }


async def test_migrating_counts_the_games_already_there(database: Database) -> None:
    """A database from before the counts: its ended games are counted once when it
    migrates, and a game whose move log retention had deleted is not pruned again."""
    old = await open_store(database, migrate=False)
    await old.migrate(target=17)  # before 018, which counts them
    await old.close()
    # written as that version's code wrote them (today's plans name later columns)
    pruned = await _old_game(database, 10, "finished")
    finished = await _old_game(database, 10, "finished")
    abandoned = await _old_game(database, 10, "abandoned")
    await _old_game(database, 11, "active")
    await fetch(database, "DELETE FROM moves WHERE game_id = ?", pruned)  # retention did
    new = await open_store(database)
    try:
        counts = await new.read(plans.games_by_status)
        assert counts == {"finished": 2, "abandoned": 1, "cancelled": 0, "active": 1}
        rows = await fetch(database, "SELECT id FROM games WHERE moves_pruned_at IS NOT NULL")
        assert rows == [(pruned,)]
        assert await new.write(plans.prune_moves, "2999-01-01T00:00:00+00:00", 10) == 2
        assert not await new.read(plans.has_moves, finished) and not await new.read(
            plans.has_moves, abandoned
        )
    finally:
        await new.close()


async def test_retention_batches_take_the_oldest_and_never_come_back(
    database: Database, store: Store
) -> None:
    """A batch prunes at most its size, the games that ended first; a game pruned is not
    taken again (its row says so), a live one or one that ended since never."""
    ended = []
    for day in (5, 3, 4, 1, 2):
        row = await _game(store, 10, status="active")
        row = await _game_to(store, row, "finished" if day % 2 else "abandoned")
        await _finished_at(database, row.id, f"2026-11-0{day}T10:00:00+00:00")
        ended.append((day, row.id))
    recent = await _game_to(store, await _game(store, 10, status="active"), "finished")
    live = await _game(store, 11, status="active")
    before = "2026-11-06T00:00:00+00:00"

    oldest_first = [game_id for _, game_id in sorted(ended)]
    assert await store.write(plans.prune_moves, before, 2) == 2
    kept = {game_id for game_id in oldest_first if await store.read(plans.has_moves, game_id)}
    assert kept == set(oldest_first[2:])
    assert await store.write(plans.prune_moves, before, 2) == 2
    assert await store.write(plans.prune_moves, before, 2) == 1
    assert await store.write(plans.prune_moves, before, 2) == 0
    assert not any([await store.read(plans.has_moves, game_id) for game_id in oldest_first])
    assert await store.read(plans.has_moves, recent.id) and await store.read(
        plans.has_moves, live.id
    )
    assert (
        await store.read(plans.results, oldest_first[0]) == []
    )  # the rows stay: nothing else touched
    assert await store.read(plans.get_game, oldest_first[0]) is not None


# -- no lookup reads every game (SQLite's query plans) -----------------------------------------


def _queries(plan: Generator[Query, Any, Any]) -> list[Query]:
    """Every statement a plan yields (each answered with no rows)."""
    out = [next(plan)]
    try:
        while True:
            out.append(plan.send([]))
    except StopIteration:
        return out


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "plan",
    [
        pytest.param(lambda: plans.games_by_status(), id="counts"),
        pytest.param(lambda: plans.last_finished_game_in(10), id="last-finished"),
        pytest.param(lambda: plans.live_game_in(10), id="live-in-channel"),
        pytest.param(lambda: plans.live_games_at(1), id="live-in-server"),
        pytest.param(lambda: plans.live_games_at(1, channel_id=10), id="live-in-channel-of"),
        pytest.param(lambda: plans.live_games_at(1, thread_id=900), id="live-in-thread"),
        pytest.param(lambda: plans.games_missing_final_message(), id="final-missing"),
        pytest.param(lambda: plans.live_games_after(0, 50), id="live-page"),
        pytest.param(lambda: plans.prune_moves("2026-11-01", 50), id="retention"),
    ],
)
async def test_no_lookup_scans_the_games(db_path: Path, plan: Any) -> None:
    """Each of these statements reads the games through an index (SQLite's plan scans no
    games but those of a partial index; with no statistics, the planner takes every table
    to be large)."""
    await (await open_store(db_path)).close()
    db = sqlite3.connect(db_path)
    try:
        for query in _queries(plan()):
            params = query.params if not query.many else query.params[0]
            steps = [str(r[3]) for r in db.execute(f"EXPLAIN QUERY PLAN {query.sql}", params)]
            scans = [
                s
                for s in steps
                if (s.startswith("SCAN games") and "INDEX" not in s)
                or "INTEGER PRIMARY KEY (rowid>" in s  # every game above an id
            ]
            assert scans == [], (query.sql, steps)
    finally:
        db.close()
