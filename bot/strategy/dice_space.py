"""The combinatorics of one turn, computed once: rolls, keeps and how they connect.

A *roll* is a sorted multiset of five faces (252 of them); a *keep* is a multiset of 0 to 5
faces (462). Keeps are indexed so that every roll is also the keep of all five of its dice.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

FACES = 6
DICE = 5


@dataclass(frozen=True)
class DiceSpace:
    """Index tables for rolls and keeps (see the module docstring)."""

    keeps: tuple[tuple[int, ...], ...]  # every multiset of 0..5 faces, sorted by size
    keep_index: dict[tuple[int, ...], int]
    rolls: tuple[tuple[int, ...], ...]  # the 252 five-dice multisets
    roll_keep: npt.NDArray[np.intp]  # roll index -> its keep index
    roll_probability: npt.NDArray[np.float64]  # chance of each roll from five fresh dice
    # For keeps of each size below five: the keeps one die larger (one per face), to average.
    children: dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]
    # For keeps of each size above zero, and each j: the keeps with more than j distinct
    # faces, and the keep one die smaller without their j-th distinct face (to take maxima).
    parents: dict[int, list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]]
    counts: npt.NDArray[np.int64]  # (252, 6): how many dice of each face a roll shows


@cache
def dice_space() -> DiceSpace:
    """Build the tables (a few milliseconds, once per process)."""
    keeps = tuple(
        k
        for size in range(DICE + 1)
        for k in itertools.combinations_with_replacement(range(1, FACES + 1), size)
    )
    keep_index = {k: i for i, k in enumerate(keeps)}
    rolls = tuple(k for k in keeps if len(k) == DICE)
    roll_keep = np.array([keep_index[r] for r in rolls], dtype=np.intp)
    probability = np.array([_multinomial(r) / FACES**DICE for r in rolls])
    children: dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}
    parents: dict[int, list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]] = {}
    for size in range(DICE + 1):
        members = [k for k in keeps if len(k) == size]
        index = np.array([keep_index[k] for k in members], dtype=np.intp)
        if size < DICE:
            grown = [
                [keep_index[tuple(sorted((*k, f)))] for f in range(1, FACES + 1)] for k in members
            ]
            children[size] = (index, np.array(grown, dtype=np.intp))
        if size > 0:
            shrunk = [
                sorted({keep_index[k[:i] + k[i + 1 :]] for i in range(len(k))}) for k in members
            ]
            parents[size] = [
                (
                    np.array([i for i, s in enumerate(shrunk) if len(s) > j], dtype=np.intp),
                    np.array([s[j] for s in shrunk if len(s) > j], dtype=np.intp),
                )
                for j in range(DICE)
                if any(len(s) > j for s in shrunk)
            ]
    counts = np.array([[r.count(f) for f in range(1, FACES + 1)] for r in rolls], dtype=np.int64)
    return DiceSpace(keeps, keep_index, rolls, roll_keep, probability, children, parents, counts)


def _multinomial(roll: tuple[int, ...]) -> int:
    ways = math.factorial(len(roll))
    for face in set(roll):
        ways //= math.factorial(roll.count(face))
    return ways
