"""The coach and the Optimal bot under every preset, each by its own table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Category, Preset, Scorecard, ScriptedDice
from bot.games import GameService
from bot.store import Store, plans
from bot.strategy import Table
from bot.strategy.analyst import Analyst
from bot.strategy.decisions import evaluate
from bot.strategy.players import OptimalPlayer

from .test_service import Table as Channel

SIXES = [6, 6, 6, 6, 6]
#: 50 in Yahtzee, two bonus turns, nine boxes filled with 1-2-3-4-6: twelve turns played.
FIRST_TWELVE = [Category.YAHTZEE, Category.YAHTZEE, Category.YAHTZEE, Category.THREES,
                Category.FOURS, Category.FIVES, Category.SIXES, Category.THREE_OF_A_KIND,
                Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.SMALL_STRAIGHT,
                Category.LARGE_STRAIGHT]  # fmt: skip


def analyst_with(folder: Path, *tables: Table) -> Analyst:
    analyst = Analyst(folder)
    for table in tables:
        analyst.table = table  # as if loaded: each serves its own rules
    return analyst


async def test_the_last_turn_of_a_bonus_turn_game(
    store: Store, official_values: Table, bonus_turn_values: Table, tmp_path: Path
) -> None:
    """The 13th turn (Ones, Twos and Chance open), 6-6-6-6-6: the hint's first choice is the
    bonus turn, worth exactly 100 more (nothing comes after it), Chance 30 more; the menu
    marks it; taken, the game ends and the report card and the points left on the table are
    there."""
    faces = SIXES * 3 + [1, 2, 3, 4, 6] * 9 + SIXES
    analyst = analyst_with(tmp_path, official_values, bonus_turn_values)
    service = GameService(store, ScriptedDice(faces), analyst=analyst)
    channel = Channel(service)
    await channel.seat((1, "Ann"), preset="bonus-turn")
    for box in FIRST_TWELVE:
        await channel.roll(1)
        await channel.score(1, box)
    await channel.roll(1)
    row = await store.read(plans.get_game, channel.game_id)
    assert row is not None
    game = service.keeper.game_of(row)
    total = game.current_seat.card.total
    # 50, two bonuses, Threes 3, Fours 4, Sixes 6, Small Straight 30 (1-2-3-4-6 is no large)
    assert game.current_seat.card.yahtzee_bonuses == 2 and total == 50 + 200 + 3 + 4 + 6 + 30

    choices = await service.coaching.hint(channel.game_id, 1, count=13)
    assert choices[0].bonus_turn and choices[0].box is Category.YAHTZEE
    assert choices[0].value == pytest.approx(total + 100)
    assert str(choices[0].describe()) == "Take the bonus turn now (+100)"
    chance = next(c for c in choices if c.box is Category.CHANCE)
    assert chance.value == pytest.approx(total + 30)
    mark = service.drawing.best_box(row, game)
    assert mark is not None and (mark.box, mark.stop_now) == (Category.YAHTZEE, True)

    await channel.score(1, Category.YAHTZEE)
    await service.coaching.costs_settled(channel.game_id)
    report = await service.coaching.report(channel.game_id, 1)
    assert report.decisions == 13 and report.loss > 0
    (result,) = await store.read(plans.results, channel.game_id)
    assert result.expected_loss == pytest.approx(report.loss)


async def test_a_relaxed_joker_hint_is_by_its_own_table(
    store: Store, official_values: Table, relaxed_joker_values: Table, tmp_path: Path
) -> None:
    """Under ``relaxed-joker`` a hint is given (no longer refused), by the relaxed table:
    2-3-4-5-6 on the first roll, the large straight at once."""
    analyst = analyst_with(tmp_path, official_values, relaxed_joker_values)
    service = GameService(store, ScriptedDice([2, 3, 4, 5, 6]), analyst=analyst)
    channel = Channel(service)
    await channel.seat((1, "Ann"), preset="relaxed-joker")
    await channel.roll(1)
    (best,) = await service.coaching.hint(channel.game_id, 1, count=1)
    assert best.box is Category.LARGE_STRAIGHT
    card = Scorecard(Preset.RELAXED_JOKER)
    assert best == evaluate(relaxed_joker_values, card, [2, 3, 4, 5, 6], 2)[0]
    assert best != evaluate(official_values, Scorecard(), [2, 3, 4, 5, 6], 2)[0]  # its value


@pytest.mark.parametrize("preset", list(Preset))
def test_the_optimal_seat_plays_by_its_presets_table(
    preset: Preset, official_values: Table, relaxed_joker_values: Table,
    bonus_turn_values: Table, store: Store, tmp_path: Path,
) -> None:  # fmt: skip
    tables = (official_values, relaxed_joker_values, bonus_turn_values)
    service = GameService(store, ScriptedDice(), analyst=analyst_with(tmp_path, *tables))
    player = service.turns._bot_player("-1", preset)  # an Optimal seat's id
    assert isinstance(player, OptimalPlayer) and player.table.rules == preset.value
