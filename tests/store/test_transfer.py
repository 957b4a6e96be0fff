"""python -m bot migrate-to-postgres: every game, move, result and setting of a SQLite file
arrives in PostgreSQL, read back the same through the store, and play continues there."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.engine import Preset
from bot.store import (
    GameChange,
    GuildSettings,
    MoveRecord,
    NewGame,
    ResultRow,
    Store,
    TokenRecord,
    open_store,
    plans,
)
from bot.store.transfer import TransferError, sqlite_to_postgres

from ..conftest import fetch

ROOT = Path(__file__).resolve().parents[2]


async def a_used_file(path: Path) -> None:
    """A SQLite file as a bot leaves it: a finished game with results and move costs, a
    running game, a cancelled lobby, a reset and a restore, settings, names."""
    store = await open_store(path)
    try:
        done = await store.write(
            plans.create_game,
            NewGame(
                guild_id=7,
                channel_id=70,
                host_id=1,
                preset=Preset.OFFICIAL,
                players=[(1, "Ann"), (2, "Bób 🎲")],
                daily="2026-11-24",
            ),
        )
        done = await store.write(
            plans.update_game,
            done.id,
            done.version,
            MoveRecord(1, "start"),
            GameChange(status="active", state={"turn": 1}),
        )
        done = await store.write(
            plans.update_game, done.id, done.version, MoveRecord(1, "roll", dice="1-2-3-4-5")
        )
        await store.write(
            plans.set_move_costs, [(done.id, done.version, 1.25, "kept 1-2-3-4; better: all")]
        )
        finished = GameChange(
            status="finished",
            results=[
                ResultRow(1, 250, 70, 35, 1, 0, 1, 2, name="Ann", expected_loss=3.5),
                ResultRow(2, 180, 50, 0, 0, 0, 2, 2, name="Bób 🎲"),
            ],
            daily_scores=(250, 261),
        )
        score = MoveRecord(2, "score", "chance 30")
        await store.write(plans.update_game, done.id, done.version, score, finished)
        running = await store.write(
            plans.create_game,
            NewGame(
                guild_id=7, channel_id=71, host_id=3, preset=Preset.BONUS_TURN, players=[(3, "Cat")]
            ),
        )
        await store.write(
            plans.update_game,
            running.id,
            running.version,
            MoveRecord(3, "start"),
            GameChange(
                status="active",
                state={"turn": 2},
                deadline_at="2026-11-23T20:00:00+00:00",
                turn_seconds=120,
                thread_id=710,
                hints=False,
                pictures=False,
            ),
        )
        await store.write(plans.show_board, running.id, 7100, 1, running.version + 1)
        lobby = await store.write(
            plans.create_game,
            NewGame(
                guild_id=8, channel_id=80, host_id=4, preset=Preset.OFFICIAL, players=[(4, "Dan")]
            ),
        )
        await store.write(
            plans.update_game,
            lobby.id,
            lobby.version,
            MoveRecord(4, "cancel"),
            GameChange(status="cancelled"),
        )
        await store.write(
            plans.save_guild_settings, 7, GuildSettings(Preset.BONUS_TURN, 60, "skip-seat", True), 1
        )
        assert await store.write(plans.archive_results, 7, 1) == 2
        assert await store.write(plans.restore_results, 7) == 2
        assert await store.write(plans.archive_results, 7, 1) == 2  # a second reset, still archived
        await store.write(plans.set_player_notify, 1, True)
        await store.write(plans.set_player_auto_roll, 1, False)
        await store.write(plans.set_player_auto_roll, 2, True)
        await store.write(plans.note_token_place, 90, "group")
        await store.write(plans.set_player_notify, 2, False, "fr")  # notices in French
        await store.write(
            plans.save_token,
            TokenRecord(555, 90, 4242, "tok", 1.0e9, True, 556, (557, 558)),
        )
    finally:
        await store.close()


async def everything(store: Store) -> dict[str, object]:
    """What the store hands out about every game, server and player of the file above."""
    games = [await store.read(plans.get_game, game_id) for game_id in (1, 2, 3)]
    return {
        "games": games,
        "moves": [await store.read(plans.moves, game_id) for game_id in (1, 2, 3)],
        "results": await store.read(plans.results, 1),
        "decisions": await store.read(plans.decisions, 1, 1),
        "settings": [
            await store.read(plans.guild_settings, 7),
            await store.read(plans.guild_settings, 8),
        ],
        "boards": [
            await store.read(plans.leaderboard, 7, kind) for kind in ("high", "wins", "average")
        ],
        "names": [
            await store.read(plans.player_name, 7, 1),
            await store.read(plans.player_name, 7, 2),
        ],
        "install": await store.read(plans.install_id),
        "notify": [await store.read(plans.player_notify, user) for user in (1, 2, 3)],
        "autoroll": [await store.read(plans.player_auto_roll, user) for user in (1, 2, 3)],
        "token places": await store.read(plans.token_places),
        "tokens": await store.read(plans.fresh_tokens, 1.0e9 + 60),
        "languages": [await store.read(plans.player_language, u) for u in (1, 2, 3)],
        "daily key": store.daily_key,  # the same day's dice on PostgreSQL
        "daily": [
            await store.read(plans.daily_entry, 1),
            await store.read(plans.daily_board, "2026-11-24", None),
        ],
    }


async def test_every_row_arrives_and_reads_back_the_same(
    db_path: Path, postgres_schema: str
) -> None:
    await a_used_file(db_path)
    copied = await sqlite_to_postgres(db_path, postgres_schema)
    counts = {c.table: c.rows for c in copied}
    # worked out from a_used_file: 3 games; an opening entry each and 3 + 1 + 1 moves; 2
    # results and names; two resets (the restore in between marks the first); one server's
    # settings; the install id; the daily key; two players' choices; a group DM; the games
    # counted by how they ended
    assert counts == {
        "games": 3, "moves": 8, "results": 2, "player_names": 2,
        "leaderboard_archives": 2, "guild_settings": 1, "meta": 1, "daily_results": 1,
        "secrets": 1, "token_places": 1, "player_settings": 2, "game_counts": 3,
        "place_tokens": 1,
    }  # fmt: skip
    # every table of the schema, whatever a migration adds
    assert set(counts) == await sqlite_tables_of(db_path)
    sqlite, postgres = await open_store(db_path), await open_store(postgres_schema)
    try:
        before = await everything(sqlite)
        assert await everything(postgres) == before
        assert before["notify"] == [True, False, False]
        assert before["autoroll"] == [False, True, None]
        assert before["languages"] == [None, "fr", None]
        assert [t.followups for t in before["tokens"]] == [(557, 558)]  # type: ignore[union-attr]
        assert before["games"][1].hints is False  # type: ignore[index]
        assert before["daily"][0].score == 250 and before["daily"][0].optimal == 261  # type: ignore[index]
        archived = await fetch(postgres_schema, "SELECT COUNT(*) FROM results WHERE archived > 0")
        assert archived == [(2,)]
        # PostgreSQL hands out the next ids after the copied ones
        fresh = await postgres.write(
            plans.create_game,
            NewGame(guild_id=7, channel_id=72, host_id=5, preset=Preset.OFFICIAL, players=[]),
        )
        assert fresh.id == 4
        assert await postgres.write(plans.restore_results, 7) == 2
    finally:
        await sqlite.close()
        await postgres.close()


async def sqlite_tables_of(path: Path) -> set[str]:
    """Every table of a SQLite file but SQLite's own."""
    rows = await fetch(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(name) for (name,) in rows if not str(name).startswith("sqlite_")}


