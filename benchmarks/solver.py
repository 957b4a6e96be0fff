"""The solver's build time, peak memory and answers: python benchmarks/solver.py

Budgets: the official table in at most 10 s on a 2-core machine, under 500 MB while
building; one position's decisions in under 20 ms; loading the saved table under 0.5 s.
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Scorecard
from bot.strategy import solve
from bot.strategy.decisions import evaluate
from bot.strategy.table_file import load, save, table_path


def main() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    table = solve("official")
    build = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"build (official):        {build:6.2f} s")
    print(f"peak memory (process):   {peak / 1024:6.0f} MB (before solving {before / 1024:.0f} MB)")
    print(f"expected score (official): {table.expected_score:.6f}")
    with tempfile.TemporaryDirectory() as folder:
        path = table_path(Path(folder), "official")
        save(table, path)
        loads = []
        for _ in range(5):
            t = time.perf_counter()
            load(path, "official")
            loads.append(time.perf_counter() - t)
        print(f"load saved table:        {statistics.median(loads) * 1000:6.1f} ms median "
              f"({path.stat().st_size / 1e6:.1f} MB file)")  # fmt: skip
    card = Scorecard()
    times = []
    for dice in ([3, 3, 3, 5, 6], [1, 2, 3, 4, 6], [6, 6, 6, 6, 1], [2, 2, 5, 5, 5]):
        for rolls_left in (0, 1, 2):
            t = time.perf_counter()
            evaluate(table, card, dice, rolls_left)
            times.append(time.perf_counter() - t)
    print(f"one position's choices:  {statistics.median(times) * 1000:6.1f} ms median")
    start = time.perf_counter()
    free = solve("free")
    print(f"build (free choice):     {time.perf_counter() - start:6.2f} s, "
          f"expected score {free.expected_score:.6f}")  # fmt: skip


if __name__ == "__main__":
    main()
