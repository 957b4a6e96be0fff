"""The SQL, once for both databases: every read and write as a *plan*.

A plan is a generator that yields ``Query`` objects and gets each one's rows back; it
returns its result. It never touches a connection: a backend drives it (SQLite on its
writer thread, synchronously; PostgreSQL with asyncpg, awaiting), so the statements and the
logic around them (the version check, the channel's one live game, the results written with
the finishing move) exist once. The SQL is written with ``?`` placeholders in what both
dialects accept; where they differ a ``Query`` carries PostgreSQL's text too.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson

from .records import (
    ENDED,
    MAX_ID,
    AlreadyApplied,
    ChannelBusy,
    DailyEntry,
    DailyTaken,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    MoveRecord,
    PlayerGame,
    ResultRow,
    SeatLimit,
    StaleVersion,
)

R = TypeVar("R")
Row = Sequence[Any]


@dataclass(frozen=True, slots=True)
class Query:
    """One statement of a plan and its parameters.

    ``many``: run once per row of ``params`` (which is then a list of rows). ``conflicts``:
    the statement may break a unique constraint, which the plan handles (it gets
    ``Conflict`` thrown in); PostgreSQL runs such a statement in a savepoint, because there
    a failed statement would end the whole transaction. ``postgres``: that dialect's text,
    where it differs.
    """

    sql: str
    params: Sequence[Any] = ()
    many: bool = False
    conflicts: bool = False
    postgres: str | None = None


#: A plan: yields queries, is sent each one's rows, returns its result.
Plan = Generator[Query, list[Row], R]


class Conflict(Exception):
    """A statement marked ``conflicts`` broke a unique constraint (thrown into its plan)."""


def _all(sql: str, params: Sequence[Any] = (), postgres: str | None = None) -> Plan[list[Row]]:
    return (yield Query(sql, tuple(params), postgres=postgres))


def _one(sql: str, params: Sequence[Any] = (), postgres: str | None = None) -> Plan[Row | None]:
    rows = yield Query(sql, tuple(params), postgres=postgres)
    return rows[0] if rows else None


def _many(sql: str, rows: Iterable[Sequence[Any]]) -> Plan[None]:
    yield Query(sql, [tuple(r) for r in rows], many=True)


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


def now() -> str:
    """The current UTC time as stored (ISO 8601, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, preset, players, state, version, "
    "board_message_id, board_turn, board_version, undo_message_id, final_message_id, "
    "created_at, updated_at, finished_at, deadline_at, ping_at, last_move_at, turn_seconds, "
    "timeout_policy, thread_id, hints, pictures, daily, reminder_message_id, notify_at, "
    "language, opened_by"
)


def _game(row: Row) -> GameRow:
    players = [(int(uid), str(name)) for uid, name in orjson.loads(row[6])]
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=GameStatus(row[4]),
        preset=row[5],
        players=players,
        state=orjson.loads(row[7]) if row[7] is not None else None,
        version=row[8],
        board_message_id=row[9],
        board_turn=row[10],
        board_version=row[11],
        undo_message_id=row[12],
        final_message_id=row[13],
        created_at=row[14],
        updated_at=row[15],
        finished_at=row[16],
        deadline_at=row[17],
        ping_at=row[18],
        last_move_at=row[19],
        turn_seconds=row[20],
        timeout_policy=row[21],
        thread_id=row[22],
        hints=bool(row[23]),
        pictures=bool(row[24]),
        daily=row[25],
        reminder_message_id=row[26],
        notify_at=row[27],
        language=row[28],
        opened_by=row[29],
    )


_DAILY_COLUMNS = "day, user_id, name, score, optimal, game_id"


def _daily(row: Row) -> DailyEntry:
    return DailyEntry(row[0], row[1], row[2], row[3], row[4], row[5])


# A channel's live game: the one started there, else the one played in that thread.
LIVE_GAME_IN = (
    f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
    "AND daily IS NULL "  # a daily challenge is private: it holds no channel
    "AND (channel_id = ? OR thread_id = ?) ORDER BY channel_id = ? DESC LIMIT 1"
)

_UNSET: Any = object()


