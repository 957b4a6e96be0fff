"""python -m bot: read the settings, set up logging, run the bot (or `sync` its commands,
`migrate` its database, `backup` or `migrate-to-postgres` its SQLite file; `--help`)."""

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
    Settings,
    SettingsError,
    database_url_of,
    read_env_file,
    shown_url,
    sqlite_file_of,
    url_passwords,
)
from bot.store import (
    SchemaTooNew,
    StoreUnavailable,
    is_postgres_url,
    latest_schema_version,
    open_store,
)
from bot.store.backup import BackupError, backup_sqlite
from bot.store.transfer import TransferError, sqlite_to_postgres

#: Each command of ``python -m bot`` and what it does (``--help``).
COMMANDS = (
    ("(none)", "start the bot: connect to Discord and serve"),
    ("sync", "publish the slash commands to Discord now, then exit"),
    ("migrate", "create the database or bring its schema up to date, without Discord"),
    ("backup FILE", "copy the SQLite database to FILE, safely while the bot runs"),
    (
        "migrate-to-postgres [FILE]",
        "copy the SQLite database (or FILE) into DATABASE_URL's PostgreSQL database",
    ),
)
USAGE = "usage: python -m bot [sync | migrate | backup FILE | migrate-to-postgres [FILE]]"
HELP = "\n".join(
    [
        USAGE,
        "",
        *(f"  {name:<28}{what}" for name, what in COMMANDS),
        "",
        "The database is DATABASE_URL's, else the SQLite file DATABASE_PATH, else",
        "yahtzee.sqlite3 in DATA_DIR, else data/yahtzee.sqlite3 (.env and the environment).",
    ]
)


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


def _found_by(values: dict[str, str]) -> str:
    """Which setting named the SQLite file (for a message about it)."""
    if values.get("DATABASE_PATH", "").strip():
        return "DATABASE_PATH"
    if values.get("DATA_DIR", "").strip():
        return "DATA_DIR"
    return "the default: neither DATABASE_PATH nor DATA_DIR is set"


def _cannot_open(shown: str, exc: BaseException, secrets: tuple[str, ...]) -> str:
    """The one line said when a command cannot open its database."""
    what = _masked(str(exc), secrets) or type(exc).__name__
    return f"error: cannot open the database at {shown}: {what}"


async def _migrate(target: str | Path) -> tuple[int, int]:
    """The database's schema version before and after its migrations (before: as found
    under the migrations' lock, so of processes migrating at once one says it migrated)."""
    store = await open_store(target)
    try:
        after = await store.schema_version()
        return (after if store.migrated_from is None else store.migrated_from), after
    finally:
        await store.close()


def migrate() -> int:
    """Create the database the bot uses, or bring its schema up to date; no Discord."""
    values = _values()
    if values is None:
        return 2
    try:
        url = database_url_of(values)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    target: str | Path = url if url is not None else sqlite_file_of(values)
    shown = shown_url(url) if url is not None else str(target)
    secrets = tuple(url_passwords(url)) if url is not None else ()
    try:
        before, after = asyncio.run(_migrate(target))
    except SchemaTooNew as exc:
        print(f"error: {shown}: {exc}.", file=sys.stderr)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, StoreUnavailable, OSError) as exc:
        print(_cannot_open(shown, exc, secrets), file=sys.stderr)
        return 1
    if before == after:
        print(f"{shown}: schema version {after}, up to date")
    elif before == 0:
        print(f"{shown}: created, schema version {after}")
    else:
        print(f"{shown}: migrated from schema version {before} to {after}")
    return 0


def migrate_to_postgres(source: str | None = None) -> int:
    """Copy the SQLite file (``source``, else the one the bot uses: DATABASE_PATH, or
    yahtzee.sqlite3 in DATA_DIR, or the default) into DATABASE_URL's database."""
    values = _values()
    if values is None:
        return 2
    url = values.get("DATABASE_URL", "").strip()
    path = Path(source) if source is not None else sqlite_file_of(values)
    found_by = "given" if source is not None else _found_by(values)
    if not is_postgres_url(url):
        print(
            "error: set DATABASE_URL to the PostgreSQL database to copy into "
            f"(postgresql://user@host:5432/name); the SQLite file to copy is {path} ({found_by}).",
            file=sys.stderr,
        )
        return 2
    if not path.is_file():
        print(
            f"error: there is no SQLite file at {path} ({found_by}) to copy: name it "
            "(python -m bot migrate-to-postgres FILE) or set DATA_DIR as the bot has it.",
            file=sys.stderr,
        )
        return 2
    secrets = tuple(url_passwords(url))
    try:
        copied = asyncio.run(sqlite_to_postgres(path, url))
    except (TransferError, StoreUnavailable) as exc:
        print(f"error: {_masked(str(exc), secrets)}", file=sys.stderr)
        return 1
    except SchemaTooNew as exc:
        print(f"error: {path} or {shown_url(url)}: {exc}.", file=sys.stderr)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, OSError) as exc:
        print(_cannot_open(f"{path} or {shown_url(url)}", exc, secrets), file=sys.stderr)
        return 1
    for item in copied:
        print(
            f"{item.table}: {item.rows} rows copied, {item.rows} in PostgreSQL, contents equal "
            f"(sha256 {item.digest[:12]})"
        )
    print(
        f"done: {path} is copied. Remove DATABASE_PATH from the settings (if set) and keep "
        "DATABASE_URL to run the bot on PostgreSQL."
    )
    return 0


def backup(target: str) -> int:
    """Copy the SQLite file the bot uses (DATABASE_PATH, or yahtzee.sqlite3 in DATA_DIR, or
    the default) to ``target``, safely while the bot runs; check the copy and say what it
    holds."""
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
    path = sqlite_file_of(values)
    if not path.is_file():
        print(
            f"error: there is no database at {path} ({_found_by(values)}): set DATABASE_PATH "
            "or DATA_DIR as the bot has them.",
            file=sys.stderr,
        )
        return 1
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
            "start, python -m bot migrate, or a restored copy)"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Start the bot; exit with a one-line message if something is set up wrong."""
    args = sys.argv[1:] if argv is None else argv
    # Whatever starts it (systemd's UMask=0077, a shell's 0022): every file and folder the bot
    # and its commands make (the database, its -wal and -shm, backups, the strategy tables)
    # is its user's alone.
    os.umask(0o077)
    if args in (["--help"], ["-h"], ["help"]):
        print(HELP)
        return 0
    if args[:1] == ["migrate-to-postgres"] and len(args) <= 2:
        return migrate_to_postgres(*args[1:])
    if len(args) == 2 and args[0] == "backup":
        return backup(args[1])
    if args == ["migrate"]:
        return migrate()
    if args not in ([], ["sync"]):
        print(f"{USAGE}\n(python -m bot --help says what each does)", file=sys.stderr)
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
