"""The solved table for a running bot: loaded or built in the background, never blocking, and
a process of its own that values decisions and answers hints.

Valuing a decision takes milliseconds of numpy work on small arrays, mostly Python. Done in
the bot's threads it held the GIL against the event loop: under load every click waited for
it (benchmarks/load.py, 600 games: click p50 370 ms with it in threads, 60 ms with it in its
own process). In that process (``bot.workers``) it runs on the machine's other core at a
lower priority than the bot, so analysis that nobody is waiting for never delays a click.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.engine import Category, Game, Preset
from bot.i18n.words import said_text
from bot.workers import Workers

from .builds import (
    WORKER_NICENESS,
    ToWinUnavailable,
    build_distributions_apart,
    in_process,
    prepare_table,
    saved_distributions,
)
from .decisions import Choice, best_box, evaluate, judge, state_of, stop_now
from .distribution import Distributions
from .states import BOXES, Table
from .table_file import (
    distributions_path,
    load,
    load_distributions,
    table_path,
)

log = logging.getLogger(__name__)

R = TypeVar("R")

#: In the analysing process: the tables it holds by rules, and the folder it reads others from.
_process_tables: dict[str, Table] = {}
_process_folder: list[Path] = []


def _keep_table(table: Table, folder: Path | None = None) -> None:
    """The analysing process's first step (also done here if that process fails): the
    official table, and where the other presets' tables are saved."""
    _process_tables[table.rules] = table
    if folder is not None:
        _process_folder[:] = [folder]


def _with_process_table(work: Callable[..., R], rules: str, *args: Any) -> R:
    """``work(table, *args)`` with the analysing process's table for ``rules``, read from its
    file the first time (the bot sends work for a preset only once its table is saved)."""
    table = _process_tables.get(rules)
    if table is None:
        assert _process_folder, "the analysing process starts with the data folder"
        table = _process_tables[rules] = load(table_path(_process_folder[0], rules), rules)
    return work(table, *args)


def _judge(
    table: Table, state: dict[str, Any], keep: tuple[int, ...] | None, box: str | None
) -> tuple[float, str] | None:
    category = Category(box) if box is not None else None
    judged = judge(table, Game.from_dict(state), keep, category)
    return None if judged is None else (judged[0], said_text(judged[1]))


def _choices(table: Table, state: dict[str, Any], count: int) -> list[Choice]:
    game = Game.from_dict(state)
    assert game.dice is not None
    return evaluate(table, game.current_seat.card, game.dice, game.rolls_left)[:count]


BEST_BOX_CACHE = 2048  # the menu marks kept (a hold reuses its roll's)


@dataclass(frozen=True, slots=True)
class BoxHint:
    """The box the menu marks, and whether scoring now beats every keep."""

    box: Category
    stop_now: bool


