"""Bot opponents over many solo games: python benchmarks/simulate.py [games]

Plays 10,000 solo games (by default) with the optimal player, on both cores, and prints the
mean with its standard error (it should land within 254.59 +- 1.8), then the casual
player's mean over a tenth as many games.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Game, RandomDice
from bot.strategy.players import CasualPlayer, OptimalPlayer, play_out
from bot.strategy.table_file import load_or_build

DATA = Path(__file__).resolve().parents[1] / "data"


def play(args: tuple[str, int, int]) -> list[int]:
    kind, seed, games = args
    player = OptimalPlayer(load_or_build(DATA)[0]) if kind == "optimal" else CasualPlayer()
    rng = random.Random(seed)
    scores = []
    for _ in range(games):
        game = Game([("bot", "bot")], "official", RandomDice(rng))
        play_out(game, {"bot": player})
        scores.append(game.seats[0].card.total)
    return scores


def report(kind: str, games: int) -> None:
    start = time.perf_counter()
    parts = [(kind, seed, games // 2 + (seed < games % 2)) for seed in range(2)]
    with ProcessPoolExecutor(2) as pool:
        scores = [s for part in pool.map(play, parts) for s in part]
    mean = statistics.mean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores))
    seconds = time.perf_counter() - start
    print(f"{kind:<8} {len(scores):6d} games: mean {mean:7.2f} +- {error:.2f} (s.e.), "
          f"sd {statistics.stdev(scores):.2f}, {seconds:.0f} s")  # fmt: skip


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    load_or_build(DATA)  # build once before the workers load it
    report("optimal", games)
    report("casual", max(games // 10, 2))


if __name__ == "__main__":
    main()
