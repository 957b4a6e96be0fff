"""Building a solved table or the To-win distributions: in a process of its own group (a stop
ends it at once), at a low priority, and only where the memory a build needs is available
(the machine's, or its cgroup's)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .distribution import Distributions
from .states import Table
from .table_file import (
    TableFileError,
    build_distributions,
    distributions_path,
    load,
    load_distributions,
    load_or_build,
    shape_of,
    table_path,
)

log = logging.getLogger(__name__)

#: How much lower than the bot's the analysing process's priority is (``nice``).
WORKER_NICENESS = 10


#: What building a preset's To-win distributions for all 13 turns takes at its peak, with
#: some room, by the size of its rules' table (``to_win_build_memory``): measured 2026-11-26,
#: evening (the building process and the worker it forks together, the sum of their
#: proportional sets, two builds each): official 186 to 189 MiB and relaxed-joker 186 to 188
#: MiB (2 Yahtzee flags), bonus-turn 242 to 245 MiB (5 flags): 215 and 270 MiB with room,
#: a base and a part a flag. A host with less memory available does not start it: a 512 MB
#: host at rest (about 115 MiB in use) has room for any of them.
TO_WIN_BUILD_BASE = 178.3 * 2**20
TO_WIN_BUILD_PER_FLAG = 18.35 * 2**20


def to_win_build_memory(rules: str) -> int:
    """What building the To-win distributions of ``rules`` takes (bytes), from its table's
    shape: every preset has a figure, a new one too."""
    flags = shape_of(rules)[2]
    return int(TO_WIN_BUILD_BASE + TO_WIN_BUILD_PER_FLAG * flags)


class ToWinUnavailable(RuntimeError):
    """The To-win distributions are not on disk and will not be built here (the message
    says why and how to have them)."""


class NotEnoughMemory(ToWinUnavailable):
    """Building the To-win distributions here would not fit in the memory available."""


class BuildForbidden(ToWinUnavailable):
    """The operator does not let the bot build the To-win distributions (TO_WIN_BUILD=never)."""


#: Where Linux shows the processes (``/proc``) and the control groups (``/sys/fs/cgroup``);
#: a test points the readers at a folder of its own.
PROC = Path("/proc")
CGROUP = Path("/sys/fs/cgroup")
#: A cgroup limit at or above this (1 EiB) is no limit: cgroup v1 says "unlimited" with the
#: largest page-aligned 64-bit number, 9223372036854771712.
_NO_LIMIT = 2**60


def available_memory(proc: Path | None = None, cgroup: Path | None = None) -> int | None:
    """Bytes a new process may take here: the least of what the kernel says it can give
    without swapping (``MemAvailable``, which inside a container is the host's figure) and
    what the process's control group may still grow by (a container's or a systemd unit's
    memory limit, v2 or v1, every group above it included). None where neither is known.
    ``proc`` and ``cgroup`` default to ``PROC`` and ``CGROUP``."""
    proc = PROC if proc is None else proc
    cgroup = CGROUP if cgroup is None else cgroup
    known = [
        free for free in (_mem_available(proc), _cgroup_headroom(proc, cgroup)) if free is not None
    ]
    return min(known) if known else None


def _mem_available(proc: Path) -> int | None:
    try:
        with open(proc / "meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_headroom(proc: Path, cgroup: Path) -> int | None:
    """What this process's memory cgroup (v2 ``memory.max`` less ``memory.current``, or v1
    ``memory.limit_in_bytes`` less ``memory.usage_in_bytes``) and each cgroup above it may
    still take, the least of them; None without a limit. The page cache the kernel would
    drop first (``inactive_file``) counts as free, as the kernel and ``kubectl top`` count it."""
    try:
        lines = (proc / "self" / "cgroup").read_text(encoding="ascii").splitlines()
    except (OSError, ValueError):
        return None
    found: list[int] = []
    for line in lines:  # "0::/path" (v2), "4:memory:/path" (v1)
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and controllers == "":
            room = _headroom(cgroup, path, "memory.max", "memory.current", "inactive_file")
        elif "memory" in controllers.split(","):
            room = _headroom(
                cgroup / "memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes",
                "total_inactive_file",
            )  # fmt: skip
        else:
            continue
        if room is not None:
            found.append(room)
    return min(found) if found else None


def _headroom(mount: Path, path: str, limit_file: str, usage_file: str, cache: str) -> int | None:
    """The least room left under ``mount``/``path`` and the groups above it, up to ``mount``.
    Inside a container the group's path is often the host's while ``mount`` is already the
    container's own group: then ``mount`` alone is read."""
    here = mount / path.strip("/")
    if not here.is_dir():
        here = mount
    rooms: list[int] = []
    while True:
        room = _room(here, limit_file, usage_file, cache)
        if room is not None:
            rooms.append(room)
        if here == mount or mount not in here.parents:
            break
        here = here.parent
    return min(rooms) if rooms else None


