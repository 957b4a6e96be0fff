"""The store: migrations, the one-live-game-per-channel rule, round trips, version checks."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.engine import Category, Game, Preset, ScriptedDice
from bot.store import (
    UNSET,
    AlreadyApplied,
    ChannelBusy,
    GameChange,
    GameRow,
    GameStatus,
    MoveRecord,
    NewGame,
    ResultRow,
    SchemaTooNew,
    StaleVersion,
    Store,
    latest_schema_version,
    open_store,
    plans,
)
from bot.store.base import migration_files
from bot.store.records import CHANGE_COLUMNS

from ..conftest import Database, fetch


async def tables(database: Database) -> set[str]:
    if isinstance(database, Path):
        rows = await fetch(database, "SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await fetch(
            database,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()",
        )
    return {row[0] for row in rows}


async def test_migrations_on_an_empty_database(database: Database) -> None:
    """A new database gets every table and the latest schema version (a SQLite file in WAL
    mode)."""
    store = await open_store(database)
    try:
        assert await store.schema_version() == latest_schema_version() == 24
    finally:
        await store.close()
    expected = {"games", "moves", "results", "player_names", "leaderboard_archives"}
    later = {"daily_results", "player_settings", "secrets", "game_counts"}
    assert expected | later <= await tables(database)
    if isinstance(database, Path):
        assert (await fetch(database, "PRAGMA journal_mode"))[0][0] == "wal"


async def test_both_dialects_have_the_same_migrations() -> None:
    """Every migration exists in both dialects, under the same number and name."""
    sqlite = [path.name for _, path in migration_files("sqlite")]
    postgres = [path.name for _, path in migration_files("postgres")]
    assert sqlite == postgres and len(sqlite) == latest_schema_version()


async def test_migrations_from_the_previous_schema_version(database: Database) -> None:
    """A database one version behind, holding a game and a result, is upgraded and keeps
    both."""
    previous = latest_schema_version() - 1
    old = await open_store(database, migrate=False)
    await old.migrate(target=previous)
    assert await old.schema_version() == previous
    await old.close()
    # rows as the previous release wrote them
    await fetch(
        database,
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, players, "
        "created_at, updated_at) VALUES (7, 1, 10, 5, 'lobby', 'official', '[[5, \"Ann\"]]', "
        "'2026-11-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00')",
    )
    await fetch(
        database,
        "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, upper_total, "
        "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at) "
        "VALUES (7, 1, 10, 5, 200, 60, 0, 0, 0, 1, 1, 'official', '2026-11-01T00:00:00+00:00')",
    )

    new = await open_store(database)
    try:
        assert await new.schema_version() == latest_schema_version()
        kept = await new.read(plans.get_game, 7)
        assert kept is not None and kept.players == [(5, "Ann")] and kept.status == "lobby"
        assert kept.turn_seconds == 0 and kept.deadline_at is None  # the new columns' defaults
        assert kept.pictures  # games from before migration 008 keep their pictures
        assert await new.read(plans.results, 7) == [ResultRow(5, 200, 60, 0, 0, 0, 1, 1)]
        assert [r.figure for r in await new.read(plans.leaderboard, 1, "high")] == [200]
        assert (await new.read(plans.guild_settings, 1)).turn_seconds == 300
    finally:
        await new.close()


async def test_a_database_newer_than_the_code_is_refused(database: Database) -> None:
    """After a rollback the database is at a version this code has no migration for: opening
    it (to migrate or not) and migrating it are refused, naming both versions, and nothing is
    changed."""
    store = await open_store(database)
    await store.close()
    newer = latest_schema_version() + 2
    if isinstance(database, Path):
        await fetch(database, f"PRAGMA user_version = {newer}")
    else:
        await fetch(database, "UPDATE schema_version SET version = ?", newer)
    for migrate in (True, False):
        with pytest.raises(SchemaTooNew) as refused:
            await open_store(database, migrate=migrate)
        said = str(refused.value)
        assert f"version {newer}, newer than this code's {latest_schema_version()}" in said
    if isinstance(database, Path):
        assert await fetch(database, "PRAGMA user_version") == [(newer,)]
    else:
        assert await fetch(database, "SELECT version FROM schema_version") == [(newer,)]


async def test_a_migration_checks_the_version_again(store: Store, database: Database) -> None:
    """A newer process may migrate between this one's open and its migration: the migration
    itself refuses a version it does not know (in its transaction)."""
    newer = latest_schema_version() + 1
    if isinstance(database, Path):
        await fetch(database, f"PRAGMA user_version = {newer}")
    else:
        await fetch(database, "UPDATE schema_version SET version = ?", newer)
    with pytest.raises(SchemaTooNew):
        await store.migrate()


async def test_migrating_twice_changes_nothing(store: Store) -> None:
    """Running migrations on an up-to-date file is a no-op."""
    assert await store.migrate() == latest_schema_version()


async def test_one_live_game_per_channel(store: Store) -> None:
    """A second lobby in the same channel is refused; another channel is fine."""
    first = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    with pytest.raises(ChannelBusy) as busy:
        await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=10, host_id=6, preset=Preset.OFFICIAL, players=[]),
        )
    assert busy.value.existing.id == first.id
    await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=11, host_id=6, preset=Preset.OFFICIAL, players=[]),
    )


async def test_one_live_game_per_channel_is_enforced_by_the_schema(
    database: Database, store: Store
) -> None:
    """Even SQL that bypasses the store cannot put two live games in one channel."""
    await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await fetch(
            database,
            "INSERT INTO games (channel_id, host_id, status, preset, created_at, updated_at) "
            "VALUES (10, 7, 'active', 'official', 'now', 'now')",
        )


async def test_a_finished_game_frees_the_channel(store: Store) -> None:
    """Once a game ends, a new lobby may open in its channel."""
    row = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    await store.write(
        plans.update_game,
        row.id,
        row.version,
        MoveRecord(5, "cancel"),
        GameChange(status="cancelled"),
    )
    again = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    assert again.id > row.id and again.channel_id == 10 and again.status == "lobby"
    live = await store.read(plans.live_game_in, 10)
    assert live is not None and live.id == again.id


async def test_game_state_round_trips(store: Store) -> None:
    """The engine's JSON comes back equal, with the version and the move log."""
    row = await store.write(
        plans.create_game,
        NewGame(
            guild_id=1, channel_id=10, host_id=5, preset=Preset.BONUS_TURN, players=[(5, "Ann")]
        ),
    )
    game = Game([("5", "Ann")], "bonus-turn", ScriptedDice([6, 6, 6, 6, 6]))
    game.roll("5")
    game.score("5", Category.YAHTZEE)
    saved = await store.write(
        plans.update_game,
        row.id,
        row.version,
        MoveRecord(5, "score", "yahtzee 50", "6-6-6-6-6"),
        GameChange(state=game.to_dict(), status="active"),
    )
    loaded = await store.read(plans.get_game, row.id)
    assert loaded == saved
    assert loaded is not None and loaded.version == row.version + 1
    assert Game.from_dict(loaded.state or {}) == game
    assert (await store.read(plans.moves, row.id))[-1] == (1, 5, "score", "yahtzee 50", "6-6-6-6-6")


