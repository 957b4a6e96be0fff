"""What is kept besides games: servers' settings, players' own choices, the bot's notes about
itself and the deployment's secrets."""

from __future__ import annotations

import json

from bot.engine.presets import Preset

from ..records import GuildSettings, TokenRecord
from ..sql import Plan, ReadPlan, WritePlan, all_rows, now, one_row, shape_of

SETTINGS = shape_of(
    GuildSettings, decode={"preset": Preset.parse, "use_threads": bool, "auto_roll": bool}
)


@ReadPlan
def guild_settings(guild_id: int | None) -> Plan[GuildSettings]:
    """A server's settings (the defaults until an admin changes them)."""
    if guild_id is None:
        return GuildSettings()
    row = yield from one_row(
        f"SELECT {SETTINGS.columns} FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return SETTINGS(row) if row is not None else GuildSettings()


@WritePlan
def save_guild_settings(guild_id: int, settings: GuildSettings, user_id: int) -> Plan[None]:
    """Store a server's settings (validated by the caller)."""
    yield from all_rows(
        "INSERT INTO guild_settings (guild_id, preset, turn_seconds, timeout_policy, "
        "use_threads, auto_roll, language, updated_by, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET preset = excluded.preset, "
        "turn_seconds = excluded.turn_seconds, timeout_policy = excluded.timeout_policy, "
        "use_threads = excluded.use_threads, auto_roll = excluded.auto_roll, "
        "language = excluded.language, "
        "updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        (
            guild_id,
            settings.preset.value,
            settings.turn_seconds,
            settings.timeout_policy,
            int(settings.use_threads),
            int(settings.auto_roll),
            settings.language,
            user_id,
            now(),
        ),
    )


@ReadPlan
def player_notify(user_id: int) -> Plan[bool]:
    """Whether a player asked to be told privately of their turns (/yahtzee notify)."""
    row = yield from one_row("SELECT notify FROM player_settings WHERE user_id = ?", (user_id,))
    return bool(row[0]) if row is not None else False


@ReadPlan
def player_auto_roll(user_id: int) -> Plan[bool | None]:
    """A player's own choice for the opening roll (/yahtzee autoroll), None: the server's."""
    row = yield from one_row("SELECT auto_roll FROM player_settings WHERE user_id = ?", (user_id,))
    return None if row is None or row[0] is None else bool(row[0])


@ReadPlan
def auto_roll_for(guild_id: int | None, user_id: int) -> Plan[bool]:
    """Whether a player's turns start rolled: their own choice, else their server's."""
    row = yield from one_row(
        "SELECT (SELECT auto_roll FROM player_settings WHERE user_id = ?), "
        "(SELECT auto_roll FROM guild_settings WHERE guild_id = ?)",
        (user_id, guild_id if guild_id is not None else 0),
    )
    if row is None:
        return False
    mine, server = row
    return bool(mine) if mine is not None else bool(server)


@WritePlan
def set_player_auto_roll(user_id: int, auto_roll: bool | None) -> Plan[None]:
    """Store a player's /yahtzee autoroll choice (None: follow the server)."""
    value = None if auto_roll is None else int(auto_roll)
    yield from all_rows(
        "INSERT INTO player_settings (user_id, auto_roll, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET auto_roll = excluded.auto_roll, "
        "updated_at = excluded.updated_at",
        (user_id, value, now()),
    )


@WritePlan
def set_player_notify(user_id: int, notify: bool, language: str | None = None) -> Plan[None]:
    """Store a player's /yahtzee notify choice, and the language their notices are written
    in (None: as it was)."""
    yield from all_rows(
        "INSERT INTO player_settings (user_id, notify, language, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
        "language = COALESCE(excluded.language, player_settings.language), "
        "updated_at = excluded.updated_at",
        (user_id, int(notify), language, now()),
    )


@WritePlan
def set_player_language(user_id: int, language: str) -> Plan[None]:
    """The language a player's private notices are written in (their client's)."""
    yield from all_rows(
        "INSERT INTO player_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
        "updated_at = excluded.updated_at",
        (user_id, language, now()),
    )


@ReadPlan
def player_language(user_id: int) -> Plan[str | None]:
    """The language of a player's private notices (None: the game's)."""
    row = yield from one_row("SELECT language FROM player_settings WHERE user_id = ?", (user_id,))
    return None if row is None or row[0] is None else str(row[0])


