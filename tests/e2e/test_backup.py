"""`python -m bot backup FILE` while games are played: the copy holds every move committed
before it began, is sound, and says what it holds."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from bot.engine import ScriptedDice
from bot.games import GameService
from bot.store import open_store

from ..clock import FakeClock
from ..conftest import Database
from ..games.test_daily import play_daily
from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import start_game
from .test_process import bot_env, run


def moves_in(path: Path) -> set[tuple[int, int]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {(int(g), int(v)) for g, v in db.execute("SELECT game_id, version FROM moves")}
    finally:
        db.close()


@pytest.mark.sqlite_only
async def test_a_backup_taken_during_play_holds_every_committed_move(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, database: Database,
    tmp_path: Path,
) -> None:  # fmt: skip
    assert isinstance(database, Path)
    players = [fake.user(name) for name in ("Ann", "Bob", "Cy")]
    channels = [fake.add_channel(f"table-{i}")["id"] for i in range(3)]
    await start_bot()
    boards = [
        await start_game(fake, channel, player)
        for channel, player in zip(channels, players, strict=True)
    ]
    dice.extend([3] * 200)

    async def play(player: dict, board: dict, rolls: int) -> None:  # as fast as answered
        for _ in range(rolls):
            await fake.click(player, fake.messages[board["id"]], "Roll")
            current = fake.messages[board["id"]]
            if not current["components"][0]["components"][0].get("disabled"):
                await fake.click(player, current, "3")

    await asyncio.gather(*(play(p, b, 2) for p, b in zip(players, boards, strict=True)))
    before = moves_in(database)
    target = tmp_path / "copy" / "yahtzee-backup.sqlite3"
    target.parent.mkdir()
    env = bot_env(None, DATABASE_PATH=str(database))
    playing = asyncio.gather(*(play(p, b, 1) for p, b in zip(players, boards, strict=True)))
    proc = await run("backup", str(target), env=env, cwd=tmp_path)
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    await playing
    assert proc.returncode == 0, err.decode()
    after = moves_in(database)
    copied = moves_in(target)
    assert before <= copied <= after and len(before) > 10
    said = out.decode()
    assert "integrity check: ok" in said and "3 active" in said, said
    assert f"{len(copied)} moves" in said, said

    again = await run("backup", str(target), env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(again.communicate(), 30)
    assert again.returncode == 1 and "exists already" in err.decode()  # never overwritten
    nowhere = await run("backup", str(tmp_path / "missing" / "b.sqlite3"), env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(nowhere.communicate(), 30)
    assert nowhere.returncode == 1 and "no folder" in err.decode() and "missing" in err.decode()
    assert moves_in(target) == copied


async def test_a_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    env = bot_env(None, DATABASE_URL="postgresql://postgres@127.0.0.1:5432/test")
    proc = await run("backup", str(tmp_path / "x.sqlite3"), env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2 and "pg_dump" in err.decode()
    assert not (tmp_path / "x.sqlite3").exists()


async def test_a_backup_is_private_and_works_on_any_path(tmp_path: Path) -> None:
    """The copy is readable by its owner only (0600, whatever the umask), even in a folder and
    under a name with ``?``, ``#`` and ``%`` (a SQLite URI's special characters), and is a
    sound database there."""
    source = tmp_path / "data ?#%" / "yahtzee.sqlite3"
    store = await open_store(source)
    await store.close()
    folder = tmp_path / "backups ?x=1#top %41"
    folder.mkdir()
    target = folder / "copy?#%25.sqlite3"
    env = bot_env(None, DATABASE_PATH=str(source))
    old = os.umask(0o022)  # the usual umask: a plain new file would be world-readable
    try:
        proc = await run("backup", str(target), env=env, cwd=tmp_path)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        os.umask(old)
    assert proc.returncode == 0, err.decode()
    assert "integrity check: ok" in out.decode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in folder.iterdir()) == [target.name]  # no .partial left
    copy = sqlite3.connect(target)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        copy.close()


async def test_a_backup_refuses_an_existing_partial_file(tmp_path: Path) -> None:
    """``FILE.partial`` already there (another backup at work, or one cut short): refused with
    what to do, and that file is left as it was."""
    source = tmp_path / "yahtzee.sqlite3"
    store = await open_store(source)
    await store.close()
    target = tmp_path / "copy.sqlite3"
    partial = tmp_path / "copy.sqlite3.partial"
    partial.write_bytes(b"another backup's pages")
    env = bot_env(None, DATABASE_PATH=str(source))
    proc = await run("backup", str(target), env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    said = err.decode()
    assert proc.returncode == 1, said
    assert f"{partial} exists already" in said and "delete copy.sqlite3.partial" in said, said
    assert partial.read_bytes() == b"another backup's pages" and not target.exists()


@pytest.mark.sqlite_only
async def test_a_restored_backup_rolls_the_same_daily_challenge(tmp_path: Path) -> None:
    """The daily's key is in the database: a backup taken by the command and copied back
    (docs/operating.md's restore) gives the same day the same dice, so tries before and after a
    restore are on one challenge."""
    live = tmp_path / "data" / "yahtzee.sqlite3"
    clock = FakeClock()
    store = await open_store(live)
    try:
        _, before = await play_daily(GameService(store, None, clock), 1, 100, 1, "Ann")
    finally:
        await store.close()
    backup = tmp_path / "yahtzee-backup.sqlite3"
    proc = await run("backup", str(backup), env=bot_env(None, DATABASE_PATH=str(live)),
                     cwd=tmp_path)  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    restored = tmp_path / "restored" / "yahtzee.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    store = await open_store(restored)
    try:
        _, after = await play_daily(GameService(store, None, clock), 2, 200, 2, "Bob")
    finally:
        await store.close()
    assert after == before
    fresh = await open_store(tmp_path / "new.sqlite3")  # what a lost key would give instead
    try:
        _, other = await play_daily(GameService(fresh, None, clock), 2, 200, 2, "Bob")
    finally:
        await fresh.close()
    assert other != before
