"""The report card: what each decision cost against optimal play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine import Category, RandomDice, Scorecard, ScriptedDice
from bot.games import BoardClick, GameService, Refusal
from bot.store import GuildSettings, Store, plans
from bot.strategy import Table
from bot.strategy.analyst import Analyst
from bot.strategy.decisions import best, future

from .test_service import CHANNEL
from .test_service import Table as Channel


def analyst_with(table: Table, folder: Path) -> Analyst:
    analyst = Analyst(folder)
    analyst.table = table  # as if loaded in the background
    return analyst


async def play_optimally(service: GameService, channel: Channel, table: Table, user: int) -> None:
    """Play every turn of a solo game the way the table says is best."""
    while True:
        row = await service.store.read(plans.get_game, channel.game_id)
        assert row is not None
        if row.status != "active":
            return
        game = service.keeper.game_of(row)
        if game.dice is None:
            await channel.roll(user)
            continue
        choice = best(table, game.current_seat.card, game.dice, game.rolls_left)
        if choice.box is not None:
            await channel.score(user, choice.box)
            continue
        assert choice.keep is not None
        wanted = list(choice.keep)
        for index, face in enumerate(game.dice):
            keep = face in wanted
            if keep:
                wanted.remove(face)
            if keep != game.held[index]:
                await channel.hold(user, index)
        await channel.roll(user)


async def test_a_game_played_optimally_loses_nothing(
    store: Store, official: Table, tmp_path: Path
) -> None:
    """Every decision optimal: 0 points lost, every decision counted as optimal."""
    dice = ScriptedDice(fallback=RandomDice(random.Random(11)))
    service = GameService(store, dice, analyst=analyst_with(official, tmp_path))
    channel = Channel(service)
    await channel.seat((1, "Ann"))
    await play_optimally(service, channel, official, 1)
    report = await service.coaching.report(channel.game_id, 1)
    assert report.loss == pytest.approx(0.0, abs=1e-9)
    assert report.decisions >= 13 and report.optimal == report.decisions
    assert report.costliest == []
    results = await store.read(plans.results, channel.game_id)
    assert results[0].expected_loss == pytest.approx(0.0, abs=1e-9)


async def test_a_bad_move_is_charged_its_value_difference(
    store: Store, official: Table, tmp_path: Path
) -> None:
    """Five sixes on the first roll of an empty card scored in Chance: charged exactly
    (50 + V(after Yahtzee)) - (30 + V(after Chance)), from the table's own values."""
    dice = ScriptedDice([6] * 5)
    service = GameService(store, dice, analyst=analyst_with(official, tmp_path))
    channel = Channel(service)
    await channel.seat((1, "Ann"), (2, "Bob"))
    await channel.roll(1)
    await channel.score(1, Category.CHANCE)
    yahtzee = Scorecard().fill(Category.YAHTZEE, [6] * 5)
    chance = Scorecard().fill(Category.CHANCE, [6] * 5)
    expected = (50 + future(official, yahtzee)) - (30 + future(official, chance))
    report = await service.coaching.report(channel.game_id, 1)
    assert report.loss == pytest.approx(expected, abs=1e-6)
    assert report.decisions == 1 and report.optimal == 0
    assert str(report.costliest[0]).startswith(
        "Round 1, first roll: you scored Chance; score Yahtzee now"
    )


async def test_an_undone_scoring_is_not_charged(
    store: Store, official: Table, tmp_path: Path
) -> None:
    """A slip taken back with Undo leaves no cost; the scoring that replaced it counts."""
    dice = ScriptedDice([6] * 5)
    service = GameService(store, dice, analyst=analyst_with(official, tmp_path))
    channel = Channel(service)
    await channel.seat((1, "Ann"), (2, "Bob"))
    await channel.roll(1)
    await channel.score(1, Category.CHANCE)
    undone = await service.turns.undo(BoardClick(channel.game_id, 1, channel.undo_id, 0))
    await service.posts.board_shown(undone.board.row, channel.undo_id or 0, undone.board.game)
    channel.board_id = channel.undo_id
    await channel.score(1, Category.YAHTZEE)
    report = await service.coaching.report(channel.game_id, 1)
    assert report.loss == pytest.approx(0.0, abs=1e-9) and report.decisions == 1