@ReadPlan
def install_id() -> Plan[str]:
    """This database's random id (six hex digits), made by its migrations."""
    row = yield from one_row("SELECT value FROM meta WHERE key = 'install_id'")
    assert row is not None, "migration 007 makes it"
    return str(row[0])


@ReadPlan
def meta_value(key: str) -> Plan[str | None]:
    """A value the bot keeps about itself (``commands``: the commands last published)."""
    row = yield from one_row("SELECT value FROM meta WHERE key = ?", (key,))
    return str(row[0]) if row else None


@WritePlan
def set_meta_value(key: str, value: str) -> Plan[None]:
    """Keep ``value`` under ``key`` in the bot's own notes (see ``meta_value``)."""
    yield from all_rows(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


@WritePlan
def keep_secret(name: str, candidate: str) -> Plan[str]:
    """The deployment's secret ``name``: ``candidate`` becomes it unless one is kept
    already, then the one kept is read, so that processes starting at once agree."""
    yield from all_rows(
        "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        (name, candidate),
    )
    row = yield from one_row("SELECT value FROM secrets WHERE name = ?", (name,))
    assert row is not None, "inserted just above, or kept already"
    return str(row[0])


@ReadPlan
def token_places() -> Plan[set[int]]:
    """The channels the bot reaches only through interactions' tokens: those noted so, and
    those of the live games played there (``games.place``)."""
    rows = yield from all_rows(
        "SELECT channel_id FROM token_places UNION SELECT COALESCE(thread_id, channel_id) "
        "FROM games WHERE place = 'token' AND status IN ('lobby', 'active')"
    )
    return {int(r[0]) for r in rows}


@WritePlan
def note_token_place(channel_id: int, kind: str) -> Plan[None]:
    """The bot reaches ``channel_id`` only through interactions' tokens (a ``kind`` of
    place: a group DM, a server that never added it)."""
    yield from all_rows(
        "INSERT INTO token_places (channel_id, kind, noted_at) VALUES (?, ?, ?) "
        "ON CONFLICT (channel_id) DO NOTHING",
        (channel_id, kind, now()),
    )
    yield from _place_of_games(channel_id, "token")


@WritePlan
def forget_token_place(channel_id: int) -> Plan[None]:
    """The bot reaches ``channel_id`` by its own routes now (its server added it)."""
    yield from all_rows("DELETE FROM token_places WHERE channel_id = ?", (channel_id,))
    yield from _place_of_games(channel_id, "channel")


def _place_of_games(channel_id: int, place: str) -> Plan[None]:
    """The live games of a channel (or played in it, a thread) are played in ``place``."""
    yield from all_rows(
        "UPDATE games SET place = ? WHERE (channel_id = ? OR thread_id = ?) "
        "AND status IN ('lobby', 'active') AND place IS DISTINCT FROM ?",
        (place, channel_id, channel_id, place),
    )


#: Seconds an interaction's token is kept (Discord's 15 minutes).
TOKEN_KEPT = 15 * 60

TOKEN = shape_of(
    TokenRecord,
    decode={
        "answered": bool,
        "followups": lambda text: tuple(json.loads(text)),
        "public": bool,
    },
)


@WritePlan
def save_token(record: TokenRecord) -> Plan[None]:
    """Keep (or update) a token where only tokens reach; tokens past their 15 minutes go."""
    yield from all_rows("DELETE FROM place_tokens WHERE at < ?", (record.at - TOKEN_KEPT,))
    yield from all_rows(
        "INSERT INTO place_tokens (interaction_id, channel_id, application_id, token, at, "
        "answered, shows, followups, public) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (interaction_id) DO UPDATE SET answered = excluded.answered, "
        "shows = excluded.shows, followups = excluded.followups",
        (record.interaction_id, record.channel_id, record.application_id, record.token,
         record.at, int(record.answered), record.shows, json.dumps(list(record.followups)),
         int(record.public)),
    )  # fmt: skip


@ReadPlan
def fresh_tokens(now: float) -> Plan[list[TokenRecord]]:
    """The tokens kept that are still within their 15 minutes at ``now``, oldest first."""
    rows = yield from all_rows(
        f"SELECT {TOKEN.columns} FROM place_tokens WHERE at >= ? ORDER BY at, interaction_id",
        (now - TOKEN_KEPT,),
    )
    return [TOKEN(row) for row in rows]
