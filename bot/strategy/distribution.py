"""The whole distribution of the score still to come from every state, under the Optimal
bot's play: not only its mean (the solved table) but the chance of every total.

For each reachable state (mask, capped upper total, 50 in Yahtzee) it keeps the survival
function: the chance that the rest of the game, played by the solved table's choices, adds
at least ``x`` points, for ``x`` below ``LENGTH``. It is worked out backwards like the table,
a level of states at a time: for each state the Optimal bot's keeps at every roll (the best
of each roll's sub-multisets, as the table values them) give the chance of every final roll,
the box it scores gives the points and the next state, and the state's function is the
mixture of the next states' functions shifted by those points.

With both seats' distributions known, the chance that one card finishes ahead of another
is exact (``Rival``, ``win_chance``), which is what the To-win bot (``winning``) decides by.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from .dice_space import DICE, FACES, dice_space
from .solver import (
    BOXES,
    MASKS,
    UPPER_BONUS,
    UPPER_BOXES,
    UPPER_CAP,
    YAHTZEE,
    IntArray,
    Solver,
    Table,
    keep_averages,
    reachable_uppers,
)

#: Totals stored per state: the chance of adding at least 0..LENGTH-1 points. From the
#: empty card the chance of adding 639 or more is about 1 in 10,000; all of it counts as
#: 639 (two such games in one race: about one in a hundred million).
LENGTH = 640
#: More than any one turn can score (a Joker in Sixes with the bonus and the upper bonus).
MAX_GAIN = 256

Float32 = npt.NDArray[np.float32]


#: Chances are stored in steps of 1/QUANTUM: a chance of winning read from them is within
#: about 1e-4 of the unrounded one (1.3e-5 on average over random states and leads).
QUANTUM = 4096


@dataclass
class Distributions:
    """The survival functions of every reachable state, packed (``_Packer``): a state's
    function is 1 up to ``lo``, then falls by the stored steps (in 1/QUANTUM), then is 0.

    ``open_boxes``: the most open boxes a covered state has (13: every state; fewer for a
    partial build, whose earlier states the To-win bot plays as the Optimal bot does).
    """

    rules: str
    open_boxes: int
    ids: npt.NDArray[np.int32]  # (MASKS, UPPER_CAP + 1, 2): a state's function, -1 if none
    offset: npt.NDArray[np.int64]  # where each function's steps start in its payload
    lo: npt.NDArray[np.int16]
    width: npt.NDArray[np.int16]
    wide: npt.NDArray[np.bool_]  # steps in ``steps16`` (a step above 255) or ``steps8``
    steps8: npt.NDArray[np.uint8]
    steps16: npt.NDArray[np.uint16]
    length: int = LENGTH

    def __post_init__(self) -> None:
        self._decoded: dict[int, Float32] = {}

    def covers(self, mask: int) -> bool:
        """Whether states with these filled boxes are covered."""
        return BOXES - bin(mask).count("1") <= self.open_boxes

    def id_of(self, mask: int, up: int, flag: int) -> int:
        ident = int(self.ids[mask, up, flag if mask >> YAHTZEE & 1 else 0])
        if ident < 0:
            raise KeyError(f"state {(mask, up, flag)} is not covered")
        return ident

    def of(self, mask: int, up: int, flag: int) -> Float32:
        """The survival function of one state (a full card adds exactly nothing)."""
        return self.decode(self.id_of(mask, up, flag))

    def decode(self, ident: int) -> Float32:
        """One function, unpacked (kept: a game asks for the same few again and again)."""
        found = self._decoded.get(ident)
        if found is not None:
            return found
        lo, width, start = int(self.lo[ident]), int(self.width[ident]), int(self.offset[ident])
        steps = (self.steps16 if self.wide[ident] else self.steps8)[start : start + width]
        q = np.zeros(self.length, dtype=np.int64)
        q[: lo + 1] = QUANTUM
        end = min(self.length, lo + 1 + width)
        q[lo + 1 : end] = QUANTUM - np.cumsum(steps, dtype=np.int64)[: end - lo - 1]
        out = (q / QUANTUM).astype(np.float32)
        if len(self._decoded) > 20_000:  # about 50 MB: start again rather than grow
            self._decoded.clear()
        self._decoded[ident] = out
        return out

    def rows(self, idents: IntArray) -> Float32:
        """(N, length): the functions of these ids."""
        return np.stack([self.decode(int(i)) for i in idents])


class _Packer:
    """Quantizes survival functions into ``Distributions``' packed form, storing each
    distinct function once (many states share one: an upper total that can no longer reach
    the bonus is as good as any other)."""

    def __init__(self) -> None:
        self.known: dict[tuple[int, bool, bytes], int] = {}
        self.lo: list[int] = []
        self.width: list[int] = []
        self.wide: list[bool] = []
        self.offset: list[int] = []
        self.used = {False: 0, True: 0}
        self.chunks: dict[bool, list[bytes]] = {False: [], True: []}

    def add(self, survival: Float32, rows: int = 4096) -> list[int]:
        """Pack a block of functions (``rows`` at a time, to keep the memory small); their
        ids."""
        parts = (survival[lo : lo + rows] for lo in range(0, len(survival), rows))
        return [ident for part in parts for ident in self._add(part)]

    def _add(self, survival: Float32) -> list[int]:
        q = np.rint(survival.astype(np.float64) * QUANTUM).astype(np.int64)
        q = np.minimum.accumulate(q, axis=1)  # rounding never makes a function rise
        los = ((q >= QUANTUM).sum(axis=1) - 1).tolist()
        his = (q > 0).sum(axis=1).tolist()
        padded = np.concatenate([q, np.zeros((len(q), 1), dtype=np.int64)], axis=1)
        steps = padded[:, :-1] - padded[:, 1:]
        ids = []
        for row, (lo, hi) in enumerate(zip(los, his, strict=True)):
            part = steps[row, lo:hi]
            big = bool(len(part)) and int(part.max()) > 255
            data = part.astype(np.uint16 if big else np.uint8).tobytes()
            key = (lo, big, data)
            ident = self.known.get(key)
            if ident is None:
                ident = self.known[key] = len(self.lo)
                self.lo.append(lo)
                self.width.append(hi - lo)
                self.wide.append(big)
                self.offset.append(self.used[big])
                self.used[big] += hi - lo
                self.chunks[big].append(data)
            ids.append(ident)
        return ids

    def result(self, rules: str, open_boxes: int, ids: npt.NDArray[np.int32]) -> Distributions:
        return Distributions(
            rules,
            open_boxes,
            ids,
            np.array(self.offset, dtype=np.int64),
            np.array(self.lo, dtype=np.int16),
            np.array(self.width, dtype=np.int16),
            np.array(self.wide, dtype=np.bool_),
            np.frombuffer(b"".join(self.chunks[False]), dtype=np.uint8).copy(),
            np.frombuffer(b"".join(self.chunks[True]), dtype=np.uint16).copy(),
        )


def state_rows() -> tuple[IntArray, list[tuple[IntArray, IntArray, IntArray]]]:
    """A row for every reachable state, a level (number of filled boxes) at a time from the
    full card down, and each level's states as (masks, uppers, flags)."""
    uppers = reachable_uppers()
    rows = np.full((MASKS, UPPER_CAP + 1, 2), -1, dtype=np.intp)
    levels: list[tuple[IntArray, IntArray, IntArray]] = []
    by_level: dict[int, list[int]] = {}
    for mask in range(MASKS):
        by_level.setdefault(bin(mask).count("1"), []).append(mask)
    count = 0
    for level in range(BOXES, -1, -1):
        ms, us, fs = [], [], []
        for mask in by_level[level]:
            for flag in (0, 1) if mask >> YAHTZEE & 1 else (0,):
                for up in uppers[mask & 63]:
                    ms.append(mask)
                    us.append(int(up))
                    fs.append(flag)
        m, u, f = (np.array(x, dtype=np.intp) for x in (ms, us, fs))
        rows[m, u, f] = np.arange(count, count + len(m))
        count += len(m)
        levels.append((m, u, f))
    return rows, levels


