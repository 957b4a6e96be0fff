"""What the store hands out and takes in: game rows, results, settings, and its errors.

Plain data, the same whichever database (SQLite or PostgreSQL) holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Final, NamedTuple

from bot.engine.presets import DEFAULT_PRESET, Preset


class GameStatus(StrEnum):
    """Where a game is in its life: a lobby, then active, then one of three ends."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"  # played to the end: its results count
    ABANDONED = "abandoned"  # ended early: counts for nobody
    CANCELLED = "cancelled"  # a lobby that never started


MAX_ID = 2**63 - 1  # the largest id either database can hold: a larger id is no game's

LIVE = (GameStatus.LOBBY, GameStatus.ACTIVE)
ENDED = (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED)


class StoreUnavailable(Exception):
    """The database cannot take writes now (its disk is full or read-only, an I/O error):
    the write was undone whole; trying again once there is room will work."""


class SchemaTooNew(Exception):
    """The database was migrated by a newer version of the bot than this one (after a
    rollback): this code does not know its tables, so it does not use it."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"the database's schema is version {found}, newer than this code's {known}: a "
            "newer version of the bot has upgraded it; run that version again (or restore a "
            "backup taken before the upgrade)"
        )
        self.found = found
        self.known = known


class AlreadyApplied(Exception):
    """The request this move answers already has its move in the log: another process that
    received the same click or command got there first. Nothing was written."""


class SeatLimit(Exception):
    """The member already sits in ``limit`` lobbies and running games: nothing was written."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"already in {limit} live games")
        self.limit = limit


class DailyTaken(Exception):
    """The member has had today's daily challenge already (one try a day): nothing written."""


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """One try at a day's challenge: the player's score and the Optimal bot's on the same
    dice (both None until the game is finished)."""

    day: str
    user_id: int
    name: str
    score: int | None
    optimal: int | None
    game_id: int