async def test_a_stale_version_is_rejected(store: Store) -> None:
    """A change computed from an old version is refused and writes nothing."""
    row = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    await store.write(
        plans.update_game,
        row.id,
        row.version,
        MoveRecord(6, "join"),
        GameChange(players=[(6, "Bob")]),
    )
    with pytest.raises(StaleVersion):
        await store.write(
            plans.update_game,
            row.id,
            row.version,
            MoveRecord(7, "join"),
            GameChange(players=[(7, "Cat")]),
        )
    current = await store.read(plans.get_game, row.id)
    assert current is not None and current.players == [(6, "Bob")]
    assert [m[2] for m in await store.read(plans.moves, row.id)] == ["open", "join"]


async def test_results_are_written_with_the_finishing_change(store: Store) -> None:
    """Result rows land in the same transaction as the status change, once."""
    row = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    result = ResultRow(5, 250, 70, 35, 1, 0, 1, 1)
    await store.write(
        plans.update_game,
        row.id,
        row.version,
        MoveRecord(5, "score"),
        GameChange(status="finished", results=[result]),
    )
    assert await store.read(plans.results, row.id) == [result]
    with pytest.raises(StaleVersion):  # a retried last move cannot record twice
        await store.write(
            plans.update_game,
            row.id,
            row.version,
            MoveRecord(5, "score"),
            GameChange(status="finished", results=[result]),
        )
    assert await store.read(plans.results, row.id) == [result]


