"""Processes for the CPU-heavy pure work of the bot: drawing boards, valuing decisions.

Python threads share one GIL with the event loop. Work that holds it in the bot's threads
(Pillow's Python side, numpy on small arrays) made every syscall of the event loop wait to
get the GIL back: under load each click waited a few milliseconds per send, per random
number. In processes of their own, the drawing and the analysis use the machine's other
core, and the event loop keeps its GIL to itself.

A ``Workers`` runs module-level functions of picklable arguments. If its process dies, the
call in flight is done in a thread of this process instead (set up by the same initializer,
once) and a new process takes over.

``in_threads()`` is the seam for tests that start the bot many times and do not test the
process boundary: the Workers made inside it run every call in a thread, as ``processes=0``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

R = TypeVar("R")

_IN_THREADS = contextvars.ContextVar("workers_in_threads", default=False)


@contextlib.contextmanager
def in_threads() -> Iterator[None]:
    """Within it (and in the tasks created within it, which copy its context), every
    ``Workers`` made runs its calls in threads of this process, however many processes it
    is given: what ``processes=0`` does, with no process to spawn. For the end-to-end tests,
    which start the bot hundreds of times; the processes themselves are tested apart."""
    token = _IN_THREADS.set(True)
    try:
        yield
    finally:
        _IN_THREADS.reset(token)


def _exit_with_parent() -> None:
    """End this worker when the bot's process ends, however it ends (a SIGKILL included):
    an orphaned worker would hold memory and the bot's output pipes for ever."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - a worker always has its parent
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # readable once the parent is gone
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _begin(
    niceness: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    _exit_with_parent()
    if niceness:
        with contextlib.suppress(OSError):  # not allowed here: it runs at the bot's priority
            os.nice(niceness)
    if initializer is not None:
        initializer(*initargs)


def _ready() -> bool:
    return True


class Workers:
    """A few processes that run pure functions for the event loop."""

    def __init__(
        self,
        name: str,
        processes: int = 1,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        niceness: int = 0,
    ) -> None:
        self.name = name
        self._processes = 0 if _IN_THREADS.get() else processes
        self._initializer = initializer
        self._initargs = initargs
        self._niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self._set_up_here = False
        self._ready = False  # the processes have answered once: until then, threads

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the bot has threads (database, gateway) that a fork would copy
        # half-way through whatever they were doing.
        return ProcessPoolExecutor(
            self._processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_begin,
            initargs=(self._niceness, self._initializer, self._initargs),
        )

    async def start(self) -> None:
        """Start the processes and wait until they answer (so the first real call is quick).

        With no processes (``processes=0``) every call runs in a thread of this process.
        """
        if self._processes <= 0:
            return
        if self._pool is None:
            self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self._pool, _ready) for _ in range(self._processes))
        )
        self._ready = True

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        """``work(*args)`` in a worker process; in a thread here while the processes start,
        or if none can run it."""
        return await self.submit(work, *args)

    def submit(self, work: Callable[..., R], *args: Any) -> asyncio.Future[R]:
        """``run``, but handed to the process now rather than when the caller next waits:
        the work goes on while the caller does something else (a click's drawing while its
        move is committed, which may not wait at all)."""
        pool = self._pool
        sent: asyncio.Future[R] | None = None
        if pool is not None and self._ready:
            try:
                sent = asyncio.wrap_future(pool.submit(work, *args))
            except BrokenProcessPool:
                self._replace(pool)
        return asyncio.ensure_future(self._outcome(sent, pool, work, args))

    async def _outcome(
        self,
        sent: asyncio.Future[R] | None,
        pool: ProcessPoolExecutor | None,
        work: Callable[..., R],
        args: tuple[Any, ...],
    ) -> R:
        if sent is not None:
            try:
                return await sent
            except BrokenProcessPool:
                self._replace(pool)
        if not self._set_up_here:
            self._set_up_here = True
            if self._initializer is not None:
                self._initializer(*self._initargs)
        return await asyncio.to_thread(work, *args)

    def _replace(self, pool: ProcessPoolExecutor | None) -> None:
        from bot.metrics import HELPER_RESTARTS  # here: the workers themselves never count

        log.warning("a %s process stopped; starting another", self.name)
        HELPER_RESTARTS.labels(self.name).inc()
        if self._pool is pool:
            self._pool = self._new_pool()

    def close(self) -> None:
        """Stop the processes; work they have not started is dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._ready = False

    async def aclose(self) -> None:
        """``close``, and wait (off the event loop) until the processes have ended and the
        pool's queues are released: a process exiting right after leaves nothing behind
        (no "leaked semaphore objects" warning at shutdown)."""
        pool, self._pool, self._ready = self._pool, None, False
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and diagnostics)."""
        if self._pool is None:
            return []
        return list(self._pool._processes)  # private, but the only place the pids are kept
