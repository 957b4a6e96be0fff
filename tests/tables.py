"""The solved tables the suite uses, kept in a folder of pytest's cache (each solve takes
seconds of CPU): solved once, by whichever process asks first while the others wait on its
lock, and read back after. ``python -m tests.tables FOLDER PART`` solves them ahead: the
suite's first process starts two of these at the start of a whole run from a cache that
lacks them (``conftest.pytest_sessionstart``), so the tables are solved beside the tests."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from bot.strategy import Table, solve
from bot.strategy.distribution import Distributions
from bot.strategy.distribution_build import solve_distributions
from bot.strategy.table_file import (
    TableFileError,
    load_distributions,
    load_or_build,
    save_distributions,
    table_path,
)

ROOT = Path(__file__).resolve().parent.parent
#: What a solved table depends on: a change to any of these solves the cached tables again.
_SOLVED_FROM = sorted(
    [
        *(ROOT / "bot" / "engine").glob("*.py"),
        *(
            ROOT / "bot" / "strategy" / f
            for f in ("solver.py", "states.py", "dice_space.py", "table_file.py")
        ),
        *(ROOT / "bot" / "strategy").glob("distribution*.py"),
    ]
)
#: The To-win distributions the suite uses: the official table's last three turns.
TO_WIN_TURNS = 3
#: What ``prepare_ahead``'s two processes solve, each its part in order (the official
#: table with squares and its To-win distributions; the other presets' tables).
PARTS = {
    "official": ("official-variance", "to-win"),
    "presets": ("bonus-turn", "relaxed-joker", "free"),
}


def solved_from() -> str:
    """A short digest of the engine and solver: a cache folder's name changes with them."""
    digest = hashlib.sha256()
    for path in _SOLVED_FROM:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@contextlib.contextmanager
def one_builder(folder: Path, name: str) -> Iterator[None]:
    """Held while ``name`` is looked for and, if missing, built: with several test processes
    (pytest-xdist) the others wait for the first's file instead of solving it again beside
    it on the same two cores."""
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def table_in(folder: Path, rules: str) -> Table:
    """The table for ``rules`` as the bot loads it (float32, from its file)."""
    with one_builder(folder, rules):
        table, _ = load_or_build(folder, rules)
    return table


def _solved_paths(folder: Path, rules: str, variance: bool) -> list[Path]:
    name = f"{rules}-variance" if variance else rules
    return [folder / f"{name}.value.npy", folder / f"{name}.square.npy"][: 1 + variance]


def solved_in(folder: Path, rules: str, variance: bool = False) -> Table:
    """``solve(rules, variance)`` exactly as solved (float64)."""
    paths = _solved_paths(folder, rules, variance)
    with one_builder(folder, paths[0].name.removesuffix(".value.npy")):
        if all(path.exists() for path in paths):
            arrays = [np.load(path) for path in paths]
            return Table(rules, arrays[0], arrays[1] if variance else None)
        table = solve(rules, variance=variance)
        for path, array in zip(paths, [table.value, table.square], strict=False):
            partial = path.with_suffix(".partial.npy")
            np.save(partial, array)
            partial.replace(path)  # whole or absent: a run stopped half-way leaves no torn file
        return table


def _distributions_path(folder: Path, rules: str, open_boxes: int) -> Path:
    return folder / f"to-win-{rules}-{open_boxes}.bin"


def distributions_in(folder: Path, table: Table, open_boxes: int) -> Distributions:
    """``solve_distributions(table, open_boxes)`` as the bot loads them (saved, read back)."""
    path = _distributions_path(folder, table.rules, open_boxes)
    with one_builder(path.parent, path.stem):
        try:
            return load_distributions(path, table.rules)
        except TableFileError:
            pass
        save_distributions(solve_distributions(table, open_boxes=open_boxes), path)  # atomic
        return load_distributions(path, table.rules)


def all_ready(folder: Path) -> bool:
    """Whether every table ``PARTS`` names is in ``folder`` already."""
    files = [
        *_solved_paths(folder, "official", True),
        _distributions_path(folder, "official", TO_WIN_TURNS),
        table_path(folder, "bonus-turn"),
        table_path(folder, "relaxed-joker"),
        *_solved_paths(folder, "free", False),
    ]
    return all(path.exists() for path in files)


def prepare(folder: Path, part: str) -> None:
    """Solve one of ``PARTS`` into ``folder`` (what is there already is read, not solved)."""
    for name in PARTS[part]:
        if name == "official-variance":
            solved_in(folder, "official", variance=True)
        elif name == "to-win":
            official = solved_in(folder, "official", variance=True)
            distributions_in(folder, Table("official", official.value, None), TO_WIN_TURNS)
        elif name == "free":
            solved_in(folder, "free")
        else:
            table_in(folder, name)


def prepare_ahead(folder: Path) -> list[subprocess.Popen[bytes]]:
    """Two processes solving ``PARTS`` into ``folder`` beside the tests (a test that needs a
    table waits on its lock only while it is being solved)."""
    return [
        subprocess.Popen(
            [sys.executable, "-m", "tests.tables", str(folder), part],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for part in PARTS
    ]


if __name__ == "__main__":
    prepare(Path(sys.argv[1]), sys.argv[2])