def _room(folder: Path, limit_file: str, usage_file: str, cache: str) -> int | None:
    try:
        raw = (folder / limit_file).read_text(encoding="ascii").strip()
        if raw == "max":
            return None
        limit = int(raw)
        if limit >= _NO_LIMIT:
            return None
        used = int((folder / usage_file).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None
    reclaimable = 0
    with contextlib.suppress(OSError, ValueError):
        for line in (folder / "memory.stat").read_text(encoding="ascii").splitlines():
            name, _, value = line.partition(" ")
            if name == cache:
                reclaimable = int(value)
                break
    return max(0, limit - max(0, used - reclaimable))


def saved_distributions(
    folder: Path, table: Table, needs: int | None = None, may_build: bool = True
) -> Distributions | None:
    """The saved distributions for ``table``, or None when they must be built first: only if
    ``may_build`` (``BuildForbidden`` otherwise) and ``needs`` bytes are available
    (``NotEnoughMemory`` otherwise)."""
    path = distributions_path(folder, table.rules)
    try:
        return load_distributions(path, table.rules)
    except TableFileError as exc:
        if not may_build:
            raise BuildForbidden(
                f"TO_WIN_BUILD=never and there is no {path.name} in {folder}; build it ahead "
                f"with `python -m bot.strategy --to-win --data {folder}` (on a bigger machine, "
                "then copy the file)"
            ) from None
        check_memory(folder, table.rules, needs)
        log.info("building the To-win distributions (%s)", exc)
    return None


async def in_process(target: Callable[..., None], *args: Any, name: str) -> None:
    """``target(*args)`` in a spawned process of its own group, awaited without a thread: a
    cancelled wait (the bot stopping) kills the process and everything it started at once,
    so a stop never waits on a build, and a build killed midway saves nothing (files are
    written whole or not at all). ``RuntimeError`` if it did not end well."""
    process = multiprocessing.get_context("spawn").Process(
        target=_own_group, args=(target, *args), name=name, daemon=True
    )
    process.start()
    loop = asyncio.get_running_loop()
    ended = loop.create_future()

    def _ended() -> None:
        if not ended.done():
            ended.set_result(None)

    loop.add_reader(process.sentinel, _ended)
    try:
        await ended
    finally:
        loop.remove_reader(process.sentinel)
        if process.exitcode is None and process.pid is not None:  # cancelled: end it all now
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
        process.join()
    code = process.exitcode
    process.close()
    if code != 0:
        raise RuntimeError(f"{name} ended with exit code {code}")


def _own_group(target: Callable[..., None], *args: Any) -> None:
    """In a spawned process: lead a process group of its own (the helpers a build forks
    join it, so one signal ends them all), then ``target(*args)``."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    target(*args)


def check_memory(folder: Path, rules: str, needs: int | None = None) -> None:
    """``NotEnoughMemory`` unless ``needs`` bytes (by default what building the distributions
    of ``rules`` takes, ``to_win_build_memory``) are available here (``available_memory``)."""
    free = available_memory()
    needs = to_win_build_memory(rules) if needs is None else needs
    if free is not None and free < needs:
        raise NotEnoughMemory(
            f"building them takes about {needs / 2**20:.0f} MiB and {free / 2**20:.0f} MiB "
            "is available; build them ahead with `python -m bot.strategy --to-win "
            f"--preset {rules} --data {folder}` (on a bigger machine, then copy the file)"
        )


def _saved_table(folder: Path, rules: str) -> Table | None:
    """The saved table for ``rules``, or None when it must be built first."""
    try:
        return load(table_path(folder, rules), rules)
    except TableFileError as exc:
        log.info("building the %s strategy table (%s)", rules, exc)
        return None


async def prepare_table(folder: Path, rules: str) -> tuple[Table, bool]:
    """The saved table for ``rules``; when there is none yet, built first in a process of
    its own at a low priority (a minute of numpy and of the engine's Python that must not
    hold the bot's GIL, and that a stop ends at once), which saves it. Returns it and
    whether it was built."""
    table = await asyncio.to_thread(_saved_table, folder, rules)
    if table is not None:
        return table, False
    await in_process(_build_table, folder, rules, name=f"table-build-{rules}")
    return await asyncio.to_thread(load, table_path(folder, rules), rules), True


def _build_table(folder: Path, rules: str) -> None:
    """In the building process: solve and save, at a low priority."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    load_or_build(folder, rules, rebuild=True)


def build_distributions_apart(folder: Path, rules: str, turns: int) -> None:
    """In the building process: from the saved table, at a low priority."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    table, _ = load_or_build(folder, rules)
    build_distributions(table, distributions_path(folder, rules), turns)
