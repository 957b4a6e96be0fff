"""The service a Discord callback calls: load -> engine move -> save -> render.

Nothing here knows Discord: players are user ids and names, messages are ids. Every
accepted move is committed (with its move-log entry) before the caller answers the click;
each game's moves run one at a time under a per-game lock, and the store's version check
refuses a move computed from a state that another process changed in the meantime.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from bot.engine import (
    FORMAT_VERSION,
    MAX_SEATS,
    Category,
    DiceSource,
    Game,
    Preset,
    RuleError,
    ScoreResult,
    TimeoutPolicy,
)
from bot.render import final_png, scorecard_png, turn_png
from bot.store import (
    NO_MESSAGE,
    ChannelBusy,
    GameRow,
    GuildSettings,
    MoveRecord,
    ResultRow,
    StaleVersion,
    Store,
)
from bot.strategy.coach import Coach
from bot.strategy.decisions import Choice, Unsupported
from bot.strategy.players import CasualPlayer, OptimalPlayer, Player
from bot.workers import Workers

log = logging.getLogger(__name__)

LOBBY_TIMEOUT = timedelta(minutes=15)  # an unstarted lobby closes after this
IDLE_LIMIT = timedelta(hours=24)  # a game with no move by a person for this long is abandoned
#: Turn time limits an admin may choose, in seconds (0: no limit).
TURN_LIMITS = (0, 60, 120, 180, 300, 600, 900, 1800, 3600)


def utc_now() -> datetime:
    """The real clock (tests pass their own)."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A time as the store keeps it."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


# A board left behind by a failed post or answer is repaired by the timer after this long
# without a move (a click in flight would fix it sooner).
REPAIR_AFTER = timedelta(seconds=10)


NO_GAME_HERE = "There is no game in this channel. Start one with /yahtzee start."


