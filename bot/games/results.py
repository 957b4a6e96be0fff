"""What the service hands back: the boards to show, scorings, timer outcomes, reports, and the
one user-facing error."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from datetime import datetime
from enum import Enum
from operator import attrgetter

from bot.engine import (
    Game,
    Preset,
    RuleError,
    ScoreResult,
)
from bot.i18n.words import N_, Said, Sentence
from bot.store import LIVE, GameRow, GameStatus
from bot.strategy.analyst import BoxHint

log = logging.getLogger(__name__)

NO_GAME_HERE = N_("There is no game in this channel. Start one with /yahtzee start.")
#: Refusals that send a player to a command: where commands are offered only to those who
#: added the app (a group DM: ``cogs.shared.wording``), each is said another way there.
GAME_OVER = N_("This game is over. Start a new one with /yahtzee start.")
GAME_GONE = N_("That game no longer exists. Start a new one with /yahtzee start.")
LOBBY_CLOSED = N_("This lobby is closed. Start a new one with /yahtzee start.")
REMATCH_NOT_YOURS = N_(
    "You left this game, so its rematch is not yours to call (it would ping the "
    "players who stayed). Start a game of your own with /yahtzee start."
)
REMATCH_FOR_PLAYERS = N_(
    "Only the players of this game can start its rematch. Start a game of your "
    "own with /yahtzee start."
)
NO_ROOM = N_(
    "You are already in {limit} games or lobbies. Finish or leave one "
    "(/yahtzee leave in its channel) before you start or join another."
)
REPLAY_LATER = N_(
    "This replay shows today's dice: it opens to everyone once every try of today's "
    "challenge is over, <t:{at}:R> at the latest. Play yours with /yahtzee daily."
)
#: ``REPLAY_LATER`` to someone who has had today's try already.
REPLAY_LATER_TRIED = N_(
    "This replay shows today's dice: it opens to everyone once every try of today's "
    "challenge is over, <t:{at}:R> at the latest. You have had your try today."
)
#: A click on a game's control that a daily challenge's private board never shows.
NOT_FOR_DAILY = N_("That button is not for a daily challenge; nothing changed.")
#: Why a lobby closed, or a game ended, on its timer (``Timers.act``).
LOBBY_EXPIRED = N_("Nobody started this lobby in time, so it closed.")
IDLE_ENDED = N_("No move for 24 hours, so the game was abandoned.")
#: Why a game ended: its host (or an admin) ended it, ``who`` a mention.
ENDED_BY = N_("**{who}** ended the game.")
OTHER_GAME = N_(
    "That button belongs to another game, not to one of this channel: nothing changed. "
    "Use the buttons on this channel's own game."
)
#: Why a game ended without a result (the Discord side says next how a new one starts).
NOBODY_LEFT = N_("No person is left playing, so the game has ended without a result.")
#: Why a game ends when the timer has played the last two turns of every person in it
#: (``seats.present``: ``AWAY_AFTER_TIMEOUTS`` in a row), whichever the timeout policy.
EVERYONE_AWAY = N_(
    "Everyone is away: each player's last two turns ran out of time and were played for "
    "them, so the game has ended without a result."
)


class Refusal(Sentence, Exception):
    """A request turned down, with a sentence for the user (the one user-facing error type).

    ``link`` optionally points at the message the user should look at instead:
    (guild id, channel id, message id).
    """

    def __init__(
        self,
        message: str,
        /,
        link: tuple[int | None, int, int] | None = None,
        **values: object,
    ) -> None:
        self.message = self.set_sentence(message, values)
        super().__init__(self.message)
        self.link = link


@contextmanager
def refusing() -> Iterator[None]:
    """An engine rule that says no becomes a ``Refusal`` with the engine's own sentence (its
    template and values, for the reader's language)."""
    try:
        yield
    except RuleError as exc:
        raise Refusal(exc.template, None, **exc.values) from None