async def test_no_report_for_strangers(store: Store, official: Table, tmp_path: Path) -> None:
    """Someone who did not play gets a plain refusal."""
    service = GameService(
        store, ScriptedDice([1, 2, 3, 4, 5]), analyst=analyst_with(official, tmp_path)
    )
    official_game = Channel(service)
    await official_game.seat((2, "Bob"))
    with pytest.raises(Refusal, match="did not play"):
        await service.coaching.report(official_game.game_id, 9)


async def test_before_the_table_is_ready(store: Store, tmp_path: Path) -> None:
    """Until the table is loaded, a hint says so, decisions are not charged, and the optimal
    bot plays the casual strategy instead of waiting."""
    analyst = Analyst(tmp_path)  # never started: no table yet
    service = GameService(store, ScriptedDice([6, 6, 6, 1, 2] * 20), analyst=analyst)
    row = await service.lobby.open_lobby(1, 100, 1, "Ann", None)
    await service.lobby.add_bot(row.id, 1, "optimal")
    channel = Channel(service)
    channel.game_id = row.id
    board = await service.lobby.begin(row.id, 1)
    await channel.post(board)
    await channel.roll(1)
    with pytest.raises(Refusal, match="still being prepared"):
        await service.coaching.hint(row.id, 1)
    await channel.score(1, Category.SIXES)
    step = await service.turns.bot_step(row.id)  # the casual strategy: rolls, holds sixes...
    while step is not None and not hasattr(step, "result"):
        step = await service.turns.bot_step(row.id)
    assert step is not None and step.result.player_id == "-11"  # type: ignore[union-attr]
    decisions = await store.read(plans.decisions, row.id, 1)
    assert all(loss is None for _, loss, _ in decisions)


async def test_a_player_who_left_gets_no_perfect_game(
    store: Store, official: Table, tmp_path: Path
) -> None:
    """Ann scores five sixes in Yahtzee (the best move) and leaves: one optimal decision
    of one, but the report says she left (its words: tests/cogs/test_messages.py)."""
    dice = ScriptedDice([6] * 5)
    service = GameService(store, dice, analyst=analyst_with(official, tmp_path))
    channel = Channel(service)
    await channel.seat((1, "Ann"), (2, "Bob"))
    await channel.roll(1)
    await channel.score(1, Category.YAHTZEE)
    before = await service.coaching.report(channel.game_id, 1)
    assert (before.decisions, before.optimal, before.left) == (1, 1, False)
    await service.seating.leave_game(CHANNEL, 1)
    report = await service.coaching.report(channel.game_id, 1)
    assert (report.decisions, report.optimal, report.left) == (1, 1, True)


async def test_a_scorings_cost_stays_with_its_player_when_the_next_turn_starts_rolled(
    store: Store, official: Table, tmp_path: Path
) -> None:
    """The server rolls each turn's first roll: Ann's five sixes in Chance are charged to
    Ann, not to the opening roll made for Bob right after (saved under Bob's id)."""
    await store.write(plans.save_guild_settings, 1, GuildSettings(auto_roll=True), 0)
    dice = ScriptedDice([6] * 5 + [1, 2, 3, 4, 6])
    service = GameService(store, dice, analyst=analyst_with(official, tmp_path))
    channel = Channel(service)
    await channel.seat((1, "Ann"), (2, "Bob"))  # Ann's first roll is made as the game starts
    await channel.score(1, Category.CHANCE)
    row = await store.read(plans.get_game, channel.game_id)
    assert row is not None and service.keeper.game_of(row).dice is not None  # Bob's, rolled
    report = await service.coaching.report(channel.game_id, 1)
    assert report.decisions == 1 and report.optimal == 0
    assert str(report.costliest[0]).startswith("Round 1, first roll: you scored Chance")
    with pytest.raises(Refusal, match="nothing to analyse"):
        await service.coaching.report(channel.game_id, 2)
