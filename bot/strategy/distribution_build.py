"""The build of ``Distributions``: worked out backwards a level of states (turns used) at a
time, as the module ``distribution`` describes."""

from __future__ import annotations

import contextlib
import tempfile
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from bot.engine import ROUNDS

from .dice_space import DICE, FACES, dice_space
from .distribution import LENGTH, MAX_GAIN, Distributions, Ints
from .distribution_packing import (
    ONE,
    Ends,
    FileRows,
    Level,
    LevelPacker,
    LevelRows,
    Packer,
    keep_priority,
    release_freed_memory,
)
from .distribution_workers import Chunk, Forked, Threads, may_fork
from .solver import Solver, keep_averages
from .states import (
    BOXES,
    LOWER_BOXES,
    MASKS,
    UPPER_BONUS,
    UPPER_BOXES,
    UPPER_CAP,
    YAHTZEE,
    IntArray,
    Table,
    YahtzeeChoices,
    turns_used,
)

#: The ends of a turn ``Builder.final_choices`` tells apart: six for each upper box, one for
#: each lower box (``_LOWER_END + box``) and one more for 50 in the Yahtzee box.
_LOWER_END = 6 * UPPER_BOXES - UPPER_BOXES
_FIFTY_END = _LOWER_END + BOXES
_ENDS = _FIFTY_END + 1