class Where(Enum):
    """The kinds of place a game's board is shown in."""

    CHANNEL = "channel"  # a server's channel: the bot posts by its own routes
    THREAD = "thread"  # the game's own thread (thread mode), in such a server
    DM = "dm"  # the bot's DM with its player
    TOKEN = "token"  # a group DM or a server that never added the bot: tokens only
    PRIVATE = "private"  # a daily challenge's private board: its player's only


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as the Discord side sees it: where it is played, its status, seats and rules,
    the messages that show it, its deadline as a time, and the engine's game itself (None
    for a lobby). Made by the service from what it stored (``view_of``); never a store row."""

    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: GameStatus
    preset: Preset
    players: list[tuple[int, str]]
    version: int  # the game's version: a board shown is recorded against it
    board_message_id: int | None
    board_turn: int | None
    board_version: int | None
    undo_message_id: int | None
    final_message_id: int | None
    reminder_message_id: int | None
    deadline: datetime | None  # when the turn (or the lobby) runs out, if it does
    turn_seconds: int
    hints: bool
    pictures: bool  # False: boards carry the scorecard as text
    daily: str | None  # the day of a daily challenge's dice
    game: Game | None
    language: str = "en"  # what its channel messages and pictures say (a bot.i18n catalog)
    opened_by: int | None = None  # the request (a Discord id) that opened it, if known
    #: the next turn's board an Undo parked, and the turn it waits for ("turn:player id")
    parked_message_id: int | None = None
    parked_for: str | None = None
    #: where it is played: "channel" (the bot posts there by its own routes) or "token" (only
    #: interactions' tokens reach it: a group DM, a server that never added the bot); kept in
    #: step with what the latest interaction from its channel says
    place: str | None = None

    @property
    def by_token(self) -> bool:
        """Its channel is reached by interactions' tokens only."""
        return self.place == "token"

    @property
    def where(self) -> Where:
        """Where its board is shown (``Where``)."""
        if self.daily is not None:
            return Where.PRIVATE
        if self.by_token:
            return Where.TOKEN
        if self.thread_id is not None:
            return Where.THREAD
        return Where.CHANNEL if self.guild_id is not None else Where.DM

    @property
    def is_live(self) -> bool:
        """A lobby or a running game."""
        return self.status in LIVE

    @property
    def parked(self) -> tuple[int, tuple[int, str]] | None:
        """The board an Undo parked: (message, (turn, player id)), or None."""
        if self.parked_message_id is None or self.parked_for is None:
            return None
        turn, _, player = self.parked_for.partition(":")
        return self.parked_message_id, (int(turn), player)

    def require_game(self) -> Game:
        """The engine's game, or a refusal for a lobby (nothing has been played yet)."""
        if self.game is None:
            raise Refusal("This game has not started yet.")
        return self.game

    @property
    def board_channel_id(self) -> int:
        """Where the game's boards are posted: its thread, else its channel."""
        return self.thread_id or self.channel_id


def moment(stamped: str | None) -> datetime | None:
    """A time the store kept (``core.stamp``'s text) as a datetime; None stays None. The service
    compares datetimes, never the stored text."""
    return datetime.fromisoformat(stamped) if stamped else None


#: Each field of ``GameView`` is read from ``GameRow``'s field of the same name (``deadline``
#: from ``deadline_at``, ``game`` from ``state``), and three are then made from it: a column
#: the Discord side needs is a field of both, copied here by name.
_VIEW_FIELDS = [f.name for f in fields(GameView)]
_ROW_NAMES = {"deadline": "deadline_at", "game": "state"}
_from_row = attrgetter(*(_ROW_NAMES.get(name, name) for name in _VIEW_FIELDS))
_PLAYERS, _DEADLINE, _GAME = (_VIEW_FIELDS.index(name) for name in ("players", "deadline", "game"))


def view_of(row: GameRow, game: Game | None = None) -> GameView:
    """The view of a stored game (``game``: its engine game when the caller has it, else
    read from the row's state)."""
    if game is None and row.state is not None:
        game = Game.from_dict(row.state)
    values = list(_from_row(row))
    values[_PLAYERS] = list(row.players)
    values[_DEADLINE] = moment(row.deadline_at)
    values[_GAME] = game
    return GameView(*values)


def link_to(row: GameRow | GameView) -> tuple[int | None, int, int] | None:
    """Where a refusal points: the game's live message (its board, else its final
    message), as (guild, channel, message); None while it has none."""
    message = row.board_message_id or row.final_message_id
    return (row.guild_id, row.board_channel_id, message) if message else None