@cache
def keep_transitions() -> npt.NDArray[np.float64]:
    """(keeps, rolls): the chance that keeping a multiset and rolling the other dice gives
    each roll."""
    space = dice_space()
    out = np.zeros((len(space.keeps), len(space.rolls)))
    roll_index = {r: i for i, r in enumerate(space.rolls)}
    for k, keep in enumerate(space.keeps):
        free = DICE - len(keep)
        for faces in itertools.product(range(1, FACES + 1), repeat=free):
            out[k, roll_index[tuple(sorted(keep + faces))]] += 1.0
        out[k] /= FACES**free
    return out


@cache
def roll_subkeeps() -> IntArray:
    """(rolls, 32): every distinct sub-multiset of each roll as a keep index, the whole roll
    (scoring now) first, padded by repeating it."""
    space = dice_space()
    out = np.empty((len(space.rolls), 32), dtype=np.intp)
    for r, roll in enumerate(space.rolls):
        subs = [space.keep_index[roll]]
        for size in range(DICE - 1, -1, -1):
            for sub in sorted(set(itertools.combinations(roll, size))):
                subs.append(space.keep_index[sub])
        out[r] = subs + [subs[0]] * (32 - len(subs))
    return out


class _Builder:
    """One build: the Optimal bot's turn from a batch of states, as chances of its ends."""

    def __init__(self, table: Table) -> None:
        if table.flags != 2:
            raise ValueError(f"no distributions for {table.rules} tables (bonus turns) yet")
        self.table = table
        self.solver = Solver(table.rules, False, table.value)
        self.space = dice_space()
        self.rows, self.levels = state_rows()
        self.transitions = keep_transitions()
        self.subkeeps = roll_subkeeps()

    def final_choices(
        self, mask: IntArray, up: IntArray, flag: IntArray
    ) -> tuple[npt.NDArray[np.float64], IntArray, IntArray]:
        """For each final roll (252, S): its value as the table counts it (points now plus
        the next state's value), the row of the next state, and the points the turn adds.

        This is ``Solver.final_roll`` (points, bonuses, ``yahtzee_options``: the Joker) that
        also remembers which box won. A rule changed there must change here too; the test
        that every distribution's mean is the table's value fails until it does."""
        s = self.solver
        n = len(mask)
        rolls = len(self.space.rolls)
        best = np.full((rolls, n), -np.inf)
        nxt_row = np.zeros((rolls, n), dtype=np.intp)
        gain_out = np.zeros((rolls, n), dtype=np.intp)
        value = self.table.value
        for box in range(BOXES):
            open_ = ((mask >> box) & 1) == 0
            if not open_.any():
                continue
            nxt = np.broadcast_to(mask | (1 << box), (rolls, n))
            points = s.plain[box].astype(np.intp)[:, None]
            if box < UPPER_BOXES:
                up2 = np.minimum(UPPER_CAP, up[None, :] + points)
                gain = points + np.where((up < UPPER_CAP)[None, :] & (up2 >= UPPER_CAP),
                                         UPPER_BONUS, 0)  # fmt: skip
                flag2 = np.broadcast_to(flag, (rolls, n))
            else:
                up2 = np.broadcast_to(up, (rolls, n))
                gain = np.broadcast_to(points, (rolls, n))
                flag2 = np.broadcast_to(flag, (rolls, n))
                if box == YAHTZEE:
                    flag2 = np.broadcast_to(s.is_yahtzee[:, None].astype(np.intp), (rolls, n))
            flag2 = np.where(((nxt >> YAHTZEE) & 1) == 1, flag2, 0)
            total = np.where(open_[None, :], gain + value[nxt, up2, flag2], -np.inf)
            better = total > best
            np.copyto(best, total, where=better)
            np.copyto(nxt_row, self.rows[nxt, up2, flag2], where=better)
            np.copyto(gain_out, gain, where=better)
        self._jokers(mask, up, flag, best, nxt_row, gain_out)
        return best, nxt_row, gain_out

    def _jokers(
        self, mask: IntArray, up: IntArray, flag: IntArray, best: npt.NDArray[np.float64],
        nxt_row: IntArray, gain_out: IntArray,
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

    def _keeps(self, after: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], IntArray]:
        """From the values of the rolls after a re-roll: the value of each roll before it
        and the keep the table picks for it (the first of equals: scoring now first)."""
        options = keep_averages(after)[self.subkeeps]  # (252, 32, S)
        choice = options.argmax(axis=1)
        keep = self.subkeeps[np.arange(len(self.subkeeps))[:, None], choice]
        return options.max(axis=1), keep

    def final_roll_chances(self, mask: IntArray, up: IntArray, flag: IntArray) -> tuple[
        npt.NDArray[np.float64], IntArray, IntArray
    ]:  # fmt: skip
        """(252, S) each: the chance of ending the turn on each roll, the next state's row
        and the points scored."""
        final, nxt_row, gain = self.final_choices(mask, up, flag)
        second, keep2 = self._keeps(final)
        _, keep1 = self._keeps(second)
        n = len(mask)
        cols = np.arange(n)
        keeps = len(self.space.keeps)
        chance = np.broadcast_to(self.space.roll_probability[:, None], (len(final), n))
        for keep in (keep1, keep2):
            weights = np.bincount((keep * n + cols).ravel(), chance.ravel(), keeps * n)
            chance = self.transitions.T @ weights.reshape(keeps, n)
        return chance, nxt_row, gain

    def run(self, open_boxes: int = BOXES, chunk: int = 384, workers: int = 2) -> Distributions:
        """Solve the states with at most ``open_boxes`` open boxes (all: 13), a level at a
        time from the full card; only two levels are unpacked at once."""
        packer = _Packer()
        ids = np.full(self.rows.shape, -1, dtype=np.int32)
        # Each level's functions are kept with MAX_GAIN columns of 1 in front (a function
        # shifted by the points scored is read straight from them, without copies).
        below = np.zeros((len(self.levels[0][0]), MAX_GAIN + LENGTH), dtype=np.float32)
        below[:, : MAX_GAIN + 1] = 1.0  # the full card: nothing more to come
        base = 0  # the first row of the level below
        for level, (mask, up, flag) in enumerate(self.levels[: open_boxes + 1]):
            if level > 0:
                current = self._level(mask, up, flag, below, base, chunk, workers)
                base += len(below)
                below = current
            ids[mask, up, flag] = packer.add(below[:, MAX_GAIN:])
        return packer.result(self.table.rules, open_boxes, ids)

    def _level(
        self, mask: IntArray, up: IntArray, flag: IntArray, below: Float32, base: int,
        chunk: int, workers: int,
    ) -> Float32:  # fmt: skip
        """One level's functions (padded, as ``run`` keeps them) from the level below's
        (whose first row is ``base``), in chunks on ``workers`` threads (numpy lets go of
        the GIL in the heavy parts)."""
        current = np.empty((len(mask), MAX_GAIN + LENGTH), dtype=np.float32)
        current[:, :MAX_GAIN] = 1.0
        windows = sliding_window_view(below, LENGTH, axis=1)

        def solve(part: slice) -> None:
            current[part, MAX_GAIN:] = self._mix(mask[part], up[part], flag[part], windows, base)

        parts = [slice(lo, lo + chunk) for lo in range(0, len(mask), chunk)]
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(solve, parts))
        return current

    def _mix(
        self, mask: IntArray, up: IntArray, flag: IntArray,
        windows: npt.NDArray[np.float32], base: int,
    ) -> Float32:  # fmt: skip
        """The survival functions of a batch of states: the mixture, over the ends of the
        turn, of the next states' functions shifted by the points scored."""
        chance, nxt_row, gain = self.final_roll_chances(mask, up, flag)
        n = chance.shape[1]
        below = len(windows)
        state = np.broadcast_to(np.arange(n), chance.shape)
        code = (state * below + (nxt_row - base)) * MAX_GAIN + gain
        keys, inverse = np.unique(code.ravel(), return_inverse=True)
        weight = np.bincount(inverse.ravel(), chance.ravel(), len(keys))
        keep = weight > 0
        keys, weight = keys[keep], weight[keep]
        owner = keys // (below * MAX_GAIN)
        nrow = (keys // MAX_GAIN) % below
        shift = keys % MAX_GAIN
        mixed = windows[nrow, MAX_GAIN - shift] * weight[:, None].astype(np.float32)
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        result: Float32 = np.add.reduceat(mixed, starts, axis=0)
        return result


def solve_distributions(table: Table, open_boxes: int = BOXES) -> Distributions:
    """The distribution of the score still to come from every state with at most
    ``open_boxes`` open boxes, under the table's own choices (see the module docstring)."""
    return _Builder(table).run(open_boxes)


class Rival:
    """The other seats of a race: each one's points and the distribution of what is still to
    come to them, ready to tell any card's chance of finishing ahead of them all."""

    #: Final totals up to this are told apart (a card holds at most 1,575 points).
    TOP = 4096

    def __init__(self, rivals: Sequence[tuple[int, Float32]]) -> None:
        self.offset = LENGTH + 1  # leads from -offset: as good as lost
        final = np.arange(-self.offset, self.TOP)
        # beats[t + offset]: the chance that a final total of t beats every other seat, a
        # tie counting half: the product, over seats (their futures are independent), of
        # P(their final < t) + P(their final == t) / 2 = 1 - (S(z) + S(z + 1)) / 2, with S
        # their survival function at the z points they must add to tie (1 below 0, 0 from
        # LENGTH on). Three or more tied at the top count as half each too.
        self.beats = np.ones(len(final))
        for total, survival in rivals:
            wide = np.concatenate([np.ones(1), survival.astype(np.float64), np.zeros(1)])
            z = np.clip(final - total, -1, LENGTH) + 1  # index into ``wide``
            self.beats *= 1.0 - 0.5 * (wide[z] + wide[np.minimum(z + 1, LENGTH + 1)])

    def chances(self, mine: Float32, total: IntArray) -> npt.NDArray[np.float64]:
        """The chance of finishing ahead for cards with ``total`` points and the survival
        functions ``mine`` (N, LENGTH) of their rest."""
        pmf = (mine - np.concatenate([mine[:, 1:], np.zeros((len(mine), 1), np.float32)],
                                     axis=1)).astype(np.float64)  # fmt: skip
        # Far behind is as good as lost: clip so the index stays in range.
        start = np.clip(np.asarray(total), -self.offset, self.TOP - LENGTH) + self.offset
        index = start[:, None] + np.arange(LENGTH)[None, :]
        chances: npt.NDArray[np.float64] = np.einsum("ij,ij->i", pmf, self.beats[index])
        return chances


def win_chance(mine: Float32, theirs: Float32, lead: int) -> float:
    """The chance that a card ``lead`` points ahead (behind when negative) finishes ahead,
    a tie counting half, when the points still to come have these survival functions."""
    return float(Rival([(0, theirs)]).chances(mine[None, :], np.array([lead]))[0])
