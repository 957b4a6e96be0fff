"""The one thread that writes to the SQLite file, and the only place that says BEGIN, COMMIT
or ROLLBACK.

A unit of work is a plain function of a connection (the store's ``Transaction`` wraps it).
Callers on the event loop hand it over with ``Writer.run(work)`` and await its outcome; the
thread runs units one at a time, so two games' writes can never interleave. Whatever has
queued up meanwhile is committed together (group commit): each unit in a SAVEPOINT of its
own, so one unit's error undoes only that unit, then one COMMIT for the batch. No caller
hears of success before the COMMIT that holds its writes.

Why a thread of our own rather than an ``async with`` block on aiosqlite: a block holds the
writer across every ``await`` inside it, and each of those waits for a turn of the event
loop; under load transactions queued behind those turns (the load benchmark's 600 games).
A unit of work here takes one trip, whatever it writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

R = TypeVar("R")

#: At most this many units share one COMMIT (a bound on how long one batch holds the file).
MAX_BATCH = 128


@dataclass(slots=True)
class _Unit(Generic[R]):
    work: Callable[[sqlite3.Connection], R]
    future: asyncio.Future[R]
    loop: asyncio.AbstractEventLoop


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # cancelled: the caller gave up waiting; the outcome stands regardless
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class WriterClosed(RuntimeError):
    """The store has been closed: nothing more can be written."""


class Writer:
    """A thread that owns the write connection and commits units of work in batches."""

    def __init__(self, connection: sqlite3.Connection, name: str = "sqlite-writer") -> None:
        self._db = connection
        self._units: queue.SimpleQueue[_Unit[Any] | None] = queue.SimpleQueue()
        self._closed = False
        self.batches = 0  # how many COMMITs, and
        self.units = 0  # how many units they held: units / batches is the group size
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def run(self, work: Callable[[sqlite3.Connection], R]) -> asyncio.Future[R]:
        """Queue ``work``; the future holds its result once it is committed, or its error.

        If the caller is cancelled while waiting, the unit still runs and may commit.
        """
        if self._closed:
            raise WriterClosed("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._units.put(_Unit(work, future, loop))
        return future

    async def close(self) -> None:
        """Finish every unit already queued, then close the connection."""
        if self._closed:
            return
        self._closed = True
        self._units.put(None)
        await asyncio.to_thread(self._thread.join)

    # -- the thread ----------------------------------------------------------------------------

    def _serve(self) -> None:
        try:
            while True:
                first = self._units.get()
                if first is None:
                    return
                batch = [first]
                stop = False
                while len(batch) < MAX_BATCH:
                    try:
                        unit = self._units.get_nowait()
                    except queue.Empty:
                        break
                    if unit is None:
                        stop = True
                        break
                    batch.append(unit)
                try:
                    self._commit(batch)
                except BaseException as exc:  # a bug here must not leave callers waiting
                    log.exception("the writer failed on a batch of %d", len(batch))
                    for unit in batch:
                        with contextlib.suppress(RuntimeError):
                            unit.loop.call_soon_threadsafe(_settle, unit.future, False, exc)
                    if not isinstance(exc, Exception):
                        raise
                if stop:
                    return
        finally:
            self._db.close()

    def _commit(self, batch: list[_Unit[Any]]) -> None:
        """Run a batch in one transaction; every unit's future is settled after it.

        One unit's failure costs no other unit its write: a unit that raises is undone to its
        savepoint; if SQLite drops the whole transaction meanwhile (disk full, I/O error), or
        the COMMIT fails, the units that had succeeded run again, each alone.
        """
        outcomes: list[tuple[_Unit[Any], bool, Any]] = []
        waiting = list(batch)
        alone = False
        while waiting:
            group, waiting = (waiting[:1], waiting[1:]) if alone else (waiting, [])
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:  # e.g. another process holds the file past the timeout
                outcomes += [(unit, False, exc) for unit in group + waiting]
                break
            done: list[tuple[_Unit[Any], Any]] = []
            dropped = False
            for index, unit in enumerate(group):
                try:
                    self._db.execute("SAVEPOINT unit")
                    result = unit.work(self._db)
                    self._db.execute("RELEASE unit")
                except Exception as exc:
                    outcomes.append((unit, False, exc))
                    if not self._undo_unit():  # the transaction is gone, with its writes
                        waiting = [u for u, _ in done] + group[index + 1 :] + waiting
                        alone, dropped = True, True
                        break
                else:
                    done.append((unit, result))
            if dropped:
                continue
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                if len(done) > 1:  # find out whose write it was: again, one at a time
                    waiting = [u for u, _ in done] + waiting
                    alone = True
                else:
                    outcomes += [(unit, False, exc) for unit, _ in done]
                continue
            self.batches += 1
            self.units += len(done)
            outcomes += [(unit, True, result) for unit, result in done]
        for unit, ok, value in outcomes:
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting
                unit.loop.call_soon_threadsafe(_settle, unit.future, ok, value)

    def _undo_unit(self) -> bool:
        """Undo the failed unit's writes; False if the transaction itself is gone."""
        if not self._db.in_transaction:
            return False
        try:
            self._db.execute("ROLLBACK TO unit")
            self._db.execute("RELEASE unit")
        except sqlite3.Error:
            log.exception("could not undo a failed write; dropping its whole batch")
            self._rollback()
            return False
        return True

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("ROLLBACK failed")
