"""`python -m bot backup FILE` while games are played: the copy holds every move committed
before it began, is sound, and says what it holds."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.engine import ScriptedDice

from ..conftest import Database
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
