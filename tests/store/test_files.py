"""The bot's files are its user's alone, whoever starts it: the data folder 0700, the SQLite
file and its -wal and -shm 0600, also under a umask of 0022 (scripts/start.sh from a shell)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine import Preset
from bot.store import NewGame, open_store, plans

from ..test_main import bot


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The process's umask 0022 (a shell's usual) for the test."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("open_umask")
async def test_the_store_makes_its_folder_and_files_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "yahtzee.sqlite3"
    store = await open_store(path)
    try:
        await store.write(
            plans.create_game,
            NewGame(guild_id=1, channel_id=2, host_id=3, preset=Preset.OFFICIAL, players=[]),
        )
        assert mode(path.parent) == 0o700
        for name in ("yahtzee.sqlite3", "yahtzee.sqlite3-wal", "yahtzee.sqlite3-shm"):
            assert mode(path.parent / name) == 0o600, name
    finally:
        await store.close()


@pytest.mark.usefixtures("open_umask")
async def test_the_commands_make_private_files_under_any_umask(tmp_path: Path) -> None:
    state = tmp_path / "state"
    code, _, err = await bot("migrate", cwd=tmp_path, DATA_DIR=str(state))
    assert code == 0, err
    assert mode(state) == 0o700 and mode(state / "yahtzee.sqlite3") == 0o600
    code, _, err = await bot(
        "backup", str(tmp_path / "copy.sqlite3"), cwd=tmp_path, DATA_DIR=str(state)
    )
    assert code == 0, err
    assert mode(tmp_path / "copy.sqlite3") == 0o600
