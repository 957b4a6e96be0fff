"""Worker processes: they answer, stand in for each other, and never outlive the bot."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from bot.metrics import HELPER_RESTARTS
from bot.workers import Workers

ROOT = Path(__file__).resolve().parents[1]

OWNER = """
import asyncio, sys
from bot.metrics import HELPER_RESTARTS
from bot.workers import Workers

async def main():
    workers = Workers("test", processes=2)
    await workers.start()
    print(*workers.pids, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


async def test_work_runs_in_another_process() -> None:
    """A call runs in a worker, not in the caller's process."""
    workers = Workers("test", processes=1)
    await workers.start()
    try:
        pid = await workers.run(os.getpid)
        assert pid != os.getpid() and pid in workers.pids
    finally:
        workers.close()


async def test_submitted_work_starts_before_the_caller_waits() -> None:
    """``submit`` hands the work to the process at once: it runs while the caller is still
    busy (here the event loop is held for 0.3 s before anyone awaits the outcome)."""
    workers = Workers("test", processes=1)
    await workers.start()
    try:
        outcome = workers.submit(time.time)
        time.sleep(0.3)  # noqa: ASYNC251 - the caller's own work, holding the loop on purpose
        released = time.time()
        assert await outcome < released - 0.15
    finally:
        workers.close()


async def test_without_processes_work_runs_here() -> None:
    """``processes=0``: calls run in a thread of this process."""
    workers = Workers("test", processes=0)
    await workers.start()
    assert await workers.run(os.getpid) == os.getpid()
    assert workers.pids == []


async def test_a_killed_worker_is_replaced_and_its_call_answered() -> None:
    """The call that meets a dead worker is answered here; a new worker takes the next; the
    restart is counted for the metrics."""
    workers = Workers("test", processes=1)
    await workers.start()
    restarts = HELPER_RESTARTS.labels("test")
    before = restarts._value.get()
    try:
        (first,) = workers.pids
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.2)
        assert await workers.run(os.getpid) == os.getpid()  # the pool was broken: done here
        later = await workers.run(os.getpid)
        assert later not in (first, os.getpid())
        assert restarts._value.get() == before + 1
    finally:
        workers.close()


async def test_workers_end_when_their_owner_is_killed(tmp_path: Path) -> None:
    """SIGKILL of the owning process (as a crash or an OOM kill would) ends its workers."""
    out = tmp_path / "pids"
    with out.open("wb") as sink:  # a file, not a pipe: a surviving worker would hold a pipe
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", OWNER, cwd=ROOT, stdout=sink,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
    deadline = time.monotonic() + 30
    while not out.read_text().endswith("\n") and time.monotonic() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    pids = [int(p) for p in out.read_text().split()]
    assert len(pids) == 2 and all(alive(p) for p in pids)
    proc.kill()
    await proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.05)  # no event to wait on: another process's end
    survivors = [p for p in pids if alive(p)]
    for pid in survivors:  # leave no process behind, even when failing
        os.kill(pid, signal.SIGKILL)
    assert not survivors
