"""Hints, the value of each decision, and a player's report card."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from bot.engine import (
    Category,
    Game,
)
from bot.i18n.words import N_, Name, said_of
from bot.store import Decision, GameRow, GameStatus, MoveRecord, plans
from bot.strategy.analyst import Analyst
from bot.strategy.decisions import Choice
from bot.strategy.players import daily_optimal_score
from bot.strategy.winning import WinHint, to_win_applies, win_hint

from .history import History
from .keeper import Keeper, WriteBatch
from .results import NO_GAME_HERE, Refusal, Report
from .seats import player_id

DAILY_NO_HINTS = N_("No hints in the daily challenge: everyone plays the day's dice alone.")

log = logging.getLogger(__name__)

COSTS_WRITTEN_AFTER = 0.05  # seconds: the costs valued meanwhile share one unit of work


def _kept_decisions(moves: Iterable[Decision]) -> list[tuple[float, str]]:
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


class Coaching:
    """Hints, the value of each decision, and a player's report card."""

    def __init__(self, keeper: Keeper, history: History, analyst: Analyst | None = None) -> None:
        self.keeper = keeper
        self.store = store = keeper.store
        self.history = history
        self.analyst = analyst
        self._daily_optimal: dict[str, int] = {}  # the Optimal bot's score on a day's dice
        self._costing: dict[int, set[asyncio.Task[None]]] = {}  # decisions being valued
        #: the costs worked out, written to the move log together (one unit of work for all
        #: that come within ``COSTS_WRITTEN_AFTER`` s, not one a decision)
        self._costs: WriteBatch[tuple[int, int, float, str]] = WriteBatch(
            lambda costs: store.write(plans.set_move_costs, costs), COSTS_WRITTEN_AFTER
        )

    async def game_to_hint(self, channel_id: int, user_id: int) -> int:
        """The game /yahtzee hint is about: the channel's game if the member plays in it;
        else, if they are playing their daily challenge (privately, in no channel), a
        refusal saying it has no hints; else the channel's game (its refusals follow)."""
        row = await self.store.read(plans.live_game_in, channel_id)
        if row is not None and any(uid == user_id for uid, _ in row.players):
            return row.id
        if await self.store.read(plans.live_daily_of, user_id) is not None:
            raise Refusal(DAILY_NO_HINTS)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        return row.id

    async def hint(self, game_id: int, user_id: int, count: int = 3) -> list[Choice]:
        """The best choices for the player whose turn it is, with expected final scores."""
        row = await self.keeper.row(game_id)
        if row.status != GameStatus.ACTIVE:
            raise Refusal("Hints are for a game in progress.")
        if row.daily is not None:
            raise Refusal(DAILY_NO_HINTS)
        if not row.hints:
            raise Refusal("The host switched hints off for this game.")
        game = self.keeper.game_of(row)
        if game.current_player_id != player_id(user_id):
            mine = [s for s in game.seats if s.player_id == player_id(user_id)]
            if mine and mine[0].left:
                raise Refusal("You left this game: hints are for the players still in it.")
            raise Refusal(
                "Hints are for the player whose turn it is: {name}.",
                name=Name(game.current_seat.name),
            )
        if game.dice is None:
            raise Refusal("Roll first: the hint depends on your dice.")
        analyst = self.analyst
        if analyst is None or analyst.table is None or analyst.table_for(game.preset) is None:
            raise Refusal(
                "The strategy table is still being prepared (it takes a minute on the first "
                "start): ask again shortly."
            )
        return await analyst.choices(game, count)

    async def daily_optimal(self, day: str) -> int | None:
        """What the Optimal bot scores on ``day``'s dice (None until the table is ready):
        the same for every try of that day, worked out once per process and day."""
        table = self.analyst.table if self.analyst is not None else None
        if table is None:
            return None
        if day not in self._daily_optimal:
            score = await asyncio.to_thread(daily_optimal_score, table, day, self.store.daily_key)
            self._daily_optimal = {day: score}  # only today's (and yesterday's, briefly)
        return self._daily_optimal[day]

    async def win_hint(self, game_id: int, for_points: Choice) -> WinHint | None:
        """Beside a hint's best choice for points, in a game with someone to beat: the
        choice with the best chance of finishing ahead (None while the To-win distributions load,
        which the first call starts, or with no one to beat)."""
        analyst = self.analyst
        if analyst is None or analyst.table is None:
            return None
        game = self.keeper.game_of(await self.keeper.row(game_id))
        if not to_win_applies(game):
            return None  # nobody to beat: nothing to load (the build takes minutes)
        table = analyst.table_for(game.preset)
        dists = analyst.to_win(game.preset) if table is not None else None
        if table is None or dists is None:
            return None
        return await asyncio.to_thread(win_hint, table, dists, game, for_points)

    async def to_win_off(self, game_id: int) -> bool:
        """Whether a hint in this game would give to-win advice, but cannot on this host
        (the distributions could not be had: not enough memory to build them)."""
        analyst = self.analyst
        if analyst is None or analyst.to_win_off is None:
            return False
        return to_win_applies(self.keeper.game_of(await self.keeper.row(game_id)))

    async def cost(
        self, game: Game, keep: tuple[int, ...] | None, box: Category | None
    ) -> tuple[float, str] | None:
        """A person's decision's cost for the move log (the preset's table ready): the
        points it loses against optimal play, and the decision in words."""
        if self.analyst is None:
            return None
        return await self.analyst.judge(game, keep, box)

    def cost_later(
        self, before: GameRow, version: int, keep: tuple[int, ...] | None, box: Category | None
    ) -> None:
        """Value a decision after its click is answered: judging takes milliseconds the answer
        need not wait for. The cost is added to the move-log entry at ``version``; a report
        or a game's end waits for the costs still being worked out (``costs_settled``)."""
        analyst = self.analyst
        if analyst is None:
            return
        if analyst.table_for(before.preset) is None:
            return
        game = self.keeper.game_of(before)

        async def work() -> None:
            judged = await analyst.judge(game, keep, box)
            if judged is not None:
                await self._costs.add((before.id, version, *judged))

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

    async def all_costs_settled(self) -> None:
        """``costs_settled`` for every game (the bot is closing: before its store does, or
        the decisions valued meanwhile would fail to be written, logged as errors)."""
        while self._costing:
            await asyncio.wait({task for tasks in self._costing.values() for task in tasks})

    async def game_loss(self, game_id: int, user_id: int, last: MoveRecord) -> float | None:
        """A player's total loss in a game, counting the move about to be saved."""
        moves = await self.store.read(plans.decisions, game_id, user_id)
        if last.user_id == user_id:
            moves.append(Decision(last.action, last.loss, last.decision))
        decisions = _kept_decisions(moves)
        return sum(loss for loss, _ in decisions) if decisions else None

    async def report(self, game_id: int, user_id: int) -> Report:
        """A player's report card for a game: points lost against optimal play."""
        await self.costs_settled(game_id)
        row = await self.keeper.row(game_id)
        decisions = _kept_decisions(await self.store.read(plans.decisions, game_id, user_id))
        if not decisions:
            await self.history.check_log_kept(row)
            if any(uid == user_id for uid, _ in row.players):
                seats = self.keeper.game_of(row).seats if row.state is not None else []
                if any(s.left and s.player_id == player_id(user_id) for s in seats):
                    raise Refusal(
                        "You left this game before making a decision of your own, so there is "
                        "nothing to analyse."
                    )
                raise Refusal(
                    "There is nothing to analyse: the strategy table was not ready during your "
                    "moves, or you made none."
                )
            raise Refusal("You did not play in this game.")
        worst = sorted(decisions, key=lambda d: -d[0])[:3]
        seats = self.keeper.game_of(row).seats if row.state is not None else []
        left = any(seat.left and seat.player_id == player_id(user_id) for seat in seats)
        return Report(
            loss=sum(loss for loss, _ in decisions),
            decisions=len(decisions),
            optimal=sum(1 for loss, _ in decisions if loss < 0.05),
            costliest=[said_of(text) for loss, text in worst if loss >= 0.05],
            left=left,
        )
