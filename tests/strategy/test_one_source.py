"""The solver scores by the engine's rules, not a copy of them: its tables against the
engine's ``score`` for every roll and box, and its Joker choices against the engine's
scorecard for every card whose Yahtzee box is filled and every Yahtzee."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from bot.engine import UPPER, Category, Preset, Scorecard, score
from bot.strategy import Table
from bot.strategy.decisions import best_box, evaluate, stop_now
from bot.strategy.dice_space import dice_space
from bot.strategy.solver import Solver
from bot.strategy.states import BOX_ORDER, BOXES, MASKS, YAHTZEE, score_tables


def test_the_box_order_is_the_engines() -> None:
    """Bit ``b`` of the solver's masks is the ``b``-th box of a score sheet, as written out by
    hand here, and the named lower boxes sit where that order puts them."""
    sheet = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
             "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
             "chance"]  # fmt: skip
    assert [c.value for c in BOX_ORDER] == sheet
    assert (BOXES, MASKS, YAHTZEE) == (13, 8192, 11)


def test_score_tables_match_the_engine_on_every_roll() -> None:
    """All 252 rolls in all 13 boxes; a few values worked out by hand as well."""
    plain, joker = score_tables()
    rolls = list(combinations_with_replacement(range(1, 7), 5))
    assert len(rolls) == plain.shape[1] == 252
    space = dice_space()
    for r, roll in enumerate(space.rolls):
        for b, category in enumerate(BOX_ORDER):
            assert plain[b, r] == score(category, roll), (roll, category)
    by_roll = {tuple(roll): r for r, roll in enumerate(space.rolls)}
    assert plain[BOX_ORDER.index(Category.FULL_HOUSE), by_roll[(2, 2, 3, 3, 3)]] == 25
    assert plain[BOX_ORDER.index(Category.SMALL_STRAIGHT), by_roll[(1, 2, 3, 4, 6)]] == 30
    assert plain[BOX_ORDER.index(Category.FOURS), by_roll[(1, 4, 4, 4, 4)]] == 16
    five_fives = by_roll[(5, 5, 5, 5, 5)]
    assert joker[BOX_ORDER.index(Category.LARGE_STRAIGHT), five_fives] == 40
    assert plain[BOX_ORDER.index(Category.LARGE_STRAIGHT), five_fives] == 0


def test_joker_choices_match_the_engine_on_every_card() -> None:
    """Every set of filled boxes that includes the Yahtzee box (4096 cards), every face:
    the boxes the solver lets a Joker go in, with their points, are the engine's options
    under the official rules."""
    solver = Solver("official", variance=False)
    checked = 0
    for mask in range(MASKS):
        if not mask >> YAHTZEE & 1:
            continue
        filled = {BOX_ORDER[b]: 0 for b in range(BOXES) if mask >> b & 1}
        filled[Category.YAHTZEE] = 50
        card = Scorecard(Preset.OFFICIAL, filled)
        if card.is_complete:
            continue
        for face in range(1, 7):
            engine = {BOX_ORDER.index(c): p for c, p in card.options([face] * 5).items()}
            assert solver.joker_options(mask, face) == engine, (mask, face)
            checked += 1
    assert checked == 4095 * 6


@pytest.mark.parametrize("preset", list(Preset))
def test_yahtzee_choices_are_the_engines_under_every_preset(preset: Preset) -> None:
    """Cards of 200 random sets of filled boxes with the Yahtzee box among them, each flag,
    each face: the boxes the solver lets the Yahtzee go in (None: a bonus turn), with their
    points, are the engine's options on a card with those boxes (its points in them and its
    bonuses as the flag says)."""
    rng = random.Random(44)
    solver = Solver(preset.value, variance=False)
    for _ in range(200):
        mask = rng.randrange(MASKS) | 1 << YAHTZEE
        for flag in range(solver.flags):
            filled = {BOX_ORDER[b]: 0 for b in range(BOXES) if mask >> b & 1}
            for c in UPPER:
                if c in filled:
                    filled[c] = c.face * rng.randint(0, 5)  # type: ignore[operator]
            filled[Category.YAHTZEE] = 50 if flag else 0
            card = Scorecard(preset, filled, max(0, flag - 1))
            if card.is_complete:
                continue
            for face in range(1, 7):
                engine = {
                    None if o.bonus_turn else BOX_ORDER.index(o.category): o.points
                    for o in card.choices([face] * 5)
                }
                assert solver.joker_options(mask, face, flag) == engine, (mask, flag, face)


def random_position(rng: random.Random, filled: float) -> tuple[Scorecard, list[int]]:
    """An official card with each box filled at chance ``filled`` (a Yahtzee scored 50 half
    the time, upper boxes with 0 to 5 of their face), and dice (five alike one time in five)."""
    boxes = {c: 0 for c in Category if rng.random() < filled}
    if Category.YAHTZEE in boxes and rng.random() < 0.5:
        boxes[Category.YAHTZEE] = 50
    for c in UPPER:
        if c in boxes:
            boxes[c] = c.face * rng.randint(0, 5)  # type: ignore[operator]
    dice = [rng.randint(1, 6)] * 5 if rng.random() < 0.2 else [rng.randint(1, 6) for _ in range(5)]
    return Scorecard(Preset.OFFICIAL, boxes), dice


def test_the_menus_best_box_is_the_full_evaluations(official_values: Table) -> None:
    """``best_box`` (a few table reads) picks the box ``evaluate`` ranks best among the boxes,
    on 400 random cards and rolls, Jokers and upper bonuses included."""
    rng = random.Random(14)
    checked = 0
    for _ in range(400):
        card, dice = random_position(rng, 0.5)
        filled = dict(card)
        if card.is_complete:
            continue
        ranked = [c for c in evaluate(official_values, card, dice, 0) if c.box is not None]
        best = best_box(official_values, card, dice)
        top = ranked[0].value
        # ties: any box worth the top value is right
        assert best in {c.box for c in ranked if abs(c.value - top) < 1e-9}, (filled, dice)
        checked += 1
    assert checked > 300


def test_the_menus_stop_now_mark_is_the_full_evaluations(official_values: Table) -> None:
    """``stop_now`` (one fill and the dice's keeps) says "score now" exactly when ``evaluate``
    ranks a box first, on 300 random cards, rolls and rolls left."""
    rng = random.Random(15)
    seen = set()
    for _ in range(300):
        card, dice = random_position(rng, 0.6)
        filled = dict(card)
        if card.is_complete:
            continue
        rolls_left = rng.choice((1, 2))
        ranked = evaluate(official_values, card, dice, rolls_left)
        box = best_box(official_values, card, dice)
        assert box is not None
        fast = stop_now(official_values, card, dice, rolls_left, box)
        assert fast == (ranked[0].box is not None), (filled, dice, rolls_left)
        seen.add(fast)
    assert seen == {True, False}  # both answers met
