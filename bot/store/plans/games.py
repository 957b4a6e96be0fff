"""The games table: a game's row read (``GAME``, the one shape of a game row), opened, changed
(``update_game``, with its move, its results and the version check) and the messages that
show it recorded."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from bot.engine.presets import Preset

from ..records import (
    ENDED,
    MAX_ID,
    NO_CHANGE,
    UNSET,
    AlreadyApplied,
    ChannelBusy,
    DailyTaken,
    GameChange,
    GameRow,
    GameStatus,
    MoveRecord,
    NewGame,
    ResultRow,
    SeatLimit,
    StaleVersion,
    Unset,
)
from ..sql import (
    Conflict,
    Plan,
    Query,
    ReadPlan,
    WritePlan,
    all_rows,
    each_row,
    now,
    one_row,
    shape_of,
)


def _roster(stored: str) -> list[tuple[int, str]]:
    return [(int(uid), str(name)) for uid, name in orjson.loads(stored)]


#: A game's row: every field of ``GameRow`` is the column of its name.
GAME = shape_of(
    GameRow,
    decode={
        "status": GameStatus,
        "preset": Preset.parse,
        "players": _roster,
        "state": orjson.loads,
        "hints": bool,
        "pictures": bool,
    },
)


def _state_text(state: dict[str, Any] | None) -> str | None:
    return orjson.dumps(state).decode() if state is not None else None


def _roster_text(players: Iterable[tuple[int, str]]) -> str:
    return json.dumps([[uid, name] for uid, name in players])


#: How a ``GameChange`` value is written where the column keeps it otherwise.
_ENCODE: dict[str, Callable[[Any], Any]] = {"state": _state_text, "players": _roster_text}

_LIVE = "status IN ('lobby', 'active')"

# A channel's live game: the one started there, else the one played in that thread.
LIVE_GAME_IN = (
    f"SELECT {GAME.columns} FROM games WHERE {_LIVE} "
    "AND daily IS NULL "  # a daily challenge is private: it holds no channel
    "AND (channel_id = ? OR thread_id = ?) ORDER BY channel_id = ? DESC LIMIT 1"
)


def _games(sql: str, params: Sequence[Any] = ()) -> Plan[list[GameRow]]:
    rows = yield from all_rows(f"SELECT {GAME.columns} FROM games WHERE {sql}", params)
    return [GAME(r) for r in rows]


def _game(sql: str, params: Sequence[Any] = ()) -> Plan[GameRow | None]:
    rows = yield from _games(sql, params)
    return rows[0] if rows else None


# -- reads ----------------------------------------------------------------------------------


@ReadPlan
def get_game(game_id: int) -> Plan[GameRow | None]:
    """A game by id (None for an id no game can have, such as a forged one too large for
    the databases' integers)."""
    if not 0 < game_id <= MAX_ID:
        return None
    return (yield from _game("id = ?", (game_id,)))


@ReadPlan
def live_game_in(channel_id: int) -> Plan[GameRow | None]:
    """The lobby or running game of a channel, or of the thread it is played in."""
    row = yield from one_row(LIVE_GAME_IN, (channel_id, channel_id, channel_id))
    return GAME(row) if row else None


@ReadPlan
def game_of_thread(thread_id: int) -> Plan[GameRow | None]:
    """The game played in a thread (its live one first, else its latest), or None."""
    return (
        yield from _game(
            f"thread_id = ? AND daily IS NULL ORDER BY {_LIVE} DESC, id DESC LIMIT 1",
            (thread_id,),
        )
    )


@ReadPlan
def last_finished_game_in(channel_id: int) -> Plan[GameRow | None]:
    """The game that finished last in a channel (or in a thread of it): the latest of
    each, read through its index (games_finished_in_channel, games_thread). Never a daily
    challenge: it is private (its card would show everyone the day's dice)."""
    return (
        yield from _game(
            "id IN ("
            "SELECT id FROM (SELECT id FROM games WHERE status = 'finished' AND channel_id = ? "
            "AND daily IS NULL ORDER BY finished_at DESC, id DESC LIMIT 1) AS by_channel "
            "UNION ALL SELECT id FROM (SELECT id FROM games WHERE status = 'finished' "
            "AND thread_id = ? AND daily IS NULL ORDER BY finished_at DESC, id DESC LIMIT 1) "
            "AS by_thread) "
            "ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id, channel_id),
        )
    )


@ReadPlan
def live_games() -> Plan[list[GameRow]]:
    """Every lobby and running game."""
    return (yield from _games(f"{_LIVE} ORDER BY id"))


@ReadPlan
def live_games_after(after: int, limit: int) -> Plan[list[GameRow]]:
    """A page of the lobbies and running games: the first ``limit`` whose id is above
    ``after``, in id order (a sweep reads them page by page, each through the games_live
    index from where the last one ended)."""
    return (yield from _games(f"{_LIVE} AND id > ? ORDER BY id LIMIT ?", (after, limit)))


@ReadPlan
def games_by_status() -> Plan[dict[str, int]]:
    """How many games are in each status (lobby, active, finished, abandoned, cancelled),
    without reading the games: the ended ones as the database counts them (game_counts,
    kept by triggers), the live ones through their index."""
    ended = yield from all_rows("SELECT status, games FROM game_counts")
    live = yield from all_rows(f"SELECT status, COUNT(*) FROM games WHERE {_LIVE} GROUP BY status")
    return {str(r[0]): int(r[1]) for r in [*ended, *live]}


@ReadPlan
def live_games_at(
    guild_id: int, channel_id: int | None = None, thread_id: int | None = None
) -> Plan[list[GameRow]]:
    """The lobbies and running games of a server; of one of its channels (the threads of
    that channel's games included: they are deleted with it) or of one thread."""
    if thread_id is not None:
        return (yield from _games(f"{_LIVE} AND thread_id = ? ORDER BY id", (thread_id,)))
    if channel_id is not None:
        return (
            yield from _games(
                f"{_LIVE} AND guild_id = ? AND channel_id = ? ORDER BY id",
                (guild_id, channel_id),
            )
        )
    return (yield from _games(f"{_LIVE} AND guild_id = ? ORDER BY id", (guild_id,)))


@ReadPlan
def live_daily_of(user_id: int) -> Plan[GameRow | None]:
    """A member's daily challenge try in progress, if any (played privately, in no
    channel's slot)."""
    return (
        yield from _game(
            f"{_LIVE} AND daily IS NOT NULL AND host_id = ? ORDER BY id DESC LIMIT 1",
            (user_id,),
        )
    )


@ReadPlan
def last_live_daily_start(day: str) -> Plan[str | None]:
    """When the latest try of a day's challenge still in progress started (the try made
    last starts last), or None if none is: while one is, that day's dice are in play."""
    row = yield from one_row(
        "SELECT COALESCE(last_move_at, created_at) FROM games "
        f"WHERE {_LIVE} AND daily = ? ORDER BY id DESC LIMIT 1",
        (day,),
    )
    return str(row[0]) if row else None


@ReadPlan
def live_games_of(user_id: int) -> Plan[int]:
    """How many lobbies and running games seat a member (one scan of the live games)."""
    row = yield from one_row(
        "SELECT COUNT(*) FROM games, json_each(games.players) AS seat "
        "WHERE games.status IN ('lobby', 'active') "
        "AND json_extract(seat.value, '$[0]') = ?",
        (user_id,),
        postgres="SELECT COUNT(*) FROM games, jsonb_array_elements(games.players::jsonb) "
        "AS seat WHERE games.status IN ('lobby', 'active') AND (seat ->> 0)::bigint = ?",
    )
    return int(row[0]) if row else 0


@ReadPlan
def boards_behind(moved_before: str) -> Plan[list[GameRow]]:
    """Live games whose board does not show them as they are (a post or an answer that
    failed), with no move since ``moved_before``: nothing is on its way to fix them."""
    return (
        yield from _games(
            f"{_LIVE} "
            "AND daily IS NULL "  # a daily's board is private: only its player's click shows it
            "AND (board_message_id IS NULL OR board_version IS DISTINCT FROM version) "
            "AND COALESCE(last_move_at, updated_at) <= ? ORDER BY id",
            (moved_before,),
        )
    )


@ReadPlan
def due_games(now_at: str, idle_since: str) -> Plan[list[GameRow]]:
    """Live games past a deadline, ping or notify time, or with no move since then."""
    return (
        yield from _games(
            f"{_LIVE} AND ("
            "deadline_at <= ? OR ping_at <= ? OR (status = 'active' AND notify_at <= ?) "
            "OR (status = 'active' AND COALESCE(last_move_at, updated_at) <= ?)) ORDER BY id",
            (now_at, now_at, now_at, idle_since),
        )
    )


@ReadPlan
def games_missing_final_message() -> Plan[list[GameRow]]:
    """Finished games whose final message has not been posted."""
    return (yield from _games("status = 'finished' AND final_message_id IS NULL ORDER BY id"))


# -- writes ---------------------------------------------------------------------------------


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
    yield from each_row(
        "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
        "VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, "
        "updated_at = excluded.updated_at",
        # in one order (by user), so that two games finishing at once with the same
        # players take the rows' locks in the same order (PostgreSQL: no deadlock)
        # (outside servers under guild 0: a NULL key would not be one row per player)
        sorted((game.guild_id or 0, r.user_id, r.name, stamp) for r in results if r.name),
    )
    yield from each_row(
        "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, "
        "upper_total, upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, "
        "finished_at, expected_loss) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.id, game.guild_id, game.channel_id, r.user_id, r.total, r.upper_total,
                r.upper_bonus, r.yahtzees, r.yahtzee_bonuses, r.place, r.seats, game.preset.value,
                stamp, r.expected_loss,
            )
            for r in results
        ],
    )  # fmt: skip


