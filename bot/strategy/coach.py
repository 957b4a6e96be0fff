"""The solved table for a running bot: loaded or built in the background, never blocking."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from .solver import Table
from .table_file import load_or_build

log = logging.getLogger(__name__)


class Coach:
    """Holds the official table once it is ready; until then ``table`` is None."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.table: Table | None = None
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
        self.table = table
        log.info(
            "strategy table %s (expected score %.4f)",
            "built" if built else "loaded",
            table.expected_score,
        )

    async def wait(self) -> None:
        """Until the table is loaded (or failed to)."""
        if self._task is not None:
            await asyncio.shield(self._task)
