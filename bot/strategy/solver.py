"""The exact solitaire Yahtzee solver: expected final score under optimal play for every
between-turn state, by backward induction over each turn's roll-keep-roll-keep-roll-score.

A between-turn state is (filled boxes, upper total capped at 63, a Yahtzee flag). The flag
is 0 while the Yahtzee box does not hold 50, else 1; under ``bonus-turn`` it is 1 plus the
bonus turns taken (0 to 3), since the turns used are the boxes filled plus the bonuses
taken and the game ends after 13 turns. States are solved a whole level at a time (all
states with the same number of turns used), as numpy arrays shaped (dice outcome, state).
Within a turn:

- the final roll's value is the best box for it: points + bonuses + the next state's value;
- the value of keeping some dice is the average over one more die, built up from the full
  rolls one die at a time (6 gathers per keep instead of a 252-term sum);
- the best keep of a roll is the best of its sub-multisets, built up one die at a time.

Only states that can be reached are solved: the upper total must be a sum the filled upper
boxes can make. The rule sets are the engine's presets (``official``, ``relaxed-joker``,
``bonus-turn``): every roll scores by the engine's ``score``, and what a Yahtzee rolled
with the Yahtzee box filled may do (the Joker, its bonus, a bonus turn) is asked of the
engine's ``Scorecard.choices``, state by state. ``free`` (not a preset; a check against a
published figure) lets a later Yahtzee go in any open box, Full House and the straights
in full only when the matching upper box is filled too.
"""

from __future__ import annotations

import ctypes
from concurrent.futures import ThreadPoolExecutor
from functools import cache, partial

import numpy as np

from bot.engine import (
    ROUNDS,
)