def _room_for(member: tuple[int, int] | None) -> Plan[None]:
    """Refuse (``SeatLimit``) to seat a member already in as many live games as allowed,
    counted in the same transaction as the seat is taken, so that fifty lobbies opened at
    once cannot all find room. On PostgreSQL the member's advisory lock makes such
    transactions count one after another (SQLite's one writer already does)."""
    if member is None:
        return
    user_id, limit = member
    yield from all_rows("SELECT ?", (user_id,), postgres="SELECT pg_advisory_xact_lock(?)")
    if (yield from live_games_of(user_id)) >= limit:
        raise SeatLimit(limit)


@WritePlan
def create_game(new: NewGame) -> Plan[GameRow]:
    """Open a lobby; ``ChannelBusy`` if the channel has a live game already, or is a game's
    thread (live or over: a thread holds one game), ``AlreadyApplied`` if its request
    opened one already, ``SeatLimit`` if ``room_for`` (member, limit) says the host has no
    room for another, ``DailyTaken`` if ``daily`` is a day whose challenge the host had
    already."""
    yield from _room_for(new.room_for)
    if new.daily is None:
        owner = yield from game_of_thread(new.channel_id)
        if owner is not None:
            raise ChannelBusy(owner)
    stamp = now()
    try:
        rows = yield Query(
            "INSERT INTO games (guild_id, channel_id, host_id, status, preset, players, "
            "created_at, updated_at, deadline_at, daily, hints, language, opened_by, place) "
            "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"RETURNING {GAME.columns}",
            (
                new.guild_id, new.channel_id, new.host_id, new.preset.value,
                _roster_text(new.players), stamp, stamp, new.deadline_at, new.daily,
                int(new.hints), new.language, new.opened_by, new.place,
            ),
            conflicts=True,
        )  # fmt: skip
    except Conflict:
        existing = yield from live_game_in(new.channel_id)
        if existing is None:
            raise
        raise ChannelBusy(existing) from None
    game = GAME(rows[0])
    if new.daily is not None:
        name = next((n for uid, n in game.players if uid == new.host_id), "")
        try:
            yield Query(
                "INSERT INTO daily_results (day, user_id, guild_id, game_id, name) "
                "VALUES (?, ?, ?, ?, ?)",
                (new.daily, new.host_id, new.guild_id, game.id, name),
                conflicts=True,
            )
        except Conflict:
            raise DailyTaken(f"{new.host_id} has had the challenge of {new.daily}") from None
    opening = MoveRecord(new.host_id, "open", request_id=new.request_id)
    yield from _log_move(game.id, 0, opening, stamp)
    return game


