"""What a turn that runs out costs, by policy: python benchmarks/timeout_play.py [games]

Plays solo games (200 by default, each preset) in which every turn runs out of time after
the turn's first roll (as on a server with the opening roll made for the player), under the
``play`` policy (the Optimal bot's stand-in, through ``Game.roll_for_them`` and
``Game.timeout`` as the timer does) and under ``scratch``, on the same dice seeds. Prints
the mean final score of each, and the median and worst time the stand-in takes to choose a
turn's moves (it runs on the bot's event loop, as a computer seat's moves do).

2026-11-26, 100 games a preset, 2 shared cores: play for them 244.4 (official), 244.4
(relaxed-joker), 244.5 (bonus-turn); scratch 18.1; the stand-in's choices 10-12 ms a turn
(median), at most 77-105 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Category, Game, Preset, RandomDice, TimeoutPolicy
from bot.strategy.players import OptimalPlayer, keep_mask
from bot.strategy.table_file import load_or_build

DATA = Path(__file__).resolve().parents[1] / "data"


def timed_out_game(
    preset: Preset, seed: int, player: OptimalPlayer | None
) -> tuple[int, list[float]]:
    """A solo game whose every turn times out after its first roll; its score, and the
    seconds the stand-in took per turn (``player`` None: scratch)."""
    game = Game([("1", "Ann")], preset, RandomDice(random.Random(seed)))
    took = []
    while not game.is_over:
        game.roll("1", opening=True)
        if player is None:
            game.timeout(TimeoutPolicy.SCRATCH)
            continue
        start = time.perf_counter()
        while True:
            choice = player.decide(game)
            if isinstance(choice, Category):
                break
            assert game.dice is not None
            game.roll_for_them(keep_mask(game.dice, choice))
        took.append(time.perf_counter() - start)
        game.timeout(TimeoutPolicy.PLAY, choice)
    return game.seats[0].card.total, took


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    player = OptimalPlayer(load_or_build(DATA)[0])
    for preset in Preset:
        played = [timed_out_game(preset, seed, player) for seed in range(games)]
        scratched = [timed_out_game(preset, seed, None)[0] for seed in range(games)]
        took = sorted(t for _, times in played for t in times)
        print(
            f"{preset.value:<14} {games} games, every turn timed out: play for them "
            f"{statistics.mean(s for s, _ in played):6.1f}, scratch "
            f"{statistics.mean(scratched):5.1f}; the stand-in's choices per turn: median "
            f"{statistics.median(took) * 1000:.1f} ms, max {took[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
