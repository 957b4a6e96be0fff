"""python -m bot.strategy [--rebuild] [--rules official|free] [--data DIR]

Loads the saved table (building and saving it when missing or damaged) and prints the
empty card's expected score on the last line.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from .solver import RULES
from .table_file import load_or_build, table_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.strategy", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="ignore the saved table and solve again"
    )
    parser.add_argument("--rules", choices=RULES, default="official")
    parser.add_argument(
        "--data", type=Path, default=Path("data"), help="the data directory (default: data)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    table, built = load_or_build(args.data, args.rules, args.rebuild)
    seconds = time.perf_counter() - start
    verb = "built and saved" if built else "loaded"
    print(f"{verb} {table_path(args.data, args.rules)} in {seconds:.2f} s")
    print(f"expected score ({args.rules}): {table.expected_score:.6f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
