"""The To-win build's turn, state by state, against a plain reference written apart from it.

For a few states one level above a partial build, the survival function the builder mixes
must equal one worked out here in plain Python: the table's box for every final roll (the
engine's scores, and its ``Scorecard.choices`` for a Yahtzee with the Yahtzee box filled),
the table's keep for every roll (every sub-multiset tried, a tie going to more dice, then
to the first in sorted order), the chance of every roll by rolling the dice one outcome at
a time, and the next states' functions shifted by the points scored. Then a whole build
written through its scratch files is the same as one kept in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bot.engine import UPPER, Category, Dice, Preset, score
from bot.strategy import Table
from bot.strategy.distribution import LENGTH, Distributions
from bot.strategy.distribution_build import Builder, solve_distributions
from bot.strategy.distribution_packing import ONE, Ends, FileRows, LevelRows
from bot.strategy.distribution_workers import Forked, may_fork
from bot.strategy.states import BOX_ORDER, YAHTZEE, _card_of
from bot.strategy.table_file import build_distributions, load_distributions

Roll = tuple[int, ...]
State = tuple[int, int, int]
ROLLS: list[Roll] = list(combinations_with_replacement(range(1, 7), 5))


@cache
def rolled(keep: Roll) -> dict[Roll, float]:
    """Keeping ``keep`` and rolling the other dice: each roll's chance, one outcome of the
    dice rolled at a time."""
    free = 5 - len(keep)
    out: dict[Roll, float] = {}
    for faces in product(range(1, 7), repeat=free):
        roll = tuple(sorted(keep + faces))
        out[roll] = out.get(roll, 0.0) + 6.0**-free
    return out


def sub_keeps(roll: Roll) -> list[Roll]:
    """Every sub-multiset of a roll, in the order a tie goes: all five first (scoring now),
    then more dice before fewer, then sorted order."""
    return [roll] + [k for size in range(4, -1, -1) for k in sorted(set(combinations(roll, size)))]


def ends_of(preset: Preset, table: Table, state: State, roll: Roll) -> list[tuple[int, State]]:
    """Every way to end the turn on ``roll``, in the card's order (a bonus turn last): the
    points it adds and the next state."""
    mask, up, flag = state
    if len(set(roll)) == 1 and mask >> YAHTZEE & 1:  # the engine says what a Yahtzee may do
        out = []
        for option in _card_of(preset, mask, flag).choices(Dice(list(roll))):
            if option.bonus_turn:
                out.append((option.points, (mask, up, flag + 1)))
                continue
            box = BOX_ORDER.index(option.category)
            up2 = min(63, up + option.points) if option.category in UPPER else up
            crossed = 35 if up < 63 <= up2 else 0
            out.append((option.points + option.bonus + crossed, (mask | 1 << box, up2, flag)))
        return sorted(out, key=lambda e: e[1][0] == mask)  # stable: boxes first
    out = []
    for box, category in enumerate(BOX_ORDER):
        if mask >> box & 1:
            continue
        points = score(category, Dice(list(roll)))
        if category in UPPER:
            up2 = min(63, up + points)
            out.append((points + (35 if up < 63 <= up2 else 0), (mask | 1 << box, up2, flag)))
        elif category is Category.YAHTZEE:
            out.append((points, (mask | 1 << box, up, 1 if points == 50 else 0)))
        else:
            out.append((points, (mask | 1 << box, up, flag)))
    return out


def reference(
    preset: Preset, table: Table, state: State, below: Callable[[State], np.ndarray]
) -> np.ndarray:
    """The survival function of the points still to come from ``state``, given the next
    states' functions (``below``), worked out roll by roll."""

    def worth(end: tuple[int, State]) -> float:
        return end[0] + float(table.value[end[1]])

    final: dict[Roll, tuple[int, State]] = {}
    for roll in ROLLS:
        best = None
        for end in ends_of(preset, table, state, roll):
            if best is None or worth(end) > worth(best):  # a tie: the first box
                best = end
        assert best is not None
        final[roll] = best
    value_after = {roll: worth(end) for roll, end in final.items()}
    keeps_by_roll = []  # the keep for each roll, with two rolls left and then one left
    for _ in range(2):
        kept = {}
        for roll in ROLLS:
            options = [
                (sum(p * value_after[r] for r, p in rolled(k).items()), k) for k in sub_keeps(roll)
            ]
            top = max(v for v, _ in options)
            kept[roll] = next((v, k) for v, k in options if v >= top - 1e-10)
        keeps_by_roll.append({roll: k for roll, (_, k) in kept.items()})
        value_after = {roll: v for roll, (v, _) in kept.items()}
    chance = rolled(())
    for keeps in reversed(keeps_by_roll):  # the first roll's keep, then the second's
        after: dict[Roll, float] = {}
        for roll, c in chance.items():
            for r, p in rolled(keeps[roll]).items():
                after[r] = after.get(r, 0.0) + c * p
        chance = after
    out = np.zeros(LENGTH)
    x = np.arange(LENGTH)
    for roll, c in chance.items():
        points, nxt = final[roll]
        shifted = x - points
        function = below(nxt)
        out += c * np.where(shifted < 0, 1.0, function[np.clip(shifted, 0, LENGTH - 1)])
    return out


