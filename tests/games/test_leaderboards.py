"""Leaderboards and stats on a hand-made data set: every board and period, ties, the
minimum-games rule, paging, and reset/restore."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.games import GameService
from bot.games.leaderboards import Leaderboards, period_start
from bot.store import Store

from ..conftest import Database, fetch

GUILD = 1
NOW = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)  # a Sunday: the week began Monday 16th
ANN, BOB, CAT, DAN = 1, 2, 3, 4

# (user, name, total, place, seats, yahtzees, upper bonus, finished)
RESULTS = [
    (ANN, "Ann", 300, 1, 2, 1, 35, "2026-10-05T20:00:00+00:00"),
    (ANN, "Ann", 250, 1, 2, 1, 0, "2026-11-10T20:00:00+00:00"),  # tied with Bob: both won
    (ANN, "Ann", 200, 1, 1, 1, 35, "2026-11-20T20:00:00+00:00"),
    (ANN, "Ann", 150, 1, 1, 0, 0, "2026-09-01T20:00:00+00:00"),
    (ANN, "Ann", 100, 1, 1, 0, 0, "2026-08-01T20:00:00+00:00"),
    (BOB, "Bob", 250, 1, 2, 0, 0, "2026-11-10T20:00:00+00:00"),
    (BOB, "Bob", 280, 2, 2, 0, 35, "2026-11-18T20:00:00+00:00"),
    (CAT, "Cat", 300, 1, 1, 1, 35, "2026-11-21T20:00:00+00:00"),
] + [
    (DAN, "Dan", 180, 1, 1, 1 if i == 0 else 0, 0, f"2026-07-0{i + 1}T20:00:00+00:00")
    for i in range(6)
]


async def seed(
    database: Database,
    rows: list[tuple[int, str, int, int, int, int, int, str]],
    guild: int = GUILD,
) -> None:
    """Result rows as finished games leave them (written here with their own dates)."""
    for n, (user, name, total, place, seats, yahtzees, bonus, finished) in enumerate(rows):
        channel = 1000 + n
        (game_id,) = (
            await fetch(
                database,
                "INSERT INTO games (guild_id, channel_id, host_id, status, preset, created_at, "
                "updated_at) VALUES (?, ?, ?, 'finished', 'official', ?, ?) RETURNING id",
                guild, channel, user, finished, finished,
            )
        )[0]  # fmt: skip
        await fetch(
            database,
            "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, upper_total, "
            "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at) "
            "VALUES (?, ?, ?, ?, ?, 0, ?, ?, 0, ?, ?, 'official', ?)",
            game_id, guild, channel, user, total, bonus, yahtzees, place, seats, finished,
        )  # fmt: skip
        await fetch(
            database,
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name",
            guild, user, name, finished,
        )  # fmt: skip


@pytest.fixture
async def boards(store: Store, database: Database) -> Leaderboards:
    await seed(database, RESULTS)
    return GameService(store, clock=lambda: NOW).leaderboards


def table(page: object) -> list[tuple[int, str, float, int]]:
    return [(r.rank, r.name, r.figure, r.games) for r in page.rows]  # type: ignore[attr-defined]


# Each expected table below is worked out by hand from RESULTS.
@pytest.mark.parametrize(
    ("board", "period", "expected"),
    [
        (
            "high",
            "all",
            [(1, "Ann", 300, 5), (1, "Cat", 300, 1), (3, "Bob", 280, 2), (4, "Dan", 180, 6)],
        ),
        ("high", "month", [(1, "Cat", 300, 1), (2, "Bob", 280, 2), (3, "Ann", 250, 2)]),
        ("high", "week", [(1, "Cat", 300, 1), (2, "Bob", 280, 1), (3, "Ann", 200, 1)]),
        ("wins", "all", [(1, "Ann", 2, 2), (2, "Bob", 1, 2)]),
        ("wins", "month", [(1, "Ann", 1, 1), (1, "Bob", 1, 2)]),
        ("wins", "week", []),
        ("average", "all", [(1, "Ann", 200, 5), (2, "Dan", 180, 6)]),
        ("average", "month", []),  # nobody has 5 games this month
        ("yahtzees", "all", [(1, "Ann", 3, 5), (2, "Cat", 1, 1), (2, "Dan", 1, 6)]),
        ("yahtzees", "week", [(1, "Ann", 1, 1), (1, "Cat", 1, 1)]),
    ],
)
async def test_boards_rank_by_hand(
    boards: Leaderboards, board: str, period: str, expected: list[tuple[int, str, float, int]]
) -> None:
    """Each board and period ranks the hand-made results as worked out by hand."""
    page = await boards.page(GUILD, board, period, 0, ANN)
    assert table(page) == expected
    assert page.players == len(expected)
    assert page.image[:8] == b"\x89PNG\r\n\x1a\n"


def test_periods_start_on_monday_and_the_first() -> None:
    """This week starts Monday 00:00 UTC; this month on the 1st."""
    assert period_start("week", NOW) == "2026-11-16T00:00:00+00:00"
    assert period_start("month", NOW) == "2026-11-01T00:00:00+00:00"
    assert period_start("all", NOW) == ""


async def test_other_servers_do_not_count(boards: Leaderboards, database: Database) -> None:
    """Results of another server never show on this one's boards."""
    await seed(database, [(BOB, "Bob", 375, 1, 1, 2, 35, "2026-11-21T10:00:00+00:00")], guild=2)
    page = await boards.page(GUILD, "high", "all", 0, BOB)
    assert table(page)[2] == (3, "Bob", 280, 2)
    other = await boards.page(2, "high", "all", 0, BOB)
    assert table(other) == [(1, "Bob", 375, 1)]