@WritePlan
def update_game(
    game_id: int, expected_version: int, move: MoveRecord, change: GameChange = NO_CHANGE
) -> Plan[GameRow]:
    """Apply one accepted change if the game is still at ``expected_version``.

    Each column the change sets is written (its name is the field's: never input), the
    version goes up by one, and the change's move-log entry and (when the game finishes)
    its result rows are written with it. ``StaleVersion`` if another change got there
    first; ``SeatLimit`` if it seats a member with no room left (``GameChange.room_for``).
    """
    yield from _room_for(change.room_for)
    stamp = now()
    sets = ["version = version + 1", "updated_at = ?"]
    values: list[Any] = [stamp]
    for column, value in change.columns():
        encode = _ENCODE.get(column)
        sets.append(f"{column} = ?")
        values.append(encode(value) if encode is not None else value)
    if not isinstance(change.status, Unset) and change.status in ENDED:
        sets.append("finished_at = ?")
        values.append(stamp)
    if change.unseen and isinstance(change.board_version, Unset):
        # SET sees the row as it was: version + 1 is the new version
        sets.append(
            "board_version = CASE WHEN board_version = version THEN version + 1 "
            "ELSE board_version END"
        )
    row = yield from one_row(
        f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING {GAME.columns}",
        (*values, game_id, expected_version),
    )
    if row is None:
        raise StaleVersion(f"game {game_id} is no longer at version {expected_version}")
    game = GAME(row)
    yield from _log_move(game_id, game.version, move, stamp)
    if change.results:
        yield from _record_results(game, change.results, stamp)
    if change.daily_scores is not None:
        yield from all_rows(
            "UPDATE daily_results SET score = ?, optimal = ?, finished_at = ? WHERE game_id = ?",
            (*change.daily_scores, stamp, game_id),
        )
    return game