async def test_the_board_record_keeps_the_newest_board(store: Store) -> None:
    """A board is recorded unless a newer one is, or the same version's board at another
    turn (an Undo went back while the next turn's board was being posted)."""
    game = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=9, host_id=5, preset=Preset.OFFICIAL, players=[(5, "Ann")]),
    )

    async def record() -> tuple[int | None, int | None, int | None]:
        row = await store.read(plans.get_game, game.id)
        assert row is not None
        return row.board_message_id, row.board_turn, row.board_version

    assert await store.write(plans.show_board, game.id, 100, 1, 3)
    assert not await store.write(plans.show_board, game.id, 101, 1, 2)  # an older board comes late
    assert await record() == (100, 1, 3)
    assert await store.write(plans.show_board, game.id, 100, 1, 2)  # it is this message: still live
    assert await record() == (100, 1, 3)
    assert await store.write(plans.show_board, game.id, 102, 1, 3)  # the same turn posted again
    assert await record() == (102, 1, 3)
    assert not await store.write(
        plans.show_board, game.id, 103, 2, 3
    )  # a turn that an Undo took back
    assert await record() == (102, 1, 3)
    assert await store.write(
        plans.show_board, game.id, 103, 2, 4
    )  # the next version: the next turn
    assert await record() == (103, 2, 4)


async def test_each_database_has_its_own_install_id(tmp_path: Path) -> None:
    """The id that nonces carry is random per database and kept across restarts."""
    ids = []
    for name in ("a.sqlite3", "b.sqlite3", "a.sqlite3"):
        store = await open_store(tmp_path / name)
        try:
            ids.append(await store.read(plans.install_id))
        finally:
            await store.close()
    assert ids[0] == ids[2] != ids[1]
    assert all(len(i) == 6 and int(i, 16) >= 0 for i in ids)


async def test_the_daily_key_is_made_once_and_kept(database: Database, tmp_path: Path) -> None:
    """The first opening makes 32 random bytes; every later one reads them back; another
    database (another deployment) has its own."""
    first = await open_store(database)
    key = first.daily_key
    await first.close()
    again = await open_store(database)
    try:
        assert again.daily_key == key and len(key) == 32
        assert await fetch(database, "SELECT name, value FROM secrets") == [("daily", key.hex())]
    finally:
        await again.close()
    other = await open_store(tmp_path / "other.sqlite3")
    try:
        assert other.daily_key != key
    finally:
        await other.close()


async def test_processes_starting_at_once_agree_on_the_daily_key(database: Database) -> None:
    """Shards opening a new database together: each makes its own candidate, one is kept,
    and every process reads that one."""
    stores = [await open_store(database, migrate=False) for _ in range(4)]
    try:
        await stores[0].migrate()
        candidates = [secrets.token_hex(32) for _ in stores]
        keys = await asyncio.gather(
            *(
                s.write(plans.keep_secret, "daily", c)
                for s, c in zip(stores, candidates, strict=True)
            )
        )
        assert len(set(keys)) == 1 and keys[0] in candidates
        assert await fetch(database, "SELECT COUNT(*) FROM secrets") == [(1,)]
        assert await stores[0].write(plans.keep_secret, "daily", "00" * 32) == keys[0]  # a late one
    finally:
        for s in stores:
            await s.close()
    together = await asyncio.gather(*(open_store(database) for _ in range(3)))  # later starts
    try:
        assert {s.daily_key for s in together} == {bytes.fromhex(keys[0])}
    finally:
        for s in together:
            await s.close()


async def test_a_request_makes_one_change(store: Store) -> None:
    """The move log takes one change per request id: a second change answering the same
    click (from a second process) is refused whole, whatever game or channel it names."""
    first = await store.write(
        plans.create_game,
        NewGame(
            guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[], request_id=111
        ),
    )
    with pytest.raises(AlreadyApplied):
        await store.write(
            plans.create_game,
            NewGame(
                guild_id=1,
                channel_id=11,
                host_id=5,
                preset=Preset.OFFICIAL,
                players=[],
                request_id=111,
            ),
        )
    assert await store.read(plans.live_game_in, 11) is None
    moved = await store.write(
        plans.update_game, first.id, first.version, MoveRecord(5, "join", request_id=222)
    )
    with pytest.raises(AlreadyApplied):
        await store.write(
            plans.update_game, moved.id, moved.version, MoveRecord(5, "leave", request_id=222)
        )
    again = await store.read(plans.get_game, first.id)
    assert again is not None and again.version == moved.version  # the game row undone too
    assert [m[2] for m in await store.read(plans.moves, first.id)] == ["open", "join"]
    assert await store.read(plans.request_recorded, 222) and not await store.read(
        plans.request_recorded, 333
    )
    # moves without a request (timers, computer players) are not limited
    await store.write(plans.update_game, moved.id, moved.version, MoveRecord(None, "timeout"))
    await store.write(plans.update_game, moved.id, moved.version + 1, MoveRecord(None, "timeout"))


