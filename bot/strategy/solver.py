"""The exact solitaire Yahtzee solver: expected final score under optimal play for every
between-turn state, by backward induction over each turn's roll-keep-roll-keep-roll-score.

A between-turn state is (filled boxes, upper total capped at 63, whether the Yahtzee box
holds 50). States are solved a whole level at a time (all states with the same number of
filled boxes), as numpy arrays shaped (dice outcome, state). Within a turn:

- the final roll's value is the best box for it: points + bonuses + the next state's value;
- the value of keeping some dice is the average over one more die, built up from the full
  rolls one die at a time (6 gathers per keep instead of a 252-term sum);
- the best keep of a roll is the best of its sub-multisets, built up one die at a time.

Only states that can be reached are solved: the upper total must be a sum the filled upper
boxes can make. Two rule sets: ``official`` (the forced Joker of the Hasbro rules) and
``free`` (a later Yahtzee may go in any open box; Full House and the straights score in
full only when the Yahtzee box and the matching upper box are both filled).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, partial

import numpy as np
import numpy.typing as npt

from bot.engine import (
    LOWER,
    UPPER,
    UPPER_BONUS_POINTS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS_POINTS,
    Category,
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
RULES = ("official", "free")
Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


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


class Solver:
    """One solve: the per-turn computations over batches of states (also used for single
    positions by ``decisions``)."""

    def __init__(self, rules: str, variance: bool, value: Array | None = None) -> None:
        if rules not in RULES:
            raise ValueError(f"rules must be one of {RULES}, not {rules!r}")
        self.rules = rules
        self.variance = variance
        self.space = dice_space()
        self.plain, self.joker = score_tables()
        self.value = np.full((MASKS, UPPER_CAP + 1, 2), np.nan) if value is None else value
        self.square = np.full((MASKS, UPPER_CAP + 1, 2), np.nan) if variance else None
        full = MASKS - 1
        self.value[full] = 0.0
        if self.square is not None:
            self.square[full] = 0.0
        self.yahtzee_rolls = [
            int(np.flatnonzero(self.space.counts[:, f] == 5)[0]) for f in range(6)
        ]
        self.is_yahtzee = self.plain[YAHTZEE] > 0  # the Yahtzee box scores only five alike

    def run(self, chunk: int = 1024, workers: int = 2) -> Table:
        uppers = reachable_uppers()
        by_level: dict[int, list[int]] = {}
        for mask in range(MASKS - 1):
            by_level.setdefault(bin(mask).count("1"), []).append(mask)
        for level in range(BOXES - 1, -1, -1):
            masks, ups, flags = [], [], []
            for mask in by_level[level]:
                reach = uppers[mask & 63]
                for flag in (0, 1) if mask >> YAHTZEE & 1 else (0,):
                    masks.append(np.full(len(reach), mask, dtype=np.intp))
                    ups.append(reach)
                    flags.append(np.full(len(reach), flag, dtype=np.intp))
            m, u, y = np.concatenate(masks), np.concatenate(ups), np.concatenate(flags)
            # Chunks small enough for the CPU cache; numpy releases the GIL in the heavy
            # operations, so two threads keep both cores busy. A level only reads the
            # levels below it and each chunk writes its own states.
            slices = [slice(start, start + chunk) for start in range(0, len(m), chunk)]
            if workers > 1 and len(slices) > 1:
                with ThreadPoolExecutor(workers) as pool:
                    list(pool.map(partial(self._solve_slice, m, u, y), slices))
            else:
                for sl in slices:
                    self._solve_states(m[sl], u[sl], y[sl])
        return Table(self.rules, self.value, self.square)

    # -- one batch of states ---------------------------------------------------------------

    def _solve_slice(self, mask: IntArray, up: IntArray, flag: IntArray, part: slice) -> None:
        self._solve_states(mask[part], up[part], flag[part])

    def _solve_states(self, mask: IntArray, up: IntArray, flag: IntArray) -> None:
        final, final_sq = self.final_roll(mask, up, flag)
        second, second_sq = self.reroll(final, final_sq)
        first, first_sq = self.reroll(second, second_sq)
        p = self.space.roll_probability
        self.value[mask, up, flag] = p @ first
        if self.square is not None and first_sq is not None:
            self.square[mask, up, flag] = p @ first_sq

    def _future(self, mask: IntArray, up: IntArray, flag: IntArray) -> tuple[Array, Array | None]:
        v = self.value[mask, up, flag]
        w = self.square[mask, up, flag] if self.square is not None else None
        return v, w

    def final_roll(
        self, mask: IntArray, up: IntArray, flag: IntArray
    ) -> tuple[Array, Array | None]:
        """(252, S): the best score of each final roll, and its expected square."""
        n = len(mask)
        rolls = len(self.space.rolls)
        best = np.full((rolls, n), -np.inf)
        best_sq = np.zeros((rolls, n)) if self.variance else None
        counts = self.space.counts  # (252, 6)
        for box in range(BOXES):
            open_ = ((mask >> box) & 1) == 0
            if not open_.any():
                continue
            nxt = mask | (1 << box)
            if box < UPPER_BOXES:
                face = box + 1
                totals = np.empty((6, n))
                gains = np.empty((6, n))
                squares = np.empty((6, n)) if self.variance else None
                for k in range(6):
                    points = face * k
                    up2 = np.minimum(UPPER_CAP, up + points)
                    gain = points + np.where((up < UPPER_CAP) & (up2 >= UPPER_CAP), UPPER_BONUS, 0)
                    v, w = self._future(nxt, up2, flag)
                    v = np.where(open_, v, 0.0)
                    totals[k] = np.where(open_, gain + v, -np.inf)
                    gains[k] = gain
                    if squares is not None and w is not None:
                        squares[k] = gain * gain + 2 * gain * v + np.where(open_, w, 0.0)
                idx = counts[:, box]
                total = totals[idx]
                square = squares[idx] if squares is not None else None
            else:
                closed = np.where(open_, 0.0, -np.inf)
                if box == YAHTZEE:
                    v0, w0 = self._future(nxt, up, np.zeros_like(flag))
                    v1, w1 = self._future(nxt, up, np.ones_like(flag))
                    v0, v1 = np.where(open_, v0, 0.0) + closed, np.where(open_, v1, 0.0) + closed
                    if w0 is not None and w1 is not None:
                        w0, w1 = np.where(open_, w0, 0.0), np.where(open_, w1, 0.0)
                    yz = self.is_yahtzee[:, None]
                    v_next = np.where(yz, v1[None, :], v0[None, :])
                    w_next = None
                    if w0 is not None and w1 is not None:
                        w_next = np.where(yz, w1[None, :], w0[None, :])
                else:
                    v, w = self._future(nxt, up, flag)
                    v_next = (np.where(open_, v, 0.0) + closed)[None, :]
                    w_next = np.where(open_, w, 0.0)[None, :] if w is not None else None
                gain_col = self.plain[box][:, None]
                total = gain_col + v_next
                square = None
                if self.variance and w_next is not None:
                    finite = np.where(np.isfinite(v_next), v_next, 0.0)
                    square = gain_col * gain_col + 2 * gain_col * finite + w_next
            if best_sq is None:
                np.maximum(best, total, out=best)
            else:
                better = total > best
                np.copyto(best, total, where=better)
                np.copyto(best_sq, np.broadcast_to(square, best.shape), where=better)  # type: ignore[arg-type]
        self._jokers(mask, up, flag, best, best_sq)
        return best, best_sq

    def _jokers(
        self, mask: IntArray, up: IntArray, flag: IntArray, best: Array, best_sq: Array | None
    ) -> None:
        """Yahtzees rolled with the Yahtzee box filled: the Joker rules and the +100."""
        filled_y = ((mask >> YAHTZEE) & 1) == 1
        if not filled_y.any():
            return
        sel = np.flatnonzero(filled_y)
        m, u, fl = mask[sel], up[sel], flag[sel]
        lower_open = np.zeros(len(sel), dtype=bool)
        for box in LOWER_BOXES:
            lower_open |= ((m >> box) & 1) == 0
        extra = np.where(fl == 1, YAHTZEE_BONUS, 0).astype(float)
        for face in range(1, 7):
            r = self.yahtzee_rolls[face - 1]
            own_open = ((m >> (face - 1)) & 1) == 0
            value = np.full(len(sel), -np.inf)
            square = np.zeros(len(sel))
            for box in range(BOXES):
                allowed, points_arr = self._joker_box(box, m, face, own_open, lower_open)
                if not allowed.any():
                    continue
                nxt = m | (1 << box)
                if box < UPPER_BOXES:
                    up2 = np.minimum(UPPER_CAP, u + points_arr.astype(np.intp))
                    bonus = np.where((u < UPPER_CAP) & (up2 >= UPPER_CAP), UPPER_BONUS, 0)
                else:
                    up2, bonus = u, np.zeros(len(sel), dtype=np.intp)
                v, w = self._future(
                    np.where(allowed, nxt, MASKS - 1), np.where(allowed, up2, 0), fl
                )
                gain = points_arr + bonus + extra
                total = np.where(allowed, gain + v, -np.inf)
                better = total > value
                value = np.where(better, total, value)
                if w is not None:
                    square = np.where(better, gain * gain + 2 * gain * v + w, square)
            best[r, sel] = value
            if best_sq is not None:
                best_sq[r, sel] = square

    def _joker_box(
        self, box: int, mask: IntArray, face: int, own_open: npt.NDArray[np.bool_],
        lower_open: npt.NDArray[np.bool_],
    ) -> tuple[npt.NDArray[np.bool_], Array]:  # fmt: skip
        """Whether a Yahtzee of ``face`` used as a Joker may go in ``box`` on cards ``mask``
        (the Yahtzee box filled), and for how many points."""
        r = self.yahtzee_rolls[face - 1]
        open_ = ((mask >> box) & 1) == 0
        if self.rules == "official":
            if box < UPPER_BOXES:
                # step 1: the own upper box; step 3: any upper box, when no lower is open
                allowed = open_ & ((box == face - 1) | (~own_open & ~lower_open))
            else:
                allowed = open_ & ~own_open  # step 2
            points = self.joker[box, r] if box >= UPPER_BOXES else self.plain[box, r]
            return allowed, np.full(len(mask), points)
        # free choice: full Joker value only when the own upper box is filled
        if box in (FULL_HOUSE, SMALL, LARGE):
            return open_, np.where(own_open, self.plain[box, r], self.joker[box, r])
        return open_, np.full(len(mask), self.plain[box, r])

    def joker_options(self, mask: int, face: int) -> dict[int, int]:
        """The boxes (and points) a Yahtzee of ``face`` may be scored in on a card whose
        filled boxes are ``mask`` and whose Yahtzee box is filled: what the solve uses."""
        m = np.array([mask], dtype=np.intp)
        own_open = ((m >> (face - 1)) & 1) == 0
        lower_open = np.zeros(1, dtype=bool)
        for box in LOWER_BOXES:
            lower_open |= ((m >> box) & 1) == 0
        options = {}
        for box in range(BOXES):
            allowed, points = self._joker_box(box, m, face, own_open, lower_open)
            if allowed[0]:
                options[box] = int(points[0])
        return options

    def reroll(self, after: Array, after_sq: Array | None) -> tuple[Array, Array | None]:
        """From the values of the rolls after a re-roll to the values of rolls before it."""
        space = self.space
        avg = keep_averages(after)
        avg_sq = keep_averages(after_sq) if after_sq is not None else None
        # Best keep among the sub-multisets, one die at a time (in place: sizes only grow).
        best, best_sq = avg, avg_sq
        for size in range(1, 6):
            index = space.children[size][0] if size < 5 else space.roll_keep
            cur = best[index]
            cur_sq = best_sq[index] if best_sq is not None else None
            for rows, parent in space.parents[size]:
                cand = np.take(best, parent, axis=0)
                if cur_sq is None:
                    if len(rows) == len(index):
                        np.maximum(cur, cand, out=cur)
                    else:
                        cur[rows] = np.maximum(cur[rows], cand)
                else:
                    assert best_sq is not None
                    sub = cur[rows]
                    better = cand > sub
                    cur[rows] = np.where(better, cand, sub)
                    cur_sq[rows] = np.where(better, best_sq[parent], cur_sq[rows])
            best[index] = cur
            if best_sq is not None and cur_sq is not None:
                best_sq[index] = cur_sq
        out = best[space.roll_keep]
        out_sq = best_sq[space.roll_keep] if best_sq is not None else None
        return out, out_sq


def keep_averages(after: Array) -> Array:
    """(keeps, S): what keeping each multiset (``dice_space().keeps``) and rolling the other
    dice is worth, from what each of the 252 rolls that may follow is worth (252, S)."""
    space = dice_space()
    avg = np.empty((len(space.keeps), after.shape[1]))
    avg[space.roll_keep] = after
    for size in range(4, -1, -1):
        index, children = space.children[size]
        _average_rows(avg, index, children)
    return avg


def _average_rows(table: Array, index: IntArray, children: IntArray) -> None:
    """table[index] = the mean of table[children[:, j]] over the six faces j."""
    acc = np.take(table, children[:, 0], axis=0)
    tmp = np.empty_like(acc)
    for j in range(1, children.shape[1]):
        np.take(table, children[:, j], axis=0, out=tmp)
        acc += tmp
    acc *= 1.0 / children.shape[1]
    table[index] = acc


def solve(rules: str = "official", variance: bool = False) -> Table:
    """Solve every reachable state under ``rules`` ('official' or 'free')."""
    return Solver(rules, variance).run()