def below_of(builder: Builder) -> Callable[[State], np.ndarray]:
    """The functions of the last level the builder solved, as it keeps them (16-bit)."""
    level = builder.below

    def function(state: State) -> np.ndarray:
        j = int(level.function[builder.rows[state]])
        start, width, at = int(level.start[j]), int(level.width[j]), int(level.offset[j])
        out = np.zeros(LENGTH)
        out[:start] = 1.0
        out[start : start + width] = level.values[at : at + width] / ONE
        return out

    return function


def states_above(builder: Builder, level: int, pick: Callable[[State], bool]) -> list[State]:
    mask, up, flag = builder.levels[level]
    found = [s for s in zip(mask.tolist(), up.tolist(), flag.tolist(), strict=True) if pick(s)]
    assert found
    return found[:: max(1, len(found) // 3)][:3]


def open_boxes(*boxes: Category) -> int:
    return 8191 & ~sum(1 << BOX_ORDER.index(b) for b in boxes)


C = Category
OFFICIAL_CASES = {
    # Sixes may make the upper bonus (45 + 18 = 63); Chance; Yahtzee open.
    "bonus within reach": lambda s: s[0] == open_boxes(C.SIXES, C.CHANCE, C.YAHTZEE) and s[1] == 45,
    # 50 in the Yahtzee box: a Yahtzee is +100 and a Joker (Ones open for a five of 1s).
    "Joker with the bonus": lambda s: (
        s[0] == open_boxes(C.ONES, C.FULL_HOUSE, C.SMALL_STRAIGHT) and s[2] == 1
    ),
    # 0 in the Yahtzee box: a Joker without the bonus.
    "Joker without it": lambda s: (
        s[0] == open_boxes(C.TWOS, C.FOUR_OF_A_KIND, C.LARGE_STRAIGHT) and s[2] == 0
    ),
}


@pytest.mark.parametrize("case", OFFICIAL_CASES)
def test_a_turn_three_from_the_end_mixes_as_worked_out_by_hand(
    case: str, official_build: Builder, official_values: Table
) -> None:
    states = states_above(official_build, 2, OFFICIAL_CASES[case])
    mask, up, flag = (np.array(x) for x in zip(*states, strict=True))
    built = official_build._mix(mask, up, flag, official_build.below)
    for state, function in zip(states, built, strict=True):
        expected = reference(Preset.OFFICIAL, official_values, state, below_of(official_build))
        assert np.abs(function - expected).max() < 1e-12, state
        assert function[0] == pytest.approx(1.0)
        # its mean is the table's value (to the 16-bit rounding of the functions below)
        assert function[1:].sum() == pytest.approx(official_values.value[state], abs=1e-3)


BONUS_CASES = {
    # 50 held, no bonus turn yet: a Yahtzee may be a bonus turn (+100) or go in a box.
    "a bonus turn on offer": lambda s: s[2] == 1 and bin(s[0]).count("1") == 11,
    # one bonus turn taken, ten boxes filled: two turns left.
    "after a bonus turn": lambda s: s[2] == 2 and bin(s[0]).count("1") == 10,
    # the Yahtzee box open (no bonus turns possible this turn).
    "Yahtzee open": lambda s: not s[0] >> YAHTZEE & 1,
}


@pytest.mark.parametrize("case", BONUS_CASES)
def test_a_bonus_turn_preset_turn_mixes_as_worked_out_by_hand(
    case: str, bonus_turn_build: tuple[Builder, Distributions], bonus_turn_values: Table
) -> None:
    builder = bonus_turn_build[0]
    states = states_above(builder, 1, BONUS_CASES[case])
    mask, up, flag = (np.array(x) for x in zip(*states, strict=True))
    built = builder._mix(mask, up, flag, builder.below)
    for state, function in zip(states, built, strict=True):
        expected = reference(Preset.BONUS_TURN, bonus_turn_values, state, below_of(builder))
        assert np.abs(function - expected).max() < 1e-12, state


def test_a_build_through_scratch_files_is_the_one_kept_in_memory(
    tmp_path: Path, official_values: Table
) -> None:
    """The saved build (packed steps and each level's functions spilled to files as they
    come) holds exactly what a build in memory holds, and leaves no scratch file (only the
    file and the uncompressed copy its load writes)."""
    path = tmp_path / "d.bin"
    build_distributions(official_values, path, open_boxes=3)
    saved = load_distributions(path, "official")
    kept = solve_distributions(official_values, open_boxes=3)
    assert np.array_equal(saved.ids, kept.ids)
    assert len(saved.lo) == len(kept.lo) > 5_000
    assert all(np.array_equal(saved.decode(i), kept.decode(i)) for i in range(len(kept.lo)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.bin", "d.unpacked"]


def test_states_mixed_once_get_each_its_own_function(official_build: Builder) -> None:
    """A chunk's states whose turns end alike are mixed once (``solve_chunk``): each state
    still gets exactly the function mixing it alone gives, and the chunk has such twins
    (upper totals that can no longer make the bonus), so the sharing is tested."""
    mask, up, flag = official_build.levels[2]
    part = slice(0, 600)
    m, u, f = mask[part], up[part], flag[part]
    below = official_build.below
    file_rows, level_rows = official_build.solve_chunk(m, u, f, below)
    one = [slice(i, i + 1) for i in range(len(m))]
    alone = np.concatenate([official_build._mix(m[i], u[i], f[i], below) for i in one])
    assert file_rows.keys == FileRows.of(alone).keys
    assert level_rows.keys == LevelRows.of(alone).keys
    twins = official_build._ends(m, u, f, official_build.below).digests()
    assert len(set(twins)) < len(twins) - 100


@pytest.mark.skipif(not may_fork(), reason="forks only where a process may (one thread)")
def test_a_build_on_forked_workers_is_the_one_on_threads(official_values: Table) -> None:
    forked, forked_ids = Builder(official_values).run(open_boxes=3, chunk=300, processes=True)
    threads, thread_ids = Builder(official_values).run(open_boxes=3, processes=False)
    a = forked.result("official", 3, forked_ids)
    b = threads.result("official", 3, thread_ids)
    assert np.array_equal(a.ids, b.ids) and len(a.lo) == len(b.lo) > 5_000
    for name in ("offset", "lo", "width", "wide", "steps8", "steps16"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def _dies_on_the_third(lo: int, hi: int) -> Any:
    if lo == 2:
        os._exit(3)  # as if killed
    return lo, hi


def _fails_on_the_third(lo: int, hi: int) -> Any:
    if lo == 2:
        raise ValueError("no such chunk")
    return lo, hi


@pytest.mark.skipif(not may_fork(), reason="forks only where a process may (one thread)")
def test_forked_workers_hand_back_every_chunk_in_order_and_their_failures() -> None:
    pool = Forked(2, lambda lo, hi: (lo, hi))  # type: ignore[arg-type,return-value]
    try:
        for index in range(6):
            pool.submit(index, index, index + 1)
        got: list[Any] = [pool.result(i, lambda: False) for i in range(6)]
        assert got == [(i, i + 1) for i in range(6)]
    finally:
        pool.close()
    for solve, said in ((_fails_on_the_third, "no such chunk"), (_dies_on_the_third, "ended")):
        pool = Forked(2, solve)
        try:
            for index in range(4):
                pool.submit(index, index, index + 1)
            with pytest.raises(RuntimeError, match=said):
                for index in range(4):
                    pool.result(index, lambda: False)
        finally:
            pool.close()  # and the workers are gone: waited for


def test_states_are_mixed_once_only_when_every_end_is_the_same() -> None:
    """Ends (next function, where its values land, chance) of six states: the second the
    first's twin, each other one differing from the first in one thing only."""
    first = [(4, 10, 0.25), (7, 12, 0.75)]
    states = [
        first,
        first,
        [(4, 10, 0.25), (7, 12, 0.5)],  # a chance
        [(4, 11, 0.25), (7, 12, 0.75)],  # where a function lands
        [(5, 10, 0.25), (7, 12, 0.75)],  # a function
        first[:1],  # an end fewer
    ]
    ends = [end for state in states for end in state]
    function, at, weight = (np.array(column) for column in zip(*ends, strict=True))
    bounds = np.cumsum([0] + [len(state) for state in states])
    digests = Ends(function.astype(np.int32), at.astype(np.int32), weight, bounds).digests()
    assert digests[0] == digests[1]
    assert len({digests[0], *digests[2:]}) == 5


def test_a_build_that_cannot_fork_runs_on_threads(
    official_values: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork() -> int:
        raise BlockingIOError("fork: Resource temporarily unavailable")

    threads, thread_ids = Builder(official_values).run(open_boxes=1, processes=False)
    monkeypatch.setattr(os, "fork", no_fork)
    packer, ids = Builder(official_values).run(open_boxes=1, processes=True)
    assert np.array_equal(ids, thread_ids) and len(packer.lo) == len(threads.lo) > 10
    assert packer.chunks == threads.chunks