async def test_a_table_postgres_lacks_or_changes_is_refused(
    db_path: Path, postgres_schema: str
) -> None:
    """The file's tables must be PostgreSQL's, and each table must read back the same (its
    rows hashed on both sides): a trigger that changes a name on its way in is caught, and
    the copy is undone."""
    await a_used_file(db_path)
    await (await open_store(postgres_schema)).close()
    await fetch(
        postgres_schema,
        "CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN NEW.name := upper(NEW.name); RETURN NEW; END $$",
    )
    await fetch(
        postgres_schema,
        "CREATE TRIGGER shouting BEFORE INSERT ON player_names "
        "FOR EACH ROW EXECUTE FUNCTION shout()",
    )
    with pytest.raises(TransferError) as caught:
        await sqlite_to_postgres(db_path, postgres_schema)
    assert str(caught.value) == (
        "player_names differs after the copy (2 rows in SQLite, 2 in PostgreSQL, different "
        "contents): nothing was copied"
    )
    assert await fetch(postgres_schema, "SELECT COUNT(*) FROM moves") == [(0,)]
    await fetch(postgres_schema, "DROP TRIGGER shouting ON player_names")
    await fetch(postgres_schema, "CREATE TABLE notes (id BIGINT PRIMARY KEY)")
    with pytest.raises(TransferError, match="the SQLite file has no table 'notes'"):
        await sqlite_to_postgres(db_path, postgres_schema)
    await fetch(postgres_schema, "DROP TABLE notes")
    copied = await sqlite_to_postgres(db_path, postgres_schema)
    assert {c.table for c in copied} == await sqlite_tables_of(db_path)


async def test_a_database_with_games_is_refused_and_left_alone(
    db_path: Path, postgres_schema: str
) -> None:
    await a_used_file(db_path)
    target = await open_store(postgres_schema)
    await target.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=5, host_id=5, preset=Preset.OFFICIAL, players=[]),
    )
    await target.close()
    with pytest.raises(TransferError, match="already holds games"):
        await sqlite_to_postgres(db_path, postgres_schema)
    assert await fetch(postgres_schema, "SELECT COUNT(*) FROM games") == [(1,)]


async def test_the_command(db_path: Path, postgres_schema: str, tmp_path: Path) -> None:
    """`python -m bot migrate-to-postgres` with the two settings: a line per table, and
    a plain error, not a traceback, without DATABASE_URL."""
    await a_used_file(db_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)

    async def run(**settings: str) -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "migrate-to-postgres", env={**env, **settings},
            cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return process.returncode, out.decode(), err.decode()

    code, out, err = await run(DATABASE_PATH=str(db_path))
    assert code == 2 and "set DATABASE_URL" in err and "Traceback" not in err
    code, out, err = await run(DATABASE_PATH=str(db_path), DATABASE_URL=postgres_schema)
    assert code == 0, err
    assert "games: 3 rows copied, 3 in PostgreSQL" in out
    assert "moves: 8 rows copied" in out
    code, out, err = await run(DATABASE_PATH=str(db_path), DATABASE_URL=postgres_schema)
    assert code == 1 and "already holds games" in err and "Traceback" not in err