class Refusal(Exception):
    """A request turned down, with a sentence for the user (the one user-facing error type).

    ``link`` optionally points at the message the user should look at instead:
    (guild id, channel id, message id).
    """

    def __init__(self, message: str, link: tuple[int | None, int, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.link = link


@dataclass(frozen=True, slots=True)
class Board:
    """What a game's live message should show now."""

    row: GameRow
    game: Game | None = None  # None while in the lobby
    image: bytes | None = None  # the turn image, once the game runs
    retire_undo_message_id: int | None = None  # an Undo offer that this move closed


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring: the box, the points, the board after it, and the final image if it ended."""

    board: Board
    result: ScoreResult
    scorer_name: str
    round: int
    final_image: bytes | None = None


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A turn played for a player whose time ran out."""

    scored: Scored
    away: bool  # the seat is now skipped until the player rejoins
    abandoned: bool = False  # nobody is left playing and nobody finished: the game ended


@dataclass(frozen=True, slots=True)
class Pinged:
    """Half the turn's time has gone: remind the player."""

    row: GameRow
    player_id: str
    seconds_left: int


@dataclass(frozen=True, slots=True)
class Expired:
    """A lobby that was never started, or a game nobody moved in for a day, was closed."""

    row: GameRow
    reason: str


Outcome = TimedOut | Pinged | Expired


@dataclass(frozen=True, slots=True)
class Report:
    """How a player's decisions in one game compared with optimal play."""

    loss: float  # expected points lost in all
    decisions: int
    optimal: int  # decisions within 0.05 points of the best
    costliest: list[str]  # the three costliest decisions, in words


def _kept_decisions(moves: list[tuple[str, float | None, str | None]]) -> list[tuple[float, str]]:
    """The valued decisions that still stand: an undo takes back the scoring before it."""
    kept: list[tuple[str, float, str]] = []
    for action, loss, text in moves:
        if action == "undo":
            while kept and kept[-1][0] != "score":
                kept.pop()
            if kept:
                kept.pop()
        elif loss is not None:
            kept.append((action, loss, text or ""))
    return [(loss, text) for _, loss, text in kept]


@dataclass(frozen=True, slots=True)
class Undone:
    """An undo: the board to show again, and the next turn's message to retire (if any)."""

    board: Board
    retire_message_id: int | None


@dataclass(slots=True)
class _Locks:
    """One lock per game, kept only while someone holds or waits for it."""

    by_game: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def get(self, game_id: int) -> asyncio.Lock:
        lock = self.by_game.get(game_id)
        if lock is None:
            lock = self.by_game[game_id] = asyncio.Lock()
        return lock


def _player_id(user_id: int) -> str:
    return str(user_id)


BOT_LEVELS = {1: "optimal", 2: "casual"}
# Short, and plainly not a person nor the Yahtzee box (a column header shows ~8 letters)
BOT_NAMES = {"optimal": "Optimal bot", "casual": "Casual bot"}


def is_bot(player_id: str | int) -> bool:
    """Computer players have negative ids: -(10 * n + level)."""
    return int(player_id) < 0


def bot_level(player_id: str | int) -> str:
    """'optimal' or 'casual' for a computer player's id."""
    return BOT_LEVELS[(-int(player_id)) % 10]


class GameService:
    """Lobbies and games of every channel, backed by a ``Store``."""

    def __init__(
        self,
        store: Store,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] = utc_now,
        coach: Coach | None = None,
        painter: Workers | None = None,
    ) -> None:
        self.store = store
        # Where pictures are drawn: the bot passes its drawing process; without one, threads.
        self.painter = painter or Workers("drawing", processes=0)
        self._dice = dice
        self.clock = clock
        self.coach = coach
        self._locks = _Locks()
        self._costing: dict[int, set[asyncio.Task[None]]] = {}  # decisions being valued
        self._install_id: str | None = None

    def _turn_timer(self, row: GameRow, game: Game | None) -> dict[str, object]:
        """Deadline and reminder for a turn that starts now (none if off or game over)."""
        if game is None or game.is_over or row.turn_seconds <= 0:
            return {"deadline_at": None, "ping_at": None}
        now = self.clock()
        return {
            "deadline_at": stamp(now + timedelta(seconds=row.turn_seconds)),
            "ping_at": stamp(now + timedelta(seconds=row.turn_seconds / 2)),
        }

    def _moved(self) -> dict[str, object]:
        return {"last_move_at": stamp(self.clock())}

    # -- helpers ---------------------------------------------------------------------------

    def game_of(self, row: GameRow) -> Game:
        """The engine game a stored row holds."""
        if row.state is None:
            raise Refusal("This game has not started yet.")
        return Game.from_dict(row.state, self._dice)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None:
            raise Refusal("That game no longer exists. Start a new one with /yahtzee start.")
        return row

    async def _save(
        self, row: GameRow, move: MoveRecord, game: Game | None = None, **changes: object
    ) -> GameRow:
        if game is not None:
            changes["state"] = game.to_dict()
            changes["state_format"] = FORMAT_VERSION
        try:
            return await self.store.update_game(row.id, row.version, move, **changes)  # type: ignore[arg-type]
        except StaleVersion:
            raise Refusal(
                "Another move arrived at the same moment and went first; nothing changed. "
                "Look at the board and try again."
            ) from None

    async def _locked(self, game_id: int, work: Callable[[], Awaitable[object]]) -> object:
        async with self._locks.get(game_id):
            return await work()

    @staticmethod
    def _link(row: GameRow) -> tuple[int | None, int, int] | None:
        message = row.board_message_id or row.final_message_id
        return (row.guild_id, row.board_channel_id, message) if message else None

    async def _save_and_draw(
        self,
        row: GameRow,
        move: MoveRecord,
        game: Game,
        retire: int | None = None,
        /,
        **changes: object,
    ) -> Board:
        """Save a move and draw its board at the same time: the drawing process works while
        the writer commits. The picture is used only once the move is committed."""
        drawing = asyncio.ensure_future(self.painter.run(turn_png, game.to_dict()))
        try:
            saved = await self._save(row, move, game, **changes)
        except BaseException:
            drawing.cancel()  # the move was refused: its picture is not wanted
            # read the drawing's outcome, so that asyncio does not report it as never retrieved
            drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
            raise
        return Board(saved, game, await drawing, retire)

    async def _board(self, row: GameRow, game: Game | None, retire: int | None = None) -> Board:
        image = await self.painter.run(turn_png, game.to_dict()) if game is not None else None
        return Board(row, game, image, retire)

    # -- lobby -----------------------------------------------------------------------------

    async def open_lobby(
        self, guild_id: int | None, channel_id: int, user_id: int, name: str, preset: str | None
    ) -> GameRow:
        """Open a lobby in a channel with its host seated; refused if the channel is busy.

        Without a preset the server's default applies.
        """
        if preset is None:
            preset = (await self.store.guild_settings(guild_id)).preset
        try:
            chosen = Preset.parse(preset)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        try:
            return await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                preset=chosen.value,
                players=[(user_id, name)],
                deadline_at=stamp(self.clock() + LOBBY_TIMEOUT),
            )
        except ChannelBusy as busy:
            what = "a lobby" if busy.existing.status == "lobby" else "a game in progress"
            raise Refusal(
                f"This channel already has {what}: join it, or start yours in another channel.",
                self._link(busy.existing),
            ) from None

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        """Take a seat in a lobby."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            self._require_lobby(row)
            if any(uid == user_id for uid, _ in row.players):
                raise Refusal("You are already in this lobby: wait for the host to press Start.")
            if len(row.players) >= MAX_SEATS:
                raise Refusal(f"This lobby is full ({MAX_SEATS} players).")
            players = [*row.players, (user_id, name)]
            return await self._save(row, MoveRecord(user_id, "join"), players=players)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def leave_lobby(self, game_id: int, user_id: int) -> GameRow:
        """Give up a seat in a lobby; the host's role passes on, and an empty lobby closes."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            self._require_lobby(row)
            if not any(uid == user_id for uid, _ in row.players):
                raise Refusal("You are not in this lobby.")
            players = [(uid, n) for uid, n in row.players if uid != user_id]
            move = MoveRecord(user_id, "leave")
            if not players:
                return await self._save(row, move, players=players, status="cancelled")
            host = row.host_id if row.host_id != user_id else players[0][0]
            return await self._save(row, move, players=players, host_id=host)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def add_bot(self, game_id: int, user_id: int, level: str) -> GameRow:
        """The host seats a computer player ('optimal' or 'casual')."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can add bots to the lobby.")
            if len(row.players) >= MAX_SEATS:
                raise Refusal(f"This lobby is full ({MAX_SEATS} players).")
            code = {v: k for k, v in BOT_LEVELS.items()}[level]
            bots = sum(1 for uid, _ in row.players if uid < 0)
            bot_id = -(10 * (bots + 1) + code)
            name = BOT_NAMES[level] + (f" {bots + 1}" if bots else "")
            players = [*row.players, (bot_id, name)]
            return await self._save(row, MoveRecord(user_id, "add-bot", level), players=players)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def toggle_hints(self, game_id: int, user_id: int) -> GameRow:
        """The host switches hints on or off for this game."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can switch hints on or off.")
            move = MoveRecord(user_id, "hints", "off" if row.hints else "on")
            return await self._save(row, move, hints=not row.hints)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def hint(self, game_id: int, user_id: int, count: int = 3) -> list[Choice]:
        """The best choices for the player whose turn it is, with expected final scores."""
        row = await self._row(game_id)
        if row.status != "active":
            raise Refusal("Hints are for a game in progress.")
        if not row.hints:
            raise Refusal("The host switched hints off for this game.")
        game = self.game_of(row)
        if game.current_player_id != _player_id(user_id):
            raise Refusal(f"Hints are for the player whose turn it is: {game.current_seat.name}.")
        if game.dice is None:
            raise Refusal("Roll first: the hint depends on your dice.")
        if self.coach is None or self.coach.table is None:
            raise Refusal(
                "The strategy table is still being prepared (it takes a minute on the first "
                "start): ask again shortly."
            )
        try:
            return await self.coach.choices(game, count)
        except Unsupported as exc:
            raise Refusal(str(exc)) from None

    async def _cost(
        self, game: Game, keep: tuple[int, ...] | None, box: Category | None
    ) -> dict[str, object]:
        """A person's decision's cost for the move log (official rules, table ready)."""
        if self.coach is None or game.preset is not Preset.OFFICIAL:
            return {}
        judged = await self.coach.judge(game, keep, box)
        return {} if judged is None else {"loss": judged[0], "decision": judged[1]}

    def _cost_later(
        self, before: GameRow, version: int, keep: tuple[int, ...] | None, box: Category | None
    ) -> None:
        """Value a decision after its click is answered: judging takes milliseconds the answer
        need not wait for. The cost is added to the move-log entry at ``version``; a report
        or a game's end waits for the costs still being worked out (``costs_settled``)."""
        coach = self.coach
        if coach is None or coach.table is None or before.preset != Preset.OFFICIAL.value:
            return
        game = self.game_of(before)

        async def work() -> None:
            judged = await coach.judge(game, keep, box)
            if judged is not None:
                await self.store.set_move_cost(before.id, version, *judged)

        task = asyncio.create_task(work(), name=f"cost-{before.id}-{version}")
        pending = self._costing.setdefault(before.id, set())
        pending.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            pending.discard(finished)
            if not pending:
                self._costing.pop(before.id, None)
            if not finished.cancelled() and finished.exception() is not None:
                log.error(
                    "game %s: could not value move %s", before.id, version,
                    exc_info=finished.exception(),
                )  # fmt: skip

        task.add_done_callback(done)

    async def costs_settled(self, game_id: int) -> None:
        """Wait until the cost of every decision of a game made so far is in its move log."""
        while pending := self._costing.get(game_id):
            await asyncio.wait(set(pending))

    async def _game_loss(self, game_id: int, user_id: int, last: MoveRecord) -> float | None:
        """A player's total loss in a game, counting the move about to be saved."""
        moves = await self.store.decisions(game_id, user_id)
        if last.user_id == user_id:
            moves.append((last.action, last.loss, last.decision))
        decisions = _kept_decisions(moves)
        return sum(loss for loss, _ in decisions) if decisions else None

    async def report(self, game_id: int, user_id: int) -> Report:
        """A player's report card for a game: points lost against optimal play."""
        await self.costs_settled(game_id)
        row = await self._row(game_id)
        if row.preset != Preset.OFFICIAL.value:
            raise Refusal("The report card is available for games under the official rules only.")
        decisions = _kept_decisions(await self.store.decisions(game_id, user_id))
        if not decisions:
            if any(uid == user_id for uid, _ in row.players):
                raise Refusal(
                    "There is nothing to analyse: the strategy table was not ready during your "
                    "moves, or you made none."
                )
            raise Refusal("You did not play in this game.")
        worst = sorted(decisions, key=lambda d: -d[0])[:3]
        return Report(
            loss=sum(loss for loss, _ in decisions),
            decisions=len(decisions),
            optimal=sum(1 for loss, _ in decisions if loss < 0.05),
            costliest=[text for loss, text in worst if loss >= 0.05],
        )

    def _bot_player(self, player_id: str) -> Player:
        table = self.coach.table if self.coach is not None else None
        if bot_level(player_id) == "optimal" and table is not None:
            return OptimalPlayer(table)
        return CasualPlayer()  # the casual strategy until the table is ready

    async def bot_step(self, game_id: int) -> Board | Scored | None:
        """One move of the computer player whose turn it is (None if it is a person's turn)."""

        async def work() -> Board | Scored | None:
            row = await self._row(game_id)
            if row.status != "active":
                return None
            game = self.game_of(row)
            seat = game.current_seat
            if not is_bot(seat.player_id):
                return None
            round_no = game.round
            move = next(iter(self._bot_player(seat.player_id).moves(game)))
            if isinstance(move, str):
                saved = await self._save(
                    row, MoveRecord(None, "bot-roll", dice=str(game.dice)), game
                )
                return await self._board(saved, game)
            detail = f"{move.category.value} {move.points}" + (
                f" +{move.bonus}" if move.bonus else ""
            )
            record = MoveRecord(None, "bot-score", detail, str(move.dice))
            return await self._after_scoring(row, game, record, move, seat.name, round_no, {})

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def cancel(self, game_id: int, user_id: int) -> GameRow:
        """The host closes the lobby."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can cancel this lobby. You can Leave it instead.")
            return await self._save(row, MoveRecord(user_id, "cancel"), status="cancelled")

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def begin(self, game_id: int, user_id: int) -> Board:
        """The host starts the game with the players seated (solo allowed)."""

        async def work() -> Board:
            row = await self._row(game_id)
            self._require_lobby(row)
            if user_id != row.host_id:
                raise Refusal("Only the host can start the game. Ask them to press Start.")
            game = Game(
                [(_player_id(uid), name) for uid, name in row.players], row.preset, self._dice
            )
            server = await self.store.guild_settings(row.guild_id)
            timed = replace(row, turn_seconds=server.turn_seconds)
            saved = await self._save(
                row,
                MoveRecord(user_id, "start"),
                game,
                status="active",
                turn_seconds=server.turn_seconds,
                timeout_policy=server.timeout_policy,
                **self._turn_timer(timed, game),
                **self._moved(),
            )
            return await self._board(saved, game)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    @staticmethod
    def _require_lobby(row: GameRow) -> None:
        if row.status != "lobby":
            if row.status == "active":
                raise Refusal("This game has already started.")
            raise Refusal("This lobby is closed. Start a new one with /yahtzee start.")

    # -- turns -----------------------------------------------------------------------------

    def _require_live_board(self, row: GameRow, message_id: int | None, turn: int) -> Game:
        if row.status != "active":
            raise Refusal("This game is over. Start a new one with /yahtzee start.")
        game = self.game_of(row)
        # A click on this turn's buttons may come before the bot has recorded the message
        # it just posted as this turn's board (board_turn still names the last turn): that
        # message is the board. Once recorded, only the recorded message is live.
        recorded = row.board_turn == game.turn_number
        if turn != game.turn_number or (recorded and message_id != row.board_message_id):
            raise Refusal(
                "That board is from an earlier turn. Use the live board instead.", self._link(row)
            )
        return game

    async def _live_turn(
        self, game_id: int, message_id: int | None, turn: int, rolls_used: int
    ) -> tuple[GameRow, Game]:
        """The game a turn button belongs to, if the button is still live for these dice."""
        row = await self._row(game_id)
        game = self._require_live_board(row, message_id, turn)
        self._check_rolls(game, rolls_used)
        return row, game

    @staticmethod
    def _check_rolls(game: Game, rolls_used: int) -> None:
        if rolls_used != game.rolls_used:
            if game.rolls_used > rolls_used:
                raise Refusal(
                    "The dice have been rolled since that click (a double click?); nothing "
                    "else changed. Look at the dice on the board."
                )
            raise Refusal("That button is out of date; use the board as it is now.")

    async def roll(
        self, game_id: int, user_id: int, message_id: int | None, turn: int, rolls_used: int
    ) -> Board:
        """Roll the dice not held."""

        async def work() -> Board:
            row, game = await self._live_turn(game_id, message_id, turn, rolls_used)
            kept: tuple[int, ...] | None = None
            if game.dice is not None and game.current_player_id == _player_id(user_id):
                kept = tuple(sorted(f for f, h in zip(game.dice, game.held, strict=True) if h))
                if len(kept) == 5 or game.rolls_left == 0:
                    kept = None  # keeping all five only wastes a roll: nothing to value
            try:
                dice = game.roll(_player_id(user_id))
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            move = MoveRecord(user_id, "roll", dice=str(dice))
            retire = row.undo_message_id  # the roll closes the last scorer's Undo offer
            closed: dict[str, object] = {} if retire is None else {"undo_message_id": None}
            board = await self._save_and_draw(row, move, game, retire, **self._moved(), **closed)
            if kept is not None:
                self._cost_later(row, board.row.version, kept, None)
            return board

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def hold(
        self,
        game_id: int,
        user_id: int,
        message_id: int | None,
        turn: int,
        rolls_used: int,
        index: int,
    ) -> Board:
        """Hold a free die or release a held one."""

        async def work() -> Board:
            row, game = await self._live_turn(game_id, message_id, turn, rolls_used)
            try:
                held = game.toggle_hold(_player_id(user_id), index)
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            detail = f"{'hold' if held else 'release'} die {index + 1}"
            move = MoveRecord(user_id, "hold", detail, str(game.dice))
            return await self._save_and_draw(row, move, game, **self._moved())

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def score(
        self,
        game_id: int,
        user_id: int,
        message_id: int | None,
        turn: int,
        rolls_used: int,
        box: str,
    ) -> Scored:
        """Score the dice in a box; the turn passes on, or the game ends and results are kept."""

        async def work() -> Scored:
            row, game = await self._live_turn(game_id, message_id, turn, rolls_used)
            try:
                category = Category(box)
            except ValueError:
                raise Refusal("That box does not exist; pick one from the menu.") from None
            seat = game.current_seat
            round_no = game.round
            try:
                result = game.score(_player_id(user_id), category)
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            cost: dict[str, object] = {}
            if game.is_over:  # the results keep each player's loss: value this one now
                cost = await self._cost(self.game_of(row), None, category)
            detail = f"{category.value} {result.points}" + (
                f" +{result.bonus}" if result.bonus else ""
            )
            move = MoveRecord(user_id, "score", detail, str(result.dice), **cost)  # type: ignore[arg-type]
            scored = await self._after_scoring(
                row, game, move, result, seat.name, round_no, self._moved()
            )
            if not cost:
                self._cost_later(row, scored.board.row.version, None, category)
            return scored

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def _after_scoring(
        self,
        row: GameRow,
        game: Game,
        move: MoveRecord,
        result: ScoreResult,
        name: str,
        round_no: int,
        extra: dict[str, object],
    ) -> Scored:
        """Save a scoring: the next turn with its timer, or the end with its results."""
        if game.is_over:
            if game.completed:
                results = self._results(game)
                if game.preset is Preset.OFFICIAL:
                    await self.costs_settled(row.id)
                    results = [
                        replace(r, expected_loss=await self._game_loss(row.id, r.user_id, move))
                        for r in results
                    ]
                saved = await self._save(
                    row, move, game, status="finished", results=results,
                    deadline_at=None, ping_at=None, **extra,
                )  # fmt: skip
                final = await self.painter.run(final_png, game.to_dict())
                return Scored(Board(saved, game), result, name, round_no, final)
            saved = await self._save(
                row, move, game, status="abandoned", deadline_at=None, ping_at=None, **extra
            )
            return Scored(Board(saved, game), result, name, round_no)
        board = await self._save_and_draw(row, move, game, **self._turn_timer(row, game), **extra)
        return Scored(board, result, name, round_no)

    @staticmethod
    def _results(game: Game) -> list[ResultRow]:
        out = []
        for standing in game.standings():
            seat = game.seats[standing.seat]
            if seat.left or is_bot(seat.player_id):
                continue  # bots never count on the leaderboard
            card = seat.card
            out.append(
                ResultRow(
                    user_id=int(seat.player_id),
                    total=card.total,
                    upper_total=card.upper_total,
                    upper_bonus=card.upper_bonus,
                    yahtzees=card.yahtzees,
                    yahtzee_bonuses=card.yahtzee_bonuses,
                    place=standing.place,
                    seats=len(game.seats),
                    name=seat.name,
                )
            )
        return out

    async def undo(self, game_id: int, user_id: int, message_id: int | None, turn: int) -> Undone:
        """Take back the last scoring, from the message that offers Undo."""

        async def work() -> Undone:
            row = await self._row(game_id)
            if row.status != "active":
                raise Refusal("This game is over: its last scoring is final.")
            game = self.game_of(row)
            if message_id != row.undo_message_id or turn != game.turn_number - 1:
                raise Refusal("Too late to undo: the next roll has happened.", self._link(row))
            try:
                game.undo(_player_id(user_id))
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            # The next turn's board may still be on its way (its post not yet recorded): then
            # the board on record is this very message, which must stay; the late post is
            # refused by board_shown. The Undo's message becomes the board in the same save.
            remove = row.board_message_id if row.board_message_id != message_id else None
            saved = await self._save(
                row,
                MoveRecord(user_id, "undo", dice=str(game.dice)),
                game,
                **self._turn_timer(row, game),
                **self._moved(),
                undo_message_id=None,
                board=(message_id, game.turn_number, row.version),
            )
            return Undone(await self._board(saved, game), remove)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    # -- leaving and ending ----------------------------------------------------------------

    async def live_game(self, channel_id: int) -> GameRow:
        """The channel's lobby or game, or a refusal saying there is none."""
        row = await self.store.live_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return row

    async def leave_game(self, channel_id: int, user_id: int) -> Board:
        """A player leaves the running game; the others play on; the last one out ends it."""
        row = await self.live_game(channel_id)
        if row.status == "lobby":
            return Board(await self.leave_lobby(row.id, user_id))

        async def work() -> Board:
            current = await self._row(row.id)
            if current.status != "active":
                raise Refusal("This game is over already.")
            game = self.game_of(current)
            was_current = game.current_player_id == _player_id(user_id)
            try:
                game.leave(_player_id(user_id))
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            return await self._after_leaving(
                current, game, MoveRecord(user_id, "leave"), was_current
            )

        return await self._locked(row.id, work)  # type: ignore[return-value]

    async def _after_leaving(
        self, row: GameRow, game: Game, move: MoveRecord, turn_moved: bool
    ) -> Board:
        if game.is_over:
            status = "finished" if game.completed else "abandoned"
            results = self._results(game) if game.completed else ()
            saved = await self._save(
                row, move, game, status=status, results=results, deadline_at=None, ping_at=None
            )
            return Board(saved, game)
        timer = self._turn_timer(row, game) if turn_moved else {}  # a new player's turn starts
        saved = await self._save(row, move, game, **timer)
        return await self._board(saved, game)

    async def rejoin(self, channel_id: int, user_id: int) -> GameRow:
        """An away player takes their seat back from their next turn."""
        row = await self.live_game(channel_id)

        async def work() -> GameRow:
            current = await self._row(row.id)
            if current.status != "active":
                raise Refusal("There is no game in progress here to rejoin.")
            game = self.game_of(current)
            try:
                game.rejoin(_player_id(user_id))
            except RuleError as exc:
                raise Refusal(str(exc)) from None
            return await self._save(current, MoveRecord(user_id, "rejoin"), game, **self._moved())

        return await self._locked(row.id, work)  # type: ignore[return-value]

    async def kick(self, channel_id: int, user_id: int, target_id: int, is_admin: bool) -> Board:
        """The host or an admin removes an away player from the running game."""
        row = await self.live_game(channel_id)
        if row.status != "active":
            raise Refusal("There is no game in progress here.")
        if user_id != row.host_id and not is_admin:
            raise Refusal("Only the host or a member with Manage Server can remove a player.")

        async def work() -> Board:
            current = await self._row(row.id)
            game = self.game_of(current)
            try:
                seat = game.seats[game.seat_of(_player_id(target_id))]
            except RuleError:
                raise Refusal("That member is not playing in this game.") from None
            if not seat.away:
                raise Refusal(
                    f"{seat.name} is not away: only a player who timed out and is being "
                    "skipped can be removed."
                )
            game.leave(seat.player_id)
            # An away seat is never the one to play, so the turn does not move.
            return await self._after_leaving(
                current, game, MoveRecord(user_id, "kick", seat.player_id), turn_moved=False
            )

        return await self._locked(row.id, work)  # type: ignore[return-value]

    # -- timers ------------------------------------------------------------------------------

    async def due(self, ours: Callable[[int | None], bool] = lambda guild_id: True) -> list[int]:
        """Ids of the live games that have a timer due now, in the servers ``ours`` picks
        (by server id: a process acts only on the servers of its own shards)."""
        now = self.clock()
        rows = await self.store.due_games(stamp(now), stamp(now - IDLE_LIMIT))
        return [row.id for row in rows if ours(row.guild_id)]

    async def boards_behind(
        self, ours: Callable[[int | None], bool] = lambda guild_id: True
    ) -> list[GameRow]:
        """Live games (in the servers ``ours`` picks) whose board a failed post or answer
        left behind, quiet for a while: the timer repairs them."""
        rows = await self.store.boards_behind(stamp(self.clock() - REPAIR_AFTER))
        return [row for row in rows if ours(row.guild_id)]

    async def nonce(self, row: GameRow, tag: str) -> str:
        """The nonce for posting one of a game's messages: the same when a post is retried
        (Discord then returns the message already made), different in every database."""
        if self._install_id is None:
            self._install_id = await self.store.install_id()
        return f"yz{self._install_id}{row.id}{tag}"

    async def act(self, game_id: int) -> Outcome | None:
        """Do what a due game's timer says, once: close, abandon, play the turn, or remind.

        Safe to call from two processes at once: the store's version check lets one win.
        """

        async def work() -> Outcome | None:
            row = await self._row(game_id)
            if not row.is_live:
                return None
            now = self.clock()
            now_at = stamp(now)
            if row.status == "lobby":
                if row.deadline_at is not None and row.deadline_at <= now_at:
                    saved = await self._save(
                        row, MoveRecord(None, "lobby-timeout"), status="cancelled", deadline_at=None
                    )
                    return Expired(saved, "Nobody started this lobby in time, so it closed.")
                return None
            game = self.game_of(row)
            last_move = row.last_move_at or row.updated_at
            if last_move <= stamp(now - IDLE_LIMIT):
                saved = await self._save(
                    row, MoveRecord(None, "idle-timeout"), status="abandoned",
                    deadline_at=None, ping_at=None,
                )  # fmt: skip
                return Expired(saved, "No move for 24 hours, so the game was abandoned.")
            if row.deadline_at is not None and row.deadline_at <= now_at:
                seat = game.current_seat
                round_no = game.round
                result = game.timeout(TimeoutPolicy(row.timeout_policy))
                away = game.seats[game.seat_of(seat.player_id)].away
                move = MoveRecord(
                    None, "timeout", f"{result.category.value} {result.points}", str(result.dice)
                )
                scored = await self._after_scoring(row, game, move, result, seat.name, round_no, {})
                return TimedOut(scored, away, scored.board.row.status == "abandoned")
            if row.ping_at is not None and row.ping_at <= now_at:
                saved = await self._save(row, MoveRecord(None, "ping"), ping_at=None, unseen=True)
                left = 0
                if row.deadline_at is not None:
                    left = max(
                        0, int((datetime.fromisoformat(row.deadline_at) - now).total_seconds())
                    )
                return Pinged(saved, game.current_player_id, left)
            return None

        try:
            return await self._locked(game_id, work)  # type: ignore[return-value]
        except Refusal:
            return None  # another process acted first

    # -- server settings -----------------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings."""
        return await self.store.guild_settings(guild_id)

    async def change_settings(
        self, guild_id: int, user_id: int, is_admin: bool, **changes: object
    ) -> GuildSettings:
        """Validate and store changed server settings (Manage Server only)."""
        if not is_admin:
            raise Refusal("Only members with the Manage Server permission can change settings.")
        current = await self.store.guild_settings(guild_id)
        values = {
            "preset": current.preset,
            "turn_seconds": current.turn_seconds,
            "timeout_policy": current.timeout_policy,
            "use_threads": current.use_threads,
        }
        for key, value in changes.items():
            if key not in values:
                raise Refusal(f"There is no setting called {key!r}.")
            values[key] = value
        try:
            preset = Preset.parse(str(values["preset"])).value
            seconds = int(str(values["turn_seconds"]))
            policy = TimeoutPolicy(str(values["timeout_policy"])).value
        except ValueError:
            raise Refusal("That value is not one of the choices; pick one from the menu.") from None
        if seconds not in TURN_LIMITS:
            raise Refusal("The turn time limit must be one of the choices in the menu.")
        settings = GuildSettings(preset, seconds, policy, bool(values["use_threads"]))
        await self.store.save_guild_settings(guild_id, settings, user_id)
        return settings

    async def set_thread(self, game_id: int, thread_id: int) -> GameRow:
        """Record the thread a game is played in."""
        row = await self._row(game_id)
        return await self._save(row, MoveRecord(None, "thread"), thread_id=thread_id)

    async def check_can_end(self, channel_id: int, user_id: int, is_admin: bool) -> GameRow:
        """The game a user may end here, or a refusal."""
        row = await self.live_game(channel_id)
        if user_id != row.host_id and not is_admin:
            raise Refusal("Only the host or a member with Manage Server can end this game.")
        return row

    async def end(self, game_id: int, user_id: int, is_admin: bool) -> GameRow:
        """End a lobby or game early; it is kept as abandoned and records no results."""

        async def work() -> GameRow:
            row = await self._row(game_id)
            if not row.is_live:
                raise Refusal("This game has already ended.")
            if user_id != row.host_id and not is_admin:
                raise Refusal("Only the host or a member with Manage Server can end this game.")
            status = "abandoned" if row.status == "active" else "cancelled"
            return await self._save(row, MoveRecord(user_id, "end"), status=status)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    async def unreachable(self, game_id: int, reason: str) -> GameRow | None:
        """The bot can no longer show this game (it lost access to the channel, the channel
        or its board is gone for good): the game ends as abandoned and records nothing, so
        that no timer plays it on unseen. None if it had ended already (a finished game
        keeps its results; its final message is no longer waited for)."""

        async def work() -> GameRow | None:
            row = await self.store.get_game(game_id)
            if row is None:
                return None
            if not row.is_live:
                if row.status == "finished" and row.final_message_id is None:
                    # its final message can never be posted: stop trying at every reconnect
                    await self.final_posted(game_id, NO_MESSAGE)
                return None
            status = "abandoned" if row.status == "active" else "cancelled"
            move = MoveRecord(None, "unreachable", reason)
            return await self._save(row, move, status=status, deadline_at=None, ping_at=None)

        return await self._locked(game_id, work)  # type: ignore[return-value]

    # -- looking -----------------------------------------------------------------------------

    async def scorecard(self, channel_id: int, viewer_id: int, player_id: int | None) -> bytes:
        """A player's scorecard image: the named player, else the viewer, else whoever plays.
        With no game going on, the cards of the game that finished last here."""
        row = await self.store.live_game_in(channel_id)
        if row is None:
            row = await self.store.last_finished_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return await self.scorecard_of(row.id, viewer_id, player_id)

    async def scorecard_of(self, game_id: int, viewer_id: int, player_id: int | None) -> bytes:
        """Like ``scorecard``, for a game by id (also a finished one)."""
        row = await self._row(game_id)
        if row.state is None:
            raise Refusal("The game has not started yet: there are no scorecards to show.")
        game = self.game_of(row)
        wanted = player_id if player_id is not None else viewer_id
        try:
            seat = game.seat_of(_player_id(wanted))
        except RuleError:
            if player_id is not None:
                raise Refusal("That member is not playing in this game.") from None
            seat = game.current
        return await self.painter.run(scorecard_png, game.to_dict(), seat)

    async def play_again(
        self, game_id: int, guild_id: int | None, user_id: int, name: str
    ) -> GameRow:
        """A new lobby with the same players (and the clicker as host), in the game's channel
        (the channel it was started in, even when it was played in a thread)."""
        old = await self._row(game_id)
        channel_id = old.channel_id
        players: list[tuple[int, str]] = [(user_id, name)]
        if old.state is not None:
            for seat in self.game_of(old).seats:
                if not seat.left and int(seat.player_id) != user_id:
                    players.append((int(seat.player_id), seat.name))
        try:
            return await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                preset=old.preset,
                players=players[:MAX_SEATS],
                deadline_at=stamp(self.clock() + LOBBY_TIMEOUT),
            )
        except ChannelBusy as busy:
            raise Refusal(
                "This channel already has a new lobby or game: join that one.",
                self._link(busy.existing),
            ) from None

    async def stale_click(self, game_id: int | None) -> Refusal:
        """The refusal for a button that is out of date, pointing at the game's live message."""
        row = await self.store.get_game(game_id) if game_id is not None else None
        if row is None or not row.is_live:
            return Refusal("That button is out of date: this game is over.")
        return Refusal("That button is out of date. Use the live board instead.", self._link(row))

    async def render(self, row: GameRow) -> Board:
        """The board for a stored game as it is now (for repairs after a restart)."""
        game = self.game_of(row) if row.state is not None else None
        return await self._board(row, game if row.status == "active" else None)

    async def final_image(self, row: GameRow) -> bytes:
        """The final scorecard of a finished game."""
        return await self.painter.run(final_png, self.game_of(row).to_dict())

    # -- message bookkeeping -----------------------------------------------------------------

    async def board_shown(self, row: GameRow, message_id: int, game: Game | None) -> bool:
        """Record that ``message_id`` now shows ``row`` as it is. False if it does not, and
        never will: a newer board is on record, or an Undo took the game back to another
        turn while this board was being posted (that message shows a turn that is gone)."""
        turn = game.turn_number if game is not None else None
        return await self.store.show_board(row.id, message_id, turn, row.version)

    async def undo_offered(self, game_id: int, message_id: int | None) -> None:
        """Record which message offers Undo (or that none does)."""
        await self.store.set_messages(game_id, undo_message_id=message_id)

    async def final_posted(self, game_id: int, message_id: int) -> None:
        """Record the final message of a finished game."""
        await self.store.set_messages(game_id, final_message_id=message_id)
