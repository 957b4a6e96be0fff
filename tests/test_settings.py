"""Settings: read once from the environment and .env, validated with one clear sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_DATABASE,
    Settings,
    SettingsError,
    database_url_of,
    read_env_file,
    sqlite_file_of,
)


def test_defaults_with_only_a_token() -> None:
    """A token alone is enough: the database goes under data/, logging at INFO, no sharding."""
    s = Settings.from_mapping({"DISCORD_TOKEN": "abc.def.ghi"})
    assert (s.token, s.database_path, s.dev_guild_id, s.log_level) == (
        "abc.def.ghi", DEFAULT_DATABASE, None, "INFO",
    )  # fmt: skip
    assert s.shard_count is None and s.shard_ids is None


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "Bot abc"}, "DISCORD_TOKEN looks wrong"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a whole number"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        (
            {"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0,2"},
            "between 0 and SHARD_COUNT",
        ),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT must be 1 or more"),
        ({"DISCORD_TOKEN": "t", "BOT_MOVE_DELAY": "soon"}, "BOT_MOVE_DELAY must be a number"),
        ({"DISCORD_TOKEN": "t", "BOT_MOVE_DELAY": "60"}, "between 0 and 10"),
        ({"DISCORD_TOKEN": "t", "GUILD_READY_SECONDS": "soon"}, "GUILD_READY_SECONDS must be a"),
        ({"DISCORD_TOKEN": "t", "GUILD_READY_SECONDS": "0"}, "more than 0 and at most 60"),
        ({"DISCORD_TOKEN": "t", "METRICS_PORT": "http"}, "METRICS_PORT must be a whole number"),
        ({"DISCORD_TOKEN": "t", "METRICS_PORT": "70000"}, "port number from 1 to 65535"),
        ({"DISCORD_TOKEN": "t", "LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of text, json"),
        ({"DISCORD_TOKEN": "t", "KEEP_MOVES_DAYS": "0"}, "KEEP_MOVES_DAYS must be 1 or more"),
        ({"DISCORD_TOKEN": "t", "TO_WIN_BUILD": "always"}, "TO_WIN_BUILD must be one of auto"),
    ],
)
def test_broken_settings_are_named(values: dict[str, str], message: str) -> None:
    """Each broken setting is refused with a sentence naming it."""
    with pytest.raises(SettingsError, match=message):
        Settings.from_mapping(values)


def test_the_wait_for_servers_after_ready_is_discordpys_unless_set() -> None:
    """discord.py's 2 s by default; a number of seconds reaches the client as set."""
    from bot.app import YahtzeeBot

    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).guild_ready_seconds == 2.0
    quick = Settings.from_mapping({"DISCORD_TOKEN": "t", "GUILD_READY_SECONDS": "0.25"})
    bot = YahtzeeBot(quick)
    assert bot._connection.guild_ready_timeout == 0.25


def test_environment_overrides_the_env_file(tmp_path: Path) -> None:
    """.env supplies values; the environment wins where both say something."""
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# a comment\n\nDISCORD_TOKEN='from.file'\nexport LOG_LEVEL=debug\nDEV_GUILD_ID=42\n",
        encoding="utf-8",
    )
    s = Settings.load({"DEV_GUILD_ID": "7"}, env_file)
    assert (s.token, s.log_level, s.dev_guild_id) == ("from.file", "DEBUG", 7)


@pytest.mark.parametrize(
    "line", ["this is junk-secret", "abc.def-secret", "my token=abc.def-secret", "=abc.def-secret"]
)
def test_a_malformed_env_file_line_is_named_not_shown(tmp_path: Path, line: str) -> None:
    """A line that is not KEY=VALUE is reported with its line number, never its text."""
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN=x\n{line}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"\.env:2: expected KEY=VALUE") as refused:
        read_env_file(env_file)
    said = str(refused.value)
    assert "secret" not in said and "junk" not in said and "abc" not in said, said


def test_to_win_build() -> None:
    """TO_WIN_BUILD: auto by default, never on request (any case)."""
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).to_win_build == "auto"
    s = Settings.from_mapping({"DISCORD_TOKEN": "t", "TO_WIN_BUILD": " Never "})
    assert s.to_win_build == "never"


