"""Games that never stall: pings, timeouts under each policy, away and rejoin, lobby and
idle timeouts, kicks, settings, and timers acted on exactly once (a controllable clock)."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app import YahtzeeBot
from bot.engine import Category, Preset, RandomDice, ScriptedDice
from bot.games import Expired, GameService, GameStatus, GameView, Pinged, Refusal, TimedOut
from bot.games.posts import SWEEP_PAGE
from bot.settings import Settings
from bot.store import Store, open_store, plans
from bot.strategy import Table as StrategyTable
from bot.strategy.analyst import Analyst

from ..clock import FakeClock
from ..conftest import Database, fetch
from .test_service import CHANNEL, Table

GUILD = 1


async def timed_table(
    service: GameService, *players: tuple[int, str], policy: str = "scratch"
) -> Table:
    """A started game on a server with a 5-minute turn limit."""
    await service.servers.change_settings(GUILD, 99, True, turn_seconds=300, timeout_policy=policy)
    table = Table(service)
    await table.seat(*players)
    return table


async def tick(service: GameService) -> list[object]:
    """What one timer pass does."""
    return [
        o
        for o in [await service.timers.act(g) for g in await service.timers.due()]
        if o is not None
    ]


async def test_half_time_ping_once(service: GameService, clock: FakeClock) -> None:
    """At half time the player is reminded once, with the time left."""
    await timed_table(service, (1, "Ann"), (2, "Bob"))
    clock.advance(149)
    assert await tick(service) == []
    clock.advance(1)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], Pinged)
    assert (outcomes[0].player_id, outcomes[0].seconds_left) == ("1", 150)
    assert await tick(service) == []  # not twice


async def test_scratch_policy_plays_the_turn(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """When time runs out before a roll: one roll, the lowest box, and the next turn starts."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"))
    dice.extend([2, 3, 4, 5, 6])
    clock.advance(300)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], TimedOut)
    timed_out = outcomes[0]
    assert (timed_out.scored.result.category, timed_out.scored.result.points) == (Category.ONES, 0)
    assert not timed_out.away
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and row.deadline_at == "2026-11-22T12:10:00+00:00"  # Bob's 5 minutes
    assert service.keeper.game_of(row).current_player_id == "2"


async def test_skip_seat_after_two_timeouts_then_rejoin(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """Ann times out twice in a row: away and skipped; she rejoins and plays next time round."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"), policy="skip-seat")
    dice.extend([2, 3, 4, 5, 6] * 8)
    clock.advance(300)
    first = await tick(service)
    assert isinstance(first[0], TimedOut) and not first[0].away
    await table.post(first[0].scored.board)
    await table.roll(2)
    await table.score(2, Category.CHANCE)
    clock.advance(300)
    second = await tick(service)
    assert isinstance(second[0], TimedOut) and second[0].away
    await table.post(second[0].scored.board)
    assert second[0].scored.board.game is not None
    assert second[0].scored.board.game.current_player_id == "2"
    await table.roll(2)
    await table.score(2, Category.SIXES)
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and service.keeper.game_of(row).current_player_id == "2"  # Ann skipped
    await service.seating.rejoin(CHANNEL, 1)
    await table.roll(2)
    await table.score(2, Category.FIVES)
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and service.keeper.game_of(row).current_player_id == "1"
    with pytest.raises(Refusal, match="not away"):
        await service.seating.rejoin(CHANNEL, 1)


@pytest.mark.parametrize("policy", ["play", "scratch"])
async def test_a_game_everyone_walked_away_from_ends_without_a_result(
    service: GameService, clock: FakeClock, dice: ScriptedDice, policy: str
) -> None:
    """Found by a play-through: two friends went to dinner and the timer played the whole
    game for them (24 turns, two hours), its results on their stats. Once the timer has
    played the last two turns of every person in the game (two rounds), the game ends
    without a result, under every policy (skip seat marks them away then already)."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"), policy=policy)
    dice.fallback = RandomDice(random.Random(3))
    for who in ("1", "2", "1"):  # Ann's turn runs out, Bob's, Ann's again: Bob was there
        clock.advance(300)
        [timed_out] = await tick(service)
        assert isinstance(timed_out, TimedOut) and not timed_out.abandoned, who
        assert timed_out.scored.result.player_id == who
    clock.advance(300)
    [last] = await tick(service)  # Bob's second: nobody has played a turn for two rounds
    assert isinstance(last, TimedOut) and last.abandoned and not last.away
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and row.status == "abandoned" and row.deadline_at is None
    assert await service.store.read(plans.results, table.game_id) == []
    clock.advance(3600)
    assert await tick(service) == []  # nothing more is played, nobody is reminded


