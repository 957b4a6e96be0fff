"""``Store``: what the rest of the bot may ask of the database, whichever one it is.

Every method is a plan of ``queries`` run by a backend: ``SqliteStore`` (the default, one
file) or ``PostgresStore`` (``DATABASE_URL=postgresql://...``, for processes that share one
database). ``bot.store.open_store(target)`` picks the backend from the target.
"""

from __future__ import annotations

import abc
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

from .queries import _UNSET, Conflict, Plan, Query, Reads, Row, Transaction
from .records import (
    DailyEntry,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    MoveRecord,
    PlayerGame,
    ResultRow,
    SchemaTooNew,
)

R = TypeVar("R")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

_READS = Reads()


def migration_files(dialect: str = "sqlite") -> list[tuple[int, Path]]:
    """The numbered migration scripts of a dialect ("sqlite" or "postgres"), in order."""
    folder = MIGRATIONS / dialect
    found = []
    for path in folder.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {numbers}")
    return found


def latest_schema_version() -> int:
    """The number of the newest migration (the same in both dialects)."""
    return max(n for n, _ in migration_files())


def check_schema(found: int) -> None:
    """``SchemaTooNew`` if a database at schema version ``found`` is newer than this code."""
    known = latest_schema_version()
    if found > known:
        raise SchemaTooNew(found, known)


