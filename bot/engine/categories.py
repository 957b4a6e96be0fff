"""The 13 boxes of the score sheet and what five dice are worth in each."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache

from bot.i18n.words import N_

from .dice import Dice, as_dice


class Category(Enum):
    """A box on the score sheet, in sheet order; the value is its stable key in saved games."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @property
    def label(self) -> str:
        """The name printed on the score sheet."""
        return _LABELS[self]

    @property
    def is_upper(self) -> bool:
        """Ones to Sixes."""
        return self in UPPER

    @property
    def face(self) -> int | None:
        """The face an upper box counts (1 for Ones ... 6 for Sixes), else ``None``."""
        return UPPER.index(self) + 1 if self in UPPER else None

    @classmethod
    def for_face(cls, face: int) -> Category:
        """The upper box that counts ``face``."""
        return UPPER[face - 1]

    @classmethod
    def parse(cls, text: str) -> Category:
        """Find a box by its key, member name or label, ignoring case, spaces and dashes."""
        wanted = _normalise(text)
        for category in cls:
            if wanted in (_normalise(category.value), _normalise(category.label)):
                return category
        raise ValueError(f"There is no box called {text!r}.")


def _normalise(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


UPPER: tuple[Category, ...] = (
    Category.ONES,
    Category.TWOS,
    Category.THREES,
    Category.FOURS,
    Category.FIVES,
    Category.SIXES,
)
LOWER: tuple[Category, ...] = tuple(c for c in Category if c not in UPPER)

_LABELS = {
    Category.ONES: N_("Ones"),
    Category.TWOS: N_("Twos"),
    Category.THREES: N_("Threes"),
    Category.FOURS: N_("Fours"),
    Category.FIVES: N_("Fives"),
    Category.SIXES: N_("Sixes"),
    Category.THREE_OF_A_KIND: N_("Three of a Kind"),
    Category.FOUR_OF_A_KIND: N_("Four of a Kind"),
    Category.FULL_HOUSE: N_("Full House"),
    Category.SMALL_STRAIGHT: N_("Small Straight"),
    Category.LARGE_STRAIGHT: N_("Large Straight"),
    Category.YAHTZEE: N_("Yahtzee"),
    Category.CHANCE: N_("Chance"),
}

FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def score(category: Category, dice: Dice | Sequence[int]) -> int:
    """The plain value of five dice in a box, with no Joker (worked out once for each box and
    set of five faces: 252 sets, 13 boxes)."""
    return _score(category, tuple(sorted(as_dice(dice).values)))


@cache
def _score(category: Category, values: tuple[int, ...]) -> int:
    d = Dice(values)
    face = category.face
    if face is not None:
        return face * d.counts()[face]
    most = max(d.counts().values())
    faces = set(d)
    match category:
        case Category.THREE_OF_A_KIND:
            return d.total if most >= 3 else 0
        case Category.FOUR_OF_A_KIND:
            return d.total if most >= 4 else 0
        case Category.FULL_HOUSE:
            return FULL_HOUSE_POINTS if sorted(d.counts().values()) == [2, 3] else 0
        case Category.SMALL_STRAIGHT:
            return SMALL_STRAIGHT_POINTS if any(run <= faces for run in _SMALL_RUNS) else 0
        case Category.LARGE_STRAIGHT:
            return LARGE_STRAIGHT_POINTS if faces in _LARGE_RUNS else 0
        case Category.YAHTZEE:
            return YAHTZEE_POINTS if most == 5 else 0
        case Category.CHANCE:
            return d.total
    raise AssertionError(f"unhandled box {category!r}")  # pragma: no cover


def joker_score(category: Category, dice: Dice | Sequence[int]) -> int:
    """What a Yahtzee used as a Joker is worth in a lower box."""
    d = as_dice(dice)
    match category:
        case Category.FULL_HOUSE:
            return FULL_HOUSE_POINTS
        case Category.SMALL_STRAIGHT:
            return SMALL_STRAIGHT_POINTS
        case Category.LARGE_STRAIGHT:
            return LARGE_STRAIGHT_POINTS
        case _:
            return score(category, d)