def _log_move(game_id: int, version: int, move: MoveRecord, stamp: str) -> Plan[None]:
    """The move-log entry of a change; ``AlreadyApplied`` if its request has one already.

    One statement, no savepoint: a request already in the log inserts nothing (and returns
    no row), which PostgreSQL needs no savepoint for (a broken unique key would end its
    transaction), so a click's unit of work is BEGIN, UPDATE, INSERT, COMMIT."""
    rows = yield Query(
        "INSERT INTO moves (game_id, version, user_id, action, detail, dice, at, loss, "
        "decision, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (request_id) WHERE request_id IS NOT NULL DO NOTHING RETURNING version",
        (
            game_id, version, move.user_id, move.action, move.detail, move.dice, stamp,
            move.loss, move.decision, move.request_id,
        ),
    )  # fmt: skip
    if not rows:
        raise AlreadyApplied(f"request {move.request_id} has its move already")


def _record_results(game: GameRow, results: Sequence[ResultRow], stamp: str) -> Plan[None]:
    """A finished game's result rows, and each player's name as the leaderboards show it."""
    yield from _many(
        "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
        "VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, "
        "updated_at = excluded.updated_at",
        # in one order (by user), so that two games finishing at once with the same
        # players take the rows' locks in the same order (PostgreSQL: no deadlock)
        # (outside servers under guild 0: a NULL key would not be one row per player)
        sorted((game.guild_id or 0, r.user_id, r.name, stamp) for r in results if r.name),
    )
    yield from _many(
        "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, "
        "upper_total, upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, "
        "finished_at, expected_loss) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.id,
                game.guild_id,
                game.channel_id,
                r.user_id,
                r.total,
                r.upper_total,
                r.upper_bonus,
                r.yahtzees,
                r.yahtzee_bonuses,
                r.place,
                r.seats,
                game.preset,
                stamp,
                r.expected_loss,
            )
            for r in results
        ],
    )


