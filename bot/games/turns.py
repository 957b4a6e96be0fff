"""Turns: roll, hold, score, undo, computer players' moves (leaving, rejoining and kicking:
``seating``)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.engine import (
    Category,
    Game,
    Preset,
    ScoreResult,
)
from bot.i18n.words import N_
from bot.render import final_png
from bot.store import NO_CHANGE, GameChange, GameRow, GameStatus, MoveRecord, plans
from bot.strategy.analyst import Analyst
from bot.strategy.players import CasualPlayer, OptimalPlayer, Player
from bot.strategy.winning import WinningPlayer

from .clock import TurnClock
from .coaching import Coaching
from .drawing import Drawing
from .keeper import Keeper
from .lobby import Lobby
from .lookups import Lookups
from .moves import BoardClick, TurnMove
from .replay import held_mask, scoring_detail
from .results import (
    GAME_OVER,
    Board,
    GameView,
    Refusal,
    Scored,
    Undone,
    link_to,
    refusing,
    view_of,
)
from .seats import bot_level, is_bot, people_left, player_id, result_rows

log = logging.getLogger(__name__)

#: A click on a copy of a daily challenge's private board that ``/yahtzee daily`` replaced
#: (where the live copy is, the Discord side says when it knows).
DAILY_COPY_REPLACED = N_(
    "This copy of your daily challenge was replaced by a newer one: use that one, or "
    "/yahtzee daily to show it again. Nothing changed."
)


class Turns:
    """Turns: roll, hold, score, undo, computer players' moves."""

    def __init__(
        self,
        keeper: Keeper,
        clock: TurnClock,
        drawing: Drawing,
        lookups: Lookups,
        coaching: Coaching,
        lobby: Lobby,
        analyst: Analyst | None = None,
    ) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.clock = clock
        self.drawing = drawing
        self.lookups = lookups
        self.coaching = coaching
        self.lobby = lobby
        self.analyst = analyst
        #: The To-win bot of each preset, kept so that its turns' chances are worked out once.
        self._winning: dict[str, WinningPlayer] = {}

    def _require_live_board(self, row: GameRow, message_id: int | None, turn: int) -> Game:
        if row.status != GameStatus.ACTIVE:
            raise Refusal(GAME_OVER)
        game = self.keeper.game_of(row)
        recorded = row.board_turn == game.turn_number
        if (
            row.daily is not None
            and message_id is not None
            and recorded
            and (message_id != row.board_message_id)
        ):  # its player showed it again (/yahtzee daily): this copy is not the board
            raise Refusal(DAILY_COPY_REPLACED)
        if _old_board(row, game, message_id, turn):
            raise Refusal(
                "That board is from an earlier turn. Use the live board instead.",
                link_to(row),
            )
        return game

    async def old_board(
        self, game_id: int, message_id: int | None, turn: int
    ) -> tuple[GameView, Game] | None:
        """The game (as it is now) if a turn's button for ``turn`` on ``message_id`` is on an
        old board of a game still being played (not its live board: a board of an earlier
        turn, or one the live board replaced); None otherwise (the live board, a game over,
        a daily challenge's private board: their clicks are answered as usual)."""
        try:
            row = await self.keeper.row(game_id)
        except Refusal:
            return None
        if row.status != GameStatus.ACTIVE or row.daily is not None or row.state is None:
            return None
        game = self.keeper.game_of(row)
        if game.is_over or not _old_board(row, game, message_id, turn):
            return None
        return view_of(row, game), game

    def _scored_already(self, row: GameRow, user_id: int, turn: int) -> bool:
        """Whether a click for ``turn`` comes from the player who has just scored that very
        turn (their scoring can still be undone): a double click on the box menu."""
        if row.status != GameStatus.ACTIVE or row.state is None:
            return False
        game = self.keeper.game_of(row)
        # the turns played count the scoring: the click was made on the turn before it
        return game.undo_player_id == player_id(user_id) and turn == game.turn_number - 1

    async def _live_turn(self, move: TurnMove) -> tuple[GameRow, Game]:
        """The game a turn button belongs to, if the button is still live for these dice."""
        row = await self.keeper.row(move.game_id)
        game = self._require_live_board(row, move.message_id, move.turn)
        self._check_rolls(game, move.rolls_used)
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

    async def roll(self, move: TurnMove, pictures: bool = True) -> Board:
        """Roll the dice not held. Without ``pictures`` (the bot may no longer attach files
        where the game is played) the game goes on in text from this roll."""
        user_id = move.user_id

        async def work() -> Board:
            row, game = await self._live_turn(move)
            change = self.clock.moved(row)
            if row.pictures and not pictures:
                log.warning("game %s: files may no longer be attached; going on in text", row.id)
                row, change = replace(row, pictures=False), change | GameChange(pictures=False)
            kept: tuple[int, ...] | None = None
            if game.dice is not None and game.current_player_id == player_id(user_id):
                kept = tuple(sorted(f for f, h in zip(game.dice, game.held, strict=True) if h))
                if len(kept) == 5 or game.rolls_left == 0:
                    kept = None  # keeping all five only wastes a roll: nothing to value
            with refusing():
                dice = game.roll(player_id(user_id))
            record = MoveRecord(user_id, "roll", dice=str(dice))
            retire = row.undo_message_id  # the roll closes the last scorer's Undo offer
            if retire is not None:
                change = change | GameChange(undo_message_id=None)
            board = await self.drawing.save_and_draw(row, record, game, retire, change)
            if kept is not None:
                self.coaching.cost_later(row, board.row.version, kept, None)
            return board

        return await self.keeper.locked(move.game_id, work)

    async def hold(self, move: TurnMove, index: int) -> Board:
        """Hold a free die or release a held one. Nothing is drawn: a hold changes only the
        board's buttons (the picture shows the dice as rolled, never holds)."""

        async def work() -> Board:
            row, game = await self._live_turn(move)
            with refusing():
                held = game.toggle_hold(player_id(move.user_id), index)
            detail = f"{'hold' if held else 'release'} die {index + 1}"
            record = MoveRecord(move.user_id, "hold", detail, str(game.dice))
            # A hold uses nothing up: it does not re-arm the idle limit (else holding and
            # releasing a die once a day would keep a game open for ever).
            saved = await self.keeper.save(row, record, game)
            return Board(view_of(saved, game), game, None, None, self.drawing.best_box(row, game))

        return await self.keeper.locked(move.game_id, work)

    async def score(self, move: TurnMove, box: str) -> Scored:
        """Score the dice in a box; the turn passes on, or the game ends and results are kept."""
        user_id = move.user_id

        async def work() -> Scored:
            try:
                row, game = await self._live_turn(move)
            except Refusal:  # a stale menu: is it the second click of a scoring just made?
                if self._scored_already(await self.keeper.row(move.game_id), user_id, move.turn):
                    raise Refusal(
                        "That turn is scored already (a double click?): nothing changed."
                    ) from None
                raise
            try:
                category = Category(box)
            except ValueError:
                raise Refusal("That box does not exist; pick one from the menu.") from None
            seat = game.current_seat
            round_no = game.round
            with refusing():
                result = game.score(player_id(user_id), category)
            cost = None
            if game.is_over:  # the results keep each player's loss: value this one now
                cost = await self.coaching.cost(self.keeper.game_of(row), None, category)
            loss, decision = cost if cost is not None else (None, None)
            record = MoveRecord(
                user_id, "score", scoring_detail(result), str(result.dice), loss, decision
            )
            scored = await self.after_scoring(
                row, game, record, result, seat.name, round_no, self.clock.moved(row), later=True
            )
            if cost is None:
                version = scored.move_version or scored.board.row.version
                self.coaching.cost_later(row, version, None, category)
            return scored

        return await self.keeper.locked(move.game_id, work)

    async def after_scoring(
        self,
        row: GameRow,
        game: Game,
        move: MoveRecord,
        result: ScoreResult,
        name: str,
        round_no: int,
        extra: GameChange,
        later: bool = False,
    ) -> Scored:
        """Save a scoring: the next turn with its timer, or the end with its results.
        ``later``: the next board's picture may still be drawing (``Board.drawn``)."""
        # A game of computer seats alone (every person left or away) ends without a result.
        if game.is_over or not people_left(game):
            if game.is_over and game.completed:
                results = result_rows(game)
                await self.coaching.costs_settled(row.id)  # (every preset has exact values)
                results = [
                    replace(r, expected_loss=await self.coaching.game_loss(row.id, r.user_id, move))
                    for r in results
                ]
                if row.daily is not None:  # the try's score beside the Optimal bot's
                    score = game.seats[0].card.total
                    optimal = await self.coaching.daily_optimal(row.daily)
                    extra = extra | GameChange(daily_scores=(score, optimal))
                saved = await self.keeper.save(
                    row,
                    move,
                    game,
                    GameChange(
                        status=GameStatus.FINISHED, results=results, deadline_at=None, ping_at=None
                    )
                    | extra,
                )
                pool = self.drawing.pool
                final = None
                if row.pictures:
                    final = await pool.run(final_png, game.to_dict(), row.language)
                return Scored(Board(view_of(saved, game), game), result, name, round_no, final)
            saved = await self.keeper.save(
                row,
                move,
                game,
                GameChange(status=GameStatus.ABANDONED, deadline_at=None, ping_at=None) | extra,
            )
            return Scored(Board(view_of(saved, game), game), result, name, round_no)
        change = self.clock.turn_timer(row, game) | extra
        scoring: int | None = None
        if await self.clock.opening_wanted(row, game):  # saved, then the next turn's roll
            row = await self.keeper.save(row, move, game, change)
            scoring = row.version
            move, change = self.clock.opening_roll(game), NO_CHANGE
        board = await self.drawing.save_drawing(row, move, game, None, change)
        return Scored(
            board if later else await board.drawn(),
            result,
            name,
            round_no,
            move_version=scoring if scoring is not None else board.row.version,
        )

    async def undo(self, click: BoardClick) -> Undone:
        """Take back the last scoring, from the message that offers Undo."""
        game_id, user_id, message_id, turn = (
            click.game_id,
            click.user_id,
            click.message_id,
            click.turn,
        )

        async def work() -> Undone:
            row = await self.keeper.row(game_id)
            if row.status != GameStatus.ACTIVE:
                raise Refusal("This game is over: its last scoring is final.")
            game = self.keeper.game_of(row)
            if row.daily is not None and message_id not in (None, row.board_message_id):
                raise Refusal(DAILY_COPY_REPLACED)
            if message_id != row.undo_message_id or turn != game.turn_number - 1:
                if row.undo_message_id is None and message_id == row.board_message_id:
                    raise Refusal(  # this Undo's own message is the board again
                        "That scoring is taken back already (a double click?): this is the "
                        "live board again."
                    )
                raise Refusal("Too late to undo: the next roll has happened.", link_to(row))
            undone_turn = (game.turn_number, game.current_player_id)
            with refusing():
                game.undo(player_id(user_id))
            # The next turn's board may still be on its way (its post not yet recorded): then
            # the board on record is this very message, which must stay; the late post is
            # refused by board_shown. The Undo's message becomes the board in the same save.
            remove = row.board_message_id if row.board_message_id != message_id else None
            # The turn starts its time again; it is reminded at half time once, ever.
            timer = self.clock.turn_timer(row, game)
            if await self.store.read(plans.logged, game_id, "ping", str(game.turn_number)):
                timer = timer | GameChange(ping_at=None)
            board = GameChange(
                undo_message_id=None,
                board_message_id=message_id,
                board_turn=game.turn_number,
                board_version=row.version,
            )
            saved = await self.keeper.save(
                row,
                MoveRecord(user_id, "undo", dice=str(game.dice)),
                game,
                board | timer | self.clock.moved(row),
            )
            return Undone(await self.drawing.board(saved, game), remove, undone_turn)

        return await self.keeper.locked(game_id, work)

    def stand_in(self, preset: Preset) -> tuple[OptimalPlayer | CasualPlayer, str]:
        """Who plays a turn whose time ran out under the play policy, and its level: the
        Optimal bot by the preset's solved table (by the official one, an approximation,
        while that one is being prepared); the Casual bot while no table is loaded yet, as
        a computer seat does meanwhile."""
        analyst = self.analyst
        table = None
        if analyst is not None:
            table = analyst.table_for(preset) or analyst.table
        if table is not None:
            return OptimalPlayer(table), "optimal"
        return CasualPlayer(), "casual"

    def _bot_player(self, player_id: str, preset: Preset) -> Player:
        """The computer seat's player: by the table of the game's preset (by the official
        one, an approximation, while that one is being prepared); the To-win bot by the
        preset's own table and distributions (as the Optimal bot until they are ready)."""
        analyst = self.analyst
        table = own = None
        if analyst is not None:
            own = analyst.table_for(preset)
            table = own or analyst.table
        level = bot_level(player_id)
        if level == "winning" and analyst is not None and own is not None:
            dists = analyst.to_win(preset)  # loaded on first use; until then as Optimal
            if dists is not None:
                winning = self._winning.get(preset.value)
                if winning is None or winning.dists is not dists or winning.table is not own:
                    winning = self._winning[preset.value] = WinningPlayer(own, dists)
                return winning
        if level in ("optimal", "winning") and table is not None:
            return OptimalPlayer(table)
        return CasualPlayer()  # the casual strategy until the table is ready

    async def bot_step(self, game_id: int) -> Board | Scored | None:
        """One move of the computer player whose turn it is (None if it is a person's turn)."""

        async def work() -> Board | Scored | None:
            row = await self.keeper.row(game_id)
            if row.status != GameStatus.ACTIVE:
                return None
            game = self.keeper.game_of(row)
            seat = game.current_seat
            if not is_bot(seat.player_id):
                return None
            round_no = game.round
            player = self._bot_player(seat.player_id, game.preset)
            if isinstance(player, WinningPlayer):  # its numpy off the event loop
                await asyncio.to_thread(player.prepare, game)
            move = next(iter(player.moves(game)))
            if isinstance(move, str):
                # the holds it rolled with: the log alone replays the turn
                record = MoveRecord(None, "bot-roll", held_mask(game.held), str(game.dice))
                saved = await self.keeper.save(row, record, game)
                return await self.drawing.board(saved, game)
            record = MoveRecord(None, "bot-score", scoring_detail(move), str(move.dice))
            return await self.after_scoring(row, game, record, move, seat.name, round_no, NO_CHANGE)

        return await self.keeper.locked(game_id, work)


def _old_board(row: GameRow, game: Game, message_id: int | None, turn: int) -> bool:
    """Whether a click for ``turn`` on ``message_id`` is on an old board: of an earlier turn,
    or not the board on record for this one. (A click on this turn's buttons may come before
    the bot has recorded the message it just posted as this turn's board, while
    ``board_turn`` still names the last turn: that message is the board. Once recorded, only
    the recorded message is live.)"""
    recorded = row.board_turn == game.turn_number
    return turn != game.turn_number or (recorded and message_id != row.board_message_id)
