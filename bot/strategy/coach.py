"""The solved table for a running bot: loaded or built in the background, never blocking, and
a process of its own that values decisions and answers hints.

Valuing a decision takes milliseconds of numpy work on small arrays, mostly Python. Done in
the bot's threads it held the GIL against the event loop: under load every click waited for
it (benchmarks/load.py, 600 games: click p50 370 ms with it, 9 ms without). In a process of
its own it uses the machine's other core, at a lower priority than the bot, so the analysis
that nobody is waiting for never delays a click.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from bot.engine import Category, Game

from .decisions import Choice, evaluate, judge
from .solver import Table
from .table_file import load_or_build

log = logging.getLogger(__name__)

R = TypeVar("R")

#: How much lower than the bot's the analysing process's priority is (``nice``).
WORKER_NICENESS = 10

_worker_table: Table | None = None  # the table, in the analysing process


def _start_worker(table: Table) -> None:
    """The analysing process's first step: keep the table and give way to the bot."""
    global _worker_table
    _worker_table = table
    with contextlib.suppress(OSError):  # not allowed here: it runs at the bot's priority
        os.nice(WORKER_NICENESS)


def _judge(
    table: Table, state: dict[str, Any], keep: tuple[int, ...] | None, box: str | None
) -> tuple[float, str] | None:
    category = Category(box) if box is not None else None
    return judge(table, Game.from_dict(state), keep, category)


def _choices(table: Table, state: dict[str, Any], count: int) -> list[Choice]:
    game = Game.from_dict(state)
    assert game.dice is not None
    return evaluate(table, game.current_seat.card, game.dice, game.rolls_left)[:count]


def _in_worker(work: Callable[..., R], *args: Any) -> R:
    """Run ``work`` with the analysing process's table."""
    assert _worker_table is not None, "the analysing process starts with the table"
    return work(_worker_table, *args)


class Coach:
    """Holds the official table once it is ready; until then ``table`` is None.

    ``judge`` and ``choices`` run in the analysing process once the table is ready (or in a
    thread of this process if that process cannot be started).
    """

    def __init__(self, data_dir: Path, processes: bool = True) -> None:
        self.data_dir = data_dir
        self.table: Table | None = None
        self._processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None

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
            table, built = await asyncio.to_thread(load_or_build, self.data_dir)
        except Exception:
            log.exception("could not load or build the strategy table; hints stay off")
            return
        if self._processes:
            self._pool = self._new_pool(table)
        self.table = table
        log.info(
            "strategy table %s (expected score %.4f)",
            "built" if built else "loaded",
            table.expected_score,
        )

    @staticmethod
    def _new_pool(table: Table) -> ProcessPoolExecutor:
        # spawn, not fork: this process has threads (database, gateway) that fork would copy
        # half-way through whatever they were doing.
        return ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(table,),
        )

    async def wait(self) -> None:
        """Until the table is loaded (or failed to)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    def close(self) -> None:
        """Stop the analysing process (work it has not started is dropped)."""
        if self._task is not None:
            self._task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def judge(
        self, game: Game, keep: tuple[int, ...] | None, box: Category | None
    ) -> tuple[float, str] | None:
        """``decisions.judge`` for the current player's decision, off the event loop."""
        if self.table is None:
            return None
        return await self._run(
            _judge, game.to_dict(), keep, box.value if box is not None else None
        )

    async def choices(self, game: Game, count: int) -> list[Choice]:
        """The best ``count`` choices for the current player's dice (``Unsupported`` for a
        preset without exact values)."""
        if self.table is None:
            return []
        return await self._run(_choices, game.to_dict(), count)

    async def _run(self, work: Callable[..., R], *args: Any) -> R:
        table = self.table
        assert table is not None
        pool = self._pool
        if pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(pool, _in_worker, work, *args)
            except BrokenProcessPool:
                log.warning("the analysing process stopped; starting another")
                if self._pool is pool:
                    self._pool = self._new_pool(table)
        return await asyncio.to_thread(work, table, *args)
