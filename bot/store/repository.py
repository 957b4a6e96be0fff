"""The repository: parameterised SQL only, opened once and passed in; every write a unit of
work (``Store.write``) run on the one writer thread."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiosqlite

from .writer import Writer

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class GameStatus(StrEnum):
    """Where a game is in its life: a lobby, then active, then one of three ends."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"  # played to the end: its results count
    ABANDONED = "abandoned"  # ended early: counts for nobody
    CANCELLED = "cancelled"  # a lobby that never started


MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger id is no game's

LIVE = (GameStatus.LOBBY, GameStatus.ACTIVE)
ENDED = (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED)


class StoreUnavailable(Exception):
    """The database cannot take writes now (its disk is full or read-only, an I/O error):
    the write was undone whole; trying again once there is room will work."""


#: What SQLite says when the file, not the write, is the problem.
_UNAVAILABLE = ("database or disk is full", "readonly database", "disk i/o error")


class StaleVersion(Exception):
    """The game changed since it was read: another move got there first."""


class ChannelBusy(Exception):
    """The channel already has a lobby or a running game."""

    def __init__(self, existing: GameRow) -> None:
        super().__init__(f"channel {existing.channel_id} already has game {existing.id}")
        self.existing = existing


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as stored: who, where, its status, the engine state and its messages."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    preset: str
    players: list[tuple[int, str]]
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    board_turn: int | None
    board_version: int | None
    undo_message_id: int | None
    final_message_id: int | None
    created_at: str
    updated_at: str
    finished_at: str | None
    deadline_at: str | None = None
    ping_at: str | None = None
    last_move_at: str | None = None
    turn_seconds: int = 0
    timeout_policy: str = "scratch"
    thread_id: int | None = None
    hints: bool = True
    pictures: bool = True  # False: the bot may not attach files there, boards are text

    @property
    def is_live(self) -> bool:
        """A lobby or a running game."""
        return self.status in LIVE

    @property
    def board_channel_id(self) -> int:
        """Where the game's boards are posted: its thread, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices for its games."""

    preset: str = "official"
    turn_seconds: int = 300
    timeout_policy: str = "scratch"
    use_threads: bool = False


# A message id recorded for a message that can never be posted (its channel is gone): the
# repair stops waiting for it. Discord's ids are never 0.
NO_MESSAGE = 0


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One accepted move for the log."""

    user_id: int | None
    action: str
    detail: str | None = None
    dice: str | None = None
    loss: float | None = None  # expected points this decision gave up against optimal play
    decision: str | None = None  # the decision in words, with the better one when it lost


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One human seat's result in a finished game."""

    user_id: int
    total: int
    upper_total: int
    upper_bonus: int
    yahtzees: int
    yahtzee_bonuses: int
    place: int | None
    seats: int
    name: str = ""  # the player's name in this game, kept for the boards
    expected_loss: float | None = None  # points lost against optimal play (official rules)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A line of a leaderboard: shared ranks for equal figures."""

    rank: int
    user_id: int
    name: str
    figure: float
    games: int


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One finished game of a player, for their stats."""

    total: int
    place: int | None
    seats: int
    upper_bonus: int
    yahtzees: int
    finished_at: str
    expected_loss: float | None = None


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


def latest_schema_version() -> int:
    """The number of the newest migration file."""
    return max(n for n, _ in _migration_files())


def _migration_files() -> list[tuple[int, Path]]:
    found = []
    for path in MIGRATIONS.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


def now() -> str:
    """The current UTC time as stored (ISO 8601, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, preset, players, state, version, "
    "board_message_id, board_turn, board_version, undo_message_id, final_message_id, "
    "created_at, updated_at, finished_at, deadline_at, ping_at, last_move_at, turn_seconds, "
    "timeout_policy, thread_id, hints, pictures"
)


def _game(row: sqlite3.Row | Sequence[Any]) -> GameRow:
    players = [(int(uid), str(name)) for uid, name in json.loads(row[6])]
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=GameStatus(row[4]),
        preset=row[5],
        players=players,
        state=json.loads(row[7]) if row[7] is not None else None,
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
    )


# A channel's live game: the one started there, else the one played in that thread.
LIVE_GAME_IN = (
    f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
    "AND (channel_id = ? OR thread_id = ?) ORDER BY channel_id = ? DESC LIMIT 1"
)

