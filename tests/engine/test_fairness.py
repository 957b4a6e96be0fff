"""Dice are fair: faces come from ``random.SystemRandom`` by default, and a chi-square test
over a million faces (and over the pairs of faces in one roll) finds no bias.

The million-face run is slow and opt-in: ``YAHTZEE_SLOW=1 bash scripts/test.sh -k fairness``.
The suite itself checks that the same test tells a loaded die from a fair one.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable

import pytest

from bot.engine import Game, RandomDice

# Chi-square critical values at p = 0.001, from a printed table: a fair source fails about
# once in a thousand runs.
CRITICAL_5_DF = 20.515  # six faces
CRITICAL_35_DF = 66.619  # 36 ordered pairs of faces

slow = pytest.mark.skipif(
    os.environ.get("YAHTZEE_SLOW") != "1", reason="a million rolls: set YAHTZEE_SLOW=1"
)


def chi_square(counts: Counter[object], cells: int, total: int) -> float:
    """Pearson's statistic of ``counts`` against ``cells`` equally likely outcomes."""
    expected = total / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in _cells(cells))


def _cells(cells: int) -> list[object]:
    faces = range(1, 7)
    return list(faces) if cells == 6 else [(a, b) for a in faces for b in faces]


def statistics(roll: Callable[[int], list[int]], rolls: int) -> tuple[float, float]:
    """(faces statistic, pairs statistic) over ``rolls`` rolls of five dice: each face
    counted, and each roll's first two dice as an ordered pair (dice in one roll are
    independent)."""
    faces: Counter[object] = Counter()
    pairs: Counter[object] = Counter()
    for _ in range(rolls):
        five = roll(5)
        faces.update(five)
        pairs[(five[0], five[1])] += 1
    return chi_square(faces, 6, 5 * rolls), chi_square(pairs, 36, rolls)


class LoadedDie:
    """A die that shows six a little too often (one throw in five instead of one in six)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, count: int) -> list[int]:
        return [6 if self.rng.random() < 0.2 else self.rng.randint(1, 5) for _ in range(count)]


def test_games_roll_with_system_random_by_default() -> None:
    """The engine's default source is the operating system's random numbers, not a seedable
    generator."""
    source = Game(["ann"]).dice_source
    assert isinstance(source, RandomDice)
    assert isinstance(source._rng, random.SystemRandom)


def test_the_chi_square_check_tells_a_loaded_die_from_a_fair_one() -> None:
    """Over 20,000 rolls (100,000 faces) a die loaded towards six fails the faces check, and
    a fair seeded generator passes both (seeded: the same result every run)."""
    loaded_faces, _ = statistics(LoadedDie(1).roll, 20_000)
    assert loaded_faces > CRITICAL_5_DF
    fair = RandomDice(random.Random(1123))
    fair_faces, fair_pairs = statistics(fair.roll, 20_000)
    assert fair_faces < CRITICAL_5_DF and fair_pairs < CRITICAL_35_DF


def test_hand_worked_statistic() -> None:
    """60 faces, ten of each but two ones turned into sixes: (8-10)²/10 + (12-10)²/10 = 0.8."""
    counts: Counter[object] = Counter({1: 8, 2: 10, 3: 10, 4: 10, 5: 10, 6: 12})
    assert chi_square(counts, 6, 60) == pytest.approx(0.8)


@slow
def test_a_million_system_random_faces_are_fair() -> None:
    """200,000 rolls of five dice from the default source: faces and pairs both pass."""
    faces, pairs = statistics(RandomDice().roll, 200_000)
    print(f"chi-square: faces {faces:.2f} (< {CRITICAL_5_DF}), pairs {pairs:.2f}")
    assert faces < CRITICAL_5_DF
    assert pairs < CRITICAL_35_DF