class Reads:
    """The reads, as plans: a backend runs them on its reading connection, and a unit of
    work (``Transaction``) can run them inside its transaction."""

    def get_game(self, game_id: int) -> Plan[GameRow | None]:
        """A game by id (None for an id no game can have, such as a forged one too large
        for the databases' integers)."""
        if not 0 < game_id <= MAX_ID:
            return None
        row = yield from _one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    def live_game_in(self, channel_id: int) -> Plan[GameRow | None]:
        """The lobby or running game of a channel, or of the thread it is played in."""
        row = yield from _one(LIVE_GAME_IN, (channel_id, channel_id, channel_id))
        return _game(row) if row else None

    def game_of_thread(self, thread_id: int) -> Plan[GameRow | None]:
        """The game played in a thread (its live one first, else its latest), or None."""
        row = yield from _one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ? AND daily IS NULL "
            "ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
            (thread_id,),
        )
        return _game(row) if row else None

    def last_finished_game_in(self, channel_id: int) -> Plan[GameRow | None]:
        """The game that finished last in a channel (or in a thread of it): the latest of
        each, read through its index (games_finished_in_channel, games_thread)."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ("
            "SELECT id FROM (SELECT id FROM games WHERE status = 'finished' AND channel_id = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT 1) AS by_channel "
            "UNION ALL SELECT id FROM (SELECT id FROM games WHERE status = 'finished' "
            "AND thread_id = ? ORDER BY finished_at DESC, id DESC LIMIT 1) AS by_thread) "
            "ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return _game(rows[0]) if rows else None

    def live_games(self) -> Plan[list[GameRow]]:
        """Every lobby and running game."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [_game(r) for r in rows]

    def live_games_after(self, after: int, limit: int) -> Plan[list[GameRow]]:
        """A page of the lobbies and running games: the first ``limit`` whose id is above
        ``after``, in id order (a sweep reads them page by page, each through the
        games_live index from where the last one ended)."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
            "AND id > ? ORDER BY id LIMIT ?",
            (after, limit),
        )
        return [_game(r) for r in rows]

    def games_by_status(self) -> Plan[dict[str, int]]:
        """How many games are in each status (lobby, active, finished, abandoned,
        cancelled), without reading the games: the ended ones as the database counts them
        (game_counts, kept by triggers), the live ones through their index."""
        ended = yield from _all("SELECT status, games FROM game_counts")
        live = yield from _all(
            "SELECT status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') GROUP BY status"
        )
        return {str(r[0]): int(r[1]) for r in [*ended, *live]}

    def live_games_at(
        self, guild_id: int, channel_id: int | None = None, thread_id: int | None = None
    ) -> Plan[list[GameRow]]:
        """The lobbies and running games of a server; of one of its channels (the threads
        of that channel's games included: they are deleted with it) or of one thread."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
        if thread_id is not None:
            rows = yield from _all(sql + "AND thread_id = ? ORDER BY id", (thread_id,))
        elif channel_id is not None:
            rows = yield from _all(
                sql + "AND guild_id = ? AND channel_id = ? ORDER BY id", (guild_id, channel_id)
            )
        else:
            rows = yield from _all(sql + "AND guild_id = ? ORDER BY id", (guild_id,))
        return [_game(r) for r in rows]

    def live_daily_of(self, user_id: int) -> Plan[GameRow | None]:
        """A member's daily challenge try in progress, if any (played privately, in no
        channel's slot)."""
        row = yield from _one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
            "AND daily IS NOT NULL AND host_id = ? ORDER BY id DESC LIMIT 1",
            (user_id,),
        )
        return _game(row) if row else None

    def last_live_daily_start(self, day: str) -> Plan[str | None]:
        """When the latest try of a day's challenge still in progress started (the try made
        last starts last), or None if none is: while one is, that day's dice are in play."""
        row = yield from _one(
            "SELECT COALESCE(last_move_at, created_at) FROM games "
            "WHERE status IN ('lobby', 'active') AND daily = ? ORDER BY id DESC LIMIT 1",
            (day,),
        )
        return str(row[0]) if row else None

    def live_games_of(self, user_id: int) -> Plan[int]:
        """How many lobbies and running games seat a member (one scan of the live games)."""
        row = yield from _one(
            "SELECT COUNT(*) FROM games, json_each(games.players) AS seat "
            "WHERE games.status IN ('lobby', 'active') "
            "AND json_extract(seat.value, '$[0]') = ?",
            (user_id,),
            postgres="SELECT COUNT(*) FROM games, jsonb_array_elements(games.players::jsonb) "
            "AS seat WHERE games.status IN ('lobby', 'active') AND (seat ->> 0)::bigint = ?",
        )
        return int(row[0]) if row else 0

    def boards_behind(self, moved_before: str) -> Plan[list[GameRow]]:
        """Live games whose board does not show them as they are (a post or an answer that
        failed), with no move since ``moved_before``: nothing is on its way to fix them."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
            "AND daily IS NULL "  # a daily's board is private: only its player's click shows it
            "AND (board_message_id IS NULL OR board_version IS DISTINCT FROM version) "
            "AND COALESCE(last_move_at, updated_at) <= ? ORDER BY id",
            (moved_before,),
        )
        return [_game(r) for r in rows]

    def install_id(self) -> Plan[str]:
        """This database's random id (six hex digits), made by its migrations."""
        row = yield from _one("SELECT value FROM meta WHERE key = 'install_id'")
        assert row is not None, "migration 007 makes it"
        return str(row[0])

    def meta_value(self, key: str) -> Plan[str | None]:
        """A value the bot keeps about itself (``commands``: the commands last published)."""
        row = yield from _one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    def due_games(self, now_at: str, idle_since: str) -> Plan[list[GameRow]]:
        """Live games past a deadline, ping or notify time, or with no move since then."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') AND ("
            "deadline_at <= ? OR ping_at <= ? OR (status = 'active' AND notify_at <= ?) "
            "OR (status = 'active' AND COALESCE(last_move_at, updated_at) <= ?)) ORDER BY id",
            (now_at, now_at, now_at, idle_since),
        )
        return [_game(r) for r in rows]

    def guild_settings(self, guild_id: int | None) -> Plan[GuildSettings]:
        """A server's settings (the defaults until an admin changes them)."""
        if guild_id is None:
            return GuildSettings()
        row = yield from _one(
            "SELECT preset, turn_seconds, timeout_policy, use_threads, auto_roll, language "
            "FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(
            str(row[0]), int(row[1]), str(row[2]), bool(row[3]), bool(row[4]), row[5]
        )

    def player_notify(self, user_id: int) -> Plan[bool]:
        """Whether a player asked to be told privately of their turns (/yahtzee notify)."""
        row = yield from _one("SELECT notify FROM player_settings WHERE user_id = ?", (user_id,))
        return bool(row[0]) if row is not None else False

    def player_auto_roll(self, user_id: int) -> Plan[bool | None]:
        """A player's own choice for the opening roll (/yahtzee autoroll), None: the server's."""
        row = yield from _one("SELECT auto_roll FROM player_settings WHERE user_id = ?", (user_id,))
        return None if row is None or row[0] is None else bool(row[0])

    def auto_roll_for(self, guild_id: int | None, user_id: int) -> Plan[bool]:
        """Whether a player's turns start rolled: their own choice, else their server's."""
        row = yield from _one(
            "SELECT (SELECT auto_roll FROM player_settings WHERE user_id = ?), "
            "(SELECT auto_roll FROM guild_settings WHERE guild_id = ?)",
            (user_id, guild_id if guild_id is not None else 0),
        )
        if row is None:
            return False
        mine, server = row
        return bool(mine) if mine is not None else bool(server)

    def games_missing_final_message(self) -> Plan[list[GameRow]]:
        """Finished games whose final message has not been posted."""
        rows = yield from _all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'finished' "
            "AND final_message_id IS NULL ORDER BY id"
        )
        return [_game(r) for r in rows]

    def moves(
        self, game_id: int
    ) -> Plan[list[tuple[int, int | None, str, str | None, str | None]]]:
        """The move log of a game: (version, user, action, detail, dice), oldest first."""
        rows = yield from _all(
            "SELECT version, user_id, action, detail, dice FROM moves "
            "WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def has_moves(self, game_id: int) -> Plan[bool]:
        """Whether a game's move log holds anything (every game's holds its opening, until
        retention prunes a finished game's)."""
        row = yield from _one("SELECT 1 FROM moves WHERE game_id = ? LIMIT 1", (game_id,))
        return row is not None

    def logged(self, game_id: int, action: str, detail: str) -> Plan[bool]:
        """Whether the game's log holds a move ``action`` with ``detail``."""
        row = yield from _one(
            "SELECT 1 FROM moves WHERE game_id = ? AND action = ? AND detail = ? LIMIT 1",
            (game_id, action, detail),
        )
        return row is not None

    def daily_entry(self, game_id: int) -> Plan[DailyEntry | None]:
        """A daily challenge game's try: its day, score and the Optimal bot's."""
        row = yield from _one(
            f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE game_id = ?", (game_id,)
        )
        return _daily(row) if row is not None else None

    def daily_board(
        self, day: str, guild_id: int | None, limit: int = 10
    ) -> Plan[list[DailyEntry]]:
        """A day's finished tries, best first (ties: who finished first): on one server,
        or with ``guild_id`` None on every server."""
        where = "day = ? AND score IS NOT NULL" + (" AND guild_id = ?" if guild_id else "")
        params: tuple[Any, ...] = (day, guild_id) if guild_id else (day,)
        rows = yield from _all(
            f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE {where} "
            "ORDER BY score DESC, finished_at LIMIT ?",
            (*params, limit),
        )
        return [_daily(row) for row in rows]

    def results(self, game_id: int) -> Plan[list[ResultRow]]:
        """The result rows of a finished game, best place first."""
        rows = yield from _all(
            "SELECT user_id, total, upper_total, upper_bonus, yahtzees, yahtzee_bonuses, "
            "place, seats, '', expected_loss FROM results WHERE game_id = ? "
            "ORDER BY place IS NULL, place, user_id",
            (game_id,),
        )
        return [ResultRow(*r) for r in rows]

    # -- leaderboards --------------------------------------------------------------------------

    _LEADERBOARD_COLUMNS = (
        "ranked.rank, ranked.user_id, COALESCE(player_names.name, ''), ranked.figure, ranked.games"
    )

    def _leaderboard_query(
        self, kind: str, select: str, tail: str = "", group: bool = False
    ) -> str:
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

    def _leaderboard_params(
        self, kind: str, guild_id: int | None, since: str, channel_id: int | None = None
    ) -> list[Any]:
        params: list[Any] = [guild_id if guild_id is not None else channel_id, since]
        if kind == "average":
            params.append(AVERAGE_MIN_GAMES)
        params.append(guild_id or 0)  # the names of players outside servers: guild 0
        return params

    def leaderboard(
        self, guild_id: int | None, kind: str, since: str = "", channel_id: int | None = None
    ) -> Plan[list[LeaderboardRow]]:
        """Every player on a leaderboard of one server, ranked (one grouped scan of an index);
        with ``guild_id`` None, of one group's channel (``channel_id``: a group DM's)."""
        if kind not in LEADERBOARD_SQL:
            raise ValueError(f"unknown leaderboard kind {kind!r}")
        params = self._leaderboard_params(kind, guild_id, since, channel_id)
        query = self._leaderboard_query(
            kind, self._LEADERBOARD_COLUMNS, "ORDER BY ranked.rank, ranked.user_id",
            group=guild_id is None,
        )  # fmt: skip
        rows = yield from _all(query, params)
        return [LeaderboardRow(*r) for r in rows]

    def player_games(
        self, guild_id: int | None, user_id: int, channel_id: int | None = None
    ) -> Plan[list[PlayerGame]]:
        """A player's finished games on this server's boards, oldest first; with
        ``guild_id`` None, in one group's channel (``channel_id``), or everywhere they
        played (no ``channel_id``: archived results included, a server's reset hides them
        only from its own board)."""
        params: tuple[int, ...]
        if guild_id is not None:
            where, params = "guild_id = ? AND archived = 0 AND user_id = ?", (guild_id, user_id)
        elif channel_id is not None:
            where = "guild_id IS NULL AND channel_id = ? AND archived = 0 AND user_id = ?"
            params = (channel_id, user_id)
        else:
            where, params = "user_id = ?", (user_id,)
        rows = yield from _all(
            "SELECT total, place, seats, upper_bonus, yahtzees, finished_at, expected_loss "
            f"FROM results WHERE {where} ORDER BY finished_at, id",
            params,
        )
        return [PlayerGame(*r) for r in rows]

    def decisions(
        self, game_id: int, user_id: int
    ) -> Plan[list[tuple[str, float | None, str | None]]]:
        """A player's moves in a game with what each cost: (action, loss, decision), in order."""
        rows = yield from _all(
            "SELECT action, loss, decision FROM moves WHERE game_id = ? AND user_id = ? "
            "ORDER BY version",
            (game_id, user_id),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def request_recorded(self, request_id: int) -> Plan[bool]:
        """Whether a move answering this request (a click, a command) is in the log."""
        if not 0 < request_id <= MAX_ID:
            return False
        row = yield from _one("SELECT 1 FROM moves WHERE request_id = ?", (request_id,))
        return row is not None

    def player_name(self, guild_id: int | None, user_id: int) -> Plan[str | None]:
        """The name a player had in their last game here (None: outside servers)."""
        row = yield from _one(
            "SELECT name FROM player_names WHERE guild_id = ? AND user_id = ?",
            (guild_id or 0, user_id),
        )
        return str(row[0]) if row else None

    def token_places(self) -> Plan[set[int]]:
        """The channels the bot reaches only through interactions' tokens."""
        rows = yield from _all("SELECT channel_id FROM token_places")
        return {int(r[0]) for r in rows}


class Transaction(Reads):
    """The writes, as plans; a unit of work (``Store.write``) is a plan made of them.

    Everything a unit does is committed together or not at all. Nothing but the database
    runs between its statements: it is not a coroutine, so it cannot await anything else.
    """

    def _room_for(self, member: tuple[int, int] | None) -> Plan[None]:
        """Refuse (``SeatLimit``) to seat a member already in as many live games as allowed,
        counted in the same transaction as the seat is taken, so that fifty lobbies opened at
        once cannot all find room. On PostgreSQL the member's advisory lock makes such
        transactions count one after another (SQLite's one writer already does)."""
        if member is None:
            return
        user_id, limit = member
        yield from _all("SELECT ?", (user_id,), postgres="SELECT pg_advisory_xact_lock(?)")
        if (yield from self.live_games_of(user_id)) >= limit:
            raise SeatLimit(limit)

    def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        preset: str,
        players: Iterable[tuple[int, str]],
        deadline_at: str | None = None,
        request_id: int | None = None,
        room_for: tuple[int, int] | None = None,
        daily: str | None = None,
        hints: bool = True,
        language: str = "en",
        opened_by: int | None = None,
    ) -> Plan[GameRow]:
        """Open a lobby; ``ChannelBusy`` if the channel has a live game already, or is a
        game's thread (live or over: a thread holds one game),
        ``AlreadyApplied`` if ``request_id`` opened one already, ``SeatLimit`` if
        ``room_for`` (member, limit) says the member has no room for another. ``daily``:
        the host's try at that day's challenge, ``DailyTaken`` if they had it already.
        ``hints``: whether the game offers hints; ``language``: its channel messages'.
        ``opened_by``: the id of the request that opens it (no message showing it is older)."""
        yield from self._room_for(room_for)
        if daily is None:
            owner = yield from self.game_of_thread(channel_id)
            if owner is not None:
                raise ChannelBusy(owner)
        stamp = now()
        roster = json.dumps([[uid, name] for uid, name in players])
        values = (guild_id, channel_id, host_id, preset, roster, stamp, stamp, deadline_at)
        try:
            rows = yield Query(
                "INSERT INTO games (guild_id, channel_id, host_id, status, preset, players, "
                "created_at, updated_at, deadline_at, daily, hints, language, opened_by) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                f"RETURNING {_GAME_COLUMNS}",
                (*values, daily, int(hints), language, opened_by),
                conflicts=True,
            )
        except Conflict:
            existing = yield from self.live_game_in(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing) from None
        game = _game(rows[0])
        if daily is not None:
            name = next((n for uid, n in game.players if uid == host_id), "")
            try:
                yield Query(
                    "INSERT INTO daily_results (day, user_id, guild_id, game_id, name) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (daily, host_id, guild_id, game.id, name),
                    conflicts=True,
                )
            except Conflict:
                raise DailyTaken(f"{host_id} has had the challenge of {daily}") from None
        yield from _log_move(game.id, 0, MoveRecord(host_id, "open", request_id=request_id), stamp)
        return game

    def update_game(
        self,
        game_id: int,
        expected_version: int,
        move: MoveRecord,
        *,
        status: GameStatus = _UNSET,
        state: dict[str, Any] | None = _UNSET,
        state_format: int | None = _UNSET,
        players: Sequence[tuple[int, str]] = _UNSET,
        host_id: int = _UNSET,
        deadline_at: str | None = _UNSET,
        ping_at: str | None = _UNSET,
        notify_at: str | None = _UNSET,
        last_move_at: str | None = _UNSET,
        turn_seconds: int = _UNSET,
        timeout_policy: str = _UNSET,
        thread_id: int | None = _UNSET,
        hints: bool = _UNSET,
        pictures: bool = _UNSET,
        undo_message_id: int | None = _UNSET,
        board: tuple[int | None, int | None, int | None] = _UNSET,
        unseen: bool = False,
        results: Sequence[ResultRow] = (),
        room_for: tuple[int, int] | None = None,
        daily_scores: tuple[int, int | None] | None = None,
    ) -> Plan[GameRow]:
        """Apply one accepted change if the game is still at ``expected_version``.

        The change, its move-log entry and (when the game finishes) its result rows are
        written together. ``board`` records the board message with the change, as
        ``set_messages`` does; ``unseen``: the change does not show on the board (a
        reminder), so a board that was up to date stays so. ``StaleVersion`` if another
        change got there first. ``room_for`` (member, limit): the change seats the member,
        refused with ``SeatLimit`` if they already sit in ``limit`` live games.
        ``daily_scores``: a daily challenge finished with (its score, the Optimal bot's).
        """
        yield from self._room_for(room_for)
        stamp = now()
        sets = ["version = version + 1", "updated_at = ?"]
        values: list[Any] = [stamp]
        if board is not _UNSET:
            sets += ["board_message_id = ?", "board_turn = ?", "board_version = ?"]
            values += list(board)
        elif unseen:  # SET sees the row as it was: version + 1 is the new version
            sets.append(
                "board_version = CASE WHEN board_version = version THEN version + 1 "
                "ELSE board_version END"
            )
        if status is not _UNSET:
            sets.append("status = ?")
            values.append(status)
            if status in ENDED:
                sets.append("finished_at = ?")
                values.append(stamp)
        if state is not _UNSET:
            sets.append("state = ?")
            values.append(orjson.dumps(state).decode() if state is not None else None)
        if state_format is not _UNSET:
            sets.append("state_format = ?")
            values.append(state_format)
        if players is not _UNSET:
            sets.append("players = ?")
            values.append(json.dumps([[uid, name] for uid, name in players]))
        for column, value in (
            ("host_id", host_id),
            ("deadline_at", deadline_at),
            ("ping_at", ping_at),
            ("notify_at", notify_at),
            ("last_move_at", last_move_at),
            ("turn_seconds", turn_seconds),
            ("timeout_policy", timeout_policy),
            ("thread_id", thread_id),
            ("hints", hints),
            ("pictures", pictures),
            ("undo_message_id", undo_message_id),
        ):
            if value is not _UNSET:
                sets.append(f"{column} = ?")  # column names from the list above, never input
                values.append(value)
        row = yield from _one(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? "
            f"RETURNING {_GAME_COLUMNS}",
            (*values, game_id, expected_version),
        )
        if row is None:
            raise StaleVersion(f"game {game_id} is no longer at version {expected_version}")
        game = _game(row)
        yield from _log_move(game_id, game.version, move, stamp)
        if results:
            yield from _record_results(game, results, stamp)
        if daily_scores is not None:
            yield from _all(
                "UPDATE daily_results SET score = ?, optimal = ?, finished_at = ? "
                "WHERE game_id = ?",
                (*daily_scores, stamp, game_id),
            )
        return game

    def set_messages(
        self,
        game_id: int,
        *,
        undo_message_id: int | None = _UNSET,
        final_message_id: int | None = _UNSET,
        reminder_message_id: int | None = _UNSET,
    ) -> Plan[None]:
        """Record which messages offer Undo, show the final result and remind the player to
        move (the board message is recorded by ``show_board``, or with a move by
        ``update_game``)."""
        sets: list[str] = []
        values: list[Any] = []
        if reminder_message_id is not _UNSET:
            sets.append("reminder_message_id = ?")
            values.append(reminder_message_id)
        if undo_message_id is not _UNSET:
            sets.append("undo_message_id = ?")
            values.append(undo_message_id)
        if final_message_id is not _UNSET:
            sets.append("final_message_id = ?")
            values.append(final_message_id)
        if sets:
            yield from _all(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*values, game_id))

    def show_board(
        self, game_id: int, message_id: int, turn: int | None, version: int
    ) -> Plan[bool]:
        """Record ``message_id`` as the board showing ``version`` (at ``turn``), unless the
        record already names a newer board, or another message for the same version at
        another turn (an Undo took the game back while this board was being posted).

        True if the record now names this message: it is the live board.
        """
        row = yield from _one(
            "UPDATE games SET board_message_id = ?, board_turn = ?, board_version = ? "
            "WHERE id = ? AND (board_version IS NULL OR board_version < ? "
            "OR (board_version = ? AND board_turn IS NOT DISTINCT FROM ?)) RETURNING id",
            (message_id, turn, version, game_id, version, version, turn),
        )
        if row is not None:
            return True
        current = yield from _one("SELECT board_message_id FROM games WHERE id = ?", (game_id,))
        return current is not None and current[0] == message_id

    def show_boards(self, shown: Sequence[tuple[int, int, int | None, int]]) -> Plan[None]:
        """``show_board`` for many boards at once, (game, message, turn, version) each, with
        nothing to say back: the record of click answers on boards already on record."""
        yield from _many(
            "UPDATE games SET board_message_id = ?, board_turn = ?, board_version = ? "
            "WHERE id = ? AND (board_version IS NULL OR board_version < ? "
            "OR (board_version = ? AND board_turn IS NOT DISTINCT FROM ?))",
            [(m, t, v, g, v, v, t) for g, m, t, v in shown],
        )

    def set_move_costs(self, costs: Sequence[tuple[int, int, float, str]]) -> Plan[None]:
        """Add what decisions cost against optimal play to their move-log entries:
        (game, version, loss, the decision in words) each."""
        yield from _many(
            "UPDATE moves SET loss = ?, decision = ? WHERE game_id = ? AND version = ?",
            [(loss, decision, game_id, version) for game_id, version, loss, decision in costs],
        )

    def prune_moves(self, finished_before: str, games: int) -> Plan[int]:
        """Delete the move logs of up to ``games`` games that ended (finished or abandoned)
        before ``finished_before`` and still have one; how many games were pruned. Results,
        leaderboards and the games' rows stay. The games are read from an index of those
        whose log is kept (games_to_prune), oldest first: a batch reads only what it prunes."""
        rows = yield from _all(
            "SELECT id FROM games WHERE status IN ('finished', 'abandoned') "
            "AND moves_pruned_at IS NULL AND finished_at < ? ORDER BY finished_at LIMIT ?",
            (finished_before, games),
        )
        ids = [int(r[0]) for r in rows]
        if ids:
            marks = ", ".join("?" for _ in ids)
            yield from _all(f"DELETE FROM moves WHERE game_id IN ({marks})", ids)
            yield from _all(
                f"UPDATE games SET moves_pruned_at = ? WHERE id IN ({marks})", [now(), *ids]
            )
        return len(ids)

    def note_token_place(self, channel_id: int, kind: str) -> Plan[None]:
        """The bot reaches ``channel_id`` only through interactions' tokens (a ``kind`` of
        place: a group DM, a server that never added it)."""
        yield from _all(
            "INSERT INTO token_places (channel_id, kind, noted_at) VALUES (?, ?, ?) "
            "ON CONFLICT (channel_id) DO NOTHING",
            (channel_id, kind, now()),
        )

    def set_meta_value(self, key: str, value: str) -> Plan[None]:
        """Keep ``value`` under ``key`` in the bot's own notes (see ``meta_value``)."""
        yield from _all(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def keep_secret(self, name: str, candidate: str) -> Plan[str]:
        """The deployment's secret ``name``: ``candidate`` becomes it unless one is kept
        already, then the one kept is read, so that processes starting at once agree."""
        yield from _all(
            "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (name, candidate),
        )
        row = yield from _one("SELECT value FROM secrets WHERE name = ?", (name,))
        assert row is not None, "inserted just above, or kept already"
        return str(row[0])

    def save_guild_settings(
        self, guild_id: int, settings: GuildSettings, user_id: int
    ) -> Plan[None]:
        """Store a server's settings (validated by the caller)."""
        yield from _all(
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
                settings.preset,
                settings.turn_seconds,
                settings.timeout_policy,
                int(settings.use_threads),
                int(settings.auto_roll),
                settings.language,
                user_id,
                now(),
            ),
        )

    def set_player_auto_roll(self, user_id: int, auto_roll: bool | None) -> Plan[None]:
        """Store a player's /yahtzee autoroll choice (None: follow the server)."""
        value = None if auto_roll is None else int(auto_roll)
        yield from _all(
            "INSERT INTO player_settings (user_id, auto_roll, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET auto_roll = excluded.auto_roll, "
            "updated_at = excluded.updated_at",
            (user_id, value, now()),
        )

    def set_player_notify(self, user_id: int, notify: bool) -> Plan[None]:
        """Store a player's /yahtzee notify choice."""
        yield from _all(
            "INSERT INTO player_settings (user_id, notify, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
            "updated_at = excluded.updated_at",
            (user_id, int(notify), now()),
        )

    def archive_results(self, guild_id: int, user_id: int) -> Plan[int]:
        """Hide every live result of a server from the boards; returns how many.

        The count is of the rows the UPDATE hid, not of a SELECT before it: on PostgreSQL a
        game that finishes in between is archived too, and must be counted.
        """
        archive = yield from _one(
            "INSERT INTO leaderboard_archives (guild_id, archived_by, archived_at, results) "
            "VALUES (?, ?, ?, 0) RETURNING id",
            (guild_id, user_id, now()),
        )
        assert archive is not None
        hidden = yield from _all(
            "UPDATE results SET archived = ? WHERE guild_id = ? AND archived = 0 RETURNING id",
            (archive[0], guild_id),
        )
        if hidden:
            yield from _all(
                "UPDATE leaderboard_archives SET results = ? WHERE id = ?",
                (len(hidden), archive[0]),
            )
        else:  # nothing to hide: no archive for a restore to find
            yield from _all("DELETE FROM leaderboard_archives WHERE id = ?", (archive[0],))
        return len(hidden)

    def restore_results(self, guild_id: int) -> Plan[int]:
        """Bring back the server's most recent archive; returns how many results came back."""
        row = yield from _one(
            "SELECT id FROM leaderboard_archives WHERE guild_id = ? AND restored_at IS NULL "
            "ORDER BY id DESC LIMIT 1",
            (guild_id,),
        )
        if row is None:
            return 0
        restored = yield from _all(
            "UPDATE results SET archived = 0 WHERE guild_id = ? AND archived = ? RETURNING id",
            (guild_id, row[0]),
        )
        yield from _all(
            "UPDATE leaderboard_archives SET restored_at = ? WHERE id = ?", (now(), row[0])
        )
        return len(restored)
