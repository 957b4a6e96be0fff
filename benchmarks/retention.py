"""What a finished game costs on disk, before and after retention prunes its move log:
python benchmarks/retention.py [--games N] [--postgres [URL]]

Plays N two-player games to the end through the game service (random dice; each turn one
roll, a hold, a second roll, then the first box the engine offers), on a fresh SQLite file
or a fresh PostgreSQL schema, and prints the database's size empty, with the N finished
games, and after ``prune_moves`` (retention) removed their move logs; per game, the
difference. Sizes are measured after compaction (SQLite: VACUUM, the file's size;
PostgreSQL: VACUUM FULL, every table's size with its indexes and TOAST), so they are the
bytes the data needs, not the free space a database keeps for reuse.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Category, ScriptedDice  # noqa: E402
from bot.games import GameService, TurnMove  # noqa: E402
from bot.store import Store, open_store, plans  # noqa: E402

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


async def play(service: GameService, dice: ScriptedDice, channel: int, rng: random.Random) -> None:
    row = await service.lobby.open_lobby(1, channel, 1, "Ann", "official")
    await service.lobby.join(row.id, 2, "Bob")
    board = await service.lobby.begin(row.id, 1)
    message = channel * 10
    await service.posts.board_shown(board.row, message, board.game)
    for _ in range(len(Category) * 2):
        game = board.game
        assert game is not None
        user = int(game.current_player_id)
        dice.extend(rng.randint(1, 6) for _ in range(5))
        board = await service.turns.roll(TurnMove(row.id, user, message, game.turn_number, 0))
        board = await service.turns.hold(TurnMove(row.id, user, message, game.turn_number, 1), 0)
        dice.extend(rng.randint(1, 6) for _ in range(4 if board.game.held[0] else 5))  # type: ignore[union-attr]
        board = await service.turns.roll(TurnMove(row.id, user, message, game.turn_number, 1))
        assert board.game is not None
        box = next(iter(board.game.options()))
        scored = await service.turns.score(
            TurnMove(row.id, user, message, game.turn_number, 2), box.value
        )
        board = scored.board
        if board.game is None or board.game.is_over:
            return
        await service.posts.board_shown(board.row, message, board.game)


async def size(store: Store, postgres: str | None, path: Path | None) -> int:
    """The database's size after compaction (the store is closed first)."""
    await store.close()
    if postgres is None:
        assert path is not None
        import sqlite3

        def vacuumed() -> int:
            db = sqlite3.connect(path)
            db.execute("VACUUM")
            db.close()
            return path.stat().st_size

        return await asyncio.to_thread(vacuumed)
    import asyncpg

    db = await asyncpg.connect(postgres)
    try:
        await db.execute("VACUUM FULL")
        return int(
            await db.fetchval(
                "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        )
    finally:
        await db.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_POSTGRES)
    args = parser.parse_args()
    rng = random.Random(5)
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-retention-"))
    path: Path | None = None
    schema = None
    if args.postgres:
        import asyncpg

        schema = f"retention_{os.getpid()}"
        admin = await asyncpg.connect(args.postgres)
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await admin.close()
        target: str | Path = f"{args.postgres}?search_path={schema}"
    else:
        target = path = folder / "retention.sqlite3"

    async def opened() -> Store:
        return await open_store(target)

    store = await opened()
    empty = await size(store, target if schema else None, path)
    store = await opened()
    dice = ScriptedDice()
    service = GameService(store, dice)
    started = time.perf_counter()
    for i in range(args.games):
        await play(service, dice, 1000 + i, rng)
    played = time.perf_counter() - started
    counts = await store.read(plans.games_by_status)
    moves = sum(1 for _ in await store.read(plans.moves, 1))
    full = await size(store, target if schema else None, path)
    store = await opened()
    service = GameService(store, dice)
    pruned = await service.history.prune_moves(1, now=datetime.now(UTC) + timedelta(days=2))
    after = await size(store, target if schema else None, path)
    if schema is not None:
        admin = await asyncpg.connect(args.postgres)
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()
    per = (full - empty) / args.games
    kept = (after - empty) / args.games
    kind = "PostgreSQL" if schema else "SQLite"
    print(f"database: {kind}; {args.games} two-player games played to the end in "
          f"{played:.1f} s ({counts}); {moves} moves in the first")  # fmt: skip
    print(f"size empty {empty:,} B; with the games {full:,} B; after pruning {pruned} move "
          f"logs {after:,} B")  # fmt: skip
    print(f"a finished game: {per:,.0f} B with its move log, {kept:,.0f} B after retention "
          f"({100 * (1 - kept / per):.0f}% less)")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
