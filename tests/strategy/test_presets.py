"""Every preset's own table: the empty card's value against a solver written apart from the
project, and end states worked out by hand; the hints that read it (the bonus turn too)."""

from __future__ import annotations

from math import comb

import pytest

from bot.engine import Category, Preset, Scorecard
from bot.strategy import Table
from bot.strategy.builds import to_win_build_memory
from bot.strategy.decisions import evaluate, future
from bot.strategy.dice_space import dice_space
from bot.strategy.states import BOX_ORDER, MASKS

#: The optimal expected scores from the empty card, from a solver written apart from the
#: project (official: the published 254.5877).
INDEPENDENT = {
    "official": 254.5877287,
    "relaxed-joker": 254.5890973,
    "bonus-turn": 252.0018138,
}

#: One die chased for a face over three rolls shows it at the end with 1 - (5/6)**3.
P_FACE = 1 - (5 / 6) ** 3  # 91/216
#: Five alike within three rolls, keeping the most common face: 2,783,176 / 6**10.
P_YAHTZEE = 2_783_176 / 6**10


@pytest.fixture
def tables(
    official_values: Table, relaxed_joker_values: Table, bonus_turn_values: Table
) -> dict[str, Table]:
    return {
        "official": official_values,
        "relaxed-joker": relaxed_joker_values,
        "bonus-turn": bonus_turn_values,
    }


def only_open(*open_boxes: Category) -> int:
    """The mask of a card with every box filled but these."""
    return MASKS - 1 - sum(1 << BOX_ORDER.index(c) for c in open_boxes)


@pytest.mark.parametrize("rules", list(INDEPENDENT))
def test_the_empty_cards_value_is_the_independent_solvers(
    tables: dict[str, Table], rules: str
) -> None:
    assert tables[rules].expected_score == pytest.approx(INDEPENDENT[rules], abs=1e-6)


@pytest.mark.parametrize("rules", list(INDEPENDENT))
def test_only_chance_open(tables: dict[str, Table], rules: str) -> None:
    """Each die kept from 5 up on the first roll, from 4 up on the second: 5 x 14/3 = 70/3
    (the Yahtzee box holds 0, so no bonus)."""
    value = tables[rules].value[only_open(Category.CHANCE), 0, 0]
    assert value == pytest.approx(70 / 3, abs=1e-4)  # float32 on disk


@pytest.mark.parametrize("rules", list(INDEPENDENT))
def test_only_yahtzee_open(tables: dict[str, Table], rules: str) -> None:
    """50 times the chance of five alike in three rolls."""
    value = tables[rules].value[only_open(Category.YAHTZEE), 0, 0]
    assert value == pytest.approx(50 * P_YAHTZEE, abs=1e-5)


@pytest.mark.parametrize("rules", list(INDEPENDENT))
def test_only_sixes_open_three_sixes_short_of_the_bonus(
    tables: dict[str, Table], rules: str
) -> None:
    """Upper total 45: each die a six with 91/216; three sixes or more add the 35."""
    p = P_FACE
    at_least_three = sum(comb(5, k) * p**k * (1 - p) ** (5 - k) for k in (3, 4, 5))
    value = tables[rules].value[only_open(Category.SIXES), 45, 0]
    assert value == pytest.approx(30 * p + 35 * at_least_three, abs=1e-4)


def test_bonus_turns_use_up_the_game(tables: dict[str, Table]) -> None:
    """Under ``bonus-turn`` eleven boxes and two bonus turns are 13 turns: the game is over,
    two boxes open; under ``official`` the same boxes still have two turns to play."""
    mask = only_open(Category.CHANCE, Category.ONES)
    assert tables["bonus-turn"].value[mask, 0, 3] == 0.0  # flag 3: 50 held, 2 bonuses taken
    assert tables["bonus-turn"].value[mask, 0, 1] > 20  # no bonus taken: two turns to come
    assert tables["official"].value[mask, 0, 1] > 20


def bonus_card(bonuses: int, *open_boxes: Category) -> Scorecard:
    """A ``bonus-turn`` card with every box filled but these: 0 in each, 50 in Yahtzee."""
    boxes = {c: 0 for c in Category if c not in open_boxes}
    boxes[Category.YAHTZEE] = 50
    return Scorecard(Preset.BONUS_TURN, boxes, bonuses)


