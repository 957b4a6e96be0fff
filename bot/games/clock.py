"""The service's clock and the policy of time: when a lobby closes, a turn's deadline, its
half-time reminder and private notice, the watchdog of a computer's turn, the idle limit a
move re-arms; and how a turn opens (rolled for its player, by their choice or their
server's)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.engine import Game
from bot.store import NO_CHANGE, GameChange, GameRow, MoveRecord, Store, plans

from .seats import is_bot

LOBBY_TIMEOUT = timedelta(minutes=15)  # an unstarted lobby closes after this
IDLE_LIMIT = timedelta(hours=24)  # a game with no move by a person for this long is abandoned
#: A computer's turn that has not ended this long after it began is started again by the
#: timer (its run failed: a lost connection, say); a turn takes seconds.
COMPUTER_WATCHDOG = timedelta(minutes=1)
#: A player who asked (/yahtzee notify) is told privately once their turn in a timed game has
#: waited this long without a move of theirs (or half the turn's time, if that is sooner).
NOTIFY_AFTER = timedelta(minutes=1)
#: Turn time limits an admin may choose, in seconds (0: no limit).
TURN_LIMITS = (0, 60, 120, 180, 300, 600, 900, 1800, 3600)
# A board left behind by a failed post or answer is repaired by the timer after this long
# without a move (a click in flight would fix it sooner).
REPAIR_AFTER = timedelta(seconds=10)


def utc_now() -> datetime:
    """The real clock (tests pass their own)."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A time as the store keeps it."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class TurnClock:
    """What a turn's time is: the clock (``now``), and the changes that arm a turn's timers,
    a lobby's and a game's idle limit; whether a turn opens rolled."""

    def __init__(self, store: Store, time: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self._time = time

    def now(self) -> datetime:
        """The time now (the clock the service was given)."""
        return self._time()

    def lobby_deadline(self) -> str:
        """When a lobby opened now closes unstarted."""
        return stamp(self._time() + LOBBY_TIMEOUT)

    def turn_timer(self, row: GameRow, game: Game | None) -> GameChange:
        """Deadline, reminder and private notice (/yahtzee notify) for a turn that starts now
        (none if off or game over)."""
        if game is None or game.is_over:
            return GameChange(deadline_at=None, ping_at=None, notify_at=None)
        now = self._time()
        if is_bot(game.current_player_id):
            # No deadline and no reminder for a computer: it plays at once. Its ping time
            # is a watchdog: if its turn has not ended by then, the timer starts it again.
            return GameChange(
                deadline_at=None, ping_at=stamp(now + COMPUTER_WATCHDOG), notify_at=None
            )
        if row.turn_seconds <= 0:
            return GameChange(deadline_at=None, ping_at=None, notify_at=None)
        notice = min(NOTIFY_AFTER, timedelta(seconds=row.turn_seconds / 2))
        return GameChange(
            deadline_at=stamp(now + timedelta(seconds=row.turn_seconds)),
            ping_at=stamp(now + timedelta(seconds=row.turn_seconds / 2)),
            notify_at=stamp(now + notice),
        )

    def moved(self, row: GameRow) -> GameChange:
        """A person's move re-arms the game's idle limit (``IDLE_LIMIT``), except in a daily
        challenge: a try's limit runs from its start (``started``), so no way of playing
        slowly keeps it open until the day's replays show its dice."""
        return NO_CHANGE if row.daily is not None else self.started()

    def started(self) -> GameChange:
        """A game starts now: its idle limit runs from here."""
        return GameChange(last_move_at=stamp(self._time()))

    async def opening_wanted(self, row: GameRow, game: Game) -> bool:
        """Whether the turn that starts now is rolled for its player at once: a person's
        turn (not a daily challenge's private board) whose dice are not on the table yet
        (an Undo may have kept them), by the player's choice or else their server's."""
        if game.is_over or game.dice is not None or row.daily is not None:
            return False
        player = game.current_player_id
        if is_bot(player) or game.current_seat.away:
            return False
        return await self.store.read(plans.auto_roll_for, row.guild_id, int(player))

    @staticmethod
    def opening_roll(game: Game) -> MoveRecord:
        """Roll the turn's first roll for its player; the move to log (a roll of theirs,
        ``opening``: not a move they made, so it never counts as their being there)."""
        player = game.current_player_id
        rolled = game.roll(player, opening=True)
        return MoveRecord(int(player), "roll", "opening", str(rolled))
