"""Lobbies: open, join, leave, computer players, hints, start, cancel, play again."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.engine import (
    MAX_SEATS,
    Game,
    Preset,
)
from bot.i18n import lang
from bot.i18n.words import N_, Label
from bot.store import ChannelBusy, GameChange, GameRow, GameStatus, MoveRecord, NewGame, plans

from .clock import TurnClock
from .drawing import Drawing
from .keeper import Keeper
from .results import (
    LOBBY_CLOSED,
    REMATCH_FOR_PLAYERS,
    REMATCH_NOT_YOURS,
    Board,
    GameView,
    Refusal,
    Rematch,
    link_to,
    refusing,
    view_of,
)
from .seats import BOT_NAMES, bot_level, is_bot, new_bot_id, player_id

log = logging.getLogger(__name__)


class Lobby:
    """Lobbies: open, join, leave, computer players, hints, start, cancel, play again."""

    def __init__(self, keeper: Keeper, clock: TurnClock, drawing: Drawing) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock
        self.drawing = drawing

    async def open_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        preset: Preset | str | None,
        language: str = "en",
        place: str | None = None,
    ) -> GameView:
        """Open a lobby in a channel with its host seated; refused if the channel is busy.

        Without a preset the server's default applies. ``language``: the server's language
        as Discord reports it (a ``bot.i18n`` catalog); the server's own choice comes first.
        The game's channel messages and pictures are in it from the lobby to the end.
        ``place``: "channel" or "token", as the interaction that opens it says.
        """
        settings = await self.store.read(plans.guild_settings, guild_id)
        with refusing():  # an unknown preset: the engine's InvalidGame
            chosen = settings.preset if preset is None else Preset.parse(preset)
        try:
            return view_of(
                await self.keeper.create(
                    NewGame(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=user_id,
                        preset=chosen,
                        players=[(user_id, name)],
                        language=settings.language or language,
                        deadline_at=self.clock.lobby_deadline(),
                        room_for=self.keeper.room_for(user_id),
                        place=place,
                    )
                )
            )
        except ChannelBusy as busy:
            raise _busy(busy.existing, channel_id, user_id) from None

    async def check_free(self, channel_id: int, user_id: int | None = None) -> None:
        """Refuse, as ``open_lobby`` would, a channel (or a game's thread) that holds a lobby
        or game already, with its link: said before anything else about opening one there
        (a /yahtzee start sent twice hears of the lobby it opened, not of a wait)."""
        holder = await self.store.read(plans.game_of_thread, channel_id)
        if holder is None:
            holder = await self.store.read(plans.live_game_in, channel_id)
        if holder is not None:
            raise _busy(holder, channel_id, user_id)

    async def join(self, game_id: int, user_id: int, name: str) -> GameView:
        """Take a seat in a lobby."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if any(uid == user_id for uid, _ in row.players):
                raise Refusal(
                    "You are already in this lobby: wait for the host to press {start}.",
                    start=Label(N_("Start"), row.language),
                )
            if len(row.players) >= MAX_SEATS:
                raise Refusal("This lobby is full ({most} players).", most=MAX_SEATS)
            players = [*row.players, (user_id, name)]
            return await self.keeper.save(
                row,
                MoveRecord(user_id, "join"),
                change=GameChange(players=players, room_for=self.keeper.room_for(user_id)),
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def leave_lobby(self, game_id: int, user_id: int) -> GameView:
        """Give up a seat in a lobby; the host's role passes on, and an empty lobby closes."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if not any(uid == user_id for uid, _ in row.players):
                raise Refusal("You are not in this lobby.")
            players = [(uid, n) for uid, n in row.players if uid != user_id]
            move = MoveRecord(user_id, "leave")
            people = [uid for uid, _ in players if uid > 0]
            if not people:  # computer seats alone cannot start, cancel or play
                return await self.keeper.save(
                    row,
                    move,
                    change=GameChange(
                        players=players, status=GameStatus.CANCELLED, deadline_at=None
                    ),
                )
            host = row.host_id if row.host_id != user_id else people[0]
            return await self.keeper.save(
                row, move, change=GameChange(players=players, host_id=host)
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def add_bot(self, game_id: int, user_id: int, level: str) -> GameView:
        """The host seats a computer player ('optimal' or 'casual')."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can add bots to the lobby.")
            if len(row.players) >= MAX_SEATS:
                raise Refusal("This lobby is full ({most} players).", most=MAX_SEATS)
            bots = [uid for uid, _ in row.players if uid < 0]
            bot_id = new_bot_id(level, bots)
            alike = sum(1 for uid in bots if bot_level(player_id(uid)) == level)
            name = lang(row.language)(BOT_NAMES[level]) + (f" {alike + 1}" if alike else "")
            players = [*row.players, (bot_id, name)]
            return await self.keeper.save(
                row, MoveRecord(user_id, "add-bot", level), change=GameChange(players=players)
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def remove_bot(self, game_id: int, user_id: int) -> GameView:
        """The host takes the computer player seated last back out of the lobby."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can remove bots from the lobby.")
            bots = [uid for uid, _ in row.players if uid < 0]
            if not bots:
                raise Refusal("There is no bot in this lobby to remove.")
            players = [(uid, n) for uid, n in row.players if uid != bots[-1]]
            move = MoveRecord(user_id, "remove-bot", str(bots[-1]))
            return await self.keeper.save(row, move, change=GameChange(players=players))

        return view_of(await self.keeper.locked(game_id, work))

    async def toggle_hints(self, game_id: int, user_id: int) -> GameView:
        """The host switches hints on or off for this game."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can switch hints on or off.")
            move = MoveRecord(user_id, "hints", "off" if row.hints else "on")
            return await self.keeper.save(row, move, change=GameChange(hints=not row.hints))

        return view_of(await self.keeper.locked(game_id, work))

    async def cancel(self, game_id: int, user_id: int) -> GameView:
        """The host closes the lobby."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id and not any(uid == user_id for uid, _ in row.players):
                raise Refusal("Only the host can cancel this lobby.")  # Leave: not theirs
            if user_id != row.host_id:
                raise Refusal(
                    "Only the host can cancel this lobby. You can press {leave} instead.",
                    leave=Label(N_("Leave"), row.language),
                )
            return await self.keeper.save(
                row, MoveRecord(user_id, "cancel"), change=GameChange(status=GameStatus.CANCELLED)
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def begin(
        self, game_id: int, user_id: int, pictures: bool = True, timed: bool = True
    ) -> Board:
        """The host starts the game with the players seated (solo allowed); without
        ``pictures`` (the bot may not attach files there) its boards are text; without
        ``timed``, no turn time limit whatever the server's setting."""

        async def work() -> Board:
            row = await self.keeper.row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal(
                    "Only the host can start the game. Ask them to press {start}.",
                    start=Label(N_("Start"), row.language),
                )
            game = Game(
                [(player_id(uid), name) for uid, name in row.players],
                row.preset,
                self.keeper.dice_for(row),
            )
            server = await self.store.read(plans.guild_settings, row.guild_id)
            seconds = server.turn_seconds if timed else 0
            started = replace(row, turn_seconds=seconds)
            saved = await self.keeper.save(
                row,
                MoveRecord(user_id, "start"),
                game,
                GameChange(
                    status=GameStatus.ACTIVE,
                    turn_seconds=seconds,
                    timeout_policy=server.timeout_policy,
                    pictures=pictures,
                )
                | self.clock.turn_timer(started, game)
                | self.clock.started(),
            )
            if await self.clock.opening_wanted(saved, game):
                saved = await self.keeper.save(saved, self.clock.opening_roll(game), game)
            return await self.drawing.board(saved, game)

        return await self.keeper.locked(game_id, work)

    @staticmethod
    def _require_lobby(row: GameRow) -> None:
        if row.status != GameStatus.LOBBY:
            if row.status == GameStatus.ACTIVE:
                raise Refusal("This game has already started.")
            raise Refusal(LOBBY_CLOSED)

    async def play_again(
        self, game_id: int, guild_id: int | None, user_id: int, name: str, place: str | None = None
    ) -> Rematch:
        """A new lobby in the game's channel (the channel it was started in, even when it was
        played in a thread): the clicker hosts, the computer players sit again, and the other
        people are invited, not seated: whoever wants a rematch presses Join."""
        old = await self.keeper.row(game_id)
        if old.state is None or old.is_live:
            raise Refusal("This game is not over: its rematch can start once it is.")
        if old.daily is not None:
            raise Refusal("A daily challenge has no rematch: one try a day.")
        seats = self.keeper.game_of(old).seats
        mine = next((s for s in seats if s.player_id == player_id(user_id)), None)
        if mine is not None and mine.left:
            raise Refusal(REMATCH_NOT_YOURS)
        if mine is None:
            raise Refusal(REMATCH_FOR_PLAYERS)
        channel_id = old.channel_id
        players: list[tuple[int, str]] = [(user_id, name)]
        invited: list[tuple[int, str]] = []
        for seat in seats:
            if seat.left or seat.player_id == player_id(user_id):
                continue
            if is_bot(seat.player_id):
                players.append((int(seat.player_id), seat.name))
            else:
                invited.append((int(seat.player_id), seat.name))
        try:
            row = await self.keeper.create(
                NewGame(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=user_id,
                    preset=old.preset,
                    players=players[:MAX_SEATS],
                    deadline_at=self.clock.lobby_deadline(),
                    room_for=self.keeper.room_for(user_id),
                    language=old.language,
                    place=place,
                )
            )
        except ChannelBusy as busy:
            raise Refusal(
                "This channel already has a new lobby or game: join that one.",
                link_to(busy.existing),
            ) from None
        # The players are pinged for a game's rematch once: a second Play again (after the
        # first lobby was cancelled, say) invites them without a notification.
        pinged = await self.keeper.locked(
            game_id, lambda: self._note_rematch(game_id, user_id, row.id)
        )
        return Rematch(view_of(row), invited, ping=not pinged)

    async def _note_rematch(self, game_id: int, user_id: int, lobby_id: int) -> bool:
        """Record on a finished game that its rematch was opened; whether one was before."""
        old = await self.keeper.row(game_id)
        before = any(
            action == "rematch"
            for _, _, action, _, _ in await self.store.read(plans.moves, game_id)
        )
        await self.keeper.save(old, MoveRecord(user_id, "rematch", str(lobby_id)))
        return before


def _busy(existing: GameRow, channel_id: int, user_id: int | None = None) -> Refusal:
    """Why no lobby opens in ``channel_id``, which ``existing`` holds (with its link), as
    ``user_id`` (who asked) is told."""
    if existing.thread_id == channel_id:  # a game's thread holds that game only
        if existing.is_live:
            return Refusal(
                "This thread belongs to the game hosted by <@{host}>: no other lobby "
                "or game can open in it. Join that game, or start yours in the channel.",
                link_to(existing),
                host=existing.host_id,
            )
        return Refusal(
            "This thread belonged to the game hosted by <@{host}>, which is over: "
            "start a new game in the channel, not in an old game's thread.",
            host=existing.host_id,
        )
    if existing.status == GameStatus.LOBBY:
        if user_id == existing.host_id:
            return Refusal(
                "You host this channel's lobby already: press Start once everyone has joined.",
                link_to(existing),
            )
        if any(uid == user_id for uid, _name in existing.players):
            return Refusal(
                "You are in this channel's lobby already: the game begins when its host "
                "presses Start.",
                link_to(existing),
            )
        return Refusal(
            "This channel already has a lobby: join it, or start yours in another channel.",
            link_to(existing),
        )
    # (a game under way has no Join: nobody is told to join it, a player who left included)
    return Refusal(
        "This channel already has a game in progress: watch it, or start yours in another channel.",
        link_to(existing),
    )
