"""Where a level's chunks are solved: threads of this process, or worker processes forked
from it (``may_fork`` says which a process may use)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import select
import struct
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NoReturn

from .distribution_packing import FileRows, LevelRows

Chunk = tuple["FileRows", "LevelRows"]


class Threads:
    """Chunks solved by threads of this process (numpy lets go of the GIL in part of the
    work): where this process may not fork."""

    def __init__(self, workers: int, solve: Callable[[int, int], Chunk]) -> None:
        self.pool = ThreadPoolExecutor(workers)
        self.solve = solve
        self.futures: dict[int, Future[Chunk]] = {}

    def submit(self, index: int, lo: int, hi: int) -> None:
        self.futures[index] = self.pool.submit(self.solve, lo, hi)

    def result(self, index: int, idle: Callable[[], bool]) -> Chunk:
        del idle
        return self.futures.pop(index).result()

    def close(self) -> None:
        self.pool.shutdown()


class Forked:
    """Chunks solved by worker processes forked from this one (``os.fork``: the bot builds
    in a daemonic process, which ``multiprocessing`` does not let have children). The
    workers share one pipe of chunks to do (fixed-size messages, each read whole by one
    of them) and write each result, pickled with its chunk's number, to a pipe of their
    own. A worker ends when the chunks' pipe closes: when this process is done with it,
    or is gone."""

    _TASK = struct.Struct("<qqq")  # chunk number, first state, end

    def __init__(self, workers: int, solve: Callable[[int, int], Chunk]) -> None:
        tasks_in, self.tasks = os.pipe()
        self.pids: list[int] = []
        self.pipes: list[int] = []  # read ends: the workers' results
        try:
            self._start(workers, tasks_in, solve)
        except BaseException:
            self.close()  # the workers started go
            raise
        finally:
            os.close(tasks_in)
        self.done: dict[int, Chunk] = {}

    def _start(self, workers: int, tasks_in: int, solve: Callable[[int, int], Chunk]) -> None:
        for _ in range(workers):
            read, write = os.pipe()
            with contextlib.suppress(OSError, AttributeError):  # fewer waits to hand over
                fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 1 << 20)  # Linux's own
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                raise
            if pid == 0:  # the worker: nothing of this process's but its own pipes
                os.close(self.tasks)
                os.close(read)
                for fd in self.pipes:
                    os.close(fd)
                _work(tasks_in, write, solve)  # never returns
            os.close(write)
            self.pids.append(pid)
            self.pipes.append(read)

    def submit(self, index: int, lo: int, hi: int) -> None:
        os.write(self.tasks, self._TASK.pack(index, lo, hi))

    def result(self, index: int, idle: Callable[[], bool]) -> Chunk:
        """Chunk ``index``'s result; while it is not ready, ``idle`` (something of this
        process's to do, False once there is nothing left) and every other result read as it
        comes, so that no worker waits to hand one over."""
        while index not in self.done:
            ready = self._ready(0.0)
            if not ready and not idle():
                ready = self._ready(None)
            for fd in ready:
                number, ok, payload = pickle.loads(_read_message(fd))
                if not ok:
                    raise RuntimeError(f"a To-win build worker failed:\n{payload}")
                self.done[number] = payload
        return self.done.pop(index)

    def _ready(self, timeout: float | None) -> list[int]:
        ready, _, _ = select.select(self.pipes, [], [], timeout)
        return ready

    def close(self) -> None:
        os.close(self.tasks)  # the workers read its end and go
        for fd in self.pipes:
            os.close(fd)
        for pid in self.pids:
            os.waitpid(pid, 0)


def _work(tasks: int, results: int, solve: Callable[[int, int], Chunk]) -> NoReturn:
    """A forked worker's life: solve the chunks read from ``tasks`` until it closes, each
    result (or the traceback of its failure) pickled to ``results`` after its length."""
    code = 0
    try:
        size = Forked._TASK.size
        while message := os.read(tasks, size):
            index, lo, hi = Forked._TASK.unpack(message)
            try:
                reply: tuple[int, bool, object] = (index, True, solve(lo, hi))
            except Exception:  # handed over: the build fails with it
                reply = (index, False, traceback.format_exc())
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
            view = memoryview(len(data).to_bytes(8, "little") + data)
            while view:
                view = view[os.write(results, view) :]
    except BaseException:  # the build is gone (a broken pipe) or stopping: just end
        code = 1
    finally:
        os._exit(code)


def _read_message(fd: int) -> bytes:
    """One length-prefixed message from a worker's pipe, read to its last byte (and no
    further: the next stays in the pipe, for ``wait`` to see)."""
    size = int.from_bytes(_read_exactly(fd, 8), "little")
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    parts = []
    while size:
        part = os.read(fd, min(size, 1 << 20))
        if not part:
            raise RuntimeError("a To-win build worker process ended early")
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def may_fork() -> bool:
    """Whether this process may fork workers: on a system that forks (Linux), and only while
    it runs no other thread (a fork copies threads' locks, held or not, but not the
    threads): the bot builds in a process of its own, which does not."""
    return hasattr(os, "fork") and threading.active_count() == 1