@WritePlan
def set_messages(
    game_id: int,
    *,
    undo_message_id: int | Unset | None = UNSET,
    final_message_id: int | Unset | None = UNSET,
    reminder_message_id: int | Unset | None = UNSET,
    parked: tuple[int, str] | Unset | None = UNSET,
) -> Plan[None]:
    """Record which messages offer Undo, show the final result, remind the player to move
    and wait as a parked board (each left ``UNSET`` stays as it was; the board message is
    recorded by ``show_board``, or with a change by ``update_game``)."""
    given: dict[str, object] = {
        "reminder_message_id": reminder_message_id,
        "undo_message_id": undo_message_id,
        "final_message_id": final_message_id,
    }
    if not isinstance(parked, Unset):  # (message, "turn:player"), or None: nothing parked
        given["parked_message_id"] = parked[0] if parked is not None else None
        given["parked_for"] = parked[1] if parked is not None else None
    sets = {column: value for column, value in given.items() if not isinstance(value, Unset)}
    if sets:
        assignments = ", ".join(f"{column} = ?" for column in sets)  # names from above
        yield from all_rows(
            f"UPDATE games SET {assignments} WHERE id = ?", (*sets.values(), game_id)
        )


@WritePlan
def show_board(game_id: int, message_id: int, turn: int | None, version: int) -> Plan[bool]:
    """Record ``message_id`` as the board showing ``version`` (at ``turn``), unless the
    record already names a newer board, or another message for the same version at another
    turn (an Undo took the game back while this board was being posted).

    True if the record now names this message: it is the live board.
    """
    row = yield from one_row(
        "UPDATE games SET board_message_id = ?, board_turn = ?, board_version = ? "
        "WHERE id = ? AND (board_version IS NULL OR board_version < ? "
        "OR (board_version = ? AND board_turn IS NOT DISTINCT FROM ?)) RETURNING id",
        (message_id, turn, version, game_id, version, version, turn),
    )
    if row is not None:
        return True
    current = yield from one_row("SELECT board_message_id FROM games WHERE id = ?", (game_id,))
    return current is not None and current[0] == message_id


@WritePlan
def show_boards(shown: Sequence[tuple[int, int, int | None, int]]) -> Plan[None]:
    """``show_board`` for many boards at once, (game, message, turn, version) each, with
    nothing to say back: the record of click answers on boards already on record."""
    yield from each_row(
        "UPDATE games SET board_message_id = ?, board_turn = ?, board_version = ? "
        "WHERE id = ? AND (board_version IS NULL OR board_version < ? "
        "OR (board_version = ? AND board_turn IS NOT DISTINCT FROM ?))",
        [(m, t, v, g, v, v, t) for g, m, t, v in shown],
    )
