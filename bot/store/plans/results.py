"""Results and what is ranked from them: finished games' result rows, the leaderboards, a
player's games and name, leaderboard resets; the daily challenge's tries."""

from __future__ import annotations

from typing import Any

from ..records import DailyEntry, DailyPlace, LeaderboardRow, PlayerGame, ResultRow
from ..sql import Plan, ReadPlan, WritePlan, all_rows, now, one_row, shape_of

# Each board: the figure ranked (highest first), the games counted, and who qualifies.
# These fragments are fixed here, never built from user input.
LEADERBOARD_SQL: dict[str, tuple[str, str, str]] = {
    "high": ("MAX(total)", "COUNT(*)", "COUNT(*) > 0"),
    "wins": (
        "SUM(CASE WHEN seats > 1 AND place = 1 THEN 1 ELSE 0 END)",
        "SUM(CASE WHEN seats > 1 THEN 1 ELSE 0 END)",
        "SUM(CASE WHEN seats > 1 AND place = 1 THEN 1 ELSE 0 END) > 0",
    ),
    "average": ("AVG(total)", "COUNT(*)", "COUNT(*) >= ?"),
    "yahtzees": ("SUM(yahtzees)", "COUNT(*)", "SUM(yahtzees) > 0"),
}
AVERAGE_MIN_GAMES = 5

#: The results table keeps no name: the boards take it from player_names.
RESULT = shape_of(ResultRow, sql={"name": "''"})
PLAYER_GAME = shape_of(PlayerGame)
DAILY = shape_of(DailyEntry)
DAILY_PLACE = shape_of(DailyPlace, sql={"place": "RANK() OVER (ORDER BY score DESC)"})
LEADERBOARD_LINE = shape_of(
    LeaderboardRow,
    sql={
        "rank": "ranked.rank",
        "user_id": "ranked.user_id",
        "name": "COALESCE(player_names.name, '')",
        "figure": "ranked.figure",
        "games": "ranked.games",
    },
)


@ReadPlan
def results(game_id: int) -> Plan[list[ResultRow]]:
    """The result rows of a finished game, best place first."""
    rows = yield from all_rows(
        f"SELECT {RESULT.columns} FROM results WHERE game_id = ? "
        "ORDER BY place IS NULL, place, user_id",
        (game_id,),
    )
    return [RESULT(r) for r in rows]


def _leaderboard_query(kind: str, select: str, tail: str = "", group: bool = False) -> str:
    figure, games, having = LEADERBOARD_SQL[kind]
    # a server's board reads its games (a DM's guild_id is NULL: never there); a group's
    # (a group DM, a DM between users) the games of its channel outside any server
    place = "guild_id IS NULL AND channel_id = ?" if group else "guild_id = ?"
    return (
        "WITH per_player AS ("
        f" SELECT user_id, {figure} AS figure, {games} AS games FROM results"
        f" WHERE {place} AND archived = 0 AND finished_at >= ?"
        f" GROUP BY user_id HAVING {having}"
        "), ranked AS ("
        " SELECT user_id, figure, games, RANK() OVER (ORDER BY figure DESC) AS rank"
        " FROM per_player"
        f") SELECT {select} FROM ranked LEFT JOIN player_names"
        " ON player_names.guild_id = ? AND player_names.user_id = ranked.user_id " + tail
    )


@ReadPlan
def leaderboard(
    guild_id: int | None, kind: str, since: str = "", channel_id: int | None = None
) -> Plan[list[LeaderboardRow]]:
    """Every player on a leaderboard of one server, ranked (one grouped scan of an index);
    with ``guild_id`` None, of one group's channel (``channel_id``: a group DM's)."""
    if kind not in LEADERBOARD_SQL:
        raise ValueError(f"unknown leaderboard kind {kind!r}")
    params: list[Any] = [guild_id if guild_id is not None else channel_id, since]
    if kind == "average":
        params.append(AVERAGE_MIN_GAMES)
    params.append(guild_id or 0)  # the names of players outside servers: guild 0
    query = _leaderboard_query(
        kind,
        LEADERBOARD_LINE.columns,
        "ORDER BY ranked.rank, ranked.user_id",
        group=guild_id is None,
    )
    rows = yield from all_rows(query, params)
    return [LEADERBOARD_LINE(r) for r in rows]