async def test_a_player_back_at_the_table_keeps_the_game_going(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """Ann plays a turn herself between her timeouts: the game goes on past Bob's second
    timeout (Ann is there), and ends only once Ann's last two turns ran out too."""
    await timed_table(service, (1, "Ann"), (2, "Bob"), policy="play")
    dice.fallback = RandomDice(random.Random(4))
    table = Table(service)
    table.game_id = (await service.lookups.live_game(CHANNEL)).id

    async def runs_out() -> TimedOut:
        clock.advance(300)
        [timed_out] = await tick(service)
        assert isinstance(timed_out, TimedOut)
        await table.post(timed_out.scored.board)
        return timed_out

    assert not (await runs_out()).abandoned  # Ann, 1
    assert not (await runs_out()).abandoned  # Bob, 1
    await table.roll(1)  # Ann is back: her own turn
    await table.score(1, Category.CHANCE)
    assert not (await runs_out()).abandoned  # Bob, 2: Ann played the last round herself
    assert not (await runs_out()).abandoned  # Ann, 1
    assert not (await runs_out()).abandoned  # Bob, 3
    assert (await runs_out()).abandoned  # Ann, 2: nobody is there any more


async def test_kick_only_away_players_by_host_or_admin(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """Bob (not host) cannot kick; Ann (host) cannot kick a present player; an away one goes."""
    await timed_table(service, (1, "Ann"), (2, "Bob"), (3, "Cat"), policy="skip-seat")
    with pytest.raises(Refusal, match="Only the host"):
        await service.seating.kick(CHANNEL, 2, 3, is_admin=False)
    with pytest.raises(Refusal, match="not away"):
        await service.seating.kick(CHANNEL, 1, 3, is_admin=False)
    table = Table(service)
    table.game_id = (await service.lookups.live_game(CHANNEL)).id
    table.board_id = (await service.lookups.live_game(CHANNEL)).board_message_id
    dice.extend([2, 3, 4, 5, 6] * 6)
    for box in (Category.CHANCE, Category.SIXES):
        await table.roll(1)
        await table.score(1, box)
        await table.roll(2)
        await table.score(2, box)
        clock.advance(300)
        outcomes = await tick(service)
        assert isinstance(outcomes[0], TimedOut) and outcomes[0].scored.result.player_id == "3"
        await table.post(outcomes[0].scored.board)
    assert outcomes[0].away
    board = await service.seating.kick(CHANNEL, 99, 3, is_admin=True)
    assert board.game is not None and board.game.seats[2].left
    with pytest.raises(Refusal, match="Cat has left the game already"):
        await service.seating.kick(CHANNEL, 99, 3, is_admin=True)


async def test_a_host_removed_while_away_hands_the_host_role_on(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """Ann hosts and times out twice (skip-seat: away); an admin removes her: Bob, the next
    person still playing, hosts now (he may end the game; Ann may not)."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"), (3, "Cat"), policy="skip-seat")
    dice.extend([2, 3, 4, 5, 6] * 8)
    for box in (Category.CHANCE, Category.SIXES):
        clock.advance(300)
        outcomes = await tick(service)
        assert isinstance(outcomes[0], TimedOut) and outcomes[0].scored.result.player_id == "1"
        await table.post(outcomes[0].scored.board)
        await table.roll(2)
        await table.score(2, box)
        await table.roll(3)
        await table.score(3, box)
    assert outcomes[0].away
    await service.seating.kick(CHANNEL, 99, 1, is_admin=True)
    row = await service.lookups.live_game(CHANNEL)
    assert row.host_id == 2
    assert (await service.servers.check_can_end(CHANNEL, 2, is_admin=False)).id == row.id
    with pytest.raises(Refusal, match="Only the host"):
        await service.servers.check_can_end(CHANNEL, 1, is_admin=False)


async def test_lobby_timeout(service: GameService, clock: FakeClock) -> None:
    """A lobby nobody starts closes after 15 minutes, and the channel is free again."""
    await service.lobby.open_lobby(GUILD, CHANNEL, 1, "Ann", None)
    clock.advance(14 * 60)
    assert await tick(service) == []
    clock.advance(60)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], Expired)
    assert outcomes[0].row.status == "cancelled"
    await service.lobby.open_lobby(GUILD, CHANNEL, 2, "Bob", None)


async def test_a_day_without_a_move_abandons_the_game(
    service: GameService, clock: FakeClock
) -> None:
    """With no turn limit, 24 hours without a move by anyone ends the game as abandoned."""
    table = Table(service)
    await service.servers.change_settings(GUILD, 99, True, turn_seconds=0)
    await table.seat((1, "Ann"), (2, "Bob"))
    clock.advance(24 * 3600 - 1)
    assert await tick(service) == []
    clock.advance(1)
    outcomes = await tick(service)
    assert isinstance(outcomes[0], Expired) and outcomes[0].row.status == "abandoned"
    assert await service.store.read(plans.results, table.game_id) == []


async def test_holds_do_not_count_as_moves(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """Holding and releasing dice uses nothing up: a day of it still abandons an untimed
    game; a roll counts."""
    table = Table(service)
    await service.servers.change_settings(GUILD, 99, True, turn_seconds=0)
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([1, 2, 3, 4, 5] * 2)
    await table.roll(1)
    clock.advance(12 * 3600)
    await table.hold(1, 0)
    clock.advance(12 * 3600 - 1)
    await table.hold(1, 0)
    assert await tick(service) == []
    await table.roll(1)  # a day after the last roll, less a second: a move
    clock.advance(24 * 3600 - 1)
    await table.hold(1, 1)
    assert await tick(service) == []
    clock.advance(1)
    outcomes = await tick(service)
    assert len(outcomes) == 1 and isinstance(outcomes[0], Expired)
    assert outcomes[0].row.status == "abandoned"


async def test_timeouts_do_not_count_as_moves(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """A game kept going only by timeouts is still abandoned a day after the last real
    move. Each player holds a die of the roll made for them every turn (there, so the game
    is not one everyone walked away from, but a hold is no move) and lets the timer play."""
    await service.servers.change_settings(
        GUILD, 99, True, turn_seconds=3600, auto_roll=True
    )  # 24 turns take 24 hours
    dice.fallback = RandomDice(random.Random(5))  # the turns are played for them (play)
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    for hour in range(1, 25):
        turn, _ = await table.state()
        await table.hold(1 + turn % 2, 0)  # Ann's turns are the even ones
        clock.advance(3600)
        [outcome] = await tick(service)
        if hour < 24:
            assert isinstance(outcome, TimedOut) and not outcome.abandoned, hour
            await table.post(outcome.scored.board)
    assert isinstance(outcome, Expired) and outcome.row.status == "abandoned"
    assert "24 hours" in outcome.reason


async def test_overdue_game_acted_on_once_by_two_processes(
    database: Database, clock: FakeClock, dice: ScriptedDice
) -> None:
    """After a restart two bot processes overlap: the overdue turn is played exactly once."""
    first = await open_store(database)
    service = GameService(first, dice, clock)
    table = await timed_table(service, (1, "Ann"), (2, "Bob"))
    await first.close()
    clock.advance(3600)  # the bot was down for an hour
    stores = [await open_store(database), await open_store(database)]
    try:
        services = [GameService(s, dice, clock) for s in stores]
        dice.extend([2, 3, 4, 5, 6] * 2)
        due = [await s.timers.due() for s in services]
        assert due == [[table.game_id], [table.game_id]]
        outcomes = await asyncio.gather(*(s.timers.act(table.game_id) for s in services))
        assert sum(isinstance(o, TimedOut) for o in outcomes) == 1
        assert outcomes.count(None) == 1
        actions = [m[2] for m in await stores[0].read(plans.moves, table.game_id)]
        assert actions.count("timeout") == 1
    finally:
        for s in stores:
            await s.close()


async def test_settings_are_validated_and_need_manage_server(service: GameService) -> None:
    """Only admins change settings; values outside the choices are refused; good ones stick."""
    with pytest.raises(Refusal, match="Manage Server"):
        await service.servers.change_settings(GUILD, 5, False, turn_seconds=60)
    with pytest.raises(Refusal, match="choices"):
        await service.servers.change_settings(GUILD, 5, True, turn_seconds=7)
    with pytest.raises(Refusal, match="choices"):
        await service.servers.change_settings(GUILD, 5, True, timeout_policy="explode")
    with pytest.raises(Refusal):
        await service.servers.change_settings(GUILD, 5, True, preset="house")
    with pytest.raises(Refusal, match="no setting"):
        await service.servers.change_settings(GUILD, 5, True, colour="red")
    saved = await service.servers.change_settings(
        GUILD, 5, True, preset="bonus-turn", use_threads=True
    )
    assert (saved.preset, saved.turn_seconds, saved.use_threads) == (Preset.BONUS_TURN, 300, True)
    assert await service.servers.server_settings(GUILD) == saved
    lobby = await service.lobby.open_lobby(GUILD, CHANNEL, 1, "Ann", None)
    assert lobby.preset is Preset.BONUS_TURN  # the server's default preset


async def test_each_process_times_out_only_the_servers_of_its_shards(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    """Two shard processes on one database: each acts on the lobbies of its own servers
    (Discord's rule: shard = (server id >> 22) % shard count)."""
    even, odd = 1000 << 22, 1001 << 22  # servers of shard 0 and of shard 1 of 2
    service = GameService(store, clock=clock)
    first = await service.lobby.open_lobby(even, 10, 1, "Ann", None)
    second = await service.lobby.open_lobby(odd, 11, 2, "Bob", None)
    clock.advance(3600)
    bots = [
        YahtzeeBot(
            Settings(token="t", database_path=tmp_path / "db", shard_count=2, shard_ids=(shard,))
        )
        for shard in (0, 1)
    ]
    assert [await service.timers.due(bot.owns) for bot in bots] == [[first.id], [second.id]]
    # a game outside any server (a DM, a group DM) is shard 0's: Discord sends events
    # without a guild, its clicks included, to shard 0 only
    assert bots[0].owns(None) and not bots[1].owns(None)
    alone = YahtzeeBot(Settings(token="t", database_path=tmp_path / "db"))
    assert await service.timers.due(alone.owns) == [first.id, second.id]


async def test_the_discord_side_sees_a_view_with_times_and_the_engine_game(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """What the service hands the cogs is a ``GameView``, not a store row: the deadline a
    datetime (by hand: 12:00 plus the 5-minute limit = 12:05 UTC), the preset and status
    enums, the engine's game with the dice just rolled, the channel boards go to."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"))
    dice.extend([6, 6, 5, 5, 1])
    board = await table.roll(1)
    view = board.row
    assert isinstance(view, GameView)
    assert view.deadline == datetime(2026, 11, 22, 12, 5, tzinfo=UTC)
    assert view.preset is Preset.OFFICIAL and view.status is GameStatus.ACTIVE
    assert view.game is not None and list(view.game.dice or []) == [6, 6, 5, 5, 1]
    assert view.board_channel_id == CHANNEL and view.players == [(1, "Ann"), (2, "Bob")]
    found = await service.lookups.find(table.game_id)
    assert isinstance(found, GameView) and found.require_game().current_player_id == "1"
    lobby = await service.lobby.open_lobby(GUILD, CHANNEL + 1, 3, "Cat", None)
    assert lobby.game is None  # nothing played yet
    with pytest.raises(Refusal, match="not started"):
        lobby.require_game()


async def test_a_repair_of_every_board_reads_the_live_games_a_page_at_a_time(
    store: Store, dice: ScriptedDice, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reconnect's sweep over more live games than a page finds each once, in id order,
    and no read hands it more than ``SWEEP_PAGE`` games to decode at once (1,000 read in one
    go held the event loop up to 80 ms; issue 40)."""
    service = GameService(store, dice, clock)
    count = 2 * SWEEP_PAGE + 3  # two whole pages and a part
    opened = [
        (await service.lobby.open_lobby(GUILD, CHANNEL + n, 1000 + n, f"P{n}", None)).id
        for n in range(count)
    ]
    largest = 0
    read = store.read

    async def counted(plan: Any, /, *args: Any, **kwargs: Any) -> Any:
        nonlocal largest
        result = await read(plan, *args, **kwargs)
        if isinstance(result, list):
            largest = max(largest, len(result))
        return result

    monkeypatch.setattr(store, "read", counted)
    assert [v.id for v in await service.posts.needing_messages()] == sorted(opened)
    assert 0 < largest <= SWEEP_PAGE


async def test_a_game_whose_state_cannot_be_read_leaves_the_sweeps_to_the_others(
    store: Store, database: Database, dice: ScriptedDice, clock: FakeClock
) -> None:
    """A start-up repair and the timer's board check look at every live game: one damaged
    row is left out (and logged), the other games are still there to repair."""
    service = GameService(store, dice, clock)
    first, second = Table(service), Table(service)
    await first.seat((1, "Ann"))
    second_lobby = await service.lobby.open_lobby(GUILD, CHANNEL + 1, 2, "Bob", "official")
    second.game_id = second_lobby.id
    await second.post(await service.lobby.begin(second.game_id, 2))
    await fetch(database, "UPDATE games SET state = '{}' WHERE id = ?", first.game_id)
    fresh = GameService(store, dice, clock)  # a restart: nothing cached
    assert [v.id for v in await fresh.posts.needing_messages()] == [second.game_id]
    assert [v.id for v in await fresh.lookups.live_games()] == [second.game_id]
    await fetch(database, "UPDATE games SET board_version = NULL")  # both boards left behind
    clock.advance(60)
    assert [v.id for v in await fresh.timers.boards_behind()] == [second.game_id]


async def test_a_server_that_never_chose_has_its_turns_played_for_them(
    service: GameService, store: Store, clock: FakeClock, dice: ScriptedDice, tmp_path: Path,
    official_values: StrategyTable,
) -> None:  # fmt: skip
    """Issue 41: with no settings saved, a turn that runs out is played as the Optimal bot
    would. By hand: on an empty card it keeps the three 5s of 6-5-1-5-5 and rolls two;
    5-5 makes a Yahtzee, which it takes (50), where scratch would put a 0 in Twos. Each roll
    it made is in the log, which plays the game again to the state stored."""
    assert (await service.servers.server_settings(GUILD)).timeout_policy == "play"
    analyst = Analyst(tmp_path)
    analyst.table = official_values  # as if loaded in the background
    service = GameService(store, dice, clock, analyst=analyst)
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([6, 5, 1, 5, 5, 5, 5])
    clock.advance(300)
    [timed_out] = await tick(service)
    assert isinstance(timed_out, TimedOut) and timed_out.played_as == "optimal"
    result = timed_out.scored.result
    assert (result.category, result.points, str(result.dice)) == (Category.YAHTZEE, 50, "5-5-5-5-5")
    assert not timed_out.away and dice.remaining == 0
    moves = [
        (action, detail, shown)
        for _, _, action, detail, shown in await store.read(plans.moves, table.game_id)
    ]
    assert moves[-3:] == [
        ("timeout-roll", "00000", "6-5-1-5-5"),
        ("timeout-roll", "01011", "5-5-5-5-5"),  # the three 5s held
        ("timeout", "yahtzee 50", "5-5-5-5-5"),
    ]
    row = await store.read(plans.get_game, table.game_id)
    assert row is not None and row.timeout_policy == "play"
    replayed = (await service.history.replayed(table.game_id)).game
    assert replayed is not None and replayed.to_dict() == service.keeper.game_of(row).to_dict()
    assert service.keeper.game_of(row).current_player_id == "2"


async def test_play_for_them_takes_the_casual_bot_until_the_table_is_ready(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """No table loaded yet: the Casual bot plays the turn (by hand: it keeps its most common
    face, 5-5-5 of 6-5-1-5-5, and takes the Yahtzee the next roll brings)."""
    await timed_table(service, (1, "Ann"), (2, "Bob"), policy="play")
    dice.extend([6, 5, 1, 5, 5, 5, 5])
    clock.advance(300)
    [timed_out] = await tick(service)
    assert isinstance(timed_out, TimedOut) and timed_out.played_as == "casual"
    assert (timed_out.scored.result.category, timed_out.scored.result.points) == (
        Category.YAHTZEE, 50
    )  # fmt: skip


async def test_a_server_that_chose_scratch_keeps_it(
    service: GameService, clock: FakeClock, dice: ScriptedDice
) -> None:
    """A server whose admin picked scratch keeps it: 6-5-1-5-5 goes in Twos for 0 (the
    legal box worth least: no 2s, and Twos can least ever score of the boxes worth 0)."""
    await timed_table(service, (1, "Ann"), (2, "Bob"), policy="scratch")
    dice.extend([6, 5, 1, 5, 5])
    clock.advance(300)
    [timed_out] = await tick(service)
    assert isinstance(timed_out, TimedOut) and timed_out.played_as is None
    assert (timed_out.scored.result.category, timed_out.scored.result.points) == (
        Category.TWOS, 0
    )  # fmt: skip
