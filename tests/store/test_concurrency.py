"""Many games writing at once through one Store: no write is lost, mixed up or half done.

These tests are about what users do at the same moment in different channels. Before the
store serialised its transactions, two games' BEGIN/COMMIT pairs interleaved on its one
connection, and one game's COMMIT or ROLLBACK settled another game's half-written change.
"""

from __future__ import annotations

import asyncio
import random

from bot.engine import Preset
from bot.store import (
    ChannelBusy,
    GameChange,
    GameRow,
    MoveRecord,
    NewGame,
    ResultRow,
    StaleVersion,
    Store,
    plans,
)

from ..conftest import Database, fetch, integrity

GAMES = 50
UPDATES = 200


async def solo_lobbies(
    store: Store, guild_id: int, first_channel: int, count: int
) -> list[GameRow]:
    """``count`` lobbies in consecutive channels, host ids 1, 2, 3 ..., one after another."""
    return [
        await store.write(
            plans.create_game,
            NewGame(
                guild_id=guild_id,
                channel_id=first_channel + i,
                host_id=i + 1,
                preset=Preset.OFFICIAL,
                players=[(i + 1, f"P{i}")],
            ),
        )
        for i in range(count)
    ]


async def move_log(database: Database) -> dict[int, list[tuple[int, str | None]]]:
    """Every game's (version, detail) entries, read straight from the database."""
    log: dict[int, list[tuple[int, str | None]]] = {}
    rows = await fetch(database, "SELECT game_id, version, detail FROM moves ORDER BY 1, 2")
    for game_id, version, detail in rows:
        log.setdefault(game_id, []).append((version, detail))
    return log


async def test_creates_and_updates_of_many_games_at_once(store: Store, database: Database) -> None:
    """50 lobbies opened and 200 moves over them, all at once: each call succeeds or raises
    its own documented error, and every success is in the file at its own version."""
    rng = random.Random(12)

    async def create(channel: int) -> GameRow:
        return await store.write(
            plans.create_game,
            NewGame(
                guild_id=1,
                channel_id=channel,
                host_id=channel,
                preset=Preset.OFFICIAL,
                players=[(channel, f"P{channel}")],
            ),
        )

    games = await asyncio.gather(*(create(1000 + i) for i in range(GAMES)))
    assert len({g.id for g in games}) == GAMES

    applied: list[tuple[int, int, str]] = []  # (game, version, marker) of each success
    stale = 0

    async def update(n: int) -> None:
        nonlocal stale
        game = games[rng.randrange(GAMES)]
        await asyncio.sleep(rng.random() * 0.01)
        current = await store.read(plans.get_game, game.id)
        assert current is not None
        marker = f"update {n}"
        try:
            saved = await store.write(
                plans.update_game,
                game.id,
                current.version,
                MoveRecord(n, "test", marker),
                GameChange(state={"n": n}),
            )
        except StaleVersion:
            stale += 1  # another update of the same game went first: the documented refusal
            return
        assert saved.id == game.id and saved.version == current.version + 1
        assert saved.state == {"n": n}
        applied.append((game.id, saved.version, marker))

    outcomes = await asyncio.gather(*(update(n) for n in range(UPDATES)), return_exceptions=True)
    assert [o for o in outcomes if o is not None] == []
    assert len(applied) + stale == UPDATES
    assert len(applied) >= GAMES // 2  # most updates meet no competitor

    log = await move_log(database)
    for game in games:
        entries = log[game.id]
        versions = [v for v, _ in entries]
        final = await store.read(plans.get_game, game.id)
        assert final is not None
        assert versions == list(range(final.version + 1)), f"gap in game {game.id}: {versions}"
    for game_id, version, marker in applied:
        assert (version, marker) in log[game_id]
    assert await integrity(database) == "ok"


async def test_a_busy_channel_refusal_does_not_undo_another_game(
    store: Store, database: Database
) -> None:
    """A second lobby in a busy channel is refused while other games commit around it."""
    first = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=77, host_id=1, preset=Preset.OFFICIAL, players=[(1, "Ann")]),
    )

    async def second_lobby() -> None:
        await store.write(
            plans.create_game,
            NewGame(
                guild_id=1, channel_id=77, host_id=2, preset=Preset.OFFICIAL, players=[(2, "Bob")]
            ),
        )

    async def other(channel: int) -> GameRow:
        return await store.write(
            plans.create_game,
            NewGame(
                guild_id=1,
                channel_id=channel,
                host_id=3,
                preset=Preset.OFFICIAL,
                players=[(3, "Cy")],
            ),
        )

    results = await asyncio.gather(
        *(second_lobby() for _ in range(10)), *(other(500 + i) for i in range(20)),
        return_exceptions=True,
    )  # fmt: skip
    refusals = results[:10]
    assert all(isinstance(r, ChannelBusy) and r.existing.id == first.id for r in refusals)
    created = [r for r in results[10:] if isinstance(r, GameRow)]
    assert len(created) == 20
    for game in created:
        assert await store.read(plans.live_game_in, game.channel_id) == await store.read(
            plans.get_game, game.id
        )
    assert await integrity(database) == "ok"


async def test_results_are_kept_with_the_finishing_move_under_load(
    store: Store, database: Database
) -> None:
    """Games finishing while others write: each finished game has exactly its result rows."""
    games = await solo_lobbies(store, guild_id=9, first_channel=900, count=30)

    async def finish(game: GameRow) -> None:
        result = ResultRow(game.host_id, 100 + game.host_id, 50, 0, 0, 0, 1, 1, name="x")
        await store.write(
            plans.update_game,
            game.id,
            game.version,
            MoveRecord(game.host_id, "score"),
            GameChange(status="finished", results=[result]),
        )

    async def noise(game: GameRow) -> None:
        await store.write(plans.show_board, game.id, game.id * 10, 1, 1)
        await store.write(
            plans.save_guild_settings, 9, await store.read(plans.guild_settings, 9), game.host_id
        )

    await asyncio.gather(*(finish(g) for g in games[:15]), *(noise(g) for g in games[15:]))
    for game in games[:15]:
        rows = await store.read(plans.results, game.id)
        assert [(r.user_id, r.total) for r in rows] == [(game.host_id, 100 + game.host_id)]
    for game in games[15:]:
        assert await store.read(plans.results, game.id) == []
        row = await store.read(plans.get_game, game.id)
        assert row is not None and row.board_message_id == game.id * 10
    assert await integrity(database) == "ok"


async def test_archive_and_moves_at_once(store: Store, database: Database) -> None:
    """A leaderboard reset while games finish: every result is either archived or on the
    board, and a restore brings back exactly what was archived."""
    games = await solo_lobbies(store, guild_id=5, first_channel=300, count=20)

    async def finish(game: GameRow) -> None:
        await asyncio.sleep(random.random() * 0.005)
        result = ResultRow(game.host_id, 150, 50, 0, 0, 0, 1, 1, name="x")
        await store.write(
            plans.update_game,
            game.id,
            game.version,
            MoveRecord(game.host_id, "score"),
            GameChange(status="finished", results=[result]),
        )

    async def reset() -> int:
        await asyncio.sleep(0.002)
        return await store.write(plans.archive_results, 5, 1)

    *_, archived = await asyncio.gather(*(finish(g) for g in games), reset())
    on_board = await store.read(plans.leaderboard, 5, "high")
    assert archived + len(on_board) == 20
    assert await store.write(plans.restore_results, 5) == archived
    assert len(await store.read(plans.leaderboard, 5, "high")) == 20
    assert await integrity(database) == "ok"