async def test_a_daily_try_holds_no_channel(store: Store) -> None:
    """Migration 011: a daily challenge (played on a private board) leaves its channel free
    for a lobby, and is found by its player instead."""
    daily = await store.write(
        plans.create_game,
        NewGame(
            guild_id=1,
            channel_id=50,
            host_id=7,
            preset=Preset.OFFICIAL,
            players=[(7, "Ann")],
            daily="2026-11-24",
        ),
    )
    lobby = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=50, host_id=8, preset=Preset.OFFICIAL, players=[(8, "Bob")]),
    )
    found = await store.read(plans.live_game_in, 50)
    assert found is not None and found.id == lobby.id
    mine = await store.read(plans.live_daily_of, 7)
    assert mine is not None and mine.id == daily.id
    assert await store.read(plans.live_daily_of, 8) is None
    with pytest.raises(ChannelBusy):
        await store.write(
            plans.create_game,
            NewGame(
                guild_id=1, channel_id=50, host_id=9, preset=Preset.OFFICIAL, players=[(9, "Cat")]
            ),
        )


async def test_every_field_of_a_game_row_and_a_change_is_a_games_column(
    database: Database,
) -> None:
    """A game's row is read by the names of ``GameRow``'s fields and changed by the names of
    ``GameChange``'s: each is a column of the migrated games table (a field added without
    its migration fails here, on both databases)."""
    await (await open_store(database)).close()
    if isinstance(database, Path):
        rows = await fetch(database, "SELECT name FROM pragma_table_info('games')")
    else:
        rows = await fetch(
            database,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'games'",
        )
    columns = {str(r[0]) for r in rows}
    assert {f.name for f in dataclasses.fields(GameRow)} <= columns
    assert set(CHANGE_COLUMNS) <= columns
    assert "state_format" in CHANGE_COLUMNS and "unseen" not in CHANGE_COLUMNS


async def test_a_change_writes_each_column_it_sets_and_no_other(store: Store) -> None:
    """Every column a ``GameChange`` can set is written as given (and read back so), a
    change leaves the columns it does not set as they were, and the version goes up by one
    with each."""
    lobby = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[(5, "Ann")]),
    )
    every = GameChange(
        status=GameStatus.ACTIVE,
        state={"seats": ["5", "6"], "turn": 3},
        state_format=1,
        players=[(5, "Ann"), (6, "Bob")],
        host_id=6,
        deadline_at="2026-11-30T10:00:00+00:00",
        ping_at="2026-11-30T09:55:00+00:00",
        notify_at="2026-11-30T09:51:00+00:00",
        last_move_at="2026-11-30T09:50:00+00:00",
        turn_seconds=600,
        timeout_policy="skip-seat",
        thread_id=77,
        hints=False,
        pictures=False,
        undo_message_id=501,
        board_message_id=502,
        board_turn=4,
        board_version=1,
    )
    changed = await store.write(plans.update_game, lobby.id, 0, MoveRecord(5, "all"), every)
    expected = {
        "status": "active",
        "state": {"seats": ["5", "6"], "turn": 3},
        "players": [(5, "Ann"), (6, "Bob")],
        "host_id": 6,
        "deadline_at": "2026-11-30T10:00:00+00:00",
        "ping_at": "2026-11-30T09:55:00+00:00",
        "notify_at": "2026-11-30T09:51:00+00:00",
        "last_move_at": "2026-11-30T09:50:00+00:00",
        "turn_seconds": 600,
        "timeout_policy": "skip-seat",
        "thread_id": 77,
        "hints": False,
        "pictures": False,
        "undo_message_id": 501,
        "board_message_id": 502,
        "board_turn": 4,
        "board_version": 1,
        "version": 1,
    }
    assert {name: getattr(changed, name) for name in expected} == expected
    assert set(CHANGE_COLUMNS) - {"state_format"} <= set(expected)  # every column checked
    # one column: the others stay as the first change left them
    again = await store.write(
        plans.update_game, lobby.id, 1, MoveRecord(6, "one"), GameChange(ping_at=None)
    )
    assert again.ping_at is None and again.version == 2
    unchanged = {name: getattr(again, name) for name in expected if name != "ping_at"}
    assert unchanged == {n: v for n, v in expected.items() if n != "ping_at"} | {"version": 2}
    assert await store.read(plans.get_game, lobby.id) == again


