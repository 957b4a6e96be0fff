"""Every setting, read once from the environment and a .env file, and validated."""

from __future__ import annotations

import logging
import os
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data") / "yahtzee.sqlite3"
PROJECT_ENV_FILE = Path(__file__).resolve().parents[1] / ".env"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
LOG_FORMATS = ("text", "json")
#: TO_WIN_BUILD: build the To-win distributions when they are missing and the memory allows
#: ("auto"), or never (they are only loaded, if an operator put them in the data folder).
TO_WIN_BUILDS = ("auto", "never")
#: Seconds between a computer player's moves: its turn (up to four moves) is over within 4 s.
DEFAULT_BOT_MOVE_DELAY = 0.6
#: Seconds discord.py waits, after the gateway's READY, for one more server's GUILD_CREATE
#: before the bot is ready (and repairs its boards): its own default.
DEFAULT_GUILD_READY_SECONDS = 2.0


class SettingsError(Exception):
    """A missing or broken setting; the message says which one and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's configuration."""

    token: str = field(repr=False)  # a secret: never in a repr, a log line or an error
    database_path: Path = DEFAULT_DATABASE
    #: postgresql://...: the shared store instead of the file (its password is a secret:
    #: ``database_shown`` is what may be shown)
    database_url: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY  # seconds between a computer's moves
    #: seconds to wait, after READY, for one more server before the bot is ready
    guild_ready_seconds: float = DEFAULT_GUILD_READY_SECONDS
    metrics_port: int | None = None  # /metrics, /healthz, /readyz served here if set
    metrics_host: str = "127.0.0.1"
    log_format: str = "text"  # or "json": one JSON object a line
    keep_moves_days: int | None = None  # None: keep every finished game's move log
    to_win_build: str = "auto"  # or "never": the To-win distributions are only ever loaded
    #: the folder of the bot's own files (the strategy tables; the SQLite file by default);
    #: None: the SQLite file's folder
    data_folder: Path | None = None

    @classmethod
    def load(
        cls, env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Read settings from ``env`` (default: the process environment) over ``env_file``."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update(read_env_file(env_file))
        values.update(os.environ if env is None else env)
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Validate raw string settings."""

        def get(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None

        token = get("DISCORD_TOKEN")
        if token is None:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put your bot token in a .env file next to "
                "README.md (see .env.example) or in the environment."
            )
        if any(ch.isspace() for ch in token) or token.lower().startswith("bot "):
            raise SettingsError(
                "DISCORD_TOKEN looks wrong: paste only the token from the Developer Portal's "
                "Bot page, without spaces or a 'Bot ' prefix."
            )
        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}.")
        shard_ids_raw = get("SHARD_IDS")
        shard_ids = None
        if shard_ids_raw is not None:
            shard_ids = tuple(_int(part, "SHARD_IDS") for part in shard_ids_raw.split(","))
        shard_count = _int(get("SHARD_COUNT"), "SHARD_COUNT") if get("SHARD_COUNT") else None
        if shard_ids is not None and shard_count is None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT too (the total number of shards).")
        if shard_count is not None and shard_count < 1:
            raise SettingsError("SHARD_COUNT must be 1 or more.")
        if shard_ids and shard_count and any(not 0 <= s < shard_count for s in shard_ids):
            raise SettingsError("every SHARD_IDS entry must be between 0 and SHARD_COUNT - 1.")
        if shard_ids is not None and len(set(shard_ids)) != len(shard_ids):
            twice = next(s for s in shard_ids if shard_ids.count(s) > 1)
            raise SettingsError(
                f"SHARD_IDS names shard {twice} twice: list each shard this process runs once."
            )
        database_url = database_url_of(values)
        dev_guild = get("DEV_GUILD_ID")
        delay_raw = get("BOT_MOVE_DELAY")
        try:
            delay = float(delay_raw) if delay_raw is not None else DEFAULT_BOT_MOVE_DELAY
        except ValueError:
            raise SettingsError("BOT_MOVE_DELAY must be a number of seconds.") from None
        if not 0 <= delay <= 10:
            raise SettingsError("BOT_MOVE_DELAY must be between 0 and 10 seconds.")
        ready_raw = get("GUILD_READY_SECONDS")
        try:
            ready = float(ready_raw) if ready_raw is not None else DEFAULT_GUILD_READY_SECONDS
        except ValueError:
            raise SettingsError("GUILD_READY_SECONDS must be a number of seconds.") from None
        if not 0 < ready <= 60:
            raise SettingsError("GUILD_READY_SECONDS must be more than 0 and at most 60 seconds.")
        port = _int(get("METRICS_PORT"), "METRICS_PORT") if get("METRICS_PORT") else None
        if port is not None and not 1 <= port <= 65535:
            raise SettingsError("METRICS_PORT must be a port number from 1 to 65535.")
        keep = _int(get("KEEP_MOVES_DAYS"), "KEEP_MOVES_DAYS") if get("KEEP_MOVES_DAYS") else None
        if keep is not None and keep < 1:
            raise SettingsError(
                "KEEP_MOVES_DAYS must be 1 or more days (leave it empty to keep every move log)."
            )
        log_format = (get("LOG_FORMAT") or "text").lower()
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}.")
        to_win_build = (get("TO_WIN_BUILD") or "auto").lower()
        if to_win_build not in TO_WIN_BUILDS:
            raise SettingsError(f"TO_WIN_BUILD must be one of {', '.join(TO_WIN_BUILDS)}.")
        data_raw = get("DATA_DIR")
        data_folder = Path(data_raw) if data_raw is not None else None
        return cls(
            token=token,
            database_path=sqlite_file_of(values),
            database_url=database_url,
            dev_guild_id=_int(dev_guild, "DEV_GUILD_ID") if dev_guild else None,
            log_level=level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            bot_move_delay=delay,
            guild_ready_seconds=ready,
            metrics_port=port,
            metrics_host=get("METRICS_HOST") or "127.0.0.1",
            log_format=log_format,
            keep_moves_days=keep,
            to_win_build=to_win_build,
            data_folder=data_folder,
        )

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if there is one, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_shown(self) -> str:
        """The database for logs, without a password."""
        if self.database_url is None:
            return str(self.database_path)
        return shown_url(self.database_url)

    @property
    def secrets(self) -> tuple[str, ...]:
        """The values no log line may show (``bot.logs`` masks them): the token, the
        database's password."""
        found = [self.token]
        if self.database_url is not None:
            found.extend(url_passwords(self.database_url))
        return tuple(secret for secret in found if len(secret) >= 3)

    @property
    def data_dir(self) -> Path:
        """Where the bot keeps its files (the strategy tables): ``DATA_DIR``, else the SQLite
        file's folder (also with PostgreSQL, whose games need no file of ours)."""
        return self.data_folder if self.data_folder is not None else self.database_path.parent

    @property
    def log_level_number(self) -> int:
        """The ``logging`` level for ``log_level``."""
        return int(logging.getLevelName(self.log_level))


def _setting(values: Mapping[str, str], name: str) -> str | None:
    value = values.get(name, "").strip()
    return value or None


def sqlite_file_of(values: Mapping[str, str]) -> Path:
    """The SQLite file the bot uses, from raw settings (the bot and every command find it
    alike): ``DATABASE_PATH``; else ``yahtzee.sqlite3`` in ``DATA_DIR``; else
    ``data/yahtzee.sqlite3``."""
    path = _setting(values, "DATABASE_PATH")
    if path is not None:
        return Path(path)
    folder = _setting(values, "DATA_DIR")
    return Path(folder) / DEFAULT_DATABASE.name if folder is not None else DEFAULT_DATABASE


def database_url_of(values: Mapping[str, str]) -> str | None:
    """``DATABASE_URL`` from raw settings, checked (a PostgreSQL URL, and not besides
    ``DATABASE_PATH``); None: the games are in the SQLite file (``sqlite_file_of``)."""
    url = _setting(values, "DATABASE_URL")
    if url is None:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user@host:5432/name); "
            "leave it unset to keep games in the SQLite file (DATABASE_PATH)."
        )
    if _setting(values, "DATABASE_PATH") is not None:
        raise SettingsError(
            "set DATABASE_URL (PostgreSQL) or DATABASE_PATH (a SQLite file), not both."
        )
    return url


