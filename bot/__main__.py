"""python -m bot: read the settings, set up logging, run the bot (or `sync` its commands)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys

import aiohttp
import discord

from bot.app import YahtzeeBot
from bot.settings import Settings, SettingsError

USAGE = "usage: python -m bot [sync]"


async def _run(settings: Settings, sync: bool) -> None:
    async with YahtzeeBot(settings) as bot:
        if sync:
            await bot.login(settings.token)
            await bot.sync_commands()
            return
        await bot.start(settings.token)


def main(argv: list[str] | None = None) -> int:
    """Start the bot; exit with a one-line message if something is set up wrong."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["sync"]):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder = settings.database_path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(
            f"error: cannot create {folder} for DATABASE_PATH ({exc.strerror}): "
            "choose a folder the bot can write to.",
            file=sys.stderr,
        )
        return 2
    discord.utils.setup_logging(level=settings.log_level_number, root=True)
    logging.getLogger("discord").setLevel(max(settings.log_level_number, logging.INFO))
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
    except sqlite3.Error as exc:  # e.g. DATABASE_PATH names a file that is not a database
        print(
            f"error: cannot open the database at {settings.database_path}: {exc}", file=sys.stderr
        )
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        print(
            f"error: cannot reach Discord ({exc}); check the network and try again.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