def test_a_later_change_wins_where_both_set_a_field() -> None:
    """``a | b``: every field either sets, ``b``'s where both do; what is written with a
    change (results, the unseen flag) is kept from whichever gave it."""
    result = ResultRow(5, 200, 60, 0, 0, 0, 1, 1)
    first = GameChange(deadline_at="a", ping_at="b", results=[result], unseen=True)
    second = GameChange(ping_at=None, host_id=3)
    both = first | second
    assert both.deadline_at == "a" and both.ping_at is None and both.host_id == 3
    assert both.results == [result] and both.unseen is True
    assert both.status is UNSET and both.room_for is None
    assert (second | first).ping_at == "b"
    assert GameChange() | GameChange() == GameChange()


async def test_game_ids_are_never_handed_out_twice(database: Database) -> None:
    """The id of the newest game, once its row is gone, goes to no later game."""
    store = await open_store(database)
    try:
        first = await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
        )
        second = await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=11, host_id=5, preset=Preset.OFFICIAL, players=[]),
        )
    finally:
        await store.close()
    await fetch(database, "DELETE FROM moves WHERE game_id = ?", second.id)
    await fetch(database, "DELETE FROM games WHERE id = ?", second.id)
    store = await open_store(database)
    try:
        third = await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=12, host_id=5, preset=Preset.OFFICIAL, players=[]),
        )
    finally:
        await store.close()
    assert first.id < second.id < third.id


@pytest.mark.sqlite_only
async def test_migration_016_rebuilds_games_keeping_rows_links_and_indexes(
    database: Database,
) -> None:
    """SQLite's games table is made again with AUTOINCREMENT: every game keeps its id and
    columns, the moves, results and daily results that name one still do (and are still
    checked), the indexes are the same, and the next id follows the highest."""
    assert isinstance(database, Path)
    old = await open_store(database, migrate=False)
    await old.migrate(target=15)
    await old.close()
    stamp = "'2026-11-01T00:00:00+00:00'"
    for game_id, status in ((3, "finished"), (9, "active")):
        await fetch(
            database,
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, players, "
            f"created_at, updated_at, thread_id, language) VALUES (?, 1, ?, 5, ?, 'official', "
            f"'[[5, \"Ann\"]]', {stamp}, {stamp}, 77, 'de')",
            game_id, 10 + game_id, status,
        )  # fmt: skip
        await fetch(
            database,
            "INSERT INTO moves (game_id, version, user_id, action, at) "
            f"VALUES (?, 0, 5, 'open', {stamp})",
            game_id,
        )  # fmt: skip
    await fetch(
        database,
        "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, upper_total, "
        "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at) "
        f"VALUES (3, 1, 13, 5, 200, 60, 0, 0, 0, 1, 1, 'official', {stamp})",
    )
    await fetch(
        database,
        "INSERT INTO daily_results (day, user_id, guild_id, game_id, name) "
        "VALUES ('2026-11-01', 5, 1, 3, 'Ann')",
    )
    index_sql = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'"
    indexes = set(await fetch(database, index_sql))
    rebuilt = await open_store(database, migrate=False)
    await rebuilt.migrate(target=16)  # (018 adds indexes of its own)
    await rebuilt.close()
    assert {name for name, _ in await fetch(database, index_sql)} == {name for name, _ in indexes}

    store = await open_store(database)
    try:
        kept = await store.read(plans.get_game, 9)
        assert kept is not None and kept.channel_id == 19 and kept.thread_id == 77
        assert kept.language == "de" and kept.status == "active" and kept.opened_by is None
        new = await store.write(
            plans.create_game,
            NewGame(
                guild_id=1,
                channel_id=30,
                host_id=6,
                preset=Preset.OFFICIAL,
                players=[],
                opened_by=4242,
            ),
        )
        assert new.id == 10 and new.opened_by == 4242
    finally:
        await store.close()
    assert await fetch(database, "PRAGMA foreign_key_check") == []
    made = await fetch(database, "SELECT sql FROM sqlite_master WHERE name = 'games'")
    assert "AUTOINCREMENT" in made[0][0]
    assert await fetch(database, "SELECT COUNT(*) FROM moves WHERE game_id IN (3, 9)") == [(2,)]
    with sqlite3.connect(database) as db:  # the links are still checked
        db.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(
                f"INSERT INTO moves (game_id, version, action, at) VALUES (99, 0, 'x', {stamp})"
            )


