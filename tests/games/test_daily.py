"""The daily challenge through the service: the day's dice, one try a day, the Optimal
bot's score beside the player's, the boards, and the game told turn by turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine import DailyDice, Game
from bot.games import Expired, GameService, Refusal
from bot.store import Store, open_store, plans
from bot.strategy import Table
from bot.strategy.analyst import Analyst
from bot.strategy.players import daily_optimal_score

from ..clock import FakeClock
from ..conftest import Database
from .test_service import Table as Channel
from .test_timers import tick

GUILD, OTHER = 1, 2


@pytest.fixture
def service(store: Store, clock: FakeClock, official_values: Table, tmp_path: Path) -> GameService:
    analyst = Analyst(tmp_path)
    analyst.table = official_values  # as if loaded
    return GameService(store, None, clock, analyst)


async def play_daily(
    service: GameService, guild: int, channel: int, user: int, name: str
) -> tuple[int, list[str]]:
    """A whole try: one roll a turn, scored in the first box the rules allow. Returns the
    game id and the dice of every roll."""
    table = Channel(service)
    board = await service.daily.start_daily(guild, channel, user, name, True)
    table.game_id = board.row.id
    await table.post(board)
    rolls = []
    for _ in range(13):
        rolled = await table.roll(user)
        assert rolled.game is not None and rolled.game.dice is not None
        rolls.append(str(rolled.game.dice))
        box = next(iter(rolled.game.options()))
        await table.score(user, box)
    return table.game_id, rolls


async def test_a_try_scores_beside_the_optimal_bot_and_once_a_day(
    service: GameService, clock: FakeClock, official_values: Table
) -> None:
    """Ann and Bob on two servers, the same keeps: the same dice. Each score is stored with
    the Optimal bot's on the same dice; a second try the same day is refused, the next day
    is a new challenge."""
    ann_game, ann_rolls = await play_daily(service, GUILD, 100, 1, "Ann")
    bob_game, bob_rolls = await play_daily(service, OTHER, 200, 2, "Bob")
    assert ann_rolls == bob_rolls  # the same dice for everyone
    ann = await service.daily.daily_entry(ann_game)
    assert ann is not None and ann.day == "2026-11-22"
    row = await service.store.read(plans.get_game, ann_game)
    assert row is not None and row.status == "finished"
    assert ann.score == Game.from_dict(row.state or {}).seats[0].card.total
    key = service.store.daily_key  # this deployment's
    assert ann.optimal == daily_optimal_score(official_values, "2026-11-22", key)
    # any total a game can reach (the key is this deployment's random one, so the dice and
    # the bot's score vary from run to run: a 400 with three Yahtzees was seen)
    assert 5 <= ann.optimal <= 1575
    with pytest.raises(Refusal, match="one try a day"):
        await service.daily.start_daily(GUILD, 101, 1, "Ann", True)
    here = await service.daily.daily_board(GUILD, everywhere=False)
    everywhere = await service.daily.daily_board(GUILD, everywhere=True)
    assert [e.name for e in here] == ["Ann"]
    assert sorted(e.name for e in everywhere) == ["Ann", "Bob"]
    clock.advance(timedelta(days=1).total_seconds())
    next_game, next_rolls = await play_daily(service, GUILD, 100, 1, "Ann")
    assert next_rolls != ann_rolls
    assert (await service.daily.daily_board(GUILD, everywhere=False))[0].game_id == next_game
    assert bob_game != ann_game


async def test_the_day_s_dice_are_the_deployment_s_own(
    service: GameService, clock: FakeClock, database: Database, tmp_path: Path
) -> None:
    """Every process on one database rolls the same day alike, under the key the database
    keeps: a try's first roll of each turn shows that turn's faces under that key. Another
    deployment (its own database) rolls other dice the same day."""
    _, ann_rolls = await play_daily(service, GUILD, 100, 1, "Ann")
    day = DailyDice("2026-11-22", service.store.daily_key)
    assert ann_rolls == ["-".join(map(str, day.faces(turn, 0))) for turn in range(13)]
    shard = await open_store(database)  # a second process on the same database
    try:
        _, cy_rolls = await play_daily(GameService(shard, None, clock), OTHER, 300, 3, "Cy")
    finally:
        await shard.close()
    assert cy_rolls == ann_rolls
    elsewhere = await open_store(tmp_path / "another-bot.sqlite3")
    try:
        _, dan_rolls = await play_daily(GameService(elsewhere, None, clock), GUILD, 100, 4, "Dan")
    finally:
        await elsewhere.close()
    assert sum(a != d for a, d in zip(ann_rolls, dan_rolls, strict=True)) >= 10


async def test_an_abandoned_try_is_the_day_s_try(service: GameService) -> None:
    """Leaving half-way (to try again with better luck) does not give a second try."""
    board = await service.daily.start_daily(GUILD, 100, 1, "Ann", True)
    await service.seating.leave_game(100, 1)
    ended = await service.store.read(plans.get_game, board.row.id)
    assert ended is not None and ended.status == "abandoned"
    with pytest.raises(Refusal, match="one try a day"):
        await service.daily.start_daily(GUILD, 100, 1, "Ann", True)
    assert await service.daily.daily_board(GUILD, everywhere=True) == []  # unfinished: not ranked


async def test_no_hints_in_a_daily_challenge(service: GameService) -> None:
    """Everyone plays the day's dice on their own judgement."""
    board = await service.daily.start_daily(GUILD, 100, 1, "Ann", True)
    assert board.row.hints is False
    with pytest.raises(Refusal, match="No hints in the daily challenge"):
        await service.coaching.hint(board.row.id, 1)


