"""python -m bot.strategy [--rebuild] [--preset NAME|all ...] [--data DIR] [--to-win [N]]

Loads the saved table of each preset named (official by default; ``all``: every preset),
building and saving it when missing or damaged, and prints each one's expected score from
the empty card, the last preset's on the last line. ``--to-win`` also loads (or builds: 40
to 70 s of CPU on both cores, at most 245 MiB of memory) the To-win bot's
distributions of each preset named, ahead of the first game that needs them; ``--to-win N``
builds them for the last N turns only (less time, memory and disk; the bot plays earlier
turns as the Optimal bot does).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bot.engine import Preset

from .states import BOXES, RULES
from .table_file import (
    distributions_path,
    load_or_build,
    load_or_build_distributions,
    table_path,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.strategy", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="ignore the saved table and solve again"
    )
    parser.add_argument(
        "--preset", "--rules", dest="presets", action="append", choices=[*RULES, "all"],
        help="the rule set (repeat for several; all: every preset; default official)",
    )  # fmt: skip
    parser.add_argument(
        "--data", type=Path, default=Path("data"), help="the data directory (default: data)"
    )
    parser.add_argument(
        "--to-win", type=int, nargs="?", const=BOXES, metavar="TURNS",
        help="also the To-win bot's distributions (for the last TURNS turns; default all 13)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.to_win is not None and not 1 <= args.to_win <= BOXES:
        parser.error(f"--to-win takes 1 to {BOXES} turns, not {args.to_win}")
    names = args.presets or ["official"]
    if "all" in names:
        names = [p.value for p in Preset]
    for rules in dict.fromkeys(names):
        start = time.perf_counter()
        table, built = load_or_build(args.data, rules, args.rebuild)
        seconds = time.perf_counter() - start
        verb = "built and saved" if built else "loaded"
        print(f"{verb} {table_path(args.data, rules)} in {seconds:.2f} s")
        if args.to_win is not None:
            start = time.perf_counter()
            dists, built = load_or_build_distributions(
                args.data, table, args.rebuild, open_boxes=args.to_win
            )
            seconds = time.perf_counter() - start
            verb = "built and saved" if built else "loaded"
            print(
                f"{verb} {distributions_path(args.data, rules)} in {seconds:.2f} s "
                f"(the last {dists.open_boxes} turns)"
            )
        print(f"expected score ({rules}): {table.expected_score:.6f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