from .dice_space import dice_space
from .states import (
    BOXES,
    MASKS,
    RULES,
    UPPER_BONUS,
    UPPER_BOXES,
    UPPER_CAP,
    YAHTZEE,
    Array,
    IntArray,
    Table,
    YahtzeeOption,
    flag_count,
    reachable_uppers,
    score_tables,
    turns_used,
    yahtzee_choices,
)


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
        self.flags = flag_count(rules)
        shape = (MASKS, UPPER_CAP + 1, self.flags)
        self.value = np.full(shape, np.nan) if value is None else value
        if self.value.shape != shape:
            raise ValueError(f"a {rules} table is shaped {shape}, not {self.value.shape}")
        self.square = np.full(shape, np.nan) if variance else None
        self.choices = yahtzee_choices(rules)
        for flag in range(self.flags):  # the game is over: nothing more to come
            over = np.flatnonzero(turns_used(np.arange(MASKS), flag) >= ROUNDS)
            self.value[over, :, flag] = 0.0
            if self.square is not None:
                self.square[over, :, flag] = 0.0
        self.yahtzee_rolls = [
            int(np.flatnonzero(self.space.counts[:, f] == 5)[0]) for f in range(6)
        ]
        self.is_yahtzee = self.plain[YAHTZEE] > 0  # the Yahtzee box scores only five alike

    def states(self) -> list[tuple[IntArray, IntArray, IntArray]]:
        """Every reachable state still to play, a level (turns used) at a time from the last
        turn back to the first, as (masks, uppers, flags)."""
        uppers = reachable_uppers()
        by_turns: dict[int, tuple[list[IntArray], list[IntArray], list[IntArray]]] = {}
        for mask in range(MASKS):
            reach = uppers[mask & 63]
            for flag in range(self.flags) if mask >> YAHTZEE & 1 else (0,):
                turns = int(turns_used(mask, flag))
                if turns >= ROUNDS:
                    continue
                masks, ups, flags = by_turns.setdefault(turns, ([], [], []))
                masks.append(np.full(len(reach), mask, dtype=np.intp))
                ups.append(reach)
                flags.append(np.full(len(reach), flag, dtype=np.intp))
        return [
            (np.concatenate(m), np.concatenate(u), np.concatenate(f))
            for _, (m, u, f) in sorted(by_turns.items(), reverse=True)
        ]

    def run(self, chunk: int = 1024, workers: int = 2) -> Table:
        keep_freed_memory()
        for m, u, y in self.states():
            # Chunks small enough for the CPU cache; numpy releases the GIL in the heavy
            # operations, so two threads keep both cores busy. A level only reads the
            # levels after it and each chunk writes its own states.
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
                    # An open Yahtzee box: the flag is 0, and 50 there makes it 1.
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
        self._yahtzees(mask, up, flag, best, best_sq)
        return best, best_sq

    def _yahtzees(
        self, mask: IntArray, up: IntArray, flag: IntArray, best: Array, best_sq: Array | None
    ) -> None:
        """Yahtzees rolled with the Yahtzee box filled: what the engine lets them do (the
        Joker and its +100, or a bonus turn) instead of the plain scores."""
        filled_y = ((mask >> YAHTZEE) & 1) == 1
        if not filled_y.any():
            return
        sel = np.flatnonzero(filled_y)
        m, u, fl = mask[sel], up[sel], flag[sel]
        self.choices.ensure(m, fl)
        for face in range(1, 7):
            value = np.full(len(sel), -np.inf)
            square = np.zeros(len(sel))
            for box, allowed, gain, nxt, up2, fl2 in self.yahtzee_options(m, u, fl, face):
                del box
                v, w = self._future(nxt, up2, fl2)
                total = np.where(allowed, gain + v, -np.inf)
                better = total > value
                value = np.where(better, total, value)
                if w is not None:
                    square = np.where(better, gain * gain + 2 * gain * v + w, square)
            r = self.yahtzee_rolls[face - 1]
            best[r, sel] = value
            if best_sq is not None:
                best_sq[r, sel] = square

    def yahtzee_options(
        self, mask: IntArray, up: IntArray, flag: IntArray, face: int
    ) -> list[YahtzeeOption]:
        """For a Yahtzee of ``face`` on states whose Yahtzee box is filled (``ensure``d):
        each box it may go in (None: a bonus turn) as (box, allowed, points with every bonus,
        next mask, next upper total, next flag); where not allowed, the next state is a
        harmless one to read."""
        c = self.choices
        out: list[YahtzeeOption] = []
        for box in range(BOXES):
            points = c.points[flag, face - 1, box, mask].astype(np.intp)
            allowed = points >= 0
            if not allowed.any():
                continue
            points = np.where(allowed, points, 0)
            nxt = np.where(allowed, mask | (1 << box), MASKS - 1)
            if box < UPPER_BOXES:
                up2 = np.minimum(UPPER_CAP, up + points)
                bonus = np.where((up < UPPER_CAP) & (up2 >= UPPER_CAP), UPPER_BONUS, 0)
                up2 = np.where(allowed, up2, 0)
            else:
                up2, bonus = up, np.zeros(len(mask), dtype=np.intp)
            gain = points + bonus + c.bonus[flag, face - 1, box, mask]
            out.append((box, allowed, gain, nxt, up2, flag))
        turn = c.turn[flag, face - 1, mask].astype(np.intp)
        allowed = turn >= 0
        if allowed.any():
            out.append((None, allowed, np.where(allowed, turn, 0), mask, up,
                        np.where(allowed, flag + 1, flag)))  # fmt: skip
        return out

    def joker_options(self, mask: int, face: int, flag: int = 1) -> dict[int | None, int]:
        """The boxes (and points, without the bonus) a Yahtzee of ``face`` may be scored in
        on a card whose filled boxes are ``mask`` (the Yahtzee box among them), with Yahtzee
        flag ``flag``: what the solve uses. None is a bonus turn."""
        m, f = np.array([mask], dtype=np.intp), np.array([flag], dtype=np.intp)
        self.choices.ensure(m, f)
        options: dict[int | None, int] = {
            box: int(self.choices.points[flag, face - 1, box, mask])
            for box in range(BOXES)
            if self.choices.points[flag, face - 1, box, mask] >= 0
        }
        if self.choices.turn[flag, face - 1, mask] >= 0:
            options[None] = int(self.choices.turn[flag, face - 1, mask])
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


#: What glibc's malloc keeps for reuse instead of handing back to the kernel (bytes). Every
#: chunk of states allocates and frees arrays of 2 to 4 MB (252 or 462 rows of 1,024 states):
#: above malloc's threshold for mmap, each went back to the kernel and came again, page by
#: page. Kept, the official table solves in 6.8 s instead of 9.3 s wall, 10.6 s of CPU instead
#: of 15.6 s (system time 0.7 s instead of 5.3 s; 23 thousand minor page faults instead of
#: 2.2 million; 8 MiB more at the peak), the same values (benchmarks/solver.py).
KEPT_HEAP = 256 * 2**20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


@cache
def keep_freed_memory() -> bool:
    """Have glibc's malloc keep freed blocks up to ``KEPT_HEAP`` for reuse, in this process
    (one that solves: the building process, a test worker, a benchmark). Whether it could
    (not on another C library)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(
            libc.mallopt(_M_MMAP_THRESHOLD, KEPT_HEAP)
            and libc.mallopt(_M_TRIM_THRESHOLD, 2 * KEPT_HEAP)
        )
    except (OSError, AttributeError):
        return False


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
    """Solve every reachable state under ``rules`` (a preset's name, or 'free')."""
    return Solver(rules, variance).run()
