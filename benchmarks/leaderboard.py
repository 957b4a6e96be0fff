"""Leaderboard queries on 100,000 results in one server: python benchmarks/leaderboard.py

Builds a throwaway database (1,000 players x 100 games, spread over a year), then prints
the median time of each board and period (the whole ranking, which the command pages and
finds the viewer in), of a player's stats, and what SQLite's query plan uses.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bot.store import LEADERBOARD_SQL, open_store, plans

GUILD = 1
PLAYERS = 1000
GAMES_EACH = 100
RUNS = 15


async def build(path: Path) -> None:
    rng = random.Random(7)
    start = datetime(2025, 11, 22, tzinfo=UTC)
    store = await open_store(path)
    await store.close()
    async with aiosqlite.connect(path) as db:
        # One game row is enough for the foreign key; results are what the boards read.
        await db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, created_at, "
            "updated_at) VALUES (1, 1, 1, 1, 'finished', 'official', '', '')"
        )
        rows = []
        for user in range(PLAYERS):
            for _ in range(GAMES_EACH):
                when = start + timedelta(minutes=rng.randrange(365 * 24 * 60))
                seats = rng.choice([1, 2, 2, 3, 4])
                rows.append((1, GUILD, 1, user, rng.randint(120, 380), 0, rng.choice([0, 35]),
                             rng.choice([0, 0, 0, 1]), 0, rng.randint(1, seats), seats, "official",
                             when.isoformat(timespec="seconds")))  # fmt: skip
        await db.executemany(
            "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, upper_total, "
            "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(1000 + i, *row[1:]) for i, row in enumerate(rows)],
        )
        names = [(GUILD, u, f"Player {u}") for u in range(PLAYERS)]
        await db.executemany("INSERT INTO player_names VALUES (?, ?, ?, '')", names)
        await db.commit()
        await db.execute("ANALYZE")
        await db.commit()


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        began = time.perf_counter()
        await build(path)
        print(f"built {PLAYERS * GAMES_EACH:,} results in {time.perf_counter() - began:.1f} s")
        store = await open_store(path)
        try:
            now = datetime(2026, 11, 22, tzinfo=UTC)
            periods = {
                "all": "",
                "month": "2026-11-01",
                "week": (now - timedelta(days=6)).isoformat(),
            }
            for board in LEADERBOARD_SQL:
                for period, since in periods.items():
                    times = []
                    for _ in range(RUNS):
                        t = time.perf_counter()
                        await store.read(plans.leaderboard, GUILD, board, since)
                        times.append((time.perf_counter() - t) * 1000)
                    print(f"{board:<9} {period:<6} median {statistics.median(times):7.1f} ms")
            times = []
            for _ in range(RUNS):
                t = time.perf_counter()
                await store.read(plans.player_games, GUILD, 500)
                times.append((time.perf_counter() - t) * 1000)
            print(f"stats     player median {statistics.median(times):7.1f} ms")
            async with (
                aiosqlite.connect(path) as db,
                db.execute(
                    "EXPLAIN QUERY PLAN SELECT user_id, MAX(total) FROM results "
                    "WHERE guild_id = 1 AND archived = 0 AND finished_at >= '' GROUP BY user_id"
                ) as cur,
            ):
                for row in await cur.fetchall():
                    print("plan:", row[-1])
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