def test_the_settings_repr_shows_no_secret() -> None:
    """``repr(Settings)`` (a debugger, a traceback's locals) shows neither the token nor the
    database's password, and still the rest."""
    s = Settings.from_mapping(
        {"DISCORD_TOKEN": "tok.en-secret", "DATABASE_URL": "postgresql://bot:pw-secret@db/y"}
    )
    shown = repr(s)
    assert "secret" not in shown and "log_level='INFO'" in shown, shown
    assert s.secrets == ("tok.en-secret", "pw-secret")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:s3cret@db:5432/y", "postgresql://bot:***@db:5432/y"),
        ("postgresql://bot:p%40ss@db/y", "postgresql://bot:***@db/y"),
        ("postgresql://bot:a@b@db/y", "postgresql://bot:***@db/y"),
        (
            "postgresql://bot@db/y?sslmode=require&password=s3cret",
            "postgresql://bot@db/y?sslmode=require&password=***",
        ),
        ("postgres://db/y?PASSWORD=x&user=bot", "postgres://db/y?PASSWORD=***&user=bot"),
        ("postgresql://bot@db/y", "postgresql://bot@db/y"),
    ],
)
def test_a_database_url_is_shown_without_its_password(url: str, shown: str) -> None:
    """Both places a URL holds a password, user:password@ and ?password=, are masked."""
    s = Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert s.database_shown == shown


def test_sharding_settings() -> None:
    """SHARD_COUNT and SHARD_IDS are read as numbers."""
    s = Settings.from_mapping({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "1, 3"})
    assert s.shard_count == 4 and s.shard_ids == (1, 3)


def test_database_url_selects_postgresql_and_is_checked() -> None:
    """DATABASE_URL names PostgreSQL (the store opens it; logs show it without the
    password); anything else, or both databases at once, is one clear line."""
    url = "postgresql://bot:s3cret@db.example:5432/yahtzee"
    s = Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert s.database == url
    assert s.database_shown == "postgresql://bot:***@db.example:5432/yahtzee"
    assert s.data_dir == Path("data")  # the strategy table stays in the data folder
    plain = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert plain.database == Path("data") / "yahtzee.sqlite3" == Path(plain.database_shown)
    with pytest.raises(SettingsError, match="must be a PostgreSQL URL"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://x@y/z"})
    with pytest.raises(SettingsError, match="not both"):
        Settings.from_mapping(
            {"DISCORD_TOKEN": "t", "DATABASE_URL": url, "DATABASE_PATH": "games.sqlite3"}
        )


def test_env_example_lists_every_setting() -> None:
    """.env.example documents each setting the code reads."""
    example = (Path(__file__).resolve().parents[1] / ".env.example").read_text(encoding="utf-8")
    for name in (
        "DISCORD_TOKEN",
        "DATABASE_PATH",
        "DATABASE_URL",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "TO_WIN_BUILD",
        "SHARD_COUNT",
        "SHARD_IDS",
    ):
        assert f"\n{name}=" in example, name


def test_shard_ids_named_twice_are_refused() -> None:
    """SHARD_IDS=0,0 would run shard 0 twice in one process."""
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0,0"})
    assert str(caught.value) == (
        "SHARD_IDS names shard 0 twice: list each shard this process runs once."
    )


def test_the_bot_and_the_commands_find_the_sqlite_file_alike() -> None:
    """DATABASE_PATH; else yahtzee.sqlite3 in DATA_DIR; else data/yahtzee.sqlite3: the same
    rule for the bot (Settings) and the commands (sqlite_file_of, no token needed)."""
    cases = [
        ({}, DEFAULT_DATABASE),
        ({"DATA_DIR": "/var/lib/y"}, Path("/var/lib/y/yahtzee.sqlite3")),
        ({"DATA_DIR": "/var/lib/y", "DATABASE_PATH": "/srv/g.db"}, Path("/srv/g.db")),
        ({"DATABASE_PATH": " /srv/g.db "}, Path("/srv/g.db")),
    ]
    for values, path in cases:
        assert sqlite_file_of(values) == path
        assert Settings.from_mapping({"DISCORD_TOKEN": "t", **values}).database_path == path
    assert database_url_of({}) is None
    with pytest.raises(SettingsError, match="not both"):
        database_url_of({"DATABASE_URL": "postgresql://h/db", "DATABASE_PATH": "x"})
