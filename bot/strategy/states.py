"""The solver's state space: a between-turn state is (filled boxes, upper total capped at 63, a
Yahtzee flag), as ``solver`` describes; the solved ``Table`` of values over it; and what a
Yahtzee rolled with the Yahtzee box filled may do under each rule set (``YahtzeeChoices``).
"""

from __future__ import annotations

import math
import mmap
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bot.engine import (
    LOWER,
    UPPER,
    UPPER_BONUS_POINTS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS_POINTS,
    YAHTZEE_POINTS,
    Category,
    Dice,
    Preset,
    Scorecard,
    joker_score,
    score,
)

from .dice_space import dice_space

#: The solver's box numbers are the engine's categories in order: bit ``b`` of a mask is
#: ``BOX_ORDER[b]``.
BOX_ORDER = tuple(Category)
BOXES = len(BOX_ORDER)
UPPER_BOXES = len(UPPER)
THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL, LARGE, YAHTZEE, CHANCE = (
    BOX_ORDER.index(c) for c in LOWER
)
LOWER_BOXES = tuple(range(UPPER_BOXES, BOXES))
MASKS = 1 << BOXES
UPPER_CAP = UPPER_BONUS_THRESHOLD  # upper totals above it are all alike: capped
UPPER_BONUS = UPPER_BONUS_POINTS
YAHTZEE_BONUS = YAHTZEE_BONUS_POINTS
#: The rule sets the solver knows: the engine's presets, and ``free`` (a check, not a preset).
RULES = (*(p.value for p in Preset), "free")
Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
#: How many boxes each mask has filled.
FILLED = np.array([bin(mask).count("1") for mask in range(MASKS)], dtype=np.intp)


def preset_of(rules: str) -> Preset | None:
    """The engine's preset a rule set is (None for ``free``)."""
    return None if rules == "free" else Preset.parse(rules)


def flag_count(rules: str) -> int:
    """How many Yahtzee flags a state has under ``rules``: 0 (no 50 in the Yahtzee box) and
    1, and under a preset with bonus turns one more for each bonus turn a card may take."""
    preset = preset_of(rules)
    return 2 + (preset.bonus_turns if preset is not None else 0)


def flag_of(rules: str, holds_fifty: bool, bonuses: int) -> int:
    """A card's Yahtzee flag: 0 unless the Yahtzee box holds 50; then 1, plus the bonus turns
    taken where they use up turns (under the Joker presets bonuses cost no turn)."""
    if not holds_fifty:
        return 0
    return 1 + bonuses if flag_count(rules) > 2 else 1


def turns_used(mask: int | IntArray, flag: int | IntArray) -> IntArray:
    """Turns a card in state (mask, flag) has played: its filled boxes and its bonus turns."""
    used: IntArray = FILLED[mask] + np.maximum(0, np.asarray(flag, dtype=np.intp) - 1)
    return used


@dataclass
class Table:
    """Expected final scores (and, optionally, expected squares) of every solved state.

    ``value[mask, upper, yahtzee50]`` is the expected score still to come from that state
    under optimal play; unreachable states hold NaN.
    """

    rules: str
    value: Array
    square: Array | None = None

    @property
    def flags(self) -> int:
        """How many Yahtzee flags its states have (``flag_count``)."""
        return int(self.value.shape[2])

    @property
    def expected_score(self) -> float:
        """The expected final score of a game from the empty card."""
        return float(self.value[0, 0, 0])

    @property
    def standard_deviation(self) -> float:
        """The standard deviation of the final score under optimal play."""
        if self.square is None:
            raise ValueError("solve with variance=True for the standard deviation")
        mean = self.expected_score
        return math.sqrt(float(self.square[0, 0, 0]) - mean * mean)


def reachable_uppers() -> list[npt.NDArray[np.intp]]:
    """For each set of filled upper boxes, the capped upper totals it can have made."""
    out = []
    for filled in range(1 << UPPER_BOXES):
        sums = {0}
        for box in range(UPPER_BOXES):
            if filled >> box & 1:
                sums = {min(UPPER_CAP, s + (box + 1) * k) for s in sums for k in range(6)}
        out.append(np.array(sorted(sums), dtype=np.intp))
    return out


@cache
def score_tables() -> tuple[Array, Array]:
    """Plain points (13, 252) of every roll in every box, and the Joker points: the engine's
    own ``score`` and ``joker_score`` (box ``b`` is the engine's ``BOX_ORDER[b]``)."""
    space = dice_space()
    plain = np.zeros((BOXES, len(space.rolls)))
    joker = np.zeros((BOXES, len(space.rolls)))
    for r, roll in enumerate(space.rolls):
        for box, category in enumerate(BOX_ORDER):
            plain[box, r] = score(category, roll)
            joker[box, r] = joker_score(category, roll)
    return plain, joker