def is_postgres_url(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file."""
    return str(target).startswith(("postgresql://", "postgres://"))


async def drive(plan: Plan[R], execute: Callable[[Query], Awaitable[list[Row]]]) -> R:
    """Run a plan with an async ``execute``; a ``Conflict`` it raises goes into the plan."""
    try:
        query = next(plan)
        while True:
            try:
                rows = await execute(query)
            except Conflict as exc:
                query = plan.throw(exc)
            else:
                query = plan.send(rows)
    except StopIteration as stop:
        result: R = stop.value
        return result
    finally:
        plan.close()


class Store(abc.ABC):
    """The bot's games, moves, results and settings.

    Writes are units of work (``write``): each is committed whole or not at all, and no two
    interleave. Reads never wait behind a write and see every committed one.
    """

    #: "sqlite" or "postgres"
    dialect: str = ""
    _daily_key: bytes | None = None

    async def ready(self, migrate: bool) -> Self:
        """This store, its schema brought up to date and the deployment's secrets made or
        read if ``migrate`` (closed if that fails); ``SchemaTooNew`` if a newer version of the
        bot has migrated it further than this code knows (the migration checks again, in its
        transaction)."""
        try:
            check_schema(await self.schema_version())
            if migrate:
                await self.migrate()
                self._daily_key = await self._make_daily_key()
        except BaseException:
            await self.close()
            raise
        return self

    @property
    def daily_key(self) -> bytes:
        """This deployment's key for the daily challenge's dice: made by the first process
        to open the database, read by every later one at opening."""
        if self._daily_key is None:
            raise RuntimeError("the daily key is read when the store opens with its migrations")
        return self._daily_key

    async def _make_daily_key(self) -> bytes:
        # 32 random bytes made by the first process to open the database, read by every
        # later one (and kept by a backup of the database).
        return bytes.fromhex(await self.keep_secret("daily", secrets.token_hex(32)))

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connections, after every write already handed over."""

    @abc.abstractmethod
    async def read(self, plan: Plan[R]) -> R:
        """Run a plan of reads outside any unit of work."""

    @abc.abstractmethod
    async def write(self, work: Callable[[Transaction], Plan[R]]) -> R:
        """The one way to write: ``await store.write(lambda tx: tx.update_game(...))``.

        ``work`` makes a plan (several with ``yield from``) that runs in one transaction,
        with nothing else interleaved; this returns its result once its writes are
        committed, or raises its error with its writes undone (nobody else's).
        ``StoreUnavailable`` if the database cannot take writes now.
        """

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abc.abstractmethod
    async def migrate(self, target: int | None = None) -> int:
        """Apply every migration newer than the database's version, all in one
        transaction (one process migrates; the others find it done)."""

    @property
    def group_commit(self) -> tuple[int, int] | None:
        """(COMMITs, units of work they held) since the store opened, where writes are
        batched (SQLite); None where each unit commits alone."""
        return None

    # -- reads -----------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id (None for an id no game can have, such as a forged one too large for the
        databases' integers)."""
        return await self.read(_READS.get_game(game_id))

    async def live_game_in(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel, or of the thread it is played in."""
        return await self.read(_READS.live_game_in(channel_id))

    async def live_daily_of(self, user_id: int) -> GameRow | None:
        """A member's daily challenge try in progress, if any (played privately, in no channel's
        slot)."""
        return await self.read(_READS.live_daily_of(user_id))

    async def game_of_thread(self, thread_id: int) -> GameRow | None:
        """The game played in a thread (its live one first, else its latest), or None."""
        return await self.read(_READS.game_of_thread(thread_id))

    async def last_finished_game_in(self, channel_id: int) -> GameRow | None:
        """The game that finished last in a channel (or in a thread of it)."""
        return await self.read(_READS.last_finished_game_in(channel_id))

    async def live_games(self) -> list[GameRow]:
        """Every lobby and running game."""
        return await self.read(_READS.live_games())

    async def live_games_after(self, after: int, limit: int) -> list[GameRow]:
        """A page of the lobbies and running games: the first ``limit`` whose id is above
        ``after``, in id order."""
        return await self.read(_READS.live_games_after(after, limit))

    async def last_live_daily_start(self, day: str) -> str | None:
        """When the latest try of a day's challenge still in progress started, or None if
        none is."""
        return await self.read(_READS.last_live_daily_start(day))

    async def live_games_of(self, user_id: int) -> int:
        """How many lobbies and running games seat a member (one scan of the live games)."""
        return await self.read(_READS.live_games_of(user_id))

    async def games_by_status(self) -> dict[str, int]:
        """How many games are in each status (lobby, active, finished, abandoned,
        cancelled), without reading the games: the ended ones as the database counts them
        (game_counts, kept by triggers), the live ones through their index."""
        return await self.read(_READS.games_by_status())

    async def live_games_at(
        self, guild_id: int, channel_id: int | None = None, thread_id: int | None = None
    ) -> list[GameRow]:
        """The lobbies and running games of a server; of one of its channels (the threads
        of that channel's games included: they are deleted with it) or of one thread."""
        return await self.read(_READS.live_games_at(guild_id, channel_id, thread_id))

    async def boards_behind(self, moved_before: str) -> list[GameRow]:
        """Live games whose board does not show them as they are (a post or an answer that failed),
        with no move since ``moved_before``: nothing is on its way to fix them."""
        return await self.read(_READS.boards_behind(moved_before))

    async def install_id(self) -> str:
        """This database's random id (six hex digits), made by its migrations."""
        return await self.read(_READS.install_id())

    async def meta_value(self, key: str) -> str | None:
        """A value the bot keeps about itself (``commands``: the commands last published)."""
        return await self.read(_READS.meta_value(key))

    async def due_games(self, now_at: str, idle_since: str) -> list[GameRow]:
        """Live games past a deadline or ping time, or with no move by a person since then."""
        return await self.read(_READS.due_games(now_at, idle_since))

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings (the defaults until an admin changes them)."""
        return await self.read(_READS.guild_settings(guild_id))

    async def player_notify(self, user_id: int) -> bool:
        """Whether a player asked to be told privately of their turns (/yahtzee notify)."""
        return await self.read(_READS.player_notify(user_id))

    async def player_auto_roll(self, user_id: int) -> bool | None:
        """A player's own choice for the opening roll (/yahtzee autoroll), None: the server's."""
        return await self.read(_READS.player_auto_roll(user_id))

    async def auto_roll_for(self, guild_id: int | None, user_id: int) -> bool:
        """Whether a player's turns start rolled: their own choice, else their server's."""
        return await self.read(_READS.auto_roll_for(guild_id, user_id))

    async def games_missing_final_message(self) -> list[GameRow]:
        """Finished games whose final message has not been posted."""
        return await self.read(_READS.games_missing_final_message())

    async def moves(
        self, game_id: int
    ) -> list[tuple[int, int | None, str, str | None, str | None]]:
        """The move log of a game: (version, user, action, detail, dice), oldest first."""
        return await self.read(_READS.moves(game_id))

    async def results(self, game_id: int) -> list[ResultRow]:
        """The result rows of a finished game, best place first."""
        return await self.read(_READS.results(game_id))

    async def leaderboard(
        self, guild_id: int | None, kind: str, since: str = "", channel_id: int | None = None
    ) -> list[LeaderboardRow]:
        """Every player on a leaderboard of one server (``guild_id`` None: of one group's
        ``channel_id``), ranked (one grouped scan of an index)."""
        return await self.read(_READS.leaderboard(guild_id, kind, since, channel_id))

    async def player_games(
        self, guild_id: int | None, user_id: int, channel_id: int | None = None
    ) -> list[PlayerGame]:
        """A player's finished games on this server's boards, oldest first (``guild_id``
        None: in one group's ``channel_id``, or everywhere without it)."""
        return await self.read(_READS.player_games(guild_id, user_id, channel_id))

    async def token_places(self) -> set[int]:
        """The channels the bot reaches only through interactions' tokens."""
        return await self.read(_READS.token_places())

    async def note_token_place(self, channel_id: int, kind: str) -> None:
        """Remember that the bot reaches ``channel_id`` only through tokens."""
        await self.write(lambda tx: tx.note_token_place(channel_id, kind))

    async def decisions(
        self, game_id: int, user_id: int
    ) -> list[tuple[str, float | None, str | None]]:
        """A player's moves in a game with what each cost: (action, loss, decision), in order."""
        return await self.read(_READS.decisions(game_id, user_id))

    async def player_name(self, guild_id: int | None, user_id: int) -> str | None:
        """The name a player had in their last game here."""
        return await self.read(_READS.player_name(guild_id, user_id))

    async def request_recorded(self, request_id: int) -> bool:
        """Whether a move answering this request (a click, a command) is in the log."""
        return await self.read(_READS.request_recorded(request_id))

    async def logged(self, game_id: int, action: str, detail: str) -> bool:
        """Whether the game's log holds a move ``action`` with ``detail``."""
        return await self.read(_READS.logged(game_id, action, detail))

    async def has_moves(self, game_id: int) -> bool:
        """Whether a game's move log holds anything (every game's holds its opening, until
        retention prunes a finished game's)."""
        return await self.read(_READS.has_moves(game_id))

    async def daily_entry(self, game_id: int) -> DailyEntry | None:
        """A daily challenge game's try: its day, score and the Optimal bot's."""
        return await self.read(_READS.daily_entry(game_id))

    async def daily_board(
        self, day: str, guild_id: int | None, limit: int = 10
    ) -> list[DailyEntry]:
        """A day's finished tries, best first (ties: who finished first): on one server, or with
        ``guild_id`` None on every server."""
        return await self.read(_READS.daily_board(day, guild_id, limit))

    # -- writes, each a unit of work of its own ----------------------------------------------

    async def create_game(
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
    ) -> GameRow:
        """Open a lobby; ``ChannelBusy`` if the channel has a live game already (or is a
        game's thread), ``AlreadyApplied``
        if ``request_id`` opened one already, ``SeatLimit`` if ``room_for`` (member,
        limit) says the member has no room for another. ``daily``: the host's try at
        that day's challenge, ``DailyTaken`` if they had it already. ``hints``: whether
        the game offers hints; ``language``: its channel messages'."""
        return await self.write(
            lambda tx: tx.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=preset,
                players=players,
                deadline_at=deadline_at,
                request_id=request_id,
                room_for=room_for,
                daily=daily,
                hints=hints,
                language=language,
                opened_by=opened_by,
            )
        )

    async def update_game(
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
    ) -> GameRow:
        """Apply one accepted change if the game is still at ``expected_version``."""
        return await self.write(
            lambda tx: tx.update_game(
                game_id,
                expected_version,
                move,
                status=status,
                state=state,
                state_format=state_format,
                players=players,
                host_id=host_id,
                deadline_at=deadline_at,
                ping_at=ping_at,
                notify_at=notify_at,
                last_move_at=last_move_at,
                turn_seconds=turn_seconds,
                timeout_policy=timeout_policy,
                thread_id=thread_id,
                hints=hints,
                pictures=pictures,
                undo_message_id=undo_message_id,
                board=board,
                unseen=unseen,
                results=results,
                room_for=room_for,
                daily_scores=daily_scores,
            )
        )

    async def set_messages(
        self,
        game_id: int,
        *,
        undo_message_id: int | None = _UNSET,
        final_message_id: int | None = _UNSET,
        reminder_message_id: int | None = _UNSET,
    ) -> None:
        """Record which messages offer Undo, show the final result and remind the player to move
        (the board message is recorded by ``show_board``, or with a move by
        ``update_game``)."""
        return await self.write(
            lambda tx: tx.set_messages(
                game_id,
                undo_message_id=undo_message_id,
                final_message_id=final_message_id,
                reminder_message_id=reminder_message_id,
            )
        )

    async def show_board(
        self, game_id: int, message_id: int, turn: int | None, version: int
    ) -> bool:
        """Record ``message_id`` as the board showing ``version`` (at ``turn``), unless the record
        already names a newer board, or another message for the same version at another
        turn (an Undo took the game back while this board was being posted)."""
        return await self.write(lambda tx: tx.show_board(game_id, message_id, turn, version))

    async def show_boards(self, shown: Sequence[tuple[int, int, int | None, int]]) -> None:
        """``show_board`` for many boards at once, (game, message, turn, version) each, with
        nothing to say back: the record of click answers on boards already on record."""
        return await self.write(lambda tx: tx.show_boards(shown))

    async def set_move_costs(self, costs: Sequence[tuple[int, int, float, str]]) -> None:
        """Add what decisions cost against optimal play to their move-log entries:
        (game, version, loss, the decision in words) each."""
        return await self.write(lambda tx: tx.set_move_costs(costs))

    async def save_guild_settings(
        self, guild_id: int, settings: GuildSettings, user_id: int
    ) -> None:
        """Store a server's settings (validated by the caller)."""
        return await self.write(lambda tx: tx.save_guild_settings(guild_id, settings, user_id))

    async def set_player_auto_roll(self, user_id: int, auto_roll: bool | None) -> None:
        """Store a player's /yahtzee autoroll choice (None: follow the server)."""
        return await self.write(lambda tx: tx.set_player_auto_roll(user_id, auto_roll))

    async def set_player_notify(self, user_id: int, notify: bool) -> None:
        """Store a player's /yahtzee notify choice."""
        return await self.write(lambda tx: tx.set_player_notify(user_id, notify))

    async def set_meta_value(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` in the bot's own notes (see ``meta_value``)."""
        return await self.write(lambda tx: tx.set_meta_value(key, value))

    async def keep_secret(self, name: str, candidate: str) -> str:
        """The deployment's secret ``name``: ``candidate`` becomes it unless one is kept
        already, then the one kept is read, so that processes starting at once agree."""
        return await self.write(lambda tx: tx.keep_secret(name, candidate))

    async def prune_moves(self, finished_before: str, games: int) -> int:
        """Delete the move logs of up to ``games`` games that ended (finished or abandoned) before
        ``finished_before`` and still have one; how many games were pruned. Results,
        leaderboards and the games' rows stay."""
        return await self.write(lambda tx: tx.prune_moves(finished_before, games))

    async def archive_results(self, guild_id: int, user_id: int) -> int:
        """Hide every live result of a server from the boards; returns how many."""
        return await self.write(lambda tx: tx.archive_results(guild_id, user_id))

    async def restore_results(self, guild_id: int) -> int:
        """Bring back the server's most recent archive; returns how many results came back."""
        return await self.write(lambda tx: tx.restore_results(guild_id))