_UNSET: Any = object()
P = ParamSpec("P")
R = TypeVar("R")


class _Reads:
    """The queries, on whichever connection the holder reads from."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # One hop to the database thread (a cursor's execute + fetch + close would be three).
        return list(await self._db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        """``PRAGMA user_version``: the number of the last migration applied."""
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id (None for an id no game can have, such as a forged one too large
        for SQLite's integers)."""
        if not 0 < game_id <= MAX_ID:
            return None
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game_in(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel, or of the thread it is played in."""
        row = await self._one(LIVE_GAME_IN, (channel_id, channel_id, channel_id))
        return _game(row) if row else None

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        """The game that finished last in a channel (or in a thread of it)."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'finished' "
            "AND (channel_id = ? OR thread_id = ?) ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return _game(row) if row else None

    async def live_games(self) -> list[GameRow]:
        """Every lobby and running game."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def live_games_of(self, user_id: int) -> int:
        """How many lobbies and running games seat a member (one scan of the live games)."""
        row = await self._one(
            "SELECT COUNT(*) FROM games, json_each(games.players) AS seat "
            "WHERE games.status IN ('lobby', 'active') "
            "AND json_extract(seat.value, '$[0]') = ?",
            (user_id,),
        )
        return int(row[0]) if row else 0

    async def boards_behind(self, moved_before: str) -> list[GameRow]:
        """Live games whose board does not show them as they are (a post or an answer that
        failed), with no move since ``moved_before``: nothing is on its way to fix them."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') "
            "AND (board_message_id IS NULL OR board_version IS NOT version) "
            "AND COALESCE(last_move_at, updated_at) <= ? ORDER BY id",
            (moved_before,),
        )
        return [_game(r) for r in rows]

    async def install_id(self) -> str:
        """This database's random id (six hex digits), made by its migrations."""
        row = await self._one("SELECT value FROM meta WHERE key = 'install_id'")
        assert row is not None, "migration 007 makes it"
        return str(row[0])

    async def due_games(self, now_at: str, idle_since: str) -> list[GameRow]:
        """Live games past a deadline or ping time, or with no move by a person since then."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') AND ("
            "deadline_at <= ? OR ping_at <= ? "
            "OR (status = 'active' AND COALESCE(last_move_at, updated_at) <= ?)) ORDER BY id",
            (now_at, now_at, idle_since),
        )
        return [_game(r) for r in rows]

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings (the defaults until an admin changes them)."""
        if guild_id is None:
            return GuildSettings()
        row = await self._one(
            "SELECT preset, turn_seconds, timeout_policy, use_threads FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(str(row[0]), int(row[1]), str(row[2]), bool(row[3]))

    async def games_missing_final_message(self) -> list[GameRow]:
        """Finished games whose final message has not been posted."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'finished' "
            "AND final_message_id IS NULL ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def moves(
        self, game_id: int
    ) -> list[tuple[int, int | None, str, str | None, str | None]]:
        """The move log of a game: (version, user, action, detail, dice), oldest first."""
        rows = await self._all(
            "SELECT version, user_id, action, detail, dice FROM moves "
            "WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def results(self, game_id: int) -> list[ResultRow]:
        """The result rows of a finished game, best place first."""
        rows = await self._all(
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

    def _leaderboard_query(self, kind: str, select: str, tail: str = "") -> str:
        figure, games, having = LEADERBOARD_SQL[kind]
        return (
            "WITH per_player AS ("
            f" SELECT user_id, {figure} AS figure, {games} AS games FROM results"
            " WHERE guild_id = ? AND archived = 0 AND finished_at >= ?"
            f" GROUP BY user_id HAVING {having}"
            "), ranked AS ("
            " SELECT user_id, figure, games, RANK() OVER (ORDER BY figure DESC) AS rank"
            " FROM per_player"
            f") SELECT {select} FROM ranked LEFT JOIN player_names"
            " ON player_names.guild_id = ? AND player_names.user_id = ranked.user_id " + tail
        )

    def _leaderboard_params(self, kind: str, guild_id: int, since: str) -> list[Any]:
        params: list[Any] = [guild_id, since]
        if kind == "average":
            params.append(AVERAGE_MIN_GAMES)
        params.append(guild_id)
        return params

    async def leaderboard(self, guild_id: int, kind: str, since: str = "") -> list[LeaderboardRow]:
        """Every player on a leaderboard of one server, ranked (one grouped scan of an index)."""
        if kind not in LEADERBOARD_SQL:
            raise ValueError(f"unknown leaderboard kind {kind!r}")
        params = self._leaderboard_params(kind, guild_id, since)
        query = self._leaderboard_query(
            kind, self._LEADERBOARD_COLUMNS, "ORDER BY ranked.rank, ranked.user_id"
        )
        return [LeaderboardRow(*r) for r in await self._all(query, params)]

    async def player_games(self, guild_id: int, user_id: int) -> list[PlayerGame]:
        """A player's finished games on this server's boards, oldest first."""
        rows = await self._all(
            "SELECT total, place, seats, upper_bonus, yahtzees, finished_at, expected_loss "
            "FROM results "
            "WHERE guild_id = ? AND archived = 0 AND user_id = ? ORDER BY finished_at, id",
            (guild_id, user_id),
        )
        return [PlayerGame(*r) for r in rows]

    async def decisions(
        self, game_id: int, user_id: int
    ) -> list[tuple[str, float | None, str | None]]:
        """A player's moves in a game with what each cost: (action, loss, decision), in order."""
        rows = await self._all(
            "SELECT action, loss, decision FROM moves WHERE game_id = ? AND user_id = ? "
            "ORDER BY version",
            (game_id, user_id),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def player_name(self, guild_id: int, user_id: int) -> str | None:
        """The name a player had in their last game here."""
        row = await self._one(
            "SELECT name FROM player_names WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return str(row[0]) if row else None


class Transaction:
    """The writes of one unit of work, run whole on the writer thread (``Store.write``).

    Everything done through one ``Transaction`` is committed together or not at all. Its
    methods are plain functions: nothing awaits between the statements of a unit.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.open = True

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if not self.open:
            raise RuntimeError("this transaction has ended: use it inside its unit of work")
        return self._db.execute(sql, params).fetchall()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._all(sql, params)
        return rows[0] if rows else None

    def _many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if not self.open:
            raise RuntimeError("this transaction has ended: use it inside its unit of work")
        self._db.executemany(sql, rows)

    def schema_version(self) -> int:
        """``PRAGMA user_version`` as this transaction sees it."""
        return int(self._one("PRAGMA user_version")[0])

    def live_game_in(self, channel_id: int) -> GameRow | None:
        """The live game of a channel, as this transaction sees it."""
        row = self._one(LIVE_GAME_IN, (channel_id, channel_id, channel_id))
        return _game(row) if row else None

    def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        preset: str,
        players: Iterable[tuple[int, str]],
        deadline_at: str | None = None,
    ) -> GameRow:
        """Open a lobby; ``ChannelBusy`` if the channel has a live game already."""
        stamp = now()
        roster = json.dumps([[uid, name] for uid, name in players])
        try:
            row = self._one(
                "INSERT INTO games (guild_id, channel_id, host_id, status, preset, players, "
                "created_at, updated_at, deadline_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?) "
                f"RETURNING {_GAME_COLUMNS}",
                (guild_id, channel_id, host_id, preset, roster, stamp, stamp, deadline_at),
            )
        except sqlite3.IntegrityError:
            existing = self.live_game_in(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing) from None
        assert row is not None
        game = _game(row)
        self._all(
            "INSERT INTO moves (game_id, version, user_id, action, at) VALUES (?, 0, ?, 'open', ?)",
            (game.id, host_id, stamp),
        )
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
    ) -> GameRow:
        """Apply one accepted change if the game is still at ``expected_version``.

        The change, its move-log entry and (when the game finishes) its result rows are
        written together. ``board`` records the board message with the change, as
        ``set_messages`` does; ``unseen``: the change does not show on the board (a
        reminder), so a board that was up to date stays so. ``StaleVersion`` if another
        change got there first.
        """
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
            values.append(json.dumps(state, separators=(",", ":")) if state is not None else None)
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
        row = self._one(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? "
            f"RETURNING {_GAME_COLUMNS}",
            (*values, game_id, expected_version),
        )
        if row is None:
            raise StaleVersion(f"game {game_id} is no longer at version {expected_version}")
        game = _game(row)
        self._all(
            "INSERT INTO moves (game_id, version, user_id, action, detail, dice, at, loss, "
            "decision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                game.version,
                move.user_id,
                move.action,
                move.detail,
                move.dice,
                stamp,
                move.loss,
                move.decision,
            ),
        )
        if results:
            self._many(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
                "VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, "
                "updated_at = excluded.updated_at",
                [(game.guild_id, r.user_id, r.name, stamp) for r in results if r.name],
            )
            self._many(
                "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, "
                "upper_total, upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, "
                "finished_at, expected_loss) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
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
        return game

    def set_messages(
        self,
        game_id: int,
        *,
        undo_message_id: int | None = _UNSET,
        final_message_id: int | None = _UNSET,
    ) -> None:
        """Record which messages offer Undo and show the final result (the board message
        is recorded by ``show_board``, or with a move by ``update_game``)."""
        sets: list[str] = []
        values: list[Any] = []
        if undo_message_id is not _UNSET:
            sets.append("undo_message_id = ?")
            values.append(undo_message_id)
        if final_message_id is not _UNSET:
            sets.append("final_message_id = ?")
            values.append(final_message_id)
        if sets:
            self._all(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*values, game_id))

    def show_board(self, game_id: int, message_id: int, turn: int | None, version: int) -> bool:
        """Record ``message_id`` as the board showing ``version`` (at ``turn``), unless the
        record already names a newer board, or another message for the same version at
        another turn (an Undo took the game back while this board was being posted).

        True if the record now names this message: it is the live board.
        """
        row = self._one(
            "UPDATE games SET board_message_id = ?, board_turn = ?, board_version = ? "
            "WHERE id = ? AND (board_version IS NULL OR board_version < ? "
            "OR (board_version = ? AND board_turn IS ?)) RETURNING id",
            (message_id, turn, version, game_id, version, version, turn),
        )
        if row is not None:
            return True
        current = self._one("SELECT board_message_id FROM games WHERE id = ?", (game_id,))
        return current is not None and current[0] == message_id

    def set_move_cost(self, game_id: int, version: int, loss: float, decision: str) -> None:
        """Add what a decision cost against optimal play to its move-log entry."""
        self._all(
            "UPDATE moves SET loss = ?, decision = ? WHERE game_id = ? AND version = ?",
            (loss, decision, game_id, version),
        )

    def save_guild_settings(self, guild_id: int, settings: GuildSettings, user_id: int) -> None:
        """Store a server's settings (validated by the caller)."""
        self._all(
            "INSERT INTO guild_settings (guild_id, preset, turn_seconds, timeout_policy, "
            "use_threads, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET preset = excluded.preset, "
            "turn_seconds = excluded.turn_seconds, timeout_policy = excluded.timeout_policy, "
            "use_threads = excluded.use_threads, updated_by = excluded.updated_by, "
            "updated_at = excluded.updated_at",
            (
                guild_id,
                settings.preset,
                settings.turn_seconds,
                settings.timeout_policy,
                int(settings.use_threads),
                user_id,
                now(),
            ),
        )

    def archive_results(self, guild_id: int, user_id: int) -> int:
        """Hide every live result of a server from the boards; returns how many."""
        row = self._one(
            "SELECT COUNT(*) FROM results WHERE guild_id = ? AND archived = 0", (guild_id,)
        )
        count = int(row[0]) if row else 0
        if count:
            archive = self._one(
                "INSERT INTO leaderboard_archives (guild_id, archived_by, archived_at, results) "
                "VALUES (?, ?, ?, ?) RETURNING id",
                (guild_id, user_id, now(), count),
            )
            assert archive is not None
            self._all(
                "UPDATE results SET archived = ? WHERE guild_id = ? AND archived = 0",
                (archive[0], guild_id),
            )
        return count

    def restore_results(self, guild_id: int) -> int:
        """Bring back the server's most recent archive; returns how many results came back."""
        row = self._one(
            "SELECT id FROM leaderboard_archives WHERE guild_id = ? AND restored_at IS NULL "
            "ORDER BY id DESC LIMIT 1",
            (guild_id,),
        )
        if row is None:
            return 0
        restored = self._all(
            "UPDATE results SET archived = 0 WHERE guild_id = ? AND archived = ? RETURNING id",
            (guild_id, row[0]),
        )
        self._all("UPDATE leaderboard_archives SET restored_at = ? WHERE id = ?", (now(), row[0]))
        return len(restored)

    def _script(self, script: str) -> None:
        """Run a migration script (statements without parameters) inside this transaction.

        Statement by statement: ``executescript`` would commit the transaction first.
        """
        for statement in _statements(script):
            self._all(statement)


def _statements(script: str) -> list[str]:
    """A script's statements, split where SQLite says a statement is complete."""
    out: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\r\n;"):
                out.append(pending.strip())
            pending = ""
    if pending.strip(" \t\r\n;"):
        raise ValueError(f"an incomplete statement at the end of a migration: {pending[:60]!r}")
    return out


def _in_transaction(
    write: Callable[Concatenate[Transaction, P], R],
) -> Callable[Concatenate[Store, P], Awaitable[R]]:
    """``Store.x(...)``: ``Transaction.x(...)`` as a unit of work of its own."""

    async def run(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await store.write(lambda tx: write(tx, *args, **kwargs))

    run.__name__ = write.__name__
    run.__doc__ = f"{write.__doc__}\n\n(A unit of work of its own: see ``Store.write``.)"
    return run


def _open_writer(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA busy_timeout = 2000")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        db.close()
        raise
    return db


class Store(_Reads):
    """All reads and writes of the bot's SQLite file.

    Writes are units of work (``write``) run by one writer thread, one at a time across every
    game, and committed in batches: two games' transactions can never interleave. Reads go to
    a second connection that never writes; in WAL mode they do not wait behind a write and
    see every committed one.
    """

    def __init__(self, writer: Writer, reader: aiosqlite.Connection) -> None:
        super().__init__(reader)
        self._writer = writer

    @classmethod
    async def open(cls, path: str | Path, migrate: bool = True) -> Store:
        """Open (creating folders and file as needed) and bring the schema up to date."""
        path = Path(path)
        if str(path) == ":memory:":
            raise ValueError("the store needs a file: its reader and writer are two connections")
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = Writer(await asyncio.to_thread(_open_writer, path))
        try:
            reader = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            await writer.close()
            raise
        try:
            await reader.execute("PRAGMA busy_timeout = 2000")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            await writer.close()
            raise
        store = cls(writer, reader)
        if migrate:
            try:
                await store.migrate()
            except BaseException:
                await store.close()
                raise
        return store

    async def close(self) -> None:
        """Close the connections, after every write already handed over."""
        await self._writer.close()
        await self._db.close()

    async def write(self, work: Callable[[Transaction], R]) -> R:
        """The one way to write: ``await store.write(lambda tx: ...)``.

        ``work`` runs on the writer thread in a transaction, with nothing else interleaved;
        this returns its result once its writes are committed, or raises its error (its
        writes undone, nobody else's). Units queued together share one COMMIT.
        """

        def unit(db: sqlite3.Connection) -> R:
            tx = Transaction(db)
            try:
                return work(tx)
            finally:
                tx.open = False

        try:
            return await self._writer.run(unit)
        except sqlite3.OperationalError as exc:
            if not any(words in str(exc).lower() for words in _UNAVAILABLE):
                raise
            log.error("the database refused a write (%s): moves are refused until it can", exc)
            raise StoreUnavailable(str(exc)) from exc

    @property
    def group_commit(self) -> tuple[int, int]:
        """(COMMITs, units of work they held) since the store opened."""
        return self._writer.batches, self._writer.units

    # -- schema ------------------------------------------------------------------------------

    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration newer than the file's version, all in one transaction."""

        def apply(tx: Transaction) -> tuple[int, int]:
            current = tx.schema_version()  # read inside the transaction: one process migrates
            for number, path in _migration_files():
                if number > current and (target is None or number <= target):
                    tx._script(path.read_text(encoding="utf-8"))
                    tx._script(f"PRAGMA user_version = {int(number)};")
            return current, tx.schema_version()

        before, after = await self.write(apply)
        if after != before:
            log.info("database schema migrated from version %d to %d", before, after)
        return after

    # -- writes, each a unit of work of its own --------------------------------------------------

    create_game = _in_transaction(Transaction.create_game)
    update_game = _in_transaction(Transaction.update_game)
    set_messages = _in_transaction(Transaction.set_messages)
    show_board = _in_transaction(Transaction.show_board)
    set_move_cost = _in_transaction(Transaction.set_move_cost)
    save_guild_settings = _in_transaction(Transaction.save_guild_settings)
    archive_results = _in_transaction(Transaction.archive_results)
    restore_results = _in_transaction(Transaction.restore_results)
