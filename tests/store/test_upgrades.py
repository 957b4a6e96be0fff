"""The upgrade path: a database of every earlier schema version opens with today's code, is
backed up as it is (``python -m bot backup`` needs no knowledge of its schema), restored,
upgraded, and moved to PostgreSQL with every table's rows equal.

The earlier databases are made here, not checked in: the numbered SQLite migrations run up
to version N (as the code of that version left its file: the migrations are never edited
once released), then a few rows are written with that version's columns only.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.store import latest_schema_version, open_store
from bot.store.backup import backup_sqlite
from bot.store.sqlite import SqliteStore
from bot.store.transfer import sqlite_to_postgres

from ..conftest import fetch

ROOT = Path(__file__).resolve().parents[2]
AT = "2026-11-20T10:00:00+00:00"

#: (the version that made the table, its rows as that version could write them)
ROWS: list[tuple[int, str, list[tuple[Any, ...]]]] = [
    (1, "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, players, state, "
        "state_format, version, created_at, updated_at, finished_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
     [(1, 7, 70, 1, "finished", "official", '[[1, "Ann"], [2, "Bób 🎲"]]', '{"turn": 13}', 1,
       2, AT, AT, AT),
      (2, 7, 71, 3, "active", "bonus-turn", '[[3, "Cat"]]', '{"turn": 2}', 1, 0, AT, AT, None),
      (3, 8, 80, 4, "cancelled", "official", '[[4, "Dan"]]', None, None, 1, AT, AT, AT)]),
    (1, "INSERT INTO moves (id, game_id, version, user_id, action, detail, dice, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
     [(1, 1, 0, 1, "start", None, None, AT), (2, 1, 1, 1, "roll", None, "1-2-3-4-5", AT),
      (3, 1, 2, 2, "score", "chance 30", None, AT), (4, 2, 0, 3, "start", None, None, AT),
      (5, 3, 0, 4, "open", None, None, AT), (6, 3, 1, 4, "cancel", None, None, AT)]),
    (2, "INSERT INTO results (id, game_id, guild_id, channel_id, user_id, total, upper_total, "
        "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at, archived) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
     [(1, 1, 7, 70, 1, 250, 70, 35, 1, 0, 1, 2, "official", AT, 0),
      (2, 1, 7, 70, 2, 180, 50, 0, 0, 0, 2, 2, "official", AT, 0)]),
    (3, "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?)",
     [(7, 1, "Ann", AT), (7, 2, "Bób 🎲", AT)]),
    (3, "INSERT INTO leaderboard_archives (id, guild_id, archived_by, archived_at, results, "
        "restored_at) VALUES (?, ?, ?, ?, ?, ?)",
     [(1, 7, 1, AT, 2, AT)]),
    (4, "INSERT INTO guild_settings (guild_id, preset, turn_seconds, timeout_policy, "
        "use_threads, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
     [(7, "bonus-turn", 60, "skip-seat", 1, 1, AT)]),
    (10, "INSERT INTO daily_results (day, user_id, guild_id, game_id, name, score, optimal, "
         "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
     [("2026-11-20", 1, 7, 1, "Ann", 250, 261, AT)]),
    (13, "INSERT INTO player_settings (user_id, notify, updated_at) VALUES (?, ?, ?)",
     [(1, 1, AT), (2, 0, AT)]),
    (17, "INSERT INTO secrets (name, value) VALUES (?, ?)", [("daily", "ab" * 32)]),
]  # fmt: skip

#: Every earlier schema version this code can migrate.
EARLIER = list(range(1, latest_schema_version()))


async def an_old_file(path: Path, version: int) -> None:
    """A SQLite file as the code of schema ``version`` left it, with a few rows."""
    store = await SqliteStore.connect(path, migrate=False)
    try:
        assert await store.migrate(version) == version
    finally:
        await store.close()
    db = sqlite3.connect(path)
    try:
        with db:
            for since, sql, rows in ROWS:
                if since <= version:
                    db.executemany(sql, rows)
    finally:
        db.close()


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of a SQLite file (but SQLite's own): its rows, in a fixed order."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [
            str(name)
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(name).startswith("sqlite_")
        ]
        return {
            name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
            for name in names
        }
    finally:
        db.close()


async def postgres_tables(url: str, names: dict[str, list[str]]) -> dict[str, list[Any]]:
    """The rows of the named tables in PostgreSQL, columns in SQLite's order."""
    found = {}
    for name, columns in names.items():
        listed = ", ".join(f'"{c}"' for c in columns)
        found[name] = sorted(await fetch(url, f'SELECT {listed} FROM "{name}"'), key=repr)
    return found