class Builder:
    """One build: the Optimal bot's turn from a batch of states, as chances of its ends."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.solver = Solver(table.rules, False, table.value)
        # Learnt here while a forked worker solves a level (``_level``): in shared memory.
        self.solver.choices = YahtzeeChoices(table.rules, shared=True)
        self.space = dice_space()
        # Every state's row in its own level (turns used); the game's end is a level of one.
        self.rows = np.zeros(table.value.shape, dtype=np.int32)
        # The levels' states, small (a mask fits 16 bits): read a chunk at a time.
        self.levels = [tuple(a.astype(np.int16) for a in level) for level in self.solver.states()]
        used = turns_used(np.arange(MASKS)[:, None], np.arange(table.flags)[None, :])
        # (a flag above 0 only with the Yahtzee box filled: the states a card can be in)
        real = ((np.arange(MASKS) >> YAHTZEE) & 1 == 1)[:, None] | (np.arange(table.flags) == 0)
        self.over = np.broadcast_to(((used >= ROUNDS) & real)[:, None, :], self.rows.shape)
        self.priority = keep_priority()
        self.by_priority = np.argsort(self.priority).astype(np.int16)
        # The points of each end of a turn (``final_choices``) by roll: a lower box's.
        self.end_points = np.zeros((_ENDS, len(self.space.rolls)), dtype=np.int32)
        for box in LOWER_BOXES:
            self.end_points[_LOWER_END + box] = self.solver.plain[box]
        self.end_points[_FIFTY_END] = self.solver.plain[YAHTZEE]
        #: The last level solved (``run``), for the level above it.
        self.below = Level.over()

    def final_choices(
        self, mask: Ints, up: Ints, flag: Ints
    ) -> tuple[npt.NDArray[np.float64], Ints, Ints]:
        """For each final roll (252, S): its value as the table counts it (points now plus
        the next state's value), the row of the next state, and the points the turn adds.

        This is ``Solver.final_roll`` (points, bonuses, ``yahtzee_options``: the Joker) that
        also remembers which box won (the first of equals). A rule changed there must change
        here too; the test that every distribution's mean is the table's value fails until
        it does. A box's next state is read once per state (six times for an upper box: one
        per count of its face), not once per roll."""
        s = self.solver
        n = len(mask)
        rolls = len(self.space.rolls)
        value, rows = self.table.value, self.rows
        counts = self.space.counts
        # The ends of a state's turn: six for an upper box (by the count of its face), one
        # for a lower box, two for the Yahtzee box (0, or 50 and the flag 1); each with its
        # next state's row and its points (a lower box adds the roll's own points too).
        end_row = np.zeros((_ENDS, n), dtype=np.int32)
        end_gain = np.zeros((_ENDS, n), dtype=np.int32)
        best = np.full((rolls, n), -np.inf)
        end = np.zeros((rolls, n), dtype=np.int8)
        for box in range(BOXES):
            open_ = ((mask >> box) & 1) == 0
            if not open_.any():
                continue
            nxt = mask | (1 << box)
            if box < UPPER_BOXES:
                points = (box + 1) * np.arange(6)[:, None]  # (6, 1): by count of the face
                up2 = np.minimum(UPPER_CAP, up[None, :] + points)
                gains = points + np.where((up < UPPER_CAP)[None, :] & (up2 >= UPPER_CAP),
                                          UPPER_BONUS, 0)  # fmt: skip
                worth = np.where(open_[None, :], gains + value[nxt, up2, flag], -np.inf)
                end_row[6 * box : 6 * box + 6] = rows[nxt, up2, flag]
                end_gain[6 * box : 6 * box + 6] = gains
                total, option = worth[counts[:, box]], 6 * box + counts[:, box]
            else:
                points = s.plain[box].astype(np.intp)[:, None]
                if box == YAHTZEE:  # the flag is 0 with the box open; 50 there makes it 1
                    yahtzee = s.is_yahtzee[:, None]
                    zero, one = np.zeros_like(flag), np.ones_like(flag)
                    later = np.where(yahtzee, value[nxt, up, one], value[nxt, up, zero])
                    end_row[_LOWER_END + box] = rows[nxt, up, zero]
                    end_row[_FIFTY_END] = rows[nxt, up, one]
                    option = np.where(s.is_yahtzee, _FIFTY_END, _LOWER_END + box)
                else:
                    later = value[nxt, up, flag][None, :]
                    end_row[_LOWER_END + box] = rows[nxt, up, flag]
                    option = np.full(rolls, _LOWER_END + box)
                total = np.where(open_[None, :], points + later, -np.inf)
            better = total > best
            np.copyto(best, total, where=better)
            np.copyto(end, option.astype(np.int8)[:, None], where=better)
        columns = np.arange(n)
        nxt_row = end_row[end, columns]
        gain_out = end_gain[end, columns] + self.end_points[end, np.arange(rolls)[:, None]]
        self._jokers(mask, up, flag, best, nxt_row, gain_out)
        return best, nxt_row, gain_out

    def _jokers(
        self, mask: Ints, up: Ints, flag: Ints, best: npt.NDArray[np.float64],
        nxt_row: Ints, gain_out: Ints,
    ) -> None:  # fmt: skip
        """Yahtzees rolled with the Yahtzee box filled: the Joker rules and the +100, as the
        solver counts them."""
        s = self.solver
        sel = np.flatnonzero(((mask >> YAHTZEE) & 1) == 1)
        if not len(sel):
            return
        m, u, fl = mask[sel], up[sel], flag[sel]
        s.choices.ensure(m, fl)
        for face in range(1, FACES + 1):
            r = s.yahtzee_rolls[face - 1]
            value = np.full(len(sel), -np.inf)
            row = np.zeros(len(sel), dtype=np.intp)
            gains = np.zeros(len(sel), dtype=np.intp)
            for _, allowed, gain, nxt, up2, fl2 in s.yahtzee_options(m, u, fl, face):
                total = np.where(allowed, gain + self.table.value[nxt, up2, fl2], -np.inf)
                better = total > value
                value = np.where(better, total, value)
                row = np.where(better, self.rows[nxt, up2, fl2], row)
                gains = np.where(better, gain, gains)
            best[r, sel] = value
            nxt_row[r, sel] = row
            gain_out[r, sel] = gains

    def _keeps(
        self, after: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int16]]:
        """From the values of the rolls after a re-roll: the value of each roll before it
        and the keep the table picks for it: the best of its sub-multisets, the first of
        equals by ``keep_priority`` (scoring now first). Built up one die at a time, as
        ``Solver.reroll`` does, carrying each keep's best sub-multiset's priority."""
        space = self.space
        best = keep_averages(after)
        rank = np.broadcast_to(self.priority[:, None], best.shape).copy()
        for size in range(1, DICE + 1):
            index = space.children[size][0] if size < DICE else space.roll_keep
            cur, cur_rank = best[index], rank[index]
            for rows, parent in space.parents[size]:
                cand, cand_rank = best[parent], rank[parent]
                whole = len(rows) == len(index)
                sub = cur if whole else cur[rows]
                sub_rank = cur_rank if whole else cur_rank[rows]
                better = (cand > sub) | ((cand == sub) & (cand_rank < sub_rank))
                if whole:
                    np.copyto(cur, cand, where=better)
                    np.copyto(cur_rank, cand_rank, where=better)
                else:
                    cur[rows] = np.where(better, cand, sub)
                    cur_rank[rows] = np.where(better, cand_rank, sub_rank)
            best[index], rank[index] = cur, cur_rank
        keep = self.by_priority[rank[space.roll_keep]]
        return best[space.roll_keep], keep

    def _roll_on(self, keep: npt.NDArray[np.int16], chance: npt.NDArray[np.float64]) -> (
        npt.NDArray[np.float64]
    ):  # fmt: skip
        """The chance of each roll after keeping ``keep`` (252, S) from each roll (of chance
        ``chance``) and rolling the other dice: each keep's chance passed on to the keeps one
        die larger, a sixth to each face, until five dice."""
        space = self.space
        n = keep.shape[1]
        cols = np.arange(n)
        code = keep.astype(np.intp) * n + cols
        mass = cast(
            npt.NDArray[np.float64],
            np.bincount(code.ravel(), chance.ravel(), len(space.keeps) * n),
        ).reshape(len(space.keeps), n)
        for size in range(DICE):
            index, children = space.children[size]
            part = mass[index] / FACES
            for face in range(FACES):  # children[:, face]: no keep twice
                mass[children[:, face]] += part
        out: npt.NDArray[np.float64] = mass[space.roll_keep]
        return out

    def final_roll_chances(self, mask: Ints, up: Ints, flag: Ints) -> tuple[
        npt.NDArray[np.float64], Ints, Ints
    ]:  # fmt: skip
        """(252, S) each: the chance of ending the turn on each roll, the next state's row
        and the points scored. States whose final rolls are worth the same, bit for bit,
        keep the same dice: their chances are worked out once (each state's on its own,
        so the same figures as one at a time)."""
        final, nxt_row, gain = self.final_choices(mask, up, flag)
        columns = np.ascontiguousarray(final.T)
        first: dict[bytes, int] = {}
        which = np.array([first.setdefault(row.tobytes(), len(first)) for row in columns])
        if len(first) < len(which):
            final = final[:, np.flatnonzero(np.diff(np.maximum.accumulate(which), prepend=-1))]
        second, keep2 = self._keeps(final)
        _, keep1 = self._keeps(second)
        n = final.shape[1]
        chance = np.broadcast_to(self.space.roll_probability[:, None], (len(final), n))
        for keep in (keep1, keep2):
            chance = self._roll_on(keep, chance)
        if n < len(which):
            chance = chance[:, which]
        return chance, nxt_row, gain

    def run(
        self, open_boxes: int = BOXES, chunk: int = 256, workers: int = 2,
        spill: Path | None = None, processes: bool | None = None,
    ) -> tuple[Packer, Ints]:  # fmt: skip
        """Solve the states with at most ``open_boxes`` turns still to play (all: 13), a
        level (turns used) at a time from the end of the game. Only the level below is
        kept (``Level``, 16-bit, each distinct function once) while a level is solved in
        chunks by ``workers`` (when ``processes``, by default when this process may fork,
        see ``may_fork``: this process and ``workers - 1`` processes forked for the level;
        threads otherwise); each chunk is packed as it is done (to ``spill``'s files when
        given). Returns the packer and every state's function id."""
        packer = Packer(spill)
        ids = np.full(self.rows.shape, -1, dtype=np.int32)
        end = np.zeros((1, LENGTH))
        end[0, 0] = 1.0  # nothing more to come: at least 0 points, surely; 1 never
        ids[self.over] = packer.add(end)[0]
        below = Level.over()
        self.rows[self.over] = 0
        if processes is None:
            processes = may_fork()
        levels = self.levels[:open_boxes]
        for index, (mask, up, flag) in enumerate(levels):
            packer.new_level()
            self.rows[mask, up, flag] = np.arange(len(mask))
            with contextlib.ExitStack() as stack:
                scratch = None
                if spill is not None:  # an unnamed file there, gone when closed
                    scratch = stack.enter_context(tempfile.TemporaryFile(dir=spill))
                current = LevelPacker(len(mask), scratch)
                level = Task(self, mask, up, flag, below)
                upcoming = levels[index + 1] if index + 1 < len(levels) else None
                self._level(level, packer, current, ids, chunk, workers, processes, upcoming)
                del below, level  # before the level is read back: one level in memory at a time
                release_freed_memory()
                below = current.level()
            del current
        self.below = below
        packer.close()
        return packer, ids

    def _level(
        self, level: Task, packer: Packer, current: LevelPacker, ids: Ints, chunk: int,
        workers: int, processes: bool, upcoming: tuple[Ints, ...] | None = None,
    ) -> None:  # fmt: skip
        """One level's functions from the level below's, in chunks by ``workers`` (this
        process and forked ones, or threads: numpy lets go of the GIL in part of the work),
        each packed as it comes, in order: for the file by ``packer`` (its ids into
        ``ids``), for the next level by ``current``.

        Forked workers do not learn what a Yahtzee may do (``YahtzeeChoices``): each would
        write its own copy of the arrays. This process learns it for their states before
        they start, the first level's at once, each next level's (``upcoming``) while it
        waits for this one's chunks."""
        mask, up, flag, below = level.mask, level.up, level.flag, level.below
        learn: deque[tuple[Ints, Ints]] = deque()
        forked = processes and workers > 1
        if forked:
            learn.extend(self._jokers_to_learn(mask, flag))
            while learn:  # learnt already, but for the first level
                self.solver.choices.ensure(*learn.popleft())
            if upcoming is not None:
                learn.extend(self._jokers_to_learn(upcoming[0], upcoming[2]))
            # The heap's free pages given back first: written to after the fork, they
            # would be copied for this process while the workers keep theirs.
            release_freed_memory()

        def solve(lo: int, hi: int) -> Chunk:
            return self.solve_chunk(mask[lo:hi], up[lo:hi], flag[lo:hi], below)

        def learn_some() -> bool:
            if learn:
                self.solver.choices.ensure(*learn.popleft())
            return bool(learn)

        found = np.empty(len(mask), dtype=np.int32)
        starts = range(0, len(mask), chunk)
        pool: Forked | Threads
        try:  # forked: this process is one of the workers (one fewer to copy pages for)
            pool = Forked(workers - 1, solve) if forked else Threads(workers, solve)
        except OSError:  # no process to be had (a limit on them, or on memory): threads
            pool, forked = Threads(workers, solve), False
        # Chunks are handed out in order, to the pool or (forked) solved here while this
        # process would wait; at most two a pool worker on the way: results waiting to be
        # packed are memory.
        ahead = 2 * (workers - 1 if forked else workers)
        handed, pooled = 0, 0
        own: dict[int, Chunk] = {}

        def idle() -> bool:
            nonlocal handed
            if learn:
                return learn_some() or True
            if not forked or handed == len(starts):
                return False
            own[handed] = solve(starts[handed], starts[handed] + chunk)
            handed += 1
            return True

        try:
            for index, lo in enumerate(starts):
                while pooled < ahead and handed < len(starts):
                    pool.submit(handed, starts[handed], starts[handed] + chunk)
                    handed, pooled = handed + 1, pooled + 1
                if index in own:
                    file_rows, level_rows = own.pop(index)
                else:
                    file_rows, level_rows = pool.result(index, idle)
                    pooled -= 1
                found[lo : lo + chunk] = packer.add_rows(file_rows)
                current.add_rows(level_rows)
                del file_rows, level_rows
        finally:
            pool.close()
        # Written once the workers are gone: a page written while they run is copied.
        ids[mask, up, flag] = found
        while learn:
            self.solver.choices.ensure(*learn.popleft())

    @staticmethod
    def _jokers_to_learn(mask: Ints, flag: Ints, batch: int = 256) -> list[tuple[Ints, Ints]]:
        """The states of a level whose Yahtzee box is filled, in batches."""
        filled = np.flatnonzero(((mask >> YAHTZEE) & 1) == 1)
        return [
            (mask[filled[lo : lo + batch]], flag[filled[lo : lo + batch]])
            for lo in range(0, len(filled), batch)
        ]

    def solve_chunk(
        self, mask: Ints, up: Ints, flag: Ints, below: Level
    ) -> tuple[FileRows, LevelRows]:
        """A chunk of a level's states: their functions quantized for the file and for the
        next level, each distinct one once. States whose turns end alike (the same next
        functions, points and chances, in the same order: an upper total that can no longer
        make the bonus is as good as another) are mixed once: the same sums, so the same
        functions."""
        ends = self._ends(mask, up, flag, below)
        keys = ends.digests()
        first: dict[bytes, int] = {}
        which = [first.setdefault(key, len(first)) for key in keys]
        once = np.flatnonzero(np.diff(np.maximum.accumulate(which), prepend=-1))
        survival = self._spread(ends, once, below)
        file_rows, level_rows = FileRows.of(survival), LevelRows.of(survival)
        file_rows.keys = [file_rows.keys[i] for i in which]
        level_rows.keys = [level_rows.keys[i] for i in which]
        return file_rows, level_rows

    def _ends(self, mask: Ints, up: Ints, flag: Ints, below: Level) -> Ends:
        """The ends of each state's turn, as the mixing reads them (``Ends``)."""
        chance, nxt_row, gain = self.final_roll_chances(mask, up, flag)
        n = chance.shape[1]
        state = np.broadcast_to(np.arange(n), chance.shape)
        code = (state * len(below.function) + nxt_row) * MAX_GAIN + gain
        keys, inverse = np.unique(code.ravel(), return_inverse=True)
        weight = cast(
            npt.NDArray[np.float64], np.bincount(inverse.ravel(), chance.ravel(), len(keys))
        )
        keep = weight > 0
        keys, weight = keys[keep], weight[keep]
        owner = keys // (len(below.function) * MAX_GAIN)
        j = below.function[(keys // MAX_GAIN) % len(below.function)]
        at = np.minimum(keys % MAX_GAIN + below.start[j], LENGTH)  # where its values begin
        bounds = np.searchsorted(owner, np.arange(n + 1))
        return Ends(j.astype(np.int32), at.astype(np.int32), weight, bounds)

    def _mix(
        self, mask: Ints, up: Ints, flag: Ints, below: Level, group: int = 8
    ) -> npt.NDArray[np.float64]:
        """The survival functions of a batch of states: the mixture, over the ends of the
        turn, of the next states' functions shifted by the points scored."""
        ends = self._ends(mask, up, flag, below)
        return self._spread(ends, np.arange(len(mask)), below, group)

    def _spread(
        self, ends: Ends, states: IntArray, below: Level, group: int = 8
    ) -> npt.NDArray[np.float64]:
        """The mixtures of these states (``_mix``), ``group`` at a time: small enough for
        the CPU's cache, which makes it twice as fast as 24 at a time, and small in
        memory."""
        out = np.empty((len(states), LENGTH))
        for lo in range(0, len(states), group):
            part = states[lo : lo + group]
            start, stop = ends.bounds[part], ends.bounds[part + 1]
            count = stop - start
            keys = np.repeat(start - np.cumsum(count) + count, count) + np.arange(count.sum())
            owner = np.repeat(np.arange(len(part)), count)
            out[lo : lo + group] = self._shifted_sum(
                len(part), owner, ends.function[keys], ends.at[keys], ends.weight[keys], below
            )
        return out

    @staticmethod
    def _shifted_sum(
        n: int, owner: Ints, j: Ints, at: Ints, weight: npt.NDArray[np.float64], below: Level
    ) -> npt.NDArray[np.float64]:
        """The mixture of ``n`` states' ends (their ``owner``, in order): a function is 1 up
        to its ``start``, its stored values, then 0: the 1s are summed as steps, the values
        added where they land, each cell's in the order of the ends."""
        # The 1s: each end adds its weight at every x below ``at``.
        steps = cast(
            npt.NDArray[np.float64],
            np.bincount(owner * (LENGTH + 1) + at, weight, n * (LENGTH + 1)),
        )
        ones = np.cumsum(steps.reshape(n, LENGTH + 1)[:, ::-1], axis=1)[:, ::-1][:, 1:]
        # The values: each end's run of them, cut at LENGTH, added where it lands: the
        # i-th value of all the runs laid end to end comes from ``i + source`` and goes to
        # ``i + target``, both repeated over each end's run.
        run = np.maximum(0, np.minimum(below.width[j], LENGTH - at)).astype(np.int32)
        first = (np.cumsum(run) - run).astype(np.int32)
        place = np.arange(int(run.sum()), dtype=np.int32)
        index = np.repeat((below.offset[j] - first).astype(np.int32), run)
        index += place
        values = below.values[index] * np.repeat(weight / ONE, run)
        index = np.repeat((owner * LENGTH + at - first).astype(np.int32), run)
        index += place
        spread = cast(npt.NDArray[np.float64], np.bincount(index, values, n * LENGTH))
        result: npt.NDArray[np.float64] = ones + spread.reshape(n, LENGTH)
        return result


@dataclass
class Task:
    """A level to solve: its states and the level below's functions."""

    builder: Builder
    mask: Ints
    up: Ints
    flag: Ints
    below: Level


def solve_distributions(table: Table, open_boxes: int = BOXES) -> Distributions:
    """The distribution of the score still to come from every state with at most
    ``open_boxes`` turns to play, under the table's own choices (see the module
    docstring), in memory."""
    packer, ids = Builder(table).run(open_boxes)
    return packer.result(table.rules, open_boxes, ids)
