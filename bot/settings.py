"""Every setting, read once from the environment and a .env file, and validated."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = Path("data") / "yahtzee.sqlite3"
PROJECT_ENV_FILE = Path(__file__).resolve().parents[1] / ".env"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
LOG_FORMATS = ("text", "json")
#: Seconds between a computer player's moves: its turn (up to four moves) is over within 4 s.
DEFAULT_BOT_MOVE_DELAY = 0.6


class SettingsError(Exception):
    """A missing or broken setting; the message says which one and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's configuration."""

    token: str
    database_path: Path = DEFAULT_DATABASE
    database_url: str | None = None  # postgresql://...: the shared store instead of the file
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY  # seconds between a computer's moves
    metrics_port: int | None = None  # /metrics, /healthz, /readyz served here if set
    metrics_host: str = "127.0.0.1"
    log_format: str = "text"  # or "json": one JSON object a line
    keep_moves_days: int | None = None  # None: keep every finished game's move log

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
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
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
        database_url = get("DATABASE_URL")
        if database_url is not None:
            if not database_url.startswith(("postgresql://", "postgres://")):
                raise SettingsError(
                    "DATABASE_URL must be a PostgreSQL URL (postgresql://user@host:5432/name); "
                    "leave it unset to keep games in the SQLite file (DATABASE_PATH)."
                )
            if get("DATABASE_PATH") is not None:
                raise SettingsError(
                    "set DATABASE_URL (PostgreSQL) or DATABASE_PATH (a SQLite file), not both."
                )
        dev_guild = get("DEV_GUILD_ID")
        delay_raw = get("BOT_MOVE_DELAY")
        try:
            delay = float(delay_raw) if delay_raw is not None else DEFAULT_BOT_MOVE_DELAY
        except ValueError:
            raise SettingsError(
                f"BOT_MOVE_DELAY must be a number of seconds, not {delay_raw!r}."
            ) from None
        if not 0 <= delay <= 10:
            raise SettingsError("BOT_MOVE_DELAY must be between 0 and 10 seconds.")
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
            raise SettingsError(
                f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}."
            )
        return cls(
            token=token,
            database_path=Path(get("DATABASE_PATH") or DEFAULT_DATABASE),
            database_url=database_url,
            dev_guild_id=_int(dev_guild, "DEV_GUILD_ID") if dev_guild else None,
            log_level=level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            bot_move_delay=delay,
            metrics_port=port,
            metrics_host=get("METRICS_HOST") or "127.0.0.1",
            log_format=log_format,
            keep_moves_days=keep,
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
        return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", self.database_url)

    @property
    def data_dir(self) -> Path:
        """Where the bot keeps files beside the database (the strategy tables)."""
        return self.database_path.parent

    @property
    def log_level_number(self) -> int:
        """The ``logging`` level for ``log_level``."""
        return int(logging.getLevelName(self.log_level))


def _int(raw: str | None, name: str) -> int:
    try:
        return int(str(raw).strip())
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}.") from None


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
            raise SettingsError(f"{path}:{number}: expected KEY=VALUE, got {line!r}.")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values