class Analyst:
    """Holds each preset's table once it is ready: the official one loaded (or built) at
    the start, the others on first need (``table_for``); until then ``table`` is None.

    ``judge`` and ``choices`` run in the analysing process once the table is ready (in a
    thread if that process could not start, or when a test hands the Analyst its table).
    """

    def __init__(
        self, data_dir: Path, to_win_turns: int = BOXES, build_to_win: bool = True
    ) -> None:
        self.data_dir = data_dir
        #: The turns a missing distributions file is built for (all 13; fewer is quicker
        #: and smaller, and the To-win bot plays the earlier turns as the Optimal bot).
        self.to_win_turns = to_win_turns
        #: Whether a missing distributions file may be built here (TO_WIN_BUILD=auto) when
        #: the memory allows, or only loaded (TO_WIN_BUILD=never).
        self.build_to_win = build_to_win
        #: The tables ready, by rules (a preset's name).
        self.tables: dict[str, Table] = {}
        self._workers: Workers | None = None
        self._task: asyncio.Task[None] | None = None
        self._other_tasks: dict[str, asyncio.Task[None]] = {}
        #: The menu's marks by (card state, dice, rolls left): a hold asks again with the same
        #: dice and is answered from here. At most ``BEST_BOX_CACHE`` entries (~200 KB).
        self._best: OrderedDict[tuple[object, ...], BoxHint | None] = OrderedDict()
        #: The To-win distributions ready, by rules, and the tasks loading them (one build
        #: at a time: ``_to_win_lock``).
        self._to_win: dict[str, Distributions] = {}
        self._to_win_tasks: dict[str, asyncio.Task[None]] = {}
        self._to_win_lock = asyncio.Lock()
        #: Why the To-win distributions cannot be had here (None: they can, or may yet).
        self.to_win_off: str | None = None

    @property
    def table(self) -> Table | None:
        """The official table (None until it is ready)."""
        return self.tables.get(Preset.OFFICIAL.value)

    @table.setter
    def table(self, table: Table) -> None:
        """Hand the Analyst a table as if loaded (tests): it serves its own rules."""
        self.tables[table.rules] = table

    def table_for(self, preset: Preset | str) -> Table | None:
        """The table of a game's preset; None until it is ready. Once the Analyst has
        started, the first call for a preset loads its table (or, the first time ever,
        builds it: about a minute, in a process of its own) in the background."""
        rules = Preset.parse(preset).value
        table = self.tables.get(rules)
        if table is None and self._task is not None and rules not in self._other_tasks:
            self._other_tasks[rules] = asyncio.create_task(
                self._load_other(rules), name=f"strategy-table-{rules}"
            )
        return table

    async def _load_other(self, rules: str) -> None:
        await self.wait()  # the official table first: one build at a time
        try:
            table, built = await prepare_table(self.data_dir, rules)
        except Exception:
            log.exception("could not load or build the %s strategy table", rules)
            return
        self.tables[rules] = table
        log.info(
            "%s strategy table %s (expected score %.4f)",
            rules, "built" if built else "loaded", table.expected_score,
        )  # fmt: skip

    async def wait_for(self, preset: Preset | str) -> Table | None:
        """Until the table of ``preset`` is ready (or failed); starts loading it if need be."""
        await self.wait()
        rules = Preset.parse(preset).value
        self.table_for(rules)
        task = self._other_tasks.get(rules)
        if task is not None:
            await asyncio.shield(task)
        return self.tables.get(rules)

    @property
    def ready(self) -> bool:
        """Whether hints and the optimal bot can use the table."""
        return self.table is not None

    def start(self) -> None:
        """Load (or, the first time, build) the table in a worker thread."""
        if self._task is None:
            self._task = asyncio.create_task(self._load(), name="strategy-table")

    async def _load(self) -> None:
        try:
            table, built = await prepare_table(self.data_dir, Preset.OFFICIAL.value)
        except Exception:
            log.exception("could not load or build the strategy table; hints stay off")
            return
        workers = Workers(
            "analysis", 1, _keep_table, (table, self.data_dir), niceness=WORKER_NICENESS
        )
        try:
            await workers.start()
        except Exception:
            log.exception("no analysing process; decisions are valued in a thread")
            workers.close()
        else:
            self._workers = workers
        self.tables[table.rules] = table
        log.info(
            "strategy table %s (expected score %.4f)",
            "built" if built else "loaded",
            table.expected_score,
        )
        for preset in Preset:  # the other presets' saved tables now; missing ones on need
            if table_path(self.data_dir, preset.value).exists():
                self.table_for(preset)

    @property
    def to_win_requested(self) -> bool:
        """Whether anything has asked for the To-win distributions since the start."""
        return bool(self._to_win_tasks)

    def to_win(self, preset: Preset | str = Preset.OFFICIAL) -> Distributions | None:
        """The distributions the To-win bot and the to-win hints decide by under ``preset``;
        None until they are ready. The first call for a preset loads them (or, the first time
        ever, builds them: a minute or two, in a process of its own at a low priority) in the
        background, so a bot that never plays to win never pays for them."""
        rules = Preset.parse(preset).value
        found = self._to_win.get(rules)
        if found is None and rules not in self._to_win_tasks:
            self._to_win_tasks[rules] = asyncio.create_task(
                self._load_to_win(rules), name=f"to-win-{rules}"
            )
        return found

    async def _load_to_win(self, rules: str) -> None:
        table = await self.wait_for(rules)
        if table is None:
            return
        try:
            async with self._to_win_lock:  # one build at a time: each is its own peak
                dists, built = await self._prepare_distributions(table)
        except ToWinUnavailable as exc:
            self.to_win_off = str(exc)
            log.warning("no To-win distributions: %s; the To-win bot plays as Optimal", exc)
            return
        except Exception:
            log.exception("could not load or build the To-win distributions; it plays as Optimal")
            return
        self._to_win[rules] = dists
        log.info(
            "%s To-win distributions %s (the last %d turns)",
            rules, "built" if built else "loaded", dists.open_boxes,
        )  # fmt: skip

    async def _prepare_distributions(self, table: Table) -> tuple[Distributions, bool]:
        """The saved distributions for ``table``; when there are none yet, built first in a
        process of its own (minutes of numpy that must not hold the bot's GIL), which saves
        them, if this host may build them (``saved_distributions``)."""
        folder, rules = self.data_dir, table.rules
        found = await asyncio.to_thread(saved_distributions, folder, table, None, self.build_to_win)
        if found is not None:
            return found, False
        await in_process(
            build_distributions_apart, folder, rules, self.to_win_turns, name="to-win-build"
        )
        path = distributions_path(folder, rules)
        return await asyncio.to_thread(load_distributions, path, rules), True

    async def wait_for_to_win(self, preset: Preset | str = Preset.OFFICIAL) -> None:
        """Until the To-win distributions of ``preset`` are ready (or failed); starts
        loading them if need be."""
        self.to_win(preset)
        task = self._to_win_tasks.get(Preset.parse(preset).value)
        if task is not None:
            await asyncio.shield(task)

    async def wait(self) -> None:
        """Until the table is loaded (or failed to)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    def close(self) -> None:
        """Stop the analysing process (work it has not started is dropped)."""
        tasks = (self._task, *self._to_win_tasks.values(), *self._other_tasks.values())
        for task in tasks:
            if task is not None:
                task.cancel()
        if self._workers is not None:
            self._workers.close()
            self._workers = None

    async def aclose(self) -> None:
        """``close``, waiting until the analysing process has ended."""
        workers, self._workers = self._workers, None
        self.close()
        if workers is not None:
            await workers.aclose()

    @property
    def worker_pids(self) -> list[int]:
        """The analysing process's id (none before the table is ready)."""
        return self._workers.pids if self._workers is not None else []

    async def judge(
        self, game: Game, keep: tuple[int, ...] | None, box: Category | None
    ) -> tuple[float, str] | None:
        """``decisions.judge`` for the current player's decision, off the event loop: the
        decision in words kept as text for the move log (``bot.i18n.words.said_text``)."""
        table = self.table_for(game.preset)
        if table is None:
            return None
        box_key = box.value if box is not None else None
        return await self._run(table, _judge, game.to_dict(), keep, box_key)

    async def choices(self, game: Game, count: int) -> list[Choice]:
        """The best ``count`` choices for the current player's dice, by the table of the
        game's preset (none while it is not ready)."""
        table = self.table_for(game.preset)
        if table is None:
            return []
        return await self._run(table, _choices, game.to_dict(), count)

    def best_box(self, game: Game) -> BoxHint | None:
        """The box the menu marks when hints are on: the box optimal play would score the
        current dice in, and whether scoring now is the best move at all (else the hint's
        choice 1 is a keep, and the box is only the best *if you stop now*). The hint's own
        ranking (``best_box`` and ``stop_now`` agree with ``evaluate``, tested), so the menu never
        contradicts it."""
        dice = game.dice
        table = self.table_for(game.preset)
        if table is None or dice is None:
            return None
        card = game.current_seat.card
        key = (table.rules, state_of(card), tuple(sorted(dice)), game.rolls_left)
        if key in self._best:
            self._best.move_to_end(key)
            return self._best[key]
        box = best_box(table, card, dice)
        hint = None
        if box is not None:
            hint = BoxHint(box, stop_now(table, card, dice, game.rolls_left, box))
        self._best[key] = hint
        if len(self._best) > BEST_BOX_CACHE:
            self._best.popitem(last=False)
        return hint

    async def _run(self, table: Table, work: Callable[..., R], *args: Any) -> R:
        """``work(table, *args)``: in the analysing process (which has or reads the table
        of the same rules), or in a thread."""
        if self._workers is not None:
            return await self._workers.run(_with_process_table, work, table.rules, *args)
        return await asyncio.to_thread(work, table, *args)