@dataclass(frozen=True, slots=True)
class DailyPlace(DailyEntry):
    """A finished try on a day's board, with its place: equal scores share one (1, 2, 2, 4),
    as tied players of a game do."""

    place: int


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
    preset: Preset
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
    daily: str | None = None  # the day whose dice a daily challenge is played with
    reminder_message_id: int | None = None  # the turn's half-time reminder, until it ends
    notify_at: str | None = None  # when the player to move is told privately (/yahtzee notify)
    language: str = "en"  # what its channel messages and pictures say (a bot.i18n catalog)
    opened_by: int | None = None  # the request (a Discord id) that opened it; None: before 016
    #: "channel" (the bot's own routes reach it) or "token" (only interactions' tokens do);
    #: None: opened before migration 022
    place: str | None = None
    #: the next turn's board an Undo parked, and the turn it waits for ("turn:player id")
    parked_message_id: int | None = None
    parked_for: str | None = None

    @property
    def is_live(self) -> bool:
        """A lobby or a running game."""
        return self.status in LIVE

    @property
    def board_channel_id(self) -> int:
        """Where the game's boards are posted: its thread, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGame:
    """A lobby to open (the store's ``create_game``): where, its host, its preset and first
    seats, and what it is opened with."""

    guild_id: int | None
    channel_id: int
    host_id: int
    preset: Preset
    players: Sequence[tuple[int, str]]
    deadline_at: str | None = None  # when the lobby closes unstarted
    #: (member, limit): refused (``SeatLimit``) if the host already sits in ``limit`` live games
    room_for: tuple[int, int] | None = None
    daily: str | None = None  # the host's try at that day's challenge
    hints: bool = True  # whether the game offers hints
    language: str = "en"  # its channel messages' and pictures'
    #: the request (a Discord id) that opens it: no message showing the game is older
    opened_by: int | None = None
    #: the request whose move this is (recorded once: ``AlreadyApplied`` for a second)
    request_id: int | None = None
    #: where it is played: "channel" or "token" (``GameRow.place``), as its opening said
    place: str | None = None


class Unset(Enum):
    """The value of a ``GameChange`` field that the change leaves as it is."""

    UNSET = "unset"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.UNSET


class GameChange(NamedTuple):
    """What one accepted change does to its game, filled by the service and applied by the
    store's ``update_game``: each column field (named as ``GameRow``'s) set to a value
    writes it, each left ``UNSET`` stays as it was; the fields after them say what is
    written with the change. ``a | b`` is both, ``b``'s fields over ``a``'s. Made by
    keyword: ``GameChange(status=GameStatus.FINISHED, deadline_at=None)``.

    Immutable, and a named tuple rather than a frozen dataclass: a move makes several, and a
    frozen dataclass of these 22 fields costs six times as much to make (each field set
    through ``object.__setattr__``)."""

    status: GameStatus | Unset = UNSET  # an end (``ENDED``) also stamps finished_at
    state: dict[str, Any] | Unset | None = UNSET  # the engine's game (``Game.to_dict``)
    state_format: int | Unset | None = UNSET  # the engine's format version of ``state``
    players: Sequence[tuple[int, str]] | Unset = UNSET
    host_id: int | Unset = UNSET
    deadline_at: str | Unset | None = UNSET
    ping_at: str | Unset | None = UNSET
    notify_at: str | Unset | None = UNSET
    last_move_at: str | Unset | None = UNSET
    turn_seconds: int | Unset = UNSET
    timeout_policy: str | Unset = UNSET
    thread_id: int | Unset | None = UNSET
    hints: bool | Unset = UNSET
    pictures: bool | Unset = UNSET
    undo_message_id: int | Unset | None = UNSET
    board_message_id: int | Unset | None = UNSET  # the board recorded with the change
    board_turn: int | Unset | None = UNSET
    board_version: int | Unset | None = UNSET
    #: the change does not show on the board (a reminder): a board up to date stays so
    unseen: bool = False
    #: the finished game's result rows, written with the move that finishes it
    results: Sequence[ResultRow] = ()
    #: (member, limit): the change seats the member, refused (``SeatLimit``) if they
    #: already sit in ``limit`` live games
    room_for: tuple[int, int] | None = None
    #: a daily challenge finished: (its score, the Optimal bot's on the same dice)
    daily_scores: tuple[int, int | None] | None = None

    def __or__(self, later: GameChange) -> GameChange:
        if later is NO_CHANGE:
            return self
        if self is NO_CHANGE:
            return later
        return GameChange._make(
            mine if theirs is default or (default is not UNSET and theirs == default) else theirs
            for mine, theirs, default in zip(self, later, _CHANGE_DEFAULTS, strict=True)
        )

    def columns(self) -> list[tuple[str, Any]]:
        """The columns this change sets, and their values (as given)."""
        values = self[: len(CHANGE_COLUMNS)]
        return [(name, v) for name, v in zip(CHANGE_COLUMNS, values, strict=True) if v is not UNSET]


#: A change of nothing but the version (and the move logged with it).
NO_CHANGE: Final = GameChange()
#: What a ``GameChange`` leaves as it was, field by field.
_CHANGE_DEFAULTS = tuple(GameChange._field_defaults[name] for name in GameChange._fields)
#: The fields of a ``GameChange`` that are columns of ``games``: those ``UNSET`` by default,
#: all before the others.
CHANGE_COLUMNS = tuple(
    name
    for name, default in zip(GameChange._fields, _CHANGE_DEFAULTS, strict=True)
    if default is UNSET
)
if GameChange._fields[: len(CHANGE_COLUMNS)] != CHANGE_COLUMNS:
    raise TypeError("GameChange's column fields come first")


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """An interaction's token kept for its 15 minutes where only tokens reach a place:
    which place, the application and token to post and edit with, when it arrived (the
    bot's clock, seconds), whether it was answered, the message its own answer is, and the
    follow-ups it sent (their ids, in order)."""

    interaction_id: int
    channel_id: int
    application_id: int
    token: str
    at: float
    answered: bool
    shows: int | None
    followups: tuple[int, ...]
    public: bool = True  # what it posts is seen by everyone (see TokenRoutes.note)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices for its games."""

    preset: Preset = DEFAULT_PRESET
    turn_seconds: int = 300
    timeout_policy: str = "play"  # bot.engine.DEFAULT_TIMEOUT_POLICY, for a server that never chose
    use_threads: bool = False
    auto_roll: bool = False  # each turn's first roll is made as the turn starts
    language: str | None = None  # new games' language; None: the server's, as Discord says


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
    request_id: int | None = None  # the click or command it answers (recorded once)


class LoggedMove(NamedTuple):
    """A move as the log keeps it."""

    version: int  # the game's version after it
    user_id: int | None  # None: the bot's (a computer seat, a timer)
    action: str
    detail: str | None
    dice: str | None


class Decision(NamedTuple):
    """A player's move with what it cost against optimal play (None: not valued)."""

    action: str
    loss: float | None
    decision: str | None


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
