"""The solver's build time, peak memory and answers, for one preset a run (the peak is the
process's): python benchmarks/solver.py [--preset official|relaxed-joker|bonus-turn]

Budgets: the official table in at most 10 s on a 2-core machine, under 500 MB while
building; one position's decisions in under 20 ms; loading the saved table under 0.5 s.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Category, Preset, Scorecard
from bot.strategy import solve
from bot.strategy.decisions import evaluate
from bot.strategy.table_file import load, save, table_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=[p.value for p in Preset], default="official")
    parser.add_argument("--free", action="store_true", help="also the free-choice Joker")
    rules = parser.parse_args().preset
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    table = solve(rules)
    build = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"build ({rules}):        {build:6.2f} s")
    print(f"peak memory (process):   {peak / 1024:6.0f} MB (before solving {before / 1024:.0f} MB)")
    print(f"expected score ({rules}): {table.expected_score:.6f}")
    with tempfile.TemporaryDirectory() as folder:
        path = table_path(Path(folder), rules)
        save(table, path)
        loads = []
        for _ in range(5):
            t = time.perf_counter()
            table = load(path, rules)
            loads.append(time.perf_counter() - t)
        print(f"load saved table:        {statistics.median(loads) * 1000:6.1f} ms median "
              f"({path.stat().st_size / 1e6:.1f} MB file)")  # fmt: skip
    card = Scorecard(rules)
    times = []
    for dice in ([3, 3, 3, 5, 6], [1, 2, 3, 4, 6], [6, 6, 6, 6, 1], [2, 2, 5, 5, 5]):
        for rolls_left in (0, 1, 2):
            t = time.perf_counter()
            evaluate(table, card, dice, rolls_left)
            times.append(time.perf_counter() - t)
    print(f"one position's choices:  {statistics.median(times) * 1000:6.1f} ms median")
    # A hint on a card not seen before (its keep values worked out afresh): random cards
    # with 50 in Yahtzee and five alike, where the Joker or a bonus turn is in play.
    rng = random.Random(44)
    fresh = []
    for _ in range(40):
        boxes = {c: 0 for c in Category if rng.random() < 0.5}
        boxes[Category.YAHTZEE] = 50
        if len(boxes) == len(Category):
            continue
        t = time.perf_counter()
        evaluate(table, Scorecard(rules, boxes), [rng.randint(1, 6)] * 5, 2)
        fresh.append(time.perf_counter() - t)
    print(f"a hint on a new card:    {statistics.median(fresh) * 1000:6.1f} ms median "
          f"(max {max(fresh) * 1000:.1f} ms)")  # fmt: skip
    if not parser.parse_args().free:
        return
    start = time.perf_counter()
    free = solve("free")
    print(f"build (free choice):     {time.perf_counter() - start:6.2f} s, "
          f"expected score {free.expected_score:.6f}")  # fmt: skip


if __name__ == "__main__":
    main()