def readable_views(rows: Iterable[GameRow]) -> list[GameView]:
    """``view_of`` each row, leaving out (and logging, by id) a game whose saved state cannot
    be read: one damaged game must not stop a sweep over all of them (the timer, a repair)."""
    views = []
    for row in rows:
        try:
            views.append(view_of(row))
        except Exception:
            log.exception("game %s: its saved state cannot be read; left out", row.id)
    return views


def view_or_none(row: GameRow | None) -> GameView | None:
    """``view_of(row)``, or None for no row."""
    return None if row is None else view_of(row)


@dataclass(frozen=True, slots=True)
class Board:
    """What a game's live message should show now."""

    row: GameView
    game: Game | None = None  # None while in the lobby
    image: bytes | None = None  # the turn image, once the game runs
    retire_undo_message_id: int | None = None  # an Undo offer that this move closed
    best_box: BoxHint | None = None  # with hints on: the box optimal play picks, if any
    #: The turn image while it is still being drawn (a scoring answers before the next
    #: board's picture is ready): ``drawn()`` waits for it.
    drawing: asyncio.Future[bytes] | None = None

    async def drawn(self) -> Board:
        """This board with its picture in ``image``, once its drawing is done."""
        if self.drawing is None:
            return self
        return replace(self, image=await self.drawing, drawing=None)


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring: the box, the points, the board after it, and the final image if it ended."""

    board: Board
    result: ScoreResult
    scorer_name: str
    round: int
    final_image: bytes | None = None
    #: the version of the scoring's own move-log entry, where its cost goes (the board may
    #: be a version later: the next player's opening roll, made as their turn started)
    move_version: int | None = None

    @property
    def finished(self) -> bool:
        """The game was played to its end by this scoring (the final message follows)."""
        return self.board.row.status == GameStatus.FINISHED


@dataclass(frozen=True, slots=True)
class Card:
    """One player's scorecard: as text (always) and as a picture (where files may go);
    ``seats``, every seat of its game (player id, name), to offer the others' cards."""

    name: str
    text: str
    image: bytes | None
    game_id: int = 0
    seats: tuple[tuple[str, str], ...] = ()
    shown: str = ""  # the player id whose card this is


@dataclass(frozen=True, slots=True)
class Rematch:
    """Play again's new lobby and the players of the old game invited to join it."""

    row: GameView
    invited: list[tuple[int, str]]
    ping: bool = True  # the first rematch of the game notifies them; later ones do not


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A turn played for a player whose time ran out."""

    scored: Scored
    away: bool  # the seat is now skipped until the player rejoins
    abandoned: bool = False  # nobody is left playing and nobody finished: the game ended
    played_as: str | None = None  # the bot that played it (play policy): "optimal", "casual"


@dataclass(frozen=True, slots=True)
class Pinged:
    """Half the turn's time has gone: remind the player."""

    row: GameView
    player_id: str
    seconds_left: int


@dataclass(frozen=True, slots=True)
class Notified:
    """A turn has waited without a move from its player, who asked to be told privately."""

    row: GameView
    player_id: str
    seconds_left: int


@dataclass(frozen=True, slots=True)
class Expired:
    """A lobby that was never started, or a game nobody moved in for a day, was closed."""

    row: GameView
    reason: str  # in English, marked for the catalogs: said in the game's language


@dataclass(frozen=True, slots=True)
class ComputerDue:
    """A computer's turn did not end in time (its run failed): it is to be started again."""

    row: GameView


Outcome = TimedOut | Pinged | Notified | Expired | ComputerDue


@dataclass(frozen=True, slots=True)
class Report:
    """How a player's decisions in one game compared with optimal play."""

    loss: float  # expected points lost in all
    decisions: int
    optimal: int  # decisions within 0.05 points of the best
    costliest: list[Said | str]  # the three costliest decisions, in words (or as logged)
    left: bool = False  # the player left the game before it ended: the card covers part of it


@dataclass(frozen=True, slots=True)
class Undone:
    """An undo: the board to show again, and the next turn's message to retire (if any)."""

    board: Board
    retire_message_id: int | None
    retire_turn: tuple[int, str] | None = None  # (turn, player) that message was posted for