def _int(raw: str | None, name: str) -> int:
    try:
        return int(str(raw).strip())
    except ValueError:
        raise SettingsError(f"{name} must be a whole number.") from None


#: The query parameters of a PostgreSQL URL that hold a password (libpq's and asyncpg's).
_PASSWORD_PARAMS = ("password", "sslpassword")


def url_passwords(url: str) -> list[str]:
    """The passwords in a database URL: after ``user:`` and in ``?password=`` (as written,
    and decoded)."""
    parts = urllib.parse.urlsplit(url)
    found: list[str] = []
    userinfo, at, _ = parts.netloc.rpartition("@")
    if at and ":" in userinfo:
        found.append(userinfo.partition(":")[2])
    for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if name.lower() in _PASSWORD_PARAMS:
            found.append(value)
            found.append(urllib.parse.quote(value, safe=""))
    found.extend(urllib.parse.unquote(secret) for secret in list(found))
    return [secret for secret in dict.fromkeys(found) if secret]


def shown_url(url: str) -> str:
    """A database URL as it may be shown: every password replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    userinfo, at, hostinfo = parts.netloc.rpartition("@")
    netloc = parts.netloc
    if at and ":" in userinfo:
        netloc = f"{userinfo.partition(':')[0]}:***@{hostinfo}"
    pieces = parts.query.split("&") if parts.query else []
    query = "&".join(
        f"{piece.partition('=')[0]}=***"
        if urllib.parse.unquote(piece.partition("=")[0]).lower() in _PASSWORD_PARAMS
        else piece
        for piece in pieces
    )
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments ignored; optional quotes stripped."""
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :]
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            # Never the line itself: a token pasted on a line of its own would reach the log.
            raise SettingsError(
                f"{path}:{number}: expected KEY=VALUE (a setting's name, =, its value)."
            )
        if not _KEY.fullmatch(key.strip()):
            raise SettingsError(
                f"{path}:{number}: expected KEY=VALUE, and the part before = is not a setting's "
                "name (letters, digits and _)."
            )
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values