async def test_paging_and_the_viewers_rank_off_the_page(store: Store, database: Database) -> None:
    """25 players make 3 pages of 10; the viewer ranked 23rd sees their line on page 1."""
    rows = [(100 + i, f"P{i}", 300 - i, 1, 1, 0, 0, "2026-11-01T00:00:00+00:00") for i in range(25)]
    await seed(database, rows)
    boards = GameService(store, clock=lambda: NOW).leaderboards
    first = await boards.page(GUILD, "high", "all", 0, 122)
    assert (first.page, first.pages, first.players, len(first.rows)) == (0, 3, 25, 10)
    assert first.viewer is not None and (first.viewer.rank, first.viewer.figure) == (23, 278)
    assert first.footer == "you: 23rd of 25, 278 in 1 game"  # one game: no plural
    last = await boards.page(GUILD, "high", "all", 7, 122)  # past the end: the last page
    assert (last.page, [r.rank for r in last.rows]) == (2, [21, 22, 23, 24, 25])
    # No page asked: the viewer's own. 23rd is on page 3 (ranks 21-25), 12th on page 2,
    # someone not on the board gets page 1.
    own = await boards.page(GUILD, "high", "all", None, 122)
    assert (own.page, [r.rank for r in own.rows]) == (2, [21, 22, 23, 24, 25])
    assert (await boards.page(GUILD, "high", "all", None, 111)).page == 1
    assert (await boards.page(GUILD, "high", "all", None, 999)).page == 0


async def test_reset_hides_and_restore_brings_back(boards: Leaderboards) -> None:
    """A reset empties every board; a restore puts back exactly what it hid."""
    before = {
        b: table(await boards.page(GUILD, b, "all", 0, ANN))
        for b in ("high", "wins", "average", "yahtzees")
    }
    assert await boards.reset(GUILD, user_id=9) == len(RESULTS)
    for board in before:
        assert table(await boards.page(GUILD, board, "all", 0, ANN)) == []
    assert (await boards.stats(GUILD, ANN, "Ann")).games == 0
    assert await boards.restore(GUILD) == len(RESULTS)
    for board, rows in before.items():
        assert table(await boards.page(GUILD, board, "all", 0, ANN)) == rows
    assert await boards.restore(GUILD) == 0  # nothing left to restore


async def test_stats_by_hand(boards: Leaderboards) -> None:
    """Ann: 5 games, 2 wins of 2 multiplayer, average 200, best 300, bonus in 2 of 5."""
    stats = await boards.stats(GUILD, ANN, "Ann")
    assert (stats.games, stats.wins, stats.multiplayer_games, stats.best) == (5, 2, 2, 300)
    assert stats.average == 200 and stats.win_rate == 1.0
    assert stats.upper_bonus_rate == pytest.approx(2 / 5)
    assert stats.yahtzees_per_game == pytest.approx(3 / 5)
    assert stats.recent == [100, 150, 300, 250, 200]  # oldest first
    assert stats.image is not None and stats.image[:8] == b"\x89PNG\r\n\x1a\n"
    nobody = await boards.stats(GUILD, 99, "Zed")
    assert nobody.games == 0 and nobody.image is None
