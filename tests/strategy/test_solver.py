"""The solver against published values and against brute force on small cards."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np
import pytest

from bot.engine import UPPER, Category, Scorecard
from bot.strategy import Table
from bot.strategy.decisions import best, evaluate, state_of
from bot.strategy.solver import Solver

C = Category


def test_official_empty_card_value(official: Table) -> None:
    """Forced-Joker (official) rules: 254.5877 (published, to 4 decimals)."""
    assert official.expected_score == pytest.approx(254.5877, abs=0.00005)


def test_free_choice_joker_value(free: Table) -> None:
    """Verhoeff's free-choice Joker: 254.5896."""
    assert free.expected_score == pytest.approx(254.5896, abs=0.00005)


def test_standard_deviation(official: Table) -> None:
    """Under optimal play the final score's standard deviation is 59.61."""
    assert official.standard_deviation == pytest.approx(59.61, abs=0.005)


# -- brute force, written apart from the solver: the engine's own scoring, every roll and keep


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset that n fresh dice can show, with its probability."""
    counts = Counter(tuple(sorted(p)) for p in itertools.product(range(1, 7), repeat=n))
    return tuple((k, c / 6**n) for k, c in counts.items())


def brute_value(card: Scorecard) -> float:
    """Expected points still to come from ``card`` under optimal play, by enumeration."""
    memo: dict[tuple[int, int, int], float] = {}

    def value(c: Scorecard) -> float:
        if c.is_complete:
            return 0.0
        key = state_of(c)
        if key not in memo:
            memo[key] = turn(c)
        return memo[key]

    def turn(c: Scorecard) -> float:
        @cache
        def scored(dice: tuple[int, ...]) -> float:
            return max(
                c.fill(box, dice).total - c.total + value(c.fill(box, dice))
                for box in c.options(dice)
            )

        @cache
        def keep(kept: tuple[int, ...], rolls_left: int) -> float:
            return sum(
                p * roll(tuple(sorted(kept + more)), rolls_left)
                for more, p in outcomes(5 - len(kept))
            )

        @cache
        def roll(dice: tuple[int, ...], rolls_left: int) -> float:
            best_value = scored(dice)
            if rolls_left:
                for size in range(5):
                    for kept in set(itertools.combinations(dice, size)):
                        best_value = max(best_value, keep(kept, rolls_left - 1))
            return best_value

        return keep((), 2)

    return value(card)


def card(**boxes: int) -> Scorecard:
    """A card with every box filled with 0 except those named as open (value -1) or given."""
    filled = {c: 0 for c in Category}
    for name, points in boxes.items():
        if points < 0:
            del filled[Category(name)]
        else:
            filled[Category(name)] = points
    return Scorecard("official", filled)


SMALL_CARDS = {
    "only Chance": card(chance=-1),
    "only Yahtzee": card(yahtzee=-1),
    "only Sixes, 60 upper": card(sixes=-1, fives=25, fours=20, threes=15),
    "only Fours, 50 in Yahtzee": card(fours=-1, yahtzee=50),
    "only Full House, Yahtzee 50, Threes open": card(full_house=-1, threes=-1, yahtzee=50),
    "Chance and Yahtzee": card(chance=-1, yahtzee=-1),
    "Small Straight and Ones": card(small_straight=-1, ones=-1, sixes=30, fives=25),
}


@pytest.mark.parametrize("name", SMALL_CARDS)
def test_small_cards_match_brute_force(official: Table, name: str) -> None:
    """Cards with one or two open boxes: the table equals an enumeration of every roll and keep."""
    c = SMALL_CARDS[name]
    mask, up, flag = state_of(c)
    assert official.value[mask, up, flag] == pytest.approx(brute_value(c), abs=1e-9)


def test_four_sixes_with_yahtzee_and_chance_open(official: Table) -> None:
    """Worked out by hand: with only Yahtzee and Chance open, 6-6-6-6-1 and one roll left,
    keep the four sixes (a 1 in 6 shot at 50, Chance stays for later)."""
    choice = best(official, card(yahtzee=-1, chance=-1), [6, 6, 6, 6, 1], 1)
    assert choice.keep == (6, 6, 6, 6)


def test_last_roll_on_a_full_house_takes_it(official: Table) -> None:
    """With no roll left, the choices are boxes only; 3-3-3-2-2 goes in Full House on an
    otherwise empty card (25 now beats every scratch)."""
    choices = evaluate(official, Scorecard(), [3, 3, 3, 2, 2], 0)
    assert all(c.box is not None for c in choices)
    assert choices[0].box is C.FULL_HOUSE


def test_choices_cover_every_legal_box_and_keep(official: Table) -> None:
    """An opening roll of 1-2-3-4-6 offers 13 boxes and every distinct keep of 0 to 4 dice."""
    choices = evaluate(official, Scorecard(), [1, 2, 3, 4, 6], 2)
    boxes = [c.box for c in choices if c.box is not None]
    keeps = [c.keep for c in choices if c.keep is not None]
    assert sorted(boxes, key=list(Category).index) == list(Category)
    assert len(keeps) == sum(len(set(itertools.combinations((1, 2, 3, 4, 6), k))) for k in range(5))
    assert choices == sorted(choices, key=lambda c: -c.value)


def test_upper_boxes_in_state(official: Table) -> None:
    """The state of a card caps the upper total at 63 and notes 50 in Yahtzee."""
    c = Scorecard("official", {u: 5 * (i + 1) for i, u in enumerate(UPPER)} | {C.YAHTZEE: 50})
    assert state_of(c)[1:] == (63, 1)


def test_keep_values_kept_for_a_state_are_those_worked_out_afresh(official_values: Table) -> None:
    """``keep_values`` keeps both levels of a state: what it hands out later (from the cache,
    in either order of asking) is what the solver's own final roll and reroll give for that
    state, and a table with other values is never served the first table's."""
    import dataclasses

    import numpy as np

    from bot.strategy import decisions
    from bot.strategy.solver import keep_averages

    card = Scorecard().fill(Category.CHANCE, (6, 6, 5, 5, 4)).fill(Category.SIXES, (6, 6, 6, 1, 2))
    solver = decisions.solver_for(official_values)
    m, u, f = (np.array([x], dtype=np.intp) for x in state_of(card))
    last, _ = solver.final_roll(m, u, f)
    fresh = {1: keep_averages(last)[:, 0], 2: keep_averages(solver.reroll(last, None)[0])[:, 0]}
    decisions._keep_cache.clear()
    for rolls_left in (1, 2, 2, 1):
        assert np.array_equal(decisions.keep_values(official_values, card, rolls_left),
                              fresh[rolls_left])  # fmt: skip
    halved = dataclasses.replace(official_values, value=official_values.value / 2)
    other = decisions.keep_values(halved, card, 2)
    assert not np.allclose(other, fresh[2])
    with pytest.raises(ValueError):
        decisions.keep_values(official_values, card, 0)


@pytest.mark.parametrize("preset", ["official", "bonus-turn"])
def test_a_values_only_solve_is_the_variance_solves_values(preset: str) -> None:
    """The two ways through a re-roll (``np.maximum`` without squares, the better keep picked
    with its square with them) give the same values to the bit: the last two turns of every
    card, solved both ways (the suite's ``official_values`` are the variance solve's)."""
    plain, squared = Solver(preset, variance=False), Solver(preset, variance=True)
    for solver in (plain, squared):
        for masks, uppers, flags in solver.states()[:2]:
            for start in range(0, len(masks), 1024):  # in chunks, as ``run`` solves them
                part = slice(start, start + 1024)
                solver._solve_states(masks[part], uppers[part], flags[part])
    solved = ~np.isnan(plain.value)
    assert solved.sum() > 10_000  # two turns' states, not only the ended games
    assert np.array_equal(plain.value, squared.value, equal_nan=True)
