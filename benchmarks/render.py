"""How fast and how small the game's images are: python benchmarks/render.py

Prints the median time to render and PNG-encode each image (after a warm-up, so caches of
sprites, grids and text tiles are filled, as they are in a running bot) and its size.
Budgets: 2-seat turn <= 5 ms and <= 30 KB; 8-seat turn <= 15 ms and <= 60 KB.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Category, Game, ScriptedDice
from bot.render import render_final, render_scorecard, render_stats, render_turn

RUNS = 200


def mid_game(seats: int) -> Game:
    """Every seat has scored a few boxes; the first seat holds two dice after roll 1."""
    faces = [3, 3, 4, 5, 6] * (seats * 4) + [2, 2, 5, 6, 1]
    g = Game([(str(i), f"Player {i + 1}") for i in range(seats)], dice_source=ScriptedDice(faces))
    for box in (Category.THREES, Category.SMALL_STRAIGHT, Category.CHANCE, Category.ONES):
        for seat in g.seats:
            g.roll(seat.player_id)
            g.score(seat.player_id, box)
    g.roll("0")
    g.set_held("0", [True, True, False, False, False])
    return g


def finished(seats: int, names: tuple[str, ...] = ()) -> Game:
    names = names or tuple(f"Player {i + 1}" for i in range(seats))
    g = Game([(str(i), name) for i, name in enumerate(names)])
    while not g.is_over:
        g.roll(g.current_player_id)
        g.score(g.current_player_id, next(iter(g.options())))
    return g


def measure(
    name: str, make: Callable[[], bytes], budget_ms: float | None, budget_kb: float | None
) -> None:
    for _ in range(20):
        make()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        png = make()
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    size = len(png) / 1024
    verdict = ""
    if budget_ms is not None and budget_kb is not None:
        ok = median <= budget_ms and size <= budget_kb
        verdict = f"  budget {budget_ms:g} ms / {budget_kb:g} KB: {'ok' if ok else 'OVER'}"
    p90 = sorted(times)[int(RUNS * 0.9)]
    print(f"{name:<24} median {median:6.2f} ms  p90 {p90:6.2f} ms  {size:5.1f} KB{verdict}")


def main() -> None:
    two, eight = mid_game(2), mid_game(8)
    measure("turn, 2 seats", lambda: render_turn(two), 5, 30)
    measure("turn, 8 seats", lambda: render_turn(eight), 15, 60)
    measure("scorecard", lambda: render_scorecard(two, 0), None, None)
    done2, done8 = finished(2), finished(8)
    measure("final, 2 seats", lambda: render_final(done2), None, None)
    measure("final, 8 seats", lambda: render_final(done8), None, None)
    # four seats whose names fit side by side, and with a computer seat's (stacked)
    done4 = finished(4, ("Ann", "Bob", "Cat", "Dan"))
    measure("final, 4 seats", lambda: render_final(done4), None, None)
    bots4 = finished(4, ("Ann", "Bob", "Cat", "Optimal bot"))
    measure("final, 4, Optimal bot", lambda: render_final(bots4), None, None)
    # /yahtzee stats: the last 20 games over the score distribution (bins of 50)
    recent = [180, 220, 254, 199, 230, 160, 301, 240, 210, 190] * 2
    spread = [0, 0, 0, 2, 5, 6, 4, 2, 1, 0, 0, 1]  # scores up to 575
    measure("stats, 0..575", lambda: render_stats("Ann", recent, spread, 50), None, None)
    wide = [*spread, *[0] * 19, 1]  # one game of 1,575
    measure("stats, 0..1575, fr", lambda: render_stats("Ann", recent, wide, 50, "fr"), None, None)
    # A cold start: the first image of a process also builds the palette and the caches.
    from bot.render import sheet, style, text

    style.palette.cache_clear()
    sheet.grid_base.cache_clear()
    sheet.die_sprite.cache_clear()
    sheet._column_tiles.cache_clear()
    text.fit.cache_clear()
    text.runs.cache_clear()
    text.text_tile.cache_clear()
    start = time.perf_counter()
    render_turn(two)
    print(f"{'first image (cold)':<24} {(time.perf_counter() - start) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