async def test_the_game_is_told_turn_by_turn_and_only_to_its_player_that_day(
    service: GameService, clock: FakeClock
) -> None:
    """The replay shows the day's dice: Bob may see Ann's only once the day is over."""
    game_id, rolls = await play_daily(service, GUILD, 100, 1, "Ann")
    with pytest.raises(Refusal, match="opens to everyone once every try"):
        await service.daily.daily_replay(game_id, 2)
    turns = await service.daily.daily_replay(game_id, 1)
    clock.advance(timedelta(days=1).total_seconds())
    assert await service.daily.daily_replay(game_id, 2) == turns
    assert len(turns) == 13
    assert [shown for turn in turns for _, shown in turn.rolls] == rolls
    row = await service.store.read(plans.get_game, game_id)
    card = Game.from_dict(row.state or {}).seats[0].card  # type: ignore[union-attr]
    assert sum(t.points + t.bonus for t in turns) + card.upper_bonus == card.total


async def test_a_day_s_replays_wait_for_its_last_try_to_end(
    service: GameService, clock: FakeClock
) -> None:
    """Cy starts the day's try at 23:59: it can be played until 23:59 the next day, so
    Ann's replay of that day (its dice) stays closed to Bob after midnight until Cy's try
    ends, and the refusal says when it opens at the latest."""
    game_id, _rolls = await play_daily(service, GUILD, 100, 1, "Ann")  # 12:00 on the 22nd
    with pytest.raises(Refusal) as today:
        await service.daily.daily_replay(game_id, 2)
    # a try may start up to 24:00 on the 22nd and lasts 24 hours: 00:00 on the 24th
    assert today.value.values["at"] == int(datetime(2026, 11, 24, tzinfo=UTC).timestamp())
    clock.advance(11 * 3600 + 59 * 60)  # 23:59 on the 22nd
    late = await service.daily.start_daily(GUILD, 300, 3, "Cy", True)
    clock.advance(2 * 60)  # 00:01 on the 23rd: the 22nd's challenge is over
    with pytest.raises(Refusal, match="still being played") as past:
        await service.daily.daily_replay(game_id, 2)
    assert past.value.values["at"] == int(datetime(2026, 11, 23, 23, 59, tzinfo=UTC).timestamp())
    assert len(await service.daily.daily_replay(game_id, 1)) == 13  # Ann sees hers
    clock.advance(23 * 3600 + 58 * 60)  # 23:59 on the 23rd: Cy's 24 hours are up
    outcomes = await tick(service)
    assert [o.row.id for o in outcomes if isinstance(o, Expired)] == [late.row.id]
    assert len(await service.daily.daily_replay(game_id, 2)) == 13


async def test_a_day_s_replays_open_at_midnight_when_no_try_runs_on(
    service: GameService, clock: FakeClock
) -> None:
    """With every try of the day over by midnight, its replays open then."""
    game_id, _rolls = await play_daily(service, GUILD, 100, 1, "Ann")
    clock.advance(12 * 3600)  # 00:00 on the 23rd
    await service.daily.start_daily(GUILD, 300, 3, "Cy", True)  # the 23rd's try: not that day
    assert len(await service.daily.daily_replay(game_id, 2)) == 13


async def test_holding_dice_does_not_keep_a_try_alive(
    service: GameService, clock: FakeClock
) -> None:
    """A try is untimed, but it lasts 24 hours from its start: a hold every six hours (no
    dice used up) does not keep it open until the day's replays show its dice."""
    table = Channel(service)
    board = await service.daily.start_daily(GUILD, 100, 1, "Ann", True)
    table.game_id = board.row.id
    await table.post(board)
    await table.roll(1)
    for _ in range(3):
        clock.advance(6 * 3600)
        await table.hold(1, 0)
        assert await tick(service) == []
    clock.advance(6 * 3600 - 1)
    assert await tick(service) == []  # 23:59:59 after the start
    clock.advance(1)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], Expired)
    assert outcomes[0].row.status == "abandoned" and outcomes[0].row.id == table.game_id


async def test_a_try_played_slowly_still_ends_a_day_after_its_start(
    service: GameService, clock: FakeClock
) -> None:
    """A roll or a scoring a day apart would keep a try going for weeks (52 moves): its
    24 hours run from its start, whatever is played in them."""
    table = Channel(service)
    board = await service.daily.start_daily(GUILD, 100, 1, "Ann", True)
    table.game_id = board.row.id
    await table.post(board)
    clock.advance(23 * 3600)
    rolled = await table.roll(1)
    assert rolled.game is not None
    await table.score(1, next(iter(rolled.game.options())))
    clock.advance(3600)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], Expired)
    assert outcomes[0].row.status == "abandoned"