def test_a_hint_names_the_bonus_turn_with_its_value(bonus_turn_values: Table) -> None:
    """Last turn (ten boxes and two bonuses), last roll, 6-6-6-6-6, Ones, Twos and Chance
    open: the bonus turn is worth 100 more, Chance 30, the upper boxes nothing."""
    card = bonus_card(2, Category.ONES, Category.TWOS, Category.CHANCE)
    total = card.total  # 50 + 200
    ranked = evaluate(bonus_turn_values, card, [6, 6, 6, 6, 6], 0)
    assert ranked[0].bonus_turn and ranked[0].box is Category.YAHTZEE
    assert ranked[0].value == total + 100
    assert str(ranked[0].describe()) == "Take the bonus turn now (+100)"
    values = {c.box: c.value for c in ranked if not c.bonus_turn}
    assert values == {Category.ONES: total, Category.TWOS: total, Category.CHANCE: total + 30}


def test_no_bonus_turn_once_three_are_taken(bonus_turn_values: Table) -> None:
    """Three bonuses taken (nine boxes filled, one turn left): 6-6-6-6-6 is Chance's 30."""
    card = bonus_card(3, Category.ONES, Category.TWOS, Category.THREES, Category.CHANCE)
    ranked = evaluate(bonus_turn_values, card, [6, 6, 6, 6, 6], 0)
    assert not any(c.bonus_turn for c in ranked)
    assert ranked[0].box is Category.CHANCE and ranked[0].value == card.total + 30


def test_a_table_values_only_cards_of_its_own_preset(bonus_turn_values: Table) -> None:
    with pytest.raises(ValueError):
        future(bonus_turn_values, Scorecard(Preset.OFFICIAL))


@pytest.mark.parametrize("rules", list(INDEPENDENT))
def test_the_first_rolls_best_choice_is_worth_the_tables_value(
    tables: dict[str, Table], rules: str
) -> None:
    """Averaged over the 252 first rolls, the best choice's value is the empty card's."""
    space = dice_space()
    card = Scorecard(rules)
    mean = sum(
        p * evaluate(tables[rules], card, roll, 2)[0].value
        for roll, p in zip(space.rolls, space.roll_probability, strict=True)
    )
    assert mean == pytest.approx(tables[rules].expected_score, abs=1e-3)


@pytest.mark.parametrize("rules", ["official", "relaxed-joker"])
def test_the_relaxed_joker_may_scratch_an_upper_box(tables: dict[str, Table], rules: str) -> None:
    """Two turns left, Ones and Chance open, 0 in Yahtzee and Sixes filled; 6-6-6-6-6 on the
    last roll is a Joker. Chance: 30 and then Ones alone (each die a one with 91/216: 5 x
    91/216). Under ``relaxed-joker`` also Ones for 0, and then Chance alone (70/3)."""
    boxes = {c: 0 for c in Category if c not in (Category.ONES, Category.CHANCE)}
    card = Scorecard(rules, boxes)
    values = {c.box: c.value for c in evaluate(tables[rules], card, [6, 6, 6, 6, 6], 0)}
    expected = {Category.CHANCE: 30 + 5 * P_FACE}
    if rules == "relaxed-joker":
        expected[Category.ONES] = 70 / 3
    assert values == pytest.approx(expected, abs=1e-4)


def test_every_preset_has_the_memory_its_to_win_build_was_measured_to_need() -> None:
    """The memory a To-win build waits for comes from the preset's own table (no list of
    presets to forget): the measured peaks with room, 215 MiB for two Yahtzee flags (186
    to 189 MiB measured), 270 MiB for bonus-turn's five (242 to 245 MiB measured)."""
    mib = {p.value: to_win_build_memory(p.value) / 2**20 for p in Preset}
    assert abs(mib["official"] - 215) < 1 and abs(mib["relaxed-joker"] - 215) < 1
    assert abs(mib["bonus-turn"] - 270) < 1
    assert all(needs > 189 for needs in mib.values())
