"""python -m bot: read the settings, set up logging, run the bot (or `sync` its commands,
or `migrate-to-postgres` its SQLite file)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
from pathlib import Path

import aiohttp
import asyncpg
import discord

from bot import logs
from bot.app import YahtzeeBot
from bot.settings import (
    DEFAULT_DATABASE,
    Settings,
    SettingsError,
    read_env_file,
    url_passwords,
)
from bot.store import SchemaTooNew, StoreUnavailable, is_postgres_url, latest_schema_version
from bot.store.backup import BackupError, backup_sqlite
from bot.store.transfer import TransferError, sqlite_to_postgres

USAGE = "usage: python -m bot [sync | migrate-to-postgres | backup FILE]"


async def _run(settings: Settings, sync: bool) -> None:
    async with YahtzeeBot(settings) as bot:
        if sync:
            await bot.login(settings.token)
            await bot.sync_commands()
            return
        # A host's stop (SIGTERM) or Ctrl+C closes the bot as a whole, here: the gateway,
        # then the helper processes and the database; then the process exits 0.
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):  # not on Windows
                loop.add_signal_handler(stop, stopping.set)
        running = asyncio.create_task(bot.start(settings.token), name="bot")
        stopped = asyncio.create_task(stopping.wait(), name="stop-signal")
        await asyncio.wait({running, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if stopped.done():
            logging.getLogger("bot").info("stopping: asked to by a signal")
            await bot.stop()
        stopped.cancel()
        await running  # its error, if it failed


def _masked(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with each of ``secrets`` replaced by ``***``."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _values() -> dict[str, str] | None:
    """The settings from .env and the environment, unchecked (None: .env is broken, said)."""
    values: dict[str, str] = {}
    if Path(".env").is_file():
        try:
            values.update(read_env_file(Path(".env")))
        except SettingsError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return None
    values.update(os.environ)
    return values


def migrate_to_postgres() -> int:
    """Copy the SQLite file (DATABASE_PATH, or the default) into DATABASE_URL's database."""
    values = _values()
    if values is None:
        return 2
    url = values.get("DATABASE_URL", "").strip()
    path = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    if not is_postgres_url(url):
        print(
            "error: set DATABASE_URL to the PostgreSQL database to copy into "
            "(postgresql://user@host:5432/name); DATABASE_PATH names the SQLite file to copy "
            f"(now {path}).",
            file=sys.stderr,
        )
        return 2
    try:
        copied = asyncio.run(sqlite_to_postgres(path, url))
    except (TransferError, StoreUnavailable) as exc:
        print(f"error: {_masked(str(exc), tuple(url_passwords(url)))}", file=sys.stderr)
        return 1
    for item in copied:
        print(
            f"{item.table}: {item.rows} rows copied, {item.rows} in PostgreSQL, contents equal "
            f"(sha256 {item.digest[:12]})"
        )
    print(
        f"done: {path} is copied. Remove DATABASE_PATH from the settings and keep DATABASE_URL "
        "to run the bot on PostgreSQL."
    )
    return 0


def backup(target: str) -> int:
    """Copy the SQLite file (DATABASE_PATH, or the default) to ``target``, safely while the
    bot runs; check the copy and say what it holds."""
    values = _values()
    if values is None:
        return 2
    if is_postgres_url(values.get("DATABASE_URL", "").strip()):
        print(
            "error: the games are in PostgreSQL (DATABASE_URL): back them up with pg_dump "
            "(see docs/operating.md, Backups), not with this command.",
            file=sys.stderr,
        )
        return 2
    path = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    try:
        made = backup_sqlite(path, Path(target))
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    games = ", ".join(f"{count} {status}" for status, count in sorted(made.games.items()))
    rows = ", ".join(f"{count} {table}" for table, count in made.rows.items())
    print(f"backed up {path} to {made.path} ({made.size:,} bytes, schema version "
          f"{made.schema_version}); integrity check: ok")  # fmt: skip
    print(f"it holds games: {games or 'none'}; rows: {rows or 'none'}")
    if made.schema_version < latest_schema_version():
        print(
            f"the copy is of schema version {made.schema_version}, as the database is: this "
            f"code upgrades it to {latest_schema_version()} when it opens it (the bot's next "
            "start, or a restored copy)"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Start the bot; exit with a one-line message if something is set up wrong."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["migrate-to-postgres"]:
        return migrate_to_postgres()
    if len(args) == 2 and args[0] == "backup":
        return backup(args[1])
    if args not in ([], ["sync"]):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder = settings.data_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(
            f"error: cannot create {folder} for DATABASE_PATH ({exc.strerror}): "
            "choose a folder the bot can write to.",
            file=sys.stderr,
        )
        return 2
    logs.setup(settings.log_level_number, settings.log_format, settings.secrets)
    try:
        asyncio.run(_run(settings, sync=args == ["sync"]))
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN: reset it on the Bot page and update .env.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - we ask for none
        print(
            "error: Discord says this bot needs privileged intents it does not use.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0
    except SchemaTooNew as exc:  # a rollback: running on would misread the newer tables
        print(f"error: {settings.database_shown}: {exc}.", file=sys.stderr)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, StoreUnavailable) as exc:
        # e.g. DATABASE_PATH names a file that is not a database, or the server is down
        print(
            f"error: cannot open the database at {settings.database_shown}: "
            f"{_masked(str(exc), settings.secrets)}",
            file=sys.stderr,
        )
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        print(
            f"error: cannot reach Discord ({_masked(str(exc), settings.secrets)}); check the "
            "network and try again.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
