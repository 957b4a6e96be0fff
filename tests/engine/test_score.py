"""Box values: all 252 rolls against an independent formulation, and RULES.md's table."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Category, Dice, InvalidDice, score

ALL_MULTISETS = list(itertools.combinations_with_replacement(range(1, 7), 5))


def reference(category: Category, dice: tuple[int, ...]) -> int:
    """The box rules restated from face counts and digit strings, independently of the engine."""
    counts = [dice.count(face) for face in range(7)]  # counts[0] unused
    total = sum(dice)
    runs = "".join(str(face) for face in range(1, 7) if counts[face])
    table = {
        Category.ONES: 1 * counts[1],
        Category.TWOS: 2 * counts[2],
        Category.THREES: 3 * counts[3],
        Category.FOURS: 4 * counts[4],
        Category.FIVES: 5 * counts[5],
        Category.SIXES: 6 * counts[6],
        Category.THREE_OF_A_KIND: total if any(n >= 3 for n in counts) else 0,
        Category.FOUR_OF_A_KIND: total if any(n >= 4 for n in counts) else 0,
        Category.FULL_HOUSE: 25 if 3 in counts and 2 in counts else 0,
        Category.SMALL_STRAIGHT: 30 if any(r in runs for r in ("1234", "2345", "3456")) else 0,
        Category.LARGE_STRAIGHT: 40 if runs in ("12345", "23456") else 0,
        Category.YAHTZEE: 50 if 5 in counts else 0,
        Category.CHANCE: total,
    }
    return table[category]


def test_there_are_252_multisets() -> None:
    """The enumeration below really covers every distinct roll."""
    assert len(ALL_MULTISETS) == 252


@pytest.mark.parametrize("category", list(Category), ids=lambda c: c.name)
def test_every_multiset_matches_the_reference(category: Category) -> None:
    """All 252 multisets score in this box as the independent formulation says."""
    wrong = [
        (dice, score(category, dice), reference(category, dice))
        for dice in ALL_MULTISETS
        if score(category, dice) != reference(category, dice)
    ]
    assert wrong == []


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5), st.randoms())
def test_order_of_the_dice_does_not_matter(faces: list[int], rnd: object) -> None:
    """A box's value depends only on the faces, not on where the dice lie."""
    shuffled = list(faces)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert all(score(c, faces) == score(c, shuffled) for c in Category)


def test_categories_are_in_sheet_order() -> None:
    """The public enum lists the 13 boxes in the order of the score sheet."""
    assert [c.name for c in Category] == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES",
        "THREE_OF_A_KIND", "FOUR_OF_A_KIND", "FULL_HOUSE",
        "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE",
    ]  # fmt: skip


# Each row worked out by hand from RULES.md's table of boxes.
HAND_CASES = [
    # upper boxes: the sum of the dice showing that face (seed 000: 5-2-5-6-5)
    ("52565", Category.FIVES, 15),
    ("52565", Category.ONES, 0),
    ("52565", Category.TWOS, 2),
    ("52565", Category.SIXES, 6),
    ("33315", Category.THREES, 9),
    # three and four of a kind: the sum of all five dice
    ("45255", Category.THREE_OF_A_KIND, 21),
    ("45255", Category.FOUR_OF_A_KIND, 0),
    ("66663", Category.FOUR_OF_A_KIND, 27),
    ("66666", Category.FOUR_OF_A_KIND, 30),
    ("12345", Category.THREE_OF_A_KIND, 0),
    # full house: 25 for three and two
    ("33232", Category.FULL_HOUSE, 25),
    ("11144", Category.FULL_HOUSE, 25),
    ("33334", Category.FULL_HOUSE, 0),
    ("33333", Category.FULL_HOUSE, 0),  # five of a kind is not a full house
    # straights
    ("12344", Category.SMALL_STRAIGHT, 30),  # a fifth die may repeat one of the run
    ("12356", Category.SMALL_STRAIGHT, 0),
    ("12345", Category.SMALL_STRAIGHT, 30),  # 1-2-3-4-5 is both small ...
    ("12345", Category.LARGE_STRAIGHT, 40),  # ... and large
    ("23256", Category.SMALL_STRAIGHT, 0),
    ("23254", Category.SMALL_STRAIGHT, 30),  # seed 000: 2-3-2-5-4
    ("23254", Category.LARGE_STRAIGHT, 0),
    ("63546", Category.SMALL_STRAIGHT, 30),  # seed 003: 6 3 5 4 any
    ("65432", Category.LARGE_STRAIGHT, 40),
    ("13456", Category.LARGE_STRAIGHT, 0),
    # yahtzee and chance
    ("44444", Category.YAHTZEE, 50),
    ("44443", Category.YAHTZEE, 0),
    ("22346", Category.CHANCE, 17),
]


@pytest.mark.parametrize(("dice", "category", "points"), HAND_CASES)
def test_box_values_worked_out_by_hand(dice: str, category: Category, points: int) -> None:
    """RULES.md's box table, case by case."""
    assert score(category, Dice.parse(dice)) == points


@pytest.mark.parametrize(
    "bad", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7]]
)
def test_dice_must_be_five_faces(bad: list[int]) -> None:
    """Anything but five faces from 1 to 6 is refused with a readable error."""
    with pytest.raises(InvalidDice, match="five values from 1 to 6"):
        Dice(bad)


def test_dice_repr_parses_back() -> None:
    """A Dice value object's repr evaluates to an equal Dice."""
    dice = Dice(3, 1, 4, 1, 5)
    assert eval(repr(dice)) == dice
    assert Dice.parse(str(dice)) == dice
