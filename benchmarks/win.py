"""Playing to win against playing for points: python benchmarks/win.py [--games N]

Plays N two-seat games (default 10,000) of the To-win bot (``bot.strategy.winning``)
against the Optimal bot, each starting every other game, with fair seeded dice, on both
cores. Prints the To-win bot's win rate (a tie counts half) with its 95% confidence
interval, both bots' mean scores with their standard errors, and the time per game.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Game, RandomDice
from bot.strategy import solve
from bot.strategy.players import OptimalPlayer, play_out
from bot.strategy.solver import Table
from bot.strategy.winning import WinningPlayer

_table: Table | None = None  # each worker's copy (inherited by fork)
MARGIN = 0.0
LAST_TURNS = 13


def play(seed_and_count: tuple[int, int]) -> list[tuple[int, int]]:
    """(To-win bot's score, Optimal bot's score) of ``count`` games from ``seed``."""
    seed, count = seed_and_count
    assert _table is not None
    rng = random.Random(seed)
    winner = WinningPlayer(_table, margin=MARGIN, last_turns=LAST_TURNS)
    optimal = OptimalPlayer(_table)
    out = []
    for n in range(count):
        seats = [("w", "To-win bot"), ("o", "Optimal bot")]
        if (seed + n) % 2:
            seats.reverse()  # each starts every other game
        game = Game(seats, dice_source=RandomDice(random.Random(rng.getrandbits(64))))
        play_out(game, {"w": winner, "o": optimal})  # type: ignore[dict-item]
        cards = {seat.player_id: seat.card.total for seat in game.seats}
        out.append((cards["w"], cards["o"]))
    return out


def main() -> None:
    global _table, MARGIN, LAST_TURNS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--margin", type=float, default=None, help="WinningPlayer's margin")
    parser.add_argument("--last-turns", type=int, default=13, help="WinningPlayer's last_turns")
    args = parser.parse_args()
    if args.margin is not None:
        MARGIN = args.margin
    LAST_TURNS = args.last_turns
    print(f"To-win bot's margin: {MARGIN}, plays to win in its last {LAST_TURNS} turns")
    began = time.perf_counter()
    _table = solve("official", variance=True)
    print(f"table with expected squares solved in {time.perf_counter() - began:.1f} s")
    chunk = 100
    jobs = [(args.seed + i, min(chunk, args.games - i)) for i in range(0, args.games, chunk)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        results = [pair for part in pool.imap_unordered(play, jobs) for pair in part]
    took = time.perf_counter() - began
    n = len(results)
    wins = sum(1 for w, o in results if w > o)
    ties = sum(1 for w, o in results if w == o)
    rate = (wins + ties / 2) / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    mine = [w for w, _ in results]
    theirs = [o for _, o in results]
    per_game = took / n * 1000
    print(f"games: {n} in {took:.0f} s ({per_game:.0f} ms a game on {args.processes} processes)")
    print(f"To-win bot against the Optimal bot: {wins} wins, {ties} ties, {n - wins - ties} losses")
    print(f"win rate {rate:.2%} (95% CI {rate - half:.2%} to {rate + half:.2%})")
    for name, scores in (("To-win bot", mine), ("Optimal bot", theirs)):
        se = statistics.stdev(scores) / math.sqrt(n)
        print(f"{name}: mean score {statistics.mean(scores):.2f} +- {se:.2f}")


if __name__ == "__main__":
    main()
