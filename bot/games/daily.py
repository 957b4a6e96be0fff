"""The daily challenge: a solo game on the day's dice (the same rolls for everyone in every
server, whatever they hold), one try per person per day, boards per server and across all,
and the Optimal bot's score on the same dice as the yardstick."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.engine import Preset
from bot.store import DailyEntry, DailyPlace, DailyTaken, GameStatus, NewGame, plans

from .clock import IDLE_LIMIT, TurnClock
from .drawing import Drawing
from .history import History
from .keeper import Keeper
from .lobby import Lobby
from .replay import Turn
from .results import REPLAY_LATER, REPLAY_LATER_TRIED, Board, Refusal, moment
from .seats import player_id


class Daily:
    """The daily challenge (see the module docstring)."""

    def __init__(
        self, keeper: Keeper, clock: TurnClock, lobby: Lobby, history: History, drawing: Drawing
    ) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock
        self.lobby = lobby
        self.history = history
        self.drawing = drawing

    def today(self) -> str:
        """The day whose challenge is on now (UTC)."""
        return self.clock.now().astimezone(UTC).date().isoformat()

    def next_day_at(self) -> datetime:
        """When the next day's challenge starts (midnight UTC)."""
        now = self.clock.now().astimezone(UTC)
        return datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)

    async def start_daily(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        pictures: bool,
        language: str = "en",
        place: str | None = None,
    ) -> Board:
        """Start the member's try at today's challenge in this channel: a solo game on the
        day's dice, under the official rules and without hints (everyone plays on their own
        judgement), played on a private board, in the member's own ``language``. A try in
        progress is shown again; refused if they had today's try already (an abandoned try
        counts). ``place``: "channel" or "token", where its result is posted, as the
        interaction that starts it says."""
        going = await self.store.read(plans.live_daily_of, user_id)
        if going is not None and going.status == GameStatus.ACTIVE:
            return await self.drawing.board_of(going)  # the try in progress: its board again
        day = self.today()
        try:
            row = await self.keeper.create(
                NewGame(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=user_id,
                    preset=Preset.OFFICIAL,
                    players=[(user_id, name)],
                    deadline_at=self.clock.lobby_deadline(),
                    room_for=self.keeper.room_for(user_id),
                    daily=day,
                    hints=False,
                    language=language,
                    place=place,
                )
            )
        except DailyTaken:
            until = int(self.next_day_at().timestamp())
            raise Refusal(
                "You have had today's daily challenge ({day}): one try a day. The next one "
                "starts <t:{until}:R>; see how you did with /yahtzee daily-board.",
                day=date.fromisoformat(day),  # as the reader's language writes a day
                until=until,
            ) from None
        # Played privately (only its player sees the board), so it holds no channel; and
        # untimed: nobody waits for a solo try (it still ends 24 hours after it starts,
        # however it is played: TurnClock.moved).
        return await self.lobby.begin(row.id, user_id, pictures, timed=False)

    async def daily_board(self, guild_id: int | None, everywhere: bool) -> list[DailyPlace]:
        """Today's finished tries, best first, with their places: on this server, or on
        every server."""
        return await self.store.read(
            plans.daily_board, self.today(), None if everywhere else guild_id
        )

    async def daily_entry(self, game_id: int) -> DailyEntry | None:
        """A daily challenge game's try (None for any other game)."""
        return await self.store.read(plans.daily_entry, game_id)

    async def daily_replay(self, game_id: int, user_id: int) -> list[Turn]:
        """A finished daily challenge told turn by turn. While any try of its day can still
        be played, only to the player who played it: the replay shows the day's dice, and a
        try started late in the day runs on into the next (``IDLE_LIMIT`` from its start)."""
        row = await self.keeper.row(game_id)
        if row.daily is None or row.status != GameStatus.FINISHED:
            raise Refusal("Only a finished daily challenge can be replayed.")
        played = any(player_id(uid) == player_id(user_id) for uid, _ in row.players)
        if played:
            return await self.history.story(game_id)
        if row.daily >= self.today():  # a try may still start at the day's last second
            latest = self.next_day_at() + IDLE_LIMIT
            tried = await self.store.read(plans.daily_tried, row.daily, user_id)
            raise Refusal(REPLAY_LATER_TRIED if tried else REPLAY_LATER,
                          at=int(latest.timestamp()))  # fmt: skip
        started = moment(await self.store.read(plans.last_live_daily_start, row.daily))
        if started is not None:
            raise Refusal(
                "This replay shows the dice of {day}, and a try of that day is still being "
                "played: it opens to everyone once it is over, <t:{at}:R> at the latest.",
                day=date.fromisoformat(row.daily),  # as the reader's language writes a day
                at=int((started + IDLE_LIMIT).timestamp()),
            )
        return await self.history.story(game_id)