async def test_no_lobby_opens_in_a_games_thread(store: Store) -> None:
    """A game's thread holds that game: a lobby there is refused while it runs and after
    it ended; the channel the thread is in is free once the game is not live."""
    game = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    await store.write(
        plans.update_game, game.id, game.version, MoveRecord(5, "thread"), GameChange(thread_id=55)
    )
    with pytest.raises(ChannelBusy) as busy:
        await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=55, host_id=6, preset=Preset.OFFICIAL, players=[]),
        )
    assert busy.value.existing.id == game.id
    await store.write(
        plans.update_game,
        game.id,
        game.version + 1,
        MoveRecord(5, "end"),
        GameChange(status="abandoned"),
    )
    with pytest.raises(ChannelBusy):
        await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=55, host_id=6, preset=Preset.OFFICIAL, players=[]),
        )
    await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=10, host_id=6, preset=Preset.OFFICIAL, players=[]),
    )


def test_a_shape_reads_its_own_columns_only() -> None:
    """A record is read from a row selected by its shape's list of columns (its fields'
    names, an expression standing for one under its name); a row of another length is
    refused rather than read into the wrong fields, and a record made by keyword has no
    shape (its order is not its columns')."""
    from bot.store.sql import shape_of

    result = shape_of(ResultRow, sql={"name": "''"})
    assert result.columns.endswith("seats, '' AS name, expected_loss")
    assert result((5, 200, 60, 0, 1, 0, 1, 2, "", 1.5)) == ResultRow(
        5, 200, 60, 0, 1, 0, 1, 2, name="", expected_loss=1.5
    )
    with pytest.raises(ValueError):
        result((5, 200, 60, 0, 1, 0, 1, 2, ""))
    with pytest.raises(TypeError):
        shape_of(NewGame)


async def test_tied_daily_scores_share_a_place(store: Store, database: Database) -> None:
    """A day's board: 200, 150, 150 and 100 are placed 1, 2, 2, 4 (as tied players of a
    game are), the tied two in the order they finished."""
    tries = [(7, "Ann", 200, 1), (8, "Bob", 150, 3), (9, "Cat", 150, 2), (10, "Dan", 100, 4)]
    for user_id, name, score, minute in tries:
        made = await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=50, host_id=user_id, preset=Preset.OFFICIAL,
                    players=[(user_id, name)], daily="2026-11-24"),
        )  # fmt: skip
        await fetch(
            database,
            "UPDATE daily_results SET score = ?, optimal = 250, finished_at = ? WHERE game_id = ?",
            score, f"2026-11-24T10:0{minute}:00+00:00", made.id,
        )  # fmt: skip
    board = await store.read(plans.daily_board, "2026-11-24", 1)
    assert [(e.place, e.name) for e in board] == [(1, "Ann"), (2, "Cat"), (2, "Bob"), (4, "Dan")]


async def test_a_players_notice_language_is_kept_with_their_choice(store: Store) -> None:
    """/yahtzee notify keeps the language of the client that asked; a choice made without
    one keeps the language as it was."""
    assert await store.read(plans.player_language, 5) is None
    await store.write(plans.set_player_notify, 5, True, "fr")
    assert await store.read(plans.player_language, 5) == "fr"
    await store.write(plans.set_player_notify, 5, False)  # closed DMs turn it off
    assert await store.read(plans.player_language, 5) == "fr"
    assert await store.read(plans.player_notify, 5) is False
    await store.write(plans.set_player_language, 5, "de")
    assert await store.read(plans.player_language, 5) == "de"