@ReadPlan
def player_games(
    guild_id: int | None, user_id: int, channel_id: int | None = None
) -> Plan[list[PlayerGame]]:
    """A player's finished games on this server's boards, oldest first; with ``guild_id``
    None, in one group's channel (``channel_id``), or everywhere they played (no
    ``channel_id``: archived results included, a server's reset hides them only from its
    own board)."""
    params: tuple[int, ...]
    if guild_id is not None:
        where, params = "guild_id = ? AND archived = 0 AND user_id = ?", (guild_id, user_id)
    elif channel_id is not None:
        where = "guild_id IS NULL AND channel_id = ? AND archived = 0 AND user_id = ?"
        params = (channel_id, user_id)
    else:
        where, params = "user_id = ?", (user_id,)
    rows = yield from all_rows(
        f"SELECT {PLAYER_GAME.columns} FROM results WHERE {where} ORDER BY finished_at, id",
        params,
    )
    return [PLAYER_GAME(r) for r in rows]


@ReadPlan
def player_name(guild_id: int | None, user_id: int) -> Plan[str | None]:
    """The name a player had in their last game here (None: outside servers)."""
    row = yield from one_row(
        "SELECT name FROM player_names WHERE guild_id = ? AND user_id = ?",
        (guild_id or 0, user_id),
    )
    return str(row[0]) if row else None


@WritePlan
def archive_results(guild_id: int, user_id: int) -> Plan[int]:
    """Hide every live result of a server from the boards; returns how many.

    The count is of the rows the UPDATE hid, not of a SELECT before it: on PostgreSQL a
    game that finishes in between is archived too, and must be counted.
    """
    archive = yield from one_row(
        "INSERT INTO leaderboard_archives (guild_id, archived_by, archived_at, results) "
        "VALUES (?, ?, ?, 0) RETURNING id",
        (guild_id, user_id, now()),
    )
    assert archive is not None
    hidden = yield from all_rows(
        "UPDATE results SET archived = ? WHERE guild_id = ? AND archived = 0 RETURNING id",
        (archive[0], guild_id),
    )
    if hidden:
        yield from all_rows(
            "UPDATE leaderboard_archives SET results = ? WHERE id = ?",
            (len(hidden), archive[0]),
        )
    else:  # nothing to hide: no archive for a restore to find
        yield from all_rows("DELETE FROM leaderboard_archives WHERE id = ?", (archive[0],))
    return len(hidden)


@WritePlan
def restore_results(guild_id: int) -> Plan[int]:
    """Bring back the server's most recent archive; returns how many results came back."""
    row = yield from one_row(
        "SELECT id FROM leaderboard_archives WHERE guild_id = ? AND restored_at IS NULL "
        "ORDER BY id DESC LIMIT 1",
        (guild_id,),
    )
    if row is None:
        return 0
    restored = yield from all_rows(
        "UPDATE results SET archived = 0 WHERE guild_id = ? AND archived = ? RETURNING id",
        (guild_id, row[0]),
    )
    yield from all_rows(
        "UPDATE leaderboard_archives SET restored_at = ? WHERE id = ?", (now(), row[0])
    )
    return len(restored)


# -- the daily challenge -----------------------------------------------------------------------


@ReadPlan
def daily_tried(day: str, user_id: int) -> Plan[bool]:
    """Whether a person has had the day's try (finished or not)."""
    row = yield from one_row(
        "SELECT 1 FROM daily_results WHERE day = ? AND user_id = ?", (day, user_id)
    )
    return row is not None


@ReadPlan
def daily_entry(game_id: int) -> Plan[DailyEntry | None]:
    """A daily challenge game's try: its day, score and the Optimal bot's."""
    row = yield from one_row(
        f"SELECT {DAILY.columns} FROM daily_results WHERE game_id = ?", (game_id,)
    )
    return DAILY(row) if row is not None else None


@ReadPlan
def daily_board(day: str, guild_id: int | None, limit: int = 10) -> Plan[list[DailyPlace]]:
    """A day's finished tries, best first, each with its place (equal scores share one;
    among them who finished first is listed first): on one server, or with ``guild_id``
    None on every server."""
    where = "day = ? AND score IS NOT NULL" + (" AND guild_id = ?" if guild_id else "")
    params: tuple[Any, ...] = (day, guild_id) if guild_id else (day,)
    rows = yield from all_rows(
        f"SELECT {DAILY_PLACE.columns} FROM daily_results WHERE {where} "
        "ORDER BY score DESC, finished_at LIMIT ?",
        (*params, limit),
    )
    return [DAILY_PLACE(row) for row in rows]