#: One place a Yahtzee may go, over a batch of states: (box, or None for a bonus turn;
#: allowed; points with every bonus; next mask, upper total and flag).
YahtzeeOption = tuple[int | None, npt.NDArray[np.bool_], IntArray, IntArray, IntArray, IntArray]


class YahtzeeChoices:
    """What a Yahtzee rolled with the Yahtzee box filled may do under one rule set, by state:
    asked of the engine (``Scorecard.choices``) the first time a (mask, flag) needs it, and
    kept as arrays a batch of states reads at once.

    ``points[flag, face - 1, box, mask]`` is what the box scores (-1: not allowed),
    ``bonus[...]`` the Yahtzee bonus earned on top; ``turn[flag, face - 1, mask]`` is the
    bonus of taking a bonus turn (-1: not allowed), which fills no box and adds 1 to the flag.
    """

    def __init__(self, rules: str, shared: bool = False) -> None:
        self.rules = rules
        flags = flag_count(rules)
        make = _shared_array if shared else np.full
        self.points = make((flags, 6, BOXES, MASKS), -1, dtype=np.int16)
        self.bonus = make((flags, 6, BOXES, MASKS), 0, dtype=np.int16)
        self.turn = make((flags, 6, MASKS), -1, dtype=np.int16)
        self.known = make((flags, MASKS), False, dtype=np.bool_)
        self._lock = threading.Lock()  # a solve's two threads may ask at once

    def ensure(self, mask: IntArray, flag: IntArray) -> None:
        """Learn the states among these that are not known yet."""
        need = ~self.known[flag, mask]
        if not need.any():
            return
        with self._lock:
            for m, f in set(zip(mask[need].tolist(), flag[need].tolist(), strict=True)):
                if not self.known[f, m]:
                    self._learn(m, f)
                    self.known[f, m] = True

    def _learn(self, mask: int, flag: int) -> None:
        preset = preset_of(self.rules)
        card = None if preset is None else _card_of(preset, mask, flag)
        if card is not None and card.is_complete:
            return
        for face in range(1, 7):
            if card is None:
                options = _free_choices(mask, face, flag)
            else:
                options = [
                    (None if o.bonus_turn else _BOX_NUMBER[o.category], o.points, o.bonus)
                    for o in card.choices(_FIVE_ALIKE[face - 1])
                ]
            for box, points, bonus in options:
                if box is None:
                    self.turn[flag, face - 1, mask] = points
                else:
                    self.points[flag, face - 1, box, mask] = points
                    self.bonus[flag, face - 1, box, mask] = bonus


#: A box's number in a mask (``BOX_ORDER``'s index), and five alike of each face.
_BOX_NUMBER = {category: number for number, category in enumerate(BOX_ORDER)}
_FIVE_ALIKE = tuple(Dice([face] * 5) for face in range(1, 7))


def _shared_array(shape: tuple[int, ...], fill: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """``np.full`` in memory shared with the processes this one forks later: what it writes
    there after the fork is not copied for them (``shared`` choices: the To-win build learns
    a level's while its forked worker solves the level before)."""
    size = math.prod(shape) * np.dtype(dtype).itemsize
    out: npt.NDArray[Any] = np.frombuffer(
        mmap.mmap(-1, max(1, size)), dtype=dtype, count=math.prod(shape)
    )
    out = out.reshape(shape)
    out[...] = fill
    return out


def _card_of(preset: Preset, mask: int, flag: int) -> Scorecard:
    """A card of state (mask, flag) (the points in its boxes do not change what a Yahtzee
    may do): its boxes filled with 0, 50 in the Yahtzee box if the flag says so."""
    boxes = {BOX_ORDER[b]: 0 for b in range(BOXES) if mask >> b & 1}
    if flag:
        boxes[Category.YAHTZEE] = YAHTZEE_POINTS
    return Scorecard(preset, boxes, max(0, flag - 1))


def _free_choices(mask: int, face: int, flag: int) -> list[tuple[int | None, int, int]]:
    """``free`` (not a preset, so not the engine's): any open box; Full House and the
    straights in full only when the upper box of the face is filled; +100 with 50 held."""
    roll = Dice([face] * 5)
    own_open = not mask >> (face - 1) & 1
    out: list[tuple[int | None, int, int]] = []
    for box, category in enumerate(BOX_ORDER):
        if mask >> box & 1:
            continue
        full = box in (FULL_HOUSE, SMALL, LARGE) and not own_open
        points = joker_score(category, roll) if full else score(category, roll)
        out.append((box, points, YAHTZEE_BONUS if flag == 1 else 0))
    return out


@cache
def yahtzee_choices(rules: str) -> YahtzeeChoices:
    """The choices of Yahtzees under ``rules``, shared by every solver of those rules."""
    return YahtzeeChoices(rules)
