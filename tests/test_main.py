"""The operator's commands of `python -m bot`: they find the database the bot uses (DATA_DIR,
DATABASE_PATH, DATABASE_URL, as the docs say), `migrate` creates or upgrades it without
Discord, `--help` says what each command does, and a database that cannot be opened is one
line, never a traceback."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import asyncpg

from bot.store import latest_schema_version

from .conftest import TEST_DATABASE_URL
from .store.test_upgrades import an_old_file, tables

ROOT = Path(__file__).resolve().parents[1]
LATEST = latest_schema_version()


async def bot(*args: str, cwd: Path, **settings: str) -> tuple[int, str, str]:
    """`python -m bot ARGS` with only ``settings`` of the bot's (no token): exit code, output,
    errors."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_", "DATA_DIR", "DISCORD_", "SHARD_"))
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env={**env, "PYTHONPATH": str(ROOT), **settings},
        cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def version_of(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


async def test_help_says_what_each_command_does(tmp_path: Path) -> None:
    code, out, err = await bot("--help", cwd=tmp_path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    for command in ("sync", "migrate", "backup FILE", "migrate-to-postgres [FILE]"):
        (line,) = [x for x in lines if x.strip().startswith(command + " ")]
        assert len(line.split(maxsplit=len(command.split()))[-1]) > 20  # a sentence, each
    code, out, err = await bot("frobnicate", cwd=tmp_path)
    assert code == 2 and "usage:" in err and "--help" in err


async def test_every_command_finds_the_database_in_data_dir(
    tmp_path: Path, postgres_schema: str
) -> None:
    """The systemd unit sets DATA_DIR only: the bot's file is $DATA_DIR/yahtzee.sqlite3, and
    `migrate`, `backup` and `migrate-to-postgres` use that same file."""
    state = tmp_path / "state"
    code, out, err = await bot("migrate", cwd=tmp_path, DATA_DIR=str(state))
    assert code == 0, err
    assert out == f"{state / 'yahtzee.sqlite3'}: created, schema version {LATEST}\n"
    assert version_of(state / "yahtzee.sqlite3") == LATEST
    assert not (tmp_path / "data").exists()
    code, out, err = await bot("migrate", cwd=tmp_path, DATA_DIR=str(state))
    assert code == 0 and out.endswith(f"schema version {LATEST}, up to date\n"), err

    code, out, err = await bot(
        "backup", str(tmp_path / "copy.sqlite3"), cwd=tmp_path, DATA_DIR=str(state)
    )
    assert code == 0, err
    assert out.startswith(f"backed up {state / 'yahtzee.sqlite3'} to ")

    code, out, err = await bot(
        "migrate-to-postgres", cwd=tmp_path, DATA_DIR=str(state), DATABASE_URL=postgres_schema
    )
    assert code == 0, err
    assert f"done: {state / 'yahtzee.sqlite3'} is copied" in out
    assert "meta: 1 rows copied, 1 in PostgreSQL, contents equal" in out

    # DATABASE_PATH, where set, wins over DATA_DIR; a file named on the command line wins too
    elsewhere = tmp_path / "elsewhere.sqlite3"
    code, out, err = await bot(
        "migrate", cwd=tmp_path, DATA_DIR=str(state), DATABASE_PATH=str(elsewhere)
    )
    assert code == 0 and out.startswith(f"{elsewhere}: created"), err
    code, out, err = await bot("backup", str(tmp_path / "b2.sqlite3"), cwd=tmp_path)
    assert code == 1 and err.startswith("error: there is no database at data/yahtzee.sqlite3")
    assert "neither DATABASE_PATH nor DATA_DIR is set" in err


async def test_migrate_upgrades_an_older_file_and_refuses_both_settings(tmp_path: Path) -> None:
    old = tmp_path / "data" / "yahtzee.sqlite3"
    await an_old_file(old, 9)
    before = tables(old)
    code, out, err = await bot("migrate", cwd=tmp_path)
    assert code == 0, err
    assert out == f"data/yahtzee.sqlite3: migrated from schema version 9 to {LATEST}\n"
    assert len(tables(old)["games"]) == len(before["games"])
    code, out, err = await bot(
        "migrate", cwd=tmp_path, DATABASE_PATH=str(old), DATABASE_URL=TEST_DATABASE_URL
    )
    assert code == 2 and "not both" in err and "Traceback" not in err


async def test_a_database_that_cannot_be_opened_is_one_line(
    tmp_path: Path, postgres_url: str
) -> None:
    """A PostgreSQL database that does not exist, a role that does not exist, a port nobody
    listens on, a SQLite file that is not a database or cannot be made: one line each,
    naming what failed and what to do."""
    base = postgres_url.rsplit("/", 1)[0]
    admin = await asyncpg.connect(postgres_url)
    try:
        port = 1 + max(5432, int(await admin.fetchval("SHOW port")))
    finally:
        await admin.close()
    host = base.rsplit("@", 1)[-1].split(":")[0]
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("not a database\n" * 100)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    cases = {
        f"{base}/no_such_database": ('database "no_such_database" does not exist', "createdb"),
        f"postgresql://nobody_here@{host}:{port - 1}/test": ('"nobody_here"', "role"),
        f"postgresql://postgres@{host}:{port}/test": (f"{host}:{port}", "running"),
    }
    for url, words in cases.items():
        for command in (["migrate"], ["migrate-to-postgres", str(not_a_database)]):
            if command[0] == "migrate-to-postgres":
                file = tmp_path / "data" / "yahtzee.sqlite3"
                await an_old_file(file, 1) if not file.exists() else None
                command = ["migrate-to-postgres", str(file)]
            code, out, err = await bot(*command, cwd=tmp_path, DATABASE_URL=url)
            assert code == 1, (command, url, out, err)
            assert len(err.splitlines()) == 1 and "Traceback" not in err, err
            assert all(word in err for word in words), (command, err)
    code, out, err = await bot("migrate", cwd=tmp_path, DATABASE_PATH=str(not_a_database))
    assert code == 1 and len(err.splitlines()) == 1 and "not a database" in err, err
    if os.geteuid() != 0:  # root may write anywhere
        target = locked / "sub" / "yahtzee.sqlite3"
        code, out, err = await bot("migrate", cwd=tmp_path, DATABASE_PATH=str(target))
        assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
