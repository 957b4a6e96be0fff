"""What ``python -m bot`` shows of its settings: never a token or a password, and one line
when its database is newer than its code."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from bot.store import latest_schema_version, open_store
from bot.strategy import Table

from ..conftest import Database, fetch
from .conftest import TOKEN, database_env, place_table
from .fake_discord import FakeDiscord
from .test_process import bot_env, read_until, run

PASSWORD = "hunter2-Secret"


def with_password(url: str) -> str:
    """``url`` (the test server trusts every local connection) with a password in it."""
    scheme, _, rest = url.partition("://")
    user, _, host = rest.partition("@")
    return f"{scheme}://{user}:{PASSWORD}@{host}"


async def test_a_database_newer_than_the_code_stops_the_bot(
    fake: FakeDiscord, database: Database, tmp_path: Path
) -> None:
    """After a rollback to older code: the bot stops before it serves anything, with one line
    naming the database's version and the code's, exit code 2 (systemd does not retry it)."""
    store = await open_store(database)
    await store.close()
    newer = latest_schema_version() + 1
    if isinstance(database, Path):
        await fetch(database, f"PRAGMA user_version = {newer}")
    else:
        await fetch(database, "UPDATE schema_version SET version = ?", newer)
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, **database_env(database))
    proc = await run(env=env, cwd=tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    text = err.decode()
    assert proc.returncode == 2, text
    assert "Traceback" not in text, text
    (line,) = [line for line in text.splitlines() if line.startswith("error:")]
    assert f"schema is version {newer}, newer than this code's {newer - 1}" in line, line
    assert not fake.requests_to("POST", r"/messages$")


async def test_the_log_never_shows_the_token_or_the_database_password(
    fake: FakeDiscord, database: Database, tmp_path: Path, official_values: Table
) -> None:
    """A whole start and stop at DEBUG: the token never appears, nor (on PostgreSQL) the
    password in DATABASE_URL, which the log shows as ``user:***@``."""
    place_table(official_values, tmp_path / "data")
    settings = database_env(database)
    if "DATABASE_URL" in settings:
        settings["DATABASE_URL"] = with_password(settings["DATABASE_URL"])
    env = bot_env(fake, DISCORD_TOKEN=TOKEN, LOG_LEVEL="DEBUG", **settings)
    proc = await run(env=env, cwd=tmp_path)
    try:
        seen = await read_until(proc, b"invite:")
        proc.send_signal(signal.SIGTERM)
        out, rest = await asyncio.wait_for(proc.communicate(), 15)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    text = (seen + rest + out).decode()
    assert TOKEN not in text
    if "DATABASE_URL" in settings:
        assert PASSWORD not in text
        assert "database ready at postgresql://postgres:***@" in text, text


async def test_a_malformed_env_line_is_named_but_not_shown(tmp_path: Path) -> None:
    """A token pasted on a line of its own in .env: the error names the file, the line and
    what is expected, never the line's text (it would land in the journal)."""
    secret = "MTIzNDU2Nzg5.GhIjKl.pasted-token-on-its-own-line"
    (tmp_path / ".env").write_text(f"LOG_LEVEL=INFO\n{secret}\n", encoding="utf-8")
    for args in ((), ("backup", str(tmp_path / "copy.sqlite3"))):
        proc = await run(*args, env=bot_env(None), cwd=tmp_path)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        text = (out + err).decode()
        assert proc.returncode == 2, text
        assert ".env:2: expected KEY=VALUE" in text and secret not in text, text
        assert "pasted" not in text and "MTIz" not in text


async def test_a_malformed_setting_is_named_but_not_shown(tmp_path: Path) -> None:
    """A setting that does not parse is named with what it should be; its value is not
    echoed (someone may have pasted the token into the wrong setting)."""
    secret = "MTIzNDU2Nzg5.GhIjKl.wrong-place"
    for name in ("DEV_GUILD_ID", "LOG_LEVEL", "BOT_MOVE_DELAY", "TO_WIN_BUILD", "SHARD_COUNT"):
        env = bot_env(None, DISCORD_TOKEN=TOKEN, **{name: secret})
        proc = await run(env=env, cwd=tmp_path)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        text = (out + err).decode()
        assert proc.returncode == 2 and name in text, text
        assert secret not in text and "wrong-place" not in text, text
