"""The writer of the SQLite file: one connection, the only place that says BEGIN, COMMIT or
ROLLBACK.

A unit of work is a plain function of a connection (the store wraps a write plan in one).
Callers on the event loop hand it over with ``Writer.run(work)`` and await its outcome; units
run one at a time, so two games' writes can never interleave. No caller hears of success
before the COMMIT that holds its writes.

Where a unit runs:
- **Inline**, on the event loop, when the writer is idle and the file free: a click's unit
  (an UPDATE and an INSERT, then a WAL COMMIT without fsync) takes tens of microseconds,
  less than one trip to a thread and back. A trip costs far more under load: the thread
  must win the GIL from a busy event loop for every statement, and its result waits in the
  loop's ready queue (measured: 200-290 ms a unit at 1,000 games, the thread 15% busy).
- **On the writer thread** otherwise: while it is committing, or when another process holds
  the file (an inline unit never waits for SQLite's lock: it is handed to the thread,
  which does). Whatever has queued up meanwhile is committed together (group commit): each
  unit in a SAVEPOINT of its own, so one unit's error undoes only that unit, then one COMMIT
  for the batch.

The connection never checkpoints by itself (an automatic checkpoint writes and syncs the
database file inside whichever COMMIT crosses the threshold, which could be an inline one):
every ``CHECKPOINT_EVERY`` commits the thread runs a passive checkpoint.

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
#: The thread checkpoints the WAL after this many commits (SQLite's own default is 1,000
#: pages, about 250 of a click's commits).
CHECKPOINT_EVERY = 256


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


_CHECKPOINT = object()  # queued by an inline commit: the thread checkpoints


class WriterClosed(RuntimeError):
    """The store has been closed: nothing more can be written."""


class Writer:
    """A thread that owns the write connection and commits units of work in batches."""

    def __init__(
        self, connection: sqlite3.Connection, name: str = "sqlite-writer", patience: int = 2000
    ) -> None:
        self._db = connection
        connection.execute("PRAGMA wal_autocheckpoint = 0")  # the thread checkpoints
        self._units: queue.SimpleQueue[_Unit[Any] | object | None] = queue.SimpleQueue()
        self._busy = threading.Lock()  # held while a unit or a checkpoint uses the connection
        self._closed = False
        self._patience = patience  # ms the thread waits for another process's lock
        self._waiting = -1  # the connection's busy_timeout now (-1: as it was opened)
        self._since_checkpoint = 0
        self._checkpoint_asked = False
        #: False: every unit goes to the thread (for tests of its batches).
        self.inline = True
        self.batches = 0  # how many COMMITs, and
        self.units = 0  # how many units they held: units / batches is the group size
        self.inlined = 0  # how many units ran inline
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
        unit = _Unit(work, future, loop)
        if self.inline and self._units.empty() and self._busy.acquire(blocking=False):
            try:
                outcomes = self._commit([unit], wait=False)
            finally:
                self._busy.release()
            if outcomes is not None:
                self.inlined += 1
                for done, ok, value in outcomes:
                    _settle(done.future, ok, value)
                if self._since_checkpoint >= CHECKPOINT_EVERY and not self._checkpoint_asked:
                    self._checkpoint_asked = True
                    self._units.put(_CHECKPOINT)
                return future
        self._units.put(unit)
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
                batch: list[_Unit[Any]] = []
                stop = False
                item: _Unit[Any] | object | None = first
                while True:
                    if item is None:
                        stop = True
                        break
                    if isinstance(item, _Unit):
                        batch.append(item)
                    if len(batch) >= MAX_BATCH:
                        break
                    try:
                        item = self._units.get_nowait()
                    except queue.Empty:
                        break
                with self._busy:
                    if batch:
                        self._serve_batch(batch)
                    if self._since_checkpoint >= CHECKPOINT_EVERY or stop:
                        self._checkpoint()
                if stop:
                    return
        finally:
            self._db.close()

    def _serve_batch(self, batch: list[_Unit[Any]]) -> None:
        try:
            outcomes = self._commit(batch)
        except BaseException as exc:  # a bug here must not leave callers waiting
            log.exception("the writer failed on a batch of %d", len(batch))
            outcomes = [(unit, False, exc) for unit in batch]
            if not isinstance(exc, Exception):
                self._tell(outcomes)
                raise
        self._tell(outcomes)

    @staticmethod
    def _tell(outcomes: list[tuple[_Unit[Any], bool, Any]] | None) -> None:
        for unit, ok, value in outcomes or []:
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting
                unit.loop.call_soon_threadsafe(_settle, unit.future, ok, value)

    def _checkpoint(self) -> None:
        """Copy the WAL's committed pages into the database file, as far as readers allow."""
        self._since_checkpoint = 0
        self._checkpoint_asked = False
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.warning("a WAL checkpoint failed; the next one will try again", exc_info=True)

    def _wait_for_lock(self, ms: int) -> None:
        if self._waiting != ms:
            self._db.execute(f"PRAGMA busy_timeout = {int(ms)}")
            self._waiting = ms

    def _commit(
        self, batch: list[_Unit[Any]], wait: bool = True
    ) -> list[tuple[_Unit[Any], bool, Any]] | None:
        """Run a batch in one transaction; each unit's outcome (ok, result or error) after it.

        One unit's failure costs no other unit its write: a unit that raises is undone to its
        savepoint; if SQLite drops the whole transaction meanwhile (disk full, I/O error), or
        the COMMIT fails, the units that had succeeded run again, each alone. ``wait=False``
        (inline): None at once, nothing done, if another connection holds the file.
        """
        outcomes: list[tuple[_Unit[Any], bool, Any]] = []
        waiting = list(batch)
        alone = False
        self._wait_for_lock(self._patience if wait else 0)
        while waiting:
            group, waiting = (waiting[:1], waiting[1:]) if alone else (waiting, [])
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:  # e.g. another process holds the file past the timeout
                if not wait and not outcomes:
                    return None
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
            self._since_checkpoint += 1
            outcomes += [(unit, True, result) for unit, result in done]
        return outcomes

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