def columns_of(path: Path) -> dict[str, list[str]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            name: [str(c[1]) for c in db.execute(f'PRAGMA table_info("{name}")')]
            for name in tables(path)
        }
    finally:
        db.close()


def placed(
    row: tuple[Any, ...], columns: list[str], written: dict[str, list[Any]]
) -> tuple[Any, ...]:
    """A game's row as migration 024 leaves it: a game without a place (opened before 022)
    is played where token_places says: 'token' if its channel or thread is one, else
    'channel'; every other value as written."""
    if "place" not in columns or row[columns.index("place")] is not None:
        return row
    tokens = {r[0] for r in written.get("token_places", [])}
    channel, thread = row[columns.index("channel_id")], row[columns.index("thread_id")]
    out = list(row)
    out[columns.index("place")] = "token" if {channel, thread} & tokens else "channel"
    return tuple(out)


#: What the test compared, per version and table (rows), for the note of issue 50.
FIGURES: dict[int, dict[str, int]] = {}


@pytest.mark.parametrize("version", EARLIER)
async def test_an_earlier_database_is_backed_up_restored_and_moved_with_every_row(
    version: int, tmp_path: Path, postgres_schema: str
) -> None:
    old = tmp_path / "data" / "yahtzee.sqlite3"
    await an_old_file(old, version)
    written = tables(old)

    # backed up as it is, at its own version: the copy holds the same rows
    made = await asyncio.to_thread(backup_sqlite, old, tmp_path / "backup.sqlite3")
    assert made.schema_version == version
    assert made.games == {"finished": 1, "active": 1, "cancelled": 1}
    assert tables(made.path) == written

    # restored (the copy put in place of the database) and opened with today's code
    restored = tmp_path / "restored" / "yahtzee.sqlite3"
    restored.parent.mkdir()
    shutil.copy(made.path, restored)
    store = await open_store(restored)
    try:
        assert await store.schema_version() == latest_schema_version()
    finally:
        await store.close()
    upgraded = tables(restored)
    before, after = columns_of(old), columns_of(restored)
    for name, rows in written.items():  # every row written at that version is still there,
        keep = [after[name].index(c) for c in before[name]]  # its columns' values unchanged
        expected = [placed(row, before[name], written) for row in rows] if name == "games" else rows
        assert sorted((tuple(r[i] for i in keep) for r in upgraded[name]), key=repr) == sorted(
            expected, key=repr
        )

    # moved to PostgreSQL: every table, every row
    copied = await sqlite_to_postgres(restored, postgres_schema)
    counts = {c.table: c.rows for c in copied}
    assert set(counts) == set(upgraded)
    assert await postgres_tables(postgres_schema, columns_of(restored)) == upgraded
    assert counts["games"] == 3 and counts["moves"] == 6
    FIGURES[version] = counts


async def test_the_backup_command_on_a_schema_9_file(tmp_path: Path) -> None:
    """`python -m bot backup FILE` on a file of 2026-11-23 (schema 9, before daily_results):
    it was refused with "no such table: daily_results"."""
    old = tmp_path / "data" / "yahtzee.sqlite3"
    await an_old_file(old, 9)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DATA_DIR"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "backup", str(tmp_path / "copy.sqlite3"),
        env={**env, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(old)}, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert "schema version 9); integrity check: ok" in lines[0]
    assert lines[1] == (
        "it holds games: 1 active, 1 cancelled, 1 finished; rows: 6 moves, 2 results"
    )
    assert "upgrades it to" in lines[2]
    assert tables(tmp_path / "copy.sqlite3") == tables(old)
